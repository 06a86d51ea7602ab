/// A transition's target states: a zero-based view of a range of one array that holds the
/// targets of every transition of a chart.
///
/// One array per transition cost an allocation per transition when a chart was compiled — a
/// million of them for a million-state chart — and a free when it went (issue 16). A list made
/// from an array of its own (``init(_:)``) serves targets computed at run time.
@usableFromInline
struct TargetList: RandomAccessCollection, Equatable, Sendable {
    @usableFromInline let storage: [Int32]
    @usableFromInline let offset: Int
    /// The number of targets.
    @usableFromInline let count: Int

    /// The targets `pool[start ..< start + count]`.
    @inlinable
    init(pool: [Int32], start: Int, count: Int) {
        storage = pool
        offset = start
        self.count = count
    }

    /// The targets in `array`, in order.
    @inlinable
    init(_ array: [Int32]) {
        storage = array
        offset = 0
        count = array.count
    }

    @inlinable var startIndex: Int { 0 }
    @inlinable var endIndex: Int { count }

    @inlinable
    subscript(position: Int) -> Int32 {
        // Positions come from the library's own loops; a debug build checks them, and the array
        // still checks every read against its storage.
        assert(position >= 0 && position < count, "target index out of range")
        return storage[offset + position]
    }

    /// The targets as an array of their own.
    @inlinable var array: [Int32] { Array(storage[offset..<offset + count]) }

    @inlinable
    static func == (a: TargetList, b: TargetList) -> Bool { a.elementsEqual(b) }
}
