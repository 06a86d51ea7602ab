/// The transitions selected for one microstep, in selection order, or their domains: the first in
/// a field of its own, the others in a ``ScratchBuffer``.
///
/// Nearly every microstep takes one transition. Recording it is then a store into the instance,
/// where a write into an array's storage costs a uniqueness check and a bounds check (about 30
/// instructions of a flat event, issue 16); steps that take several transitions (parallel
/// regions) pay one branch per element read.
@usableFromInline
struct SelectionList: RandomAccessCollection, MutableCollection, Sendable {
    // The buffer first, then the 4-byte and 1-byte fields: 21 bytes, where the first element
    // first took 25 (it padded to the buffer's alignment, issue 16, "Memory").
    /// Elements 1 ..< ``count``.
    @usableFromInline var rest = ScratchBuffer<Int32>()
    /// Element 0, when ``count`` > 0.
    @usableFromInline var first: Int32 = 0

    @inlinable init() {}

    @inlinable var startIndex: Int { 0 }
    @inlinable var endIndex: Int { count }

    /// The number of transitions selected.
    @inlinable var count: Int {
        @inline(__always) get { isEmptyFlag ? 0 : rest.count + 1 }
    }
    /// Whether nothing is selected (kept apart from `rest.count`, which only counts the others).
    @usableFromInline var isEmptyFlag = true

    @inlinable
    subscript(position: Int) -> Int32 {
        @inline(__always) get { position == 0 ? first : rest[position - 1] }
        @inline(__always) set {
            if position == 0 {
                first = newValue
            } else {
                rest[position - 1] = newValue
            }
        }
    }

    /// Appends a transition; the first costs a store.
    @inlinable @inline(__always)
    mutating func append(_ t: Int32) {
        if isEmptyFlag {
            first = t
            isEmptyFlag = false
        } else {
            rest.append(t)
        }
    }

    /// Whether `t` is selected already.
    @inlinable @inline(__always)
    func contains(_ t: Int32) -> Bool {
        if isEmptyFlag { return false }
        if first == t { return true }
        var n = 0
        while n < rest.count {
            if rest[n] == t { return true }
            n += 1
        }
        return false
    }

    /// Empties the list, keeping the storage of the others.
    @inlinable @inline(__always)
    mutating func removeAll() {
        isEmptyFlag = true
        rest.removeAll()
    }

    /// Keeps the first `count` transitions.
    @inlinable
    mutating func truncate(to count: Int) {
        if count == 0 {
            removeAll()
        } else {
            rest.count = count - 1
        }
    }
}
