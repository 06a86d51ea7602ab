/// The state values of one gathered machine level, by ordinal, and their ordinals by value: what
/// ``TypedChart`` maps a chart index to, and a value back to its states with.
///
/// One table per gathered level, not one `AnyHashable` per state for the whole chart: boxing each
/// value (about 770 instructions for an `Int`) and hashing each box into two dictionaries took
/// about a tenth of the instructions of building a large typed chart (issue 16, "Values by
/// level"). The
/// level's own dictionary, made when it was gathered, answers a lookup by a value of its own type;
/// a value of another type is compared through `AnyHashable` only when the two types can be equal
/// that way (``AnyHashableKind``), so every lookup keeps `AnyHashable`'s equality.
@usableFromInline
protocol StateValueTable: AnyObject, Sendable {
    /// Where this level's values start among the chart's value slots.
    var slotBase: Int32 { get }
    /// The value at `ordinal`, boxed.
    func boxedValue(at ordinal: Int) -> AnyHashable
    /// How `AnyHashable` compares this level's values with values of other types
    /// (``AnyHashableKind``); ``AnyHashableKind/empty`` for a level without values.
    var kind: AnyHashableKind { get }
    /// The type of the level's values.
    var valueType: ObjectIdentifier { get }
    /// The ordinal of the value equal to the query's as `AnyHashable` compares them, if any.
    func ordinal(matching query: ForeignValue) -> Int?
}

/// ``StateValueTable`` for a level whose values are of type `S`.
@usableFromInline
final class StateValues<S: Hashable & Sendable>: StateValueTable, @unchecked Sendable {
    // @unchecked: `S` is `Sendable` and nothing here changes after init.
    @usableFromInline let slotBase: Int32
    @usableFromInline let values: [S]
    @usableFromInline let ordinalOf: [S: Int]
    /// How a value of another type can still equal one of these as `AnyHashable`
    /// (``AnyHashableKind``): then a lookup by it compares the values one by one.
    @usableFromInline let kind: AnyHashableKind

    /// Shares the gathered level's arrays (no copy).
    @usableFromInline
    init(values: [S], ordinalOf: [S: Int], slotBase: Int32) {
        self.slotBase = slotBase
        self.values = values
        self.ordinalOf = ordinalOf
        kind = values.first.map { AnyHashableKind(of: $0) } ?? .empty
    }

    @usableFromInline var valueType: ObjectIdentifier { ObjectIdentifier(S.self) }

    /// The number of values (and slots).
    var count: Int { values.count }

    @usableFromInline func boxedValue(at ordinal: Int) -> AnyHashable { AnyHashable(values[ordinal]) }

    @usableFromInline func ordinal(matching query: ForeignValue) -> Int? {
        // A value whose `AnyHashable` form is of this type: hashed as itself. Not a cast of the
        // value, which would unwrap an optional that `AnyHashable` finds unequal to its wrapped value.
        if query.baseType == S.self, let s = query.boxed.base as? S { return ordinalOf[s] }
        guard kind.mayEqual(query.kind) else { return nil }
        for o in 0..<values.count where AnyHashable(values[o]) == query.boxed { return o }
        return nil
    }
}

/// A value looked up in the tables of other types than its own, boxed once for all of them: its
/// `AnyHashable` form, the type of that form's base, and its ``AnyHashableKind``.
@usableFromInline
struct ForeignValue {
    @usableFromInline let boxed: AnyHashable
    @usableFromInline let baseType: Any.Type
    @usableFromInline let kind: AnyHashableKind

    @usableFromInline
    init<T: Hashable & Sendable>(_ value: T) {
        boxed = AnyHashable(value)
        baseType = type(of: boxed.base)
        kind = AnyHashableKind(of: value)
    }
}

/// A value table's type and ``AnyHashableKind``, as ``TypedChart`` keeps them for finding a
/// value's tables without asking each one.
@usableFromInline
struct ValueKind: Sendable {
    @usableFromInline let type: ObjectIdentifier
    @usableFromInline let kind: AnyHashableKind

    init(type: ObjectIdentifier, kind: AnyHashableKind) {
        self.type = type
        self.kind = kind
    }
}

/// How `AnyHashable` compares a value with values of other types. Two values of different types
/// are unequal as `AnyHashable` unless both are numbers (integers and floating-point numbers
/// compare by value, `1 == 1.0`), both are class instances (one may be of a subclass of the
/// other's class), or one's `AnyHashable` form is of another type than the value itself: only
/// then does a lookup compare values one by one. A table without values is ``empty``: it equals
/// nothing.
@usableFromInline
enum AnyHashableKind: Sendable {
    case plain, number, object, represented, empty

    /// The kind of `value`'s type, worked out from one value (a table's first).
    ///
    /// An optional type is ``represented`` whatever the value: `AnyHashable` unwraps a value that
    /// is there (`Optional(0)` equals `0`) and keeps `nil` as it is, so a level of `Int?` states
    /// whose first value is `nil` still holds values equal to numbers. The other represented
    /// types (`AnyHashable` itself, a class bridged to a value type) are recognised by the
    /// value's form, and before the numbers and classes, whose comparisons are narrower.
    @usableFromInline
    init<V: Hashable>(of value: V) {
        if V.self is any OptionalValue.Type || type(of: AnyHashable(value).base) != V.self {
            self = .represented
        } else if V.self is any BinaryInteger.Type || V.self is any FloatingPoint.Type {
            self = .number
        } else if V.self is AnyObject.Type {
            self = .object
        } else {
            self = .plain
        }
    }

    /// Whether a value of this kind can equal, as `AnyHashable`, a value of another type of `other`'s kind.
    @usableFromInline
    func mayEqual(_ other: AnyHashableKind) -> Bool {
        switch (self, other) {
        case (.empty, _), (_, .empty): false
        case (.represented, _), (_, .represented), (.number, .number), (.object, .object): true
        default: false
        }
    }
}

/// Every state of a typed chart by the slot of its value: `indices[start[slot] ..< start[slot + 1]]`,
/// in index order. A machine attached in several places has one slot per value and a state per
/// place; counted and placed in two passes over the chart's slots, with no hashing and no array
/// per value.
@usableFromInline
struct StatesBySlot: Sendable {
    @usableFromInline let start: [Int32]
    @usableFromInline let indices: [Int32]

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

/// `Optional`, recognised by its type: ``AnyHashableKind`` and the casts of
/// `TypedChart.value(at:castTo:castsOthers:)` treat every optional type as one whose values may be of
/// another type.
@usableFromInline
protocol OptionalValue {}

extension Optional: OptionalValue {}
