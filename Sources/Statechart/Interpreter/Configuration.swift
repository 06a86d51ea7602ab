/// The set of active states: a sorted list (document order) for iteration, and a bitset for
/// constant-time membership. The list stays short — one entry per active state, however large
/// the chart — so iterating it costs nothing that grows with the chart.
@usableFromInline
struct Configuration: Sendable, Equatable {
    @usableFromInline var list: [Int32] = []
    @usableFromInline var bits: [UInt64]

    @usableFromInline init(capacity: Int) {
        bits = Array(repeating: 0, count: (capacity + 63) / 64)
    }

    func contains(_ s: Int32) -> Bool {
        bits[Int(s) >> 6] & (1 << UInt64(s & 63)) != 0
    }

    mutating func insert(_ s: Int32) {
        guard !contains(s) else { return }
        bits[Int(s) >> 6] |= 1 << UInt64(s & 63)
        // Entries arrive mostly in ascending order: search from the end.
        var i = list.count
        while i > 0 && list[i - 1] > s { i -= 1 }
        list.insert(s, at: i)
    }

    mutating func remove(_ s: Int32) {
        guard contains(s) else { return }
        bits[Int(s) >> 6] &= ~(1 << UInt64(s & 63))
        var i = list.count - 1
        while i >= 0 && list[i] != s { i -= 1 }
        if i >= 0 { list.remove(at: i) }
    }

    mutating func removeAll() {
        for s in list { bits[Int(s) >> 6] = 0 }
        list.removeAll(keepingCapacity: true)
    }

    var isEmpty: Bool { list.isEmpty }
}

/// A first-in first-out queue that reuses its storage.
@usableFromInline
struct EventQueue<Element>: Sendable where Element: Sendable {
    @usableFromInline var items: [Element] = []
    @usableFromInline var head = 0

    @usableFromInline init() {}

    var isEmpty: Bool { head == items.count }
    var count: Int { items.count - head }

    mutating func append(_ e: Element) { items.append(e) }

    mutating func popFirst() -> Element? {
        guard head < items.count else { return nil }
        let e = items[head]
        head += 1
        if head == items.count {
            items.removeAll(keepingCapacity: true)
            head = 0
        }
        return e
    }

    mutating func removeAll() {
        items.removeAll(keepingCapacity: true)
        head = 0
    }

    /// The queued elements, oldest first.
    var elements: ArraySlice<Element> { items[head...] }
}
