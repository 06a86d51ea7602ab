/// The set of active states: a sorted list (document order) for iteration, and a bitset for
/// constant-time membership. The list stays short — one entry per active state, however large
/// the chart — so iterating it costs nothing that grows with the chart.
@usableFromInline
struct Configuration: Sendable, Equatable {
    @usableFromInline var list = ScratchBuffer<Int32>()
    @usableFromInline var bits: [UInt64]

    @inlinable init(capacity: Int) {
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

    /// Removes active states in one pass over the list (the bulk form of ``remove(_:)``).
    @inlinable mutating func remove(all states: ScratchBuffer<Int32>) {
        guard !states.isEmpty else { return }
        var n = 0
        while n < states.count {
            let s = states[n]
            bits[Int(s) >> 6] &= ~(1 << UInt64(s & 63))
            n += 1
        }
        // One pass through buffer pointers: element by element, each write paid a uniqueness check.
        let count = list.count
        let write = bits.withUnsafeBufferPointer { bits in
            list.storage.withUnsafeMutableBufferPointer { list in
                var write = 0
                var read = 0
                while read < count {
                    let s = list[read]
                    if bits[Int(s) >> 6] & (1 << UInt64(s & 63)) != 0 {
                        list[write] = s
                        write += 1
                    }
                    read += 1
                }
                return write
            }
        }
        list.count = write
    }

    /// Inserts states given in ascending order by merging them into the list from the back (the
    /// bulk form of ``insert(_:)``). States already active are skipped.
    @inlinable mutating func insert(sorted states: ScratchBuffer<Int32>) {
        var n = 0
        while n < states.count {
            if contains(states[n]) {
                for s in states { insert(s) }
                return
            }
            n += 1
        }
        n = 0
        while n < states.count {
            let s = states[n]
            bits[Int(s) >> 6] |= 1 << UInt64(s & 63)
            list.append(s)
            n += 1
        }
        // The new states were appended; merge them into place from the back.
        var i = list.count - states.count - 1
        var j = states.count - 1
        var w = list.count - 1
        while j >= 0 && i >= 0 {
            if list[i] > states[j] {
                list[w] = list[i]
                i -= 1
            } else {
                list[w] = states[j]
                j -= 1
            }
            w -= 1
        }
        while j >= 0 {
            list[w] = states[j]
            j -= 1
            w -= 1
        }
    }

    /// Drops the list from `position` on and appends `states[range]`, which must all come after
    /// the states kept, in ascending order: the exit and entry of a chain in one pass.
    @inlinable mutating func replaceTail(from position: Int, with states: ChartTable<Int32>, in range: Range<Int32>) {
        // The hot step of a chain transition: one uniqueness check per array rather than one per
        // element written (this took a third of a flat event's instructions).
        let oldCount = list.count
        let newCount = position + Int(range.upperBound - range.lowerBound)
        if list.storage.count < newCount {
            list.storage.append(contentsOf: repeatElement(0, count: newCount - list.storage.count))
        }
        bits.withUnsafeMutableBufferPointer { bits in
            list.storage.withUnsafeMutableBufferPointer { list in
                var n = position
                while n < oldCount {
                    let s = list[n]
                    bits[Int(s) >> 6] &= ~(1 << UInt64(s & 63))
                    n += 1
                }
                states.withUnsafeBufferPointer { states in
                    var k = Int(range.lowerBound)
                    var n = position
                    while k < Int(range.upperBound) {
                        let s = states[k]
                        bits[Int(s) >> 6] |= 1 << UInt64(s & 63)
                        list[n] = s
                        k += 1
                        n += 1
                    }
                }
            }
        }
        list.count = newCount
    }

    /// Replaces the states at `run` of the list with `states[range]` (ascending, and between the
    /// states before and after the run): the exit and entry of one region's transition in one
    /// splice of the sorted list.
    @inlinable mutating func replace(run: Range<Int>, with states: ChartTable<Int32>, in range: Range<Int32>) {
        // Runs of the same length take ``overwrite(runs:of:with:entries:)``; this splice is for a
        // step where some region's run grows or shrinks.
        var n = run.lowerBound
        while n < run.upperBound {
            let s = list[n]
            bits[Int(s) >> 6] &= ~(1 << UInt64(s & 63))
            n += 1
        }
        list.replaceSubrange(run, with: states, in: range)
        var k = range.lowerBound
        while k < range.upperBound {
            let s = states[Int(k)]
            bits[Int(s) >> 6] |= 1 << UInt64(s & 63)
            k += 1
        }
    }

    /// Overwrites runs of the list in place: run `n` (`runs[2n] ..< runs[2n + 1]`, skipped when
    /// negative: a targetless transition) becomes the entry set of `transitions[n]`, which has
    /// the run's length. One uniqueness check per array for every run together.
    @inlinable mutating func overwrite(
        runs: ScratchBuffer<Int>, of transitions: SelectionList, with lean: ChartTable<LeanTransition>, entries: ChartTable<Int32>
    ) {
        bits.withUnsafeMutableBufferPointer { bits in
            list.storage.withUnsafeMutableBufferPointer { list in
                entries.withUnsafeBufferPointer { entries in
                    var t = 0
                    while t < transitions.count {
                        let start = runs[2 * t]
                        let end = runs[2 * t + 1]
                        var k = Int(lean[Int(transitions[t])].entryStart)
                        t += 1
                        guard start >= 0 else { continue }
                        var n = start
                        while n < end {
                            let old = list[n]
                            bits[Int(old) >> 6] &= ~(1 << UInt64(old & 63))
                            n += 1
                        }
                        n = start
                        while n < end {
                            let s = entries[k]
                            bits[Int(s) >> 6] |= 1 << UInt64(s & 63)
                            list[n] = s
                            k += 1
                            n += 1
                        }
                    }
                }
            }
        }
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
