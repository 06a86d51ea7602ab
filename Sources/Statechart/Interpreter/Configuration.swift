/// The set of active states: a sorted list (document order) for iteration, and a bitset for
/// constant-time membership. The list stays short — one entry per active state, however large
/// the chart — so iterating it costs nothing that grows with the chart.
@usableFromInline
struct Configuration: Sendable, Equatable {
    @usableFromInline var list = ScratchBuffer<Int32>()
    @usableFromInline var bits: [UInt64]

    @usableFromInline init(capacity: Int) {
        bits = Array(repeating: 0, count: (capacity + 63) / 64)
    }

    @inlinable func contains(_ s: Int32) -> Bool {
        bits[Int(s) >> 6] & (1 << UInt64(s & 63)) != 0
    }

    @inlinable mutating func insert(_ s: Int32) {
        guard !contains(s) else { return }
        bits[Int(s) >> 6] |= 1 << UInt64(s & 63)
        // Entries arrive mostly in ascending order: search from the end.
        var i = list.count
        while i > 0 && list[i - 1] > s { i -= 1 }
        list.insert(s, at: i)
    }

    @inlinable mutating func remove(_ s: Int32) {
        guard contains(s) else { return }
        bits[Int(s) >> 6] &= ~(1 << UInt64(s & 63))
        var i = list.count - 1
        while i >= 0 && list[i] != s { i -= 1 }
        if i >= 0 { list.remove(at: i) }
    }

    @inlinable mutating func removeAll() {
        for s in list { bits[Int(s) >> 6] = 0 }
        list.removeAll()
    }

    @inlinable var isEmpty: Bool { list.isEmpty }
}

/// A first-in first-out queue that reuses its storage.
@usableFromInline
struct EventQueue<Element>: Sendable where Element: Sendable {
    @usableFromInline var items = ScratchBuffer<Element>()
    @usableFromInline var head = 0

    @usableFromInline init() {}

    @inlinable var isEmpty: Bool { head == items.count }
    @inlinable var count: Int { items.count - head }

    @inlinable mutating func append(_ e: Element) { items.append(e) }

    @inlinable mutating func popFirst() -> Element? {
        guard head < items.count else { return nil }
        let e = items[head]
        head += 1
        if head == items.count {
            items.removeAll()
            head = 0
        }
        return e
    }

    @inlinable mutating func removeAll() {
        items.removeAll()
        head = 0
    }

    /// The queued elements, oldest first.
    @inlinable var elements: ArraySlice<Element> { items.storage[head..<items.count] }
}
