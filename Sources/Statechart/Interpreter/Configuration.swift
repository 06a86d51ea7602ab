/// The set of active states: a sorted list (document order) for iteration, and a bitset for
/// constant-time membership. The list stays short — one entry per active state, however large
/// the chart — so iterating it costs nothing that grows with the chart.
///
/// Both live in one array, the bits first and the list after them: one allocation per machine
/// instead of two, and one uniqueness check per change instead of one per array (issue 16,
/// "Memory": a machine made five allocations when it was created and started). The list's room is
/// the chart's ``Chart/configurationBound``, the most states that can be active at once, so a
/// legal configuration never makes it grow — up to ``roomLimit`` states: a chart whose bound is
/// larger (a parallel state of thousands of regions) grows the list when it gets there rather
/// than give every machine that room from the start.
@usableFromInline
struct Configuration: Sendable, Equatable {
    /// Words `0 ..< listStart`: bit `s & 31` of word `s >> 5` is set when state `s` is active.
    /// Words `listStart ..< listStart + count`: the active states in ascending order (room for
    /// more follows). A state index is stored as its bit pattern.
    @usableFromInline var storage: [UInt32]
    @usableFromInline var listStart: Int32
    @usableFromInline var listCount: Int32 = 0

    /// The most room for active states a configuration makes when it is created.
    @inlinable static var roomLimit: Int { 4096 }

    /// A configuration for a chart of `stateCount` states, with room for `bound` active states
    /// (at most ``roomLimit``).
    @inlinable init(stateCount: Int, bound: Int) {
        let words = (stateCount + 31) / 32
        listStart = Int32(words)
        storage = Array(repeating: 0, count: words + max(min(bound, Self.roomLimit), 1))
    }

    /// The number of active states.
    @inlinable var count: Int { Int(listCount) }

    @inlinable var isEmpty: Bool { listCount == 0 }

    /// The `position`th active state, in document order.
    @inlinable subscript(position: Int) -> Int32 {
        Int32(bitPattern: storage[Int(listStart) &+ position])
    }

    /// The `position`th active state, read without the array's bounds check: for a loop that
    /// has checked `position < count` itself, as the selection walk does for every active state
    /// (the list lies inside the storage, so the check could not fail).
    @inlinable subscript(unchecked position: Int) -> Int32 {
        @inline(__always) get {
            storage.withUnsafeBufferPointer { Int32(bitPattern: $0[Int(listStart) &+ position]) }
        }
    }

    @inlinable func contains(_ s: Int32) -> Bool {
        storage[Int(s) >> 5] & (1 << UInt32(s & 31)) != 0
    }

    /// The active states in document order (a copy-free view; the hot paths use ``count`` and
    /// the subscript, which do not retain the storage).
    @inlinable var list: ActiveStateList { ActiveStateList(storage: storage, start: Int(listStart), count: Int(listCount)) }

    /// The membership bits and the list after them: what an ``ActiveStateSet`` reads (it reads
    /// only the bits, at the front).
    @inlinable var words: [UInt32] { storage }

    /// Calls `body` with the active states, read through one pointer.
    @inlinable func withUnsafeList<R>(_ body: (UnsafeBufferPointer<UInt32>) throws -> R) rethrows -> R {
        try storage.withUnsafeBufferPointer { words in
            try body(UnsafeBufferPointer(rebasing: words[Int(listStart)..<Int(listStart + listCount)]))
        }
    }

    /// Makes room in the list for `count` states. Only an illegal configuration (which the
    /// interpreter does not make) needs more than the chart's bound; growing keeps it correct.
    @inlinable @inline(__always) mutating func reserveList(_ count: Int) {
        if storage.count - Int(listStart) < count { growList(to: count) }
    }

    @inlinable @inline(never) mutating func growList(to count: Int) {
        storage.append(contentsOf: repeatElement(0, count: Int(listStart) + count - storage.count))
    }

    @inlinable static func == (a: Configuration, b: Configuration) -> Bool {
        a.listStart == b.listStart && a.listCount == b.listCount
            && a.storage[0..<Int(a.listStart + a.listCount)] == b.storage[0..<Int(b.listStart + b.listCount)]
    }

    @inlinable mutating func insert(_ s: Int32) {
        guard !contains(s) else { return }
        reserveList(count + 1)
        let start = Int(listStart)
        let count = Int(listCount)
        storage.withUnsafeMutableBufferPointer { words in
            words[Int(s) >> 5] |= 1 << UInt32(s & 31)
            // Entries arrive mostly in ascending order: shift from the end.
            var i = start + count
            while i > start && Int32(bitPattern: words[i - 1]) > s {
                words[i] = words[i - 1]
                i -= 1
            }
            words[i] = UInt32(bitPattern: s)
        }
        listCount += 1
    }

    @inlinable mutating func remove(_ s: Int32) {
        guard contains(s) else { return }
        let start = Int(listStart)
        let end = start + Int(listCount)
        storage.withUnsafeMutableBufferPointer { words in
            words[Int(s) >> 5] &= ~(1 << UInt32(s & 31))
            var i = end - 1
            while i >= start && words[i] != UInt32(bitPattern: s) { i -= 1 }
            guard i >= start else { return }
            while i < end - 1 {
                words[i] = words[i + 1]
                i += 1
            }
        }
        listCount -= 1
    }

    /// Removes active states in one pass over the list (the bulk form of ``remove(_:)``).
    @inlinable mutating func remove(all states: UnsafeBufferPointer<Int32>) {
        guard !states.isEmpty else { return }
        let start = Int(listStart)
        let end = start + Int(listCount)
        // One pass through one buffer pointer: element by element, each write paid a uniqueness check.
        let kept = storage.withUnsafeMutableBufferPointer { words in
            var n = 0
            while n < states.count {
                let s = states[n]
                words[Int(s) >> 5] &= ~(1 << UInt32(s & 31))
                n += 1
            }
            var write = start
            var read = start
            while read < end {
                let s = words[read]
                if words[Int(s >> 5)] & (1 << (s & 31)) != 0 {
                    words[write] = s
                    write += 1
                }
                read += 1
            }
            return write - start
        }
        listCount = Int32(kept)
    }

    /// Inserts states given in ascending order by merging them into the list from the back (the
    /// bulk form of ``insert(_:)``). States already active are skipped.
    @inlinable mutating func insert(sorted states: UnsafeBufferPointer<Int32>) {
        var n = 0
        while n < states.count {
            if contains(states[n]) {
                for s in states { insert(s) }
                return
            }
            n += 1
        }
        let added = states.count
        reserveList(count + added)
        let start = Int(listStart)
        let oldEnd = start + Int(listCount)
        storage.withUnsafeMutableBufferPointer { words in
            var n = 0
            while n < added {
                let s = states[n]
                words[Int(s) >> 5] |= 1 << UInt32(s & 31)
                n += 1
            }
            // Merge from the back: the larger of the two tails moves to the end each step.
            var i = oldEnd - 1
            var j = added - 1
            var w = oldEnd + added - 1
            while j >= 0 {
                let s = states[j]
                if i >= start && Int32(bitPattern: words[i]) > s {
                    words[w] = words[i]
                    i -= 1
                } else {
                    words[w] = UInt32(bitPattern: s)
                    j -= 1
                }
                w -= 1
            }
        }
        listCount += Int32(added)
    }

    /// Drops the list from `position` on (the exit of a chain's tail, before the transition's
    /// actions run).
    @inlinable @inline(__always)
    mutating func removeTail(from position: Int) {
        let start = Int(listStart)
        let end = start + Int(listCount)
        storage.withUnsafeMutableBufferPointer { words in Self.leave(words, from: start + position, to: end) }
        listCount = Int32(position)
    }

    /// Appends a state that comes after every active one in document order (an entry below the
    /// last active state): no search and no shift, unlike ``insert(_:)``.
    @inlinable @inline(__always)
    mutating func append(last s: Int32) {
        reserveList(count + 1)
        let slot = Int(listStart + listCount)
        storage.withUnsafeMutableBufferPointer { words in
            words[Int(s) >> 5] |= 1 << UInt32(s & 31)
            words[slot] = UInt32(bitPattern: s)
        }
        listCount += 1
    }

    /// Drops the list from `position` on and appends `states[range]`, which must all come after
    /// the states kept, in ascending order: the exit and entry of a chain in one pass.
    @inlinable @inline(__always)
    mutating func replaceTail(from position: Int, with states: ChartTable<Int32>, in range: Range<Int32>) {
        // The hot step of a chain transition: one uniqueness check for the whole change (this
        // took a third of a flat event's instructions when each element written paid one).
        if Int(listCount) == position + 1 && range.upperBound - range.lowerBound == 1 {
            // One state for another, the step of a flat chart: no loop, no count change (flat
            // 375 -> 339 instructions per event).
            let s = UInt32(bitPattern: states[Int(range.lowerBound)])
            let last = Int(listStart) + position
            storage.withUnsafeMutableBufferPointer { words in
                let old = words[last]
                words[Int(old >> 5)] &= ~(1 << (old & 31))
                words[Int(s >> 5)] |= 1 << (s & 31)
                words[last] = s
            }
        } else {
            replaceLongerTail(from: position, with: states, in: range)
        }
    }

    /// Exchanges the active state `old` for `new`, which takes its slot of the list: the list
    /// stays sorted because no other active state lies between the two
    /// (``LeanTransition/Flags/exchangesSource``). The old state is looked for at its `hint` (its
    /// position plus one, as the selection walk met it), then searched for.
    @inlinable @inline(__always)
    mutating func exchange(_ old: Int32, for new: Int32, hint: Int32) {
        let start = Int(listStart)
        let count = UInt32(bitPattern: listCount)
        storage.withUnsafeMutableBufferPointer { words in
            let o = UInt32(bitPattern: old)
            let slot = Self.slot(of: o, hint: hint, in: words, from: start, count: count)
            Self.exchange(o, for: UInt32(bitPattern: new), at: slot, in: words)
        }
    }

    /// ``exchange(_:for:hint:)`` when `old` is the list's last state, where a chain keeps its one
    /// atomic state: the step of a flat or nested chart, which then neither reads nor tests a
    /// hint (that cost a flat event 5 to 8 instructions).
    ///
    /// - Returns: Whether `old` was the last state and is exchanged; `false` changes nothing.
    @inlinable @inline(__always)
    mutating func exchangeLast(_ old: Int32, for new: Int32) -> Bool {
        let last = Int(listStart) &+ Int(listCount) &- 1
        return storage.withUnsafeMutableBufferPointer { words in
            let o = UInt32(bitPattern: old)
            guard words[last] == o else { return false }
            Self.exchange(o, for: UInt32(bitPattern: new), at: last, in: words)
            return true
        }
    }

    /// ``exchange(_:for:hint:)`` for the pairs `pair(n)`, `n < count` (the active state to leave, the
    /// state that takes its slot, and a hint of where the old state is: its position in the list
    /// plus one, or 0), with one uniqueness check for all of them, up to the first `n` for which
    /// `pair(n)` is `nil`. The old state is looked for at its hint, then searched for.
    ///
    /// - Returns: The number of pairs exchanged: `count`, or the first `n` whose pair is `nil`
    ///   (the caller exchanges the first `n` back to undo them).
    @inlinable @inline(__always)
    mutating func exchange(count: Int, _ pair: (Int) -> (old: Int32, new: Int32, hint: Int32)?) -> Int {
        let start = Int(listStart)
        let listCount = UInt32(bitPattern: self.listCount)
        return storage.withUnsafeMutableBufferPointer { words in
            var n = 0
            while n < count {
                guard let (old, new, hint) = pair(n) else { return n }
                let o = UInt32(bitPattern: old)
                n += 1
                let slot = Self.slot(of: o, hint: hint, in: words, from: start, count: listCount)
                Self.exchange(o, for: UInt32(bitPattern: new), at: slot, in: words)
            }
            return count
        }
    }

    /// The slot of the active state `s` in the sorted list of `count` states from `start`: its
    /// `hint` (a position plus one) when `s` is there, else where the search finds it. A hint of
    /// 0 (none) wraps to the largest value, never below the count.
    @inlinable @inline(__always)
    static func slot(
        of s: UInt32, hint: Int32, in words: UnsafeMutableBufferPointer<UInt32>, from start: Int, count: UInt32
    ) -> Int {
        let hinted = start &+ Int(hint) &- 1
        return UInt32(bitPattern: hint) &- 1 < count && words[hinted] == s
            ? hinted : slot(of: s, in: words, from: start, to: start &+ Int(count))
    }

    /// Clears `old`'s bit, sets `new`'s and writes `new` into the list's `slot`.
    @inlinable @inline(__always)
    static func exchange(_ old: UInt32, for new: UInt32, at slot: Int, in words: UnsafeMutableBufferPointer<UInt32>) {
        words[Int(old >> 5)] &= ~(1 << (old & 31))
        words[Int(new >> 5)] |= 1 << (new & 31)
        words[slot] = new
    }

    /// The slot of the active state `s` in the sorted list `words[start ..< end]`. Out of line:
    /// a step whose state is at its hint, the usual one, does without it.
    @inlinable @inline(never)
    static func slot(of s: UInt32, in words: UnsafeMutableBufferPointer<UInt32>, from start: Int, to end: Int) -> Int {
        var low = start
        var high = end
        while low < high {
            let middle = low + (high - low) / 2
            if words[middle] < s { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// ``replaceTail(from:with:in:)`` for runs of other lengths.
    @inlinable
    mutating func replaceLongerTail(from position: Int, with states: ChartTable<Int32>, in range: Range<Int32>) {
        let newCount = position + Int(range.upperBound - range.lowerBound)
        let start = Int(listStart)
        let oldEnd = start + Int(listCount)
        reserveList(newCount)
        storage.withUnsafeMutableBufferPointer { words in
            Self.leave(words, from: start + position, to: oldEnd)
            Self.enter(states, from: Int(range.lowerBound), count: newCount - position, into: words, at: start + position)
        }
        listCount = Int32(newCount)
    }

    /// Replaces the states at `run` of the list with `states[range]` (ascending, and between the
    /// states before and after the run): the exit and entry of one region's transition in one
    /// splice of the sorted list.
    @inlinable mutating func replace(run: Range<Int>, with states: ChartTable<Int32>, in range: Range<Int32>) {
        // Runs of the same length take ``overwrite(runs:of:with:entries:)``; this splice is for a
        // step where some region's run grows or shrinks.
        let delta = Int(range.upperBound - range.lowerBound) - run.count
        reserveList(count + max(delta, 0))
        let start = Int(listStart)
        let end = start + Int(listCount)
        storage.withUnsafeMutableBufferPointer { words in
            Self.leave(words, from: start + run.lowerBound, to: start + run.upperBound)
            // Move the tail after the run by `delta`, from the end that does not overwrite it.
            if delta > 0 {
                var j = end - 1
                while j >= start + run.upperBound {
                    words[j + delta] = words[j]
                    j -= 1
                }
            } else if delta < 0 {
                var j = start + run.upperBound
                while j < end {
                    words[j + delta] = words[j]
                    j += 1
                }
            }
            Self.enter(states, from: Int(range.lowerBound), count: run.count + delta, into: words, at: start + run.lowerBound)
        }
        listCount += Int32(delta)
    }

    /// Overwrites runs of the list in place: run `n` (`runs[2n] ..< runs[2n + 1]`, skipped when
    /// negative: a targetless transition) becomes the entry set of `transitions[n]`, which has
    /// the run's length. One uniqueness check for every run together.
    @inlinable mutating func overwrite(
        runs: ScratchBuffer<Int>, of transitions: SelectionList, with lean: ChartTable<LeanTransition>, entries: ChartTable<Int32>
    ) {
        // The loops written out, not ``leave(_:from:to:)`` and ``enter(_:from:count:into:at:)``:
        // through them the parallel case took 1,414 instructions per event instead of 1,370.
        let list = Int(listStart)
        storage.withUnsafeMutableBufferPointer { words in
            entries.withUnsafeBufferPointer { entries in
                var t = 0
                while t < transitions.count {
                    let start = list + runs[2 * t]
                    let end = list + runs[2 * t + 1]
                    var k = Int(lean[Int(transitions[t])].entryStart)
                    t += 1
                    guard start >= list else { continue }
                    var n = start
                    while n < end {
                        let old = words[n]
                        words[Int(old >> 5)] &= ~(1 << (old & 31))
                        n += 1
                    }
                    n = start
                    while n < end {
                        let s = UInt32(bitPattern: entries[k])
                        words[Int(s >> 5)] |= 1 << (s & 31)
                        words[n] = s
                        k += 1
                        n += 1
                    }
                }
            }
        }
    }

    /// Clears the bits of the states listed in slots `from ..< to` (the states a step exits).
    @inlinable @inline(__always)
    static func leave(_ words: UnsafeMutableBufferPointer<UInt32>, from: Int, to: Int) {
        var n = from
        while n < to {
            let s = words[n]
            words[Int(s >> 5)] &= ~(1 << (s & 31))
            n += 1
        }
    }

    /// Writes `count` states from `states[first]` on into the list's slots from `slot` on and
    /// sets their bits (the states a step enters).
    @inlinable @inline(__always)
    static func enter(
        _ states: ChartTable<Int32>, from first: Int, count: Int, into words: UnsafeMutableBufferPointer<UInt32>, at slot: Int
    ) {
        var k = first
        var n = slot
        while n < slot + count {
            let s = UInt32(bitPattern: states[k])
            words[Int(s >> 5)] |= 1 << (s & 31)
            words[n] = s
            k += 1
            n += 1
        }
    }

    @inlinable mutating func removeAll() {
        let start = Int(listStart)
        let end = start + Int(listCount)
        storage.withUnsafeMutableBufferPointer { words in
            var n = start
            while n < end {
                words[Int(words[n] >> 5)] = 0
                n += 1
            }
        }
        listCount = 0
    }
}

/// The active states in document order: a view of a ``Configuration``'s list that shares its
/// storage (for the queries and the slow paths; the hot paths index the configuration itself).
@usableFromInline
struct ActiveStateList: RandomAccessCollection, Sendable {
    @usableFromInline let storage: [UInt32]
    @usableFromInline let start: Int
    @usableFromInline let endIndex: Int

    @inlinable init(storage: [UInt32], start: Int, count: Int) {
        self.storage = storage
        self.start = start
        self.endIndex = count
    }

    @inlinable var startIndex: Int { 0 }

    @inlinable subscript(position: Int) -> Int32 { Int32(bitPattern: storage[start + position]) }
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
