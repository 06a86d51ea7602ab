/// The state values of one gathered machine level, by ordinal, and their ordinals by value: what
/// ``TypedChart`` maps a chart index to, and a value back to its states with.
///
/// One table per gathered level, not one `AnyHashable` per state for the whole chart: boxing each
/// value (about 770 instructions for an `Int`) and hashing each box into two dictionaries cost a
/// 1,000,000-state typed chart about a tenth of its build (issue 16, "Values by level"). The
/// level's own dictionary, made when it was gathered, answers a lookup by a value of its own type;
/// a value of another type is compared through `AnyHashable` only when the two types can be equal
/// that way (``comparesAcrossTypes``), so every lookup keeps `AnyHashable`'s equality.
@usableFromInline
protocol StateValueTable: AnyObject, Sendable {
    /// Where this level's values start among the chart's value slots.
    var slotBase: Int32 { get }
    /// The number of values (and slots).
    var count: Int { get }
    /// The value at `ordinal`, boxed.
    func boxedValue(at ordinal: Int) -> AnyHashable
    /// The value at `ordinal` when the level's values are of type `T`.
    func value<T>(at ordinal: Int, as type: T.Type) -> T?
    /// The ordinal of the value equal to `value` as `AnyHashable` compares them, if any.
    func ordinal<T: Hashable & Sendable>(of value: T) -> Int?
}

/// ``StateValueTable`` for a level whose values are of type `S`.
@usableFromInline
final class StateValues<S: Hashable & Sendable>: StateValueTable, @unchecked Sendable {
    // @unchecked: `S` is `Sendable` and nothing here changes after init.
    @usableFromInline let slotBase: Int32
    let values: [S]
    let ordinalOf: [S: Int]
    /// Whether a value of another type can equal one of these as `AnyHashable` (integers of
    /// different widths, floating-point values, class instances of a hierarchy, values whose
    /// `AnyHashable` form is another type's): then lookups by such values compare one by one.
    let comparesAcrossTypes: Bool

    /// Shares the gathered level's arrays (no copy).
    @usableFromInline
    init(values: [S], ordinalOf: [S: Int], slotBase: Int32) {
        self.slotBase = slotBase
        self.values = values
        self.ordinalOf = ordinalOf
        comparesAcrossTypes = values.first.map { mayEqualOtherTypes($0) } ?? false
    }

    @usableFromInline var count: Int { values.count }

    @usableFromInline func boxedValue(at ordinal: Int) -> AnyHashable { AnyHashable(values[ordinal]) }

    @usableFromInline func value<T>(at ordinal: Int, as type: T.Type) -> T? {
        T.self == S.self ? values[ordinal] as? T : nil
    }

    @usableFromInline func ordinal<T: Hashable & Sendable>(of value: T) -> Int? {
        if T.self == S.self, let s = value as? S { return ordinalOf[s] }
        let boxed = AnyHashable(value)
        // A value of this type passed in a box (as `AnyHashable`): hashed as itself.
        if !comparesAcrossTypes, let s = boxed.base as? S { return ordinalOf[s] }
        guard comparesAcrossTypes || mayEqualOtherTypes(value) else { return nil }
        for o in 0..<values.count where AnyHashable(values[o]) == boxed { return o }
        return nil
    }
}

/// Whether `AnyHashable` can find `value` equal to a value of another type: numbers compare across
/// their types, a class instance may equal one of its superclass, and a value whose `AnyHashable`
/// form is another type's (an optional, a box) compares as that type. Any other two values of
/// different types are unequal as `AnyHashable`.
@usableFromInline
func mayEqualOtherTypes<V: Hashable>(_ value: V) -> Bool {
    if V.self is AnyObject.Type || V.self is any BinaryInteger.Type || V.self is any FloatingPoint.Type { return true }
    return type(of: AnyHashable(value).base) != V.self
}

/// Every state of a typed chart by the slot of its value: `indices[start[slot] ..< start[slot + 1]]`,
/// in index order. A machine attached in several places has one slot per value and a state per
/// place; counted and placed in two passes over the chart's slots, with no hashing and no array
/// per value.
struct StatesBySlot: Sendable {
    let start: [Int32]
    let indices: [Int32]

    init(slotOfIndex: [Int32], slotCount: Int) {
        var start = [Int32](repeating: 0, count: slotCount + 1)
        for i in 0..<slotOfIndex.count where slotOfIndex[i] >= 0 { start[Int(slotOfIndex[i]) + 1] += 1 }
        for s in 0..<slotCount { start[s + 1] += start[s] }
        var next = start
        var indices = [Int32](repeating: 0, count: Int(start[slotCount]))
        for i in 0..<slotOfIndex.count where slotOfIndex[i] >= 0 {
            let s = Int(slotOfIndex[i])
            indices[Int(next[s])] = Int32(i)
            next[s] += 1
        }
        self.start = start
        self.indices = indices
    }

    /// The states whose value has this slot, in index order.
    subscript(slot: Int) -> ArraySlice<Int32> { indices[Int(start[slot])..<Int(start[slot + 1])] }
}
