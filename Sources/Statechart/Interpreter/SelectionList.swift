/// The transitions selected for one microstep, in selection order, or their domains: the first in
/// a field of its own, the others in a buffer of the list's own (``SelectionStorage``).
///
/// Nearly every microstep takes one transition. Recording it is then a store into the instance,
/// where a write into an array's storage costs a uniqueness check and a bounds check (about 30
/// instructions of a flat event, issue 16). A step that takes several (parallel regions) checks
/// that the others' buffer is its own once, at the first of them, and appends the rest with a
/// store each: every append to an array checked its uniqueness again (three times in a parallel
/// state of four regions).
///
/// Beside each transition the list keeps a hint of where its selecting state is: the selection
/// walk's position in the configuration's list just after the atomic state that selected it
/// (``append(_:hint:)``), 0 for none. A transition that exchanges its atomic source for one state
/// (``ChartInstance/exchangeSelectedSources()``) finds the slot to write there instead of
/// searching the list for it (a parallel state of four regions: 686 → 640 instructions a step).
/// A hint is checked before it is used.
@usableFromInline
struct SelectionList: RandomAccessCollection, MutableCollection, @unchecked Sendable {
    // @unchecked: the buffer is copied before it is written whenever another list shares it
    // (``appendOther(_:hint:)``, the subscript's setter), so a list is a value like an array.
    /// Elements 1 ..< ``count`` and their hints, `nil` until a step first selects two transitions.
    @usableFromInline var others: SelectionStorage?
    /// Element 0, when ``count`` > 0.
    @usableFromInline var first: Int32 = 0
    /// The number of elements in ``others``.
    @usableFromInline var otherCount: Int32 = 0
    /// Whether nothing is selected (kept apart from ``otherCount``, which only counts the others).
    @usableFromInline var isEmptyFlag = true
    /// Element 0's hint (where ``isEmptyFlag``'s padding was: an instance is no larger).
    @usableFromInline var firstHint: Int32 = 0

    @inlinable init() {}

    @inlinable var startIndex: Int { 0 }
    @inlinable var endIndex: Int { count }

    /// The number of transitions selected.
    @inlinable var count: Int {
        @inline(__always) get { isEmptyFlag ? 0 : Int(otherCount) + 1 }
    }

    @inlinable
    subscript(position: Int) -> Int32 {
        @inline(__always) get {
            if position == 0 { return first }
            return others.unsafelyUnwrapped.withUnsafeMutablePointerToElements { $0[otherIndex(position)] }
        }
        set {
            // A transition written in place (conflicts removed) has no hint.
            if position == 0 {
                first = newValue
                firstHint = 0
            } else {
                let k = otherIndex(position)
                makeOthersUnique(capacity: Int(otherCount))
                let buffer = others.unsafelyUnwrapped
                let hints = SelectionStorage.hintOffset(capacity: buffer.capacityOfElements)
                buffer.withUnsafeMutablePointerToElements { elements in
                    elements[k] = newValue
                    elements[hints + k] = 0
                }
            }
        }
    }

    /// Element `position`, for a loop bounded by ``count``: read without the check of
    /// ``otherIndex(_:)``.
    @inlinable
    subscript(unchecked position: Int) -> Int32 {
        @inline(__always) get {
            if position == 0 { return first }
            return others.unsafelyUnwrapped.withUnsafeMutablePointerToElements { $0[position &- 1] }
        }
    }

    /// The index in ``others`` of element `position` (> 0), checked as an array's index is: the
    /// interpreter reads only the elements it selected.
    @inlinable @inline(__always)
    func otherIndex(_ position: Int) -> Int {
        precondition(position > 0 && position <= Int(otherCount), "selection index out of range")
        return position - 1
    }

    /// The hint of element `position` (< ``count``): the selection walk's position just after the
    /// atomic state that selected it, or 0.
    @inlinable
    subscript(hint position: Int) -> Int32 {
        @inline(__always) get {
            if position == 0 { return firstHint }
            let buffer = others.unsafelyUnwrapped
            return buffer.withUnsafeMutablePointerToElements {
                $0[SelectionStorage.hintOffset(capacity: buffer.capacityOfElements) &+ position &- 1]
            }
        }
    }

    /// Appends a transition with no hint.
    @inlinable @inline(__always)
    mutating func append(_ t: Int32) {
        append(t, hint: 0)
    }

    /// Appends a transition and its `hint`; the first costs two stores.
    @inlinable @inline(__always)
    mutating func append(_ t: Int32, hint: Int32) {
        if isEmptyFlag {
            first = t
            firstHint = hint
            isEmptyFlag = false
        } else {
            appendOther(t, hint: hint)
        }
    }

    /// Appends one of the others: the first of a step makes the buffer this list's own, with room
    /// for more; the next ones are a store each, while they fit.
    ///
    /// The first one's check is inline: a buffer has room for at least 4 from when it is made
    /// (``makeOthersUnique(capacity:)``), so only whether it is this list's own is asked (out of
    /// line, the check cost the parallel step of four regions about 30 instructions).
    @inlinable @inline(__always)
    mutating func appendOther(_ t: Int32, hint: Int32) {
        let n = Int(otherCount)
        if n == 0 {
            if !isKnownUniquelyReferenced(&others) { makeOthersUnique(capacity: 4) }
        } else if n == others.unsafelyUnwrapped.capacityOfElements {
            makeOthersUnique(capacity: 2 * n)
        }
        let buffer = others.unsafelyUnwrapped
        let capacity = buffer.capacityOfElements
        buffer.withUnsafeMutablePointerToElements {
            $0[n] = t
            $0[SelectionStorage.hintOffset(capacity: capacity) &+ n] = hint
        }
        otherCount += 1
    }

    /// Makes ``others`` a buffer no other list shares, with room for at least `capacity`
    /// elements (and never fewer than 4, which ``appendOther(_:hint:)`` relies on), keeping the
    /// first ``otherCount`` and their hints.
    @inlinable @inline(never)
    mutating func makeOthersUnique(capacity: Int) {
        if let buffer = others, buffer.capacityOfElements >= capacity, isKnownUniquelyReferenced(&others) { return }
        let copy = SelectionStorage.make(capacity: Swift.max(capacity, Int(otherCount), 4))
        if let buffer = others {
            let n = Int(otherCount)
            let from = SelectionStorage.hintOffset(capacity: buffer.capacityOfElements)
            let to = SelectionStorage.hintOffset(capacity: copy.capacityOfElements)
            buffer.withUnsafeMutablePointerToElements { source in
                copy.withUnsafeMutablePointerToElements {
                    $0.initialize(from: source, count: n)
                    ($0 + to).initialize(from: source + from, count: n)
                }
            }
        }
        others = copy
    }

    /// Calls `body` with the others (elements 1 ..< ``count``), read through one pointer.
    @inlinable
    func withUnsafeOthers<R>(_ body: (UnsafeBufferPointer<Int32>) throws -> R) rethrows -> R {
        guard let buffer = others else { return try body(UnsafeBufferPointer(start: nil, count: 0)) }
        return try buffer.withUnsafeMutablePointerToElements { try body(UnsafeBufferPointer(start: $0, count: Int(otherCount))) }
    }

    /// Whether `t` is selected already.
    @inlinable @inline(__always)
    func contains(_ t: Int32) -> Bool {
        if isEmptyFlag { return false }
        if first == t { return true }
        return withUnsafeOthers { $0.contains(t) }
    }

    /// Empties the list, keeping the others' buffer.
    @inlinable @inline(__always)
    mutating func removeAll() {
        isEmptyFlag = true
        otherCount = 0
    }

    /// Keeps the first `count` transitions.
    @inlinable
    mutating func truncate(to count: Int) {
        if count == 0 {
            removeAll()
        } else {
            otherCount = Int32(count - 1)
        }
    }
}

/// The buffer of a ``SelectionList``'s others: its capacity in the header, then the transitions,
/// then their hints (from ``hintOffset(capacity:)``).
@usableFromInline
final class SelectionStorage: ManagedBuffer<Int, Int32> {
    /// A buffer with room for `capacity` transitions and their hints.
    @inlinable
    static func make(capacity: Int) -> SelectionStorage {
        let buffer = create(minimumCapacity: 2 * capacity) { _ in capacity }
        return unsafeDowncast(buffer, to: SelectionStorage.self)
    }

    /// Where the hints start among the elements of a buffer with room for `capacity` transitions.
    @inlinable @inline(__always)
    static func hintOffset(capacity: Int) -> Int { capacity }

    /// The room for transitions, read through the header's pointer: the `header` property of a
    /// class is checked for exclusive access at each read (`swift_beginAccess`, about 90
    /// instructions a read here).
    @inlinable var capacityOfElements: Int {
        @inline(__always) get { withUnsafeMutablePointerToHeader { $0.pointee } }
    }
}
