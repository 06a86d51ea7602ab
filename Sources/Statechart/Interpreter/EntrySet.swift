/// SCXML `computeEntrySet`: which states a set of transitions enters, which compound states are
/// entered by default (their initial transition's actions run), and which history defaults apply.
///
/// The recursion of `addDescendantStatesToEnter` / `addAncestorStatesToEnter` is replaced by an
/// explicit task stack that visits states in exactly the same order, so no chart can overflow the
/// stack. The same builder runs when a chart is compiled — to precompute the entry set of every
/// transition that involves no history (``Chart`` keeps them) — and at run time for the others.
///
/// Not generic: of the transitions it reads only the targets of initial and default transitions,
/// through a ``TransitionTargets`` (the compiler's shapes, or a chart's transitions).
@usableFromInline
struct EntrySetBuilder: Sendable {
    /// The states to enter, in the order found (sorted by ``finish()``).
    @usableFromInline var entries = ScratchBuffer<Int32>()
    /// History pseudo-states entered through their default transition: (parent, default transition).
    @usableFromInline var defaultHistory = ScratchBuffer<HistoryDefault>()
    @usableFromInline var marks: [UInt64] = []
    /// Compound states entered by default, as bits; consumed (cleared) when entered.
    @usableFromInline var defaultMarks: [UInt64] = []
    /// The words of ``marks`` and ``defaultMarks``. Both are allocated on first use: a machine
    /// whose transitions all have precomputed entry sets never computes one, and a machine that
    /// is created and started made two allocations for them (issue 16, "Memory").
    @usableFromInline var tasks = ScratchBuffer<Task>()
    /// The most entries a computation may find before it gives up, leaving more than `limit`
    /// entries, which are then incomplete. Only the compiler sets it: a precomputed entry set is
    /// worth keeping only when it is small, and a deep chain would otherwise cost O(depth²) to
    /// precompute (one full chain per level).
    @usableFromInline var limit = Int.max
    // The small fields last, so that they share one word (issue 16, "Memory": a machine holds
    // one builder).
    @usableFromInline var markWords: Int32
    /// The history slots read, in the order met: the result depends on their values (and on
    /// nothing else of the machine: ``EntrySetMemo``).
    @usableFromInline var historyReads = ScratchBuffer<Int32>()

    /// Whether a history state was met: the result then depends on history values.
    @inlinable var touchedHistory: Bool { !historyReads.isEmpty }

    @usableFromInline
    struct HistoryDefault: Sendable {
        @usableFromInline var parent: Int32
        @usableFromInline var transition: Int32
        @inlinable init(parent: Int32, transition: Int32) {
            self.parent = parent
            self.transition = transition
        }
    }

    @usableFromInline
    enum Task: Sendable {
        case descendants(Int32)
        case ancestors(Int32, upTo: Int32)
        case ancestorStep(Int32)
        case parallelChild(Int32)
    }

    @inlinable init(stateCount: Int) {
        markWords = Int32((stateCount + 63) / 64)
    }

    /// Makes ``marks`` before a computation adds entries (once per computation, not per entry).
    @inlinable @inline(__always) mutating func prepareMarks() {
        if marks.isEmpty { marks = Array(repeating: 0, count: Int(markWords)) }
    }

    /// Records that compound state `s` is entered by default.
    @inlinable mutating func markDefault(_ s: Int32) {
        if defaultMarks.isEmpty { defaultMarks = Array(repeating: 0, count: Int(markWords)) }
        defaultMarks[Int(s) >> 6] |= 1 << UInt64(s & 63)
    }

    /// Whether compound state `s` is marked as entered by default.
    @inlinable func isDefaultEntered(_ s: Int32) -> Bool {
        let w = Int(s) >> 6
        return w < defaultMarks.count && defaultMarks[w] & (1 << UInt64(s & 63)) != 0
    }

    /// Whether `s` is marked as entered by default, clearing the mark (the microstep runs the
    /// initial transition's actions once, as it enters the state).
    @inlinable mutating func takeDefaultMark(_ s: Int32) -> Bool {
        guard isDefaultEntered(s) else { return false }
        defaultMarks[Int(s) >> 6] &= ~(1 << UInt64(s & 63))
        return true
    }

    /// Clears the default-entry marks of the current entries.
    @inlinable mutating func clearDefaultMarks() {
        guard !defaultMarks.isEmpty else { return }
        for s in entries { defaultMarks[Int(s) >> 6] = 0 }
    }

    /// Starts a new computation.
    @inlinable mutating func clear() {
        entries.removeAll()
        if !defaultHistory.isEmpty { defaultHistory.removeAll() }
        historyReads.removeAll()
    }

    /// Adds a precomputed entry set (sorted states, `entries[range]`) and the compound states
    /// among them entered by default.
    @inlinable mutating func addStatic(
        _ entries: ChartTable<Int32>, _ range: Range<Int32>, defaultEntered defaults: ChartTable<Int32>,
        _ defaultRange: PoolRange
    ) {
        prepareMarks()
        for k in range { add(entries[Int(k)]) }
        markDefaultEntered(defaults, defaultRange)
    }

    /// Marks the compound states `defaults[range]` as entered by default.
    @inlinable mutating func markDefaultEntered(_ defaults: ChartTable<Int32>, _ range: PoolRange) {
        var k = Int(range.start)
        while k < Int(range.end) {
            markDefault(defaults[k])
            k += 1
        }
    }

    /// Adds what one transition enters: its targets with their default or history entry, and
    /// their ancestors below `domain`.
    @inlinable
    mutating func add<Event, Context>(
        targets: TargetList, effectiveTargets: TargetList, domain: Int32, chart: Chart<Event, Context>, history: [[Int32]?]
    ) {
        prepareMarks()
        tasks.removeAll()
        var i = effectiveTargets.count
        while i > 0 {
            i -= 1
            tasks.append(.ancestors(effectiveTargets[i], upTo: domain))
        }
        i = targets.count
        while i > 0 {
            i -= 1
            tasks.append(.descendants(targets[i]))
        }
        chart.states.withUnsafeBufferPointer { states in
            run(states: states, transitions: chart, history: history)
        }
    }

    /// The form of ``add(targets:effectiveTargets:domain:chart:history:)`` without history
    /// values (every history state enters its default), for the compiler and the validator.
    @inlinable
    mutating func add<T: TransitionTargets>(
        targets: TargetList, domain: Int32, states: UnsafeBufferPointer<CompiledState>, transitions: T
    ) {
        prepareMarks()
        tasks.removeAll()
        for t in targets.reversed() { tasks.append(.ancestors(t, upTo: domain)) }
        for t in targets.reversed() { tasks.append(.descendants(t)) }
        run(states: states, transitions: transitions, history: [])
    }

    /// Sorts the entries into entry order and clears the dedup marks.
    @inlinable mutating func finish() {
        for s in entries { marks[Int(s) >> 6] = 0 }
        entries.sortInPlace()
    }

    @inlinable mutating func add(_ s: Int32) {
        let w = Int(s) >> 6
        let bit: UInt64 = 1 << UInt64(s & 63)
        if marks[w] & bit == 0 {
            marks[w] |= bit
            entries.append(s)
        }
    }

    @inlinable
    mutating func run<T: TransitionTargets>(states: UnsafeBufferPointer<CompiledState>, transitions: T, history: [[Int32]?]) {
        while let task = tasks.popLast() {
            if entries.count > limit { return }
            switch task {
            case .descendants(let s):
                let kind = states[Int(s)].kind
                if kind.isHistory {
                    let parent = states[Int(s)].parent
                    let slot = Int(states[Int(s)].historySlot)
                    historyReads.append(Int32(slot))
                    if slot < history.count, let stored = history[slot] {
                        for v in stored.reversed() { tasks.append(.ancestors(v, upTo: parent)) }
                        for v in stored.reversed() { tasks.append(.descendants(v)) }
                    } else {
                        let d = states[Int(s)].initialTransition
                        defaultHistory.append(HistoryDefault(parent: parent, transition: d))
                        let targets = transitions.targets(of: d)
                        for v in targets.reversed() { tasks.append(.ancestors(v, upTo: parent)) }
                        for v in targets.reversed() { tasks.append(.descendants(v)) }
                    }
                } else {
                    add(s)
                    if kind == .compound {
                        markDefault(s)
                        let targets = transitions.targets(of: states[Int(s)].initialTransition)
                        for v in targets.reversed() { tasks.append(.ancestors(v, upTo: s)) }
                        for v in targets.reversed() { tasks.append(.descendants(v)) }
                    } else if kind == .parallel {
                        pushRegions(of: s, states: states)
                    }
                }
            case .ancestors(let s, let upTo):
                // Proper ancestors of s below upTo, nearest first: pushed furthest first.
                let base = tasks.count
                var a = states[Int(s)].parent
                while a >= 0 && a != upTo {
                    tasks.append(.ancestorStep(a))
                    a = states[Int(a)].parent
                }
                tasks.reverseTail(from: base)
            case .ancestorStep(let a):
                add(a)
                if states[Int(a)].kind == .parallel {
                    pushRegions(of: a, states: states)
                }
            case .parallelChild(let c):
                if !hasEntry(inside: c, end: states[Int(c)].end) {
                    tasks.append(.descendants(c))
                }
            }
        }
    }

    /// Pushes the regions of parallel state `p` (its children but history pseudo-states), last
    /// first, so that they are taken in document order.
    @inlinable
    mutating func pushRegions(of p: Int32, states: UnsafeBufferPointer<CompiledState>) {
        let base = tasks.count
        for c in ChildStates(of: p, in: states) where !states[Int(c)].kind.isHistory {
            tasks.append(.parallelChild(c))
        }
        tasks.reverseTail(from: base)
    }

    /// Whether a proper descendant of `c` (a state numbered in `c + 1 ..< end`) is among the
    /// entries so far. Scans whichever is shorter, the entries or the words of ``marks`` that
    /// cover the range, so that entering a parallel state with n regions stays O(n) rather than
    /// O(n²) (each region asks once, and the entries grow with the regions).
    @inlinable
    func hasEntry(inside c: Int32, end: Int32) -> Bool {
        let low = Int(c) + 1
        let high = Int(end)  // exclusive
        guard low < high else { return false }
        let firstWord = low >> 6
        let lastWord = (high - 1) >> 6
        if entries.count <= lastWord - firstWord + 1 {
            return entries.contains { $0 > c && $0 < end }
        }
        for w in firstWord...lastWord {
            var word = marks[w]
            if w == firstWord { word &= ~0 << UInt64(low & 63) }
            let top = (high - 1) & 63
            if w == lastWord && top < 63 { word &= (1 << UInt64(top + 1)) - 1 }
            if word != 0 { return true }
        }
        return false
    }
}

/// Where ``EntrySetBuilder`` reads the targets of a state's initial or default transition (its
/// `initialTransition`): an array of the compiler's transition shapes, or of a compiled chart's
/// transitions.
@usableFromInline
protocol TransitionTargets {
    func targets(of transition: Int32) -> TargetList
}

extension Chart: TransitionTargets {}
