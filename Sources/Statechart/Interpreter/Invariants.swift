extension ChartInstance {
    /// The ways the running state breaks the interpreter's invariants (empty when it is legal):
    /// every active state's parent is active; an active compound state has exactly one active
    /// child; an active parallel state has all its regions active; no history pseudo-state is
    /// active; history values point at descendants of their parent; the configuration list and
    /// bitset agree; a machine that halted holds no active state.
    ///
    /// Checked after every operation when the library is built with `STATECHART_INTERNAL_CHECKS`
    /// (rule R75); tests and fuzz targets may call it at any time.
    @_spi(Testing)
    public func invariantViolations() -> [String] {
        var problems: [String] = []
        func name(_ s: Int32) -> String { s == 0 ? chart.name : chart.ids[Int(s)] }
        let list = Array(configuration.list)
        if list != list.sorted() || Set(list).count != list.count {
            problems.append("the configuration list is not sorted and unique: \(list.map(name))")
        }
        // Linear in the chart, so that checking after every step stays affordable for huge charts.
        let listed = Set(list)
        for s in 0..<Int32(chart.stateCount) where configuration.contains(s) != listed.contains(s) {
            problems.append("'\(name(s))' is in one of the configuration's list and bitset only")
        }
        if !isRunning && hasStarted && !list.isEmpty {
            problems.append("the machine halted but states are active: \(list.map(name))")
        }
        for s in list {
            let state = chart.states[Int(s)]
            if s == 0 { problems.append("the root is in the configuration") }
            if state.kind.isHistory { problems.append("history state '\(name(s))' is active") }
            if state.parent > 0 && !configuration.contains(state.parent) {
                problems.append("'\(name(s))' is active but its parent '\(name(state.parent))' is not")
            }
            let children = chart.states.children(of: s).filter { !chart.states[Int($0)].kind.isHistory }
            let active = children.filter { configuration.contains($0) }
            switch state.kind {
            case .compound where active.count != 1:
                problems.append("compound '\(name(s))' has \(active.count) active children: \(active.map(name))")
            case .parallel where active.count != children.count:
                problems.append("parallel '\(name(s))' has \(active.count) of its \(children.count) regions active")
            default:
                break
            }
        }
        if isRunning {
            let top = chart.states.children(of: 0).filter { !chart.states[Int($0)].kind.isHistory && configuration.contains($0) }
            if top.count != 1 { problems.append("\(top.count) top-level states are active: \(top.map(name))") }
        }
        for h in 0..<Int32(chart.stateCount) where chart.states[Int(h)].kind.isHistory {
            guard let stored = historyValues[Int(chart.states[Int(h)].historySlot)] else { continue }
            let parent = chart.states[Int(h)].parent
            for v in stored where !chart.isDescendant(v, of: parent) {
                problems.append("history '\(name(h))' stores '\(name(v))', which is not inside '\(name(parent))'")
            }
        }
        return problems
    }

    /// Whether this build of the library checks the invariants after every operation: it was
    /// compiled with `STATECHART_INTERNAL_CHECKS` (rule R75).
    @_spi(Testing)
    public static var internalChecksEnabled: Bool {
        #if STATECHART_INTERNAL_CHECKS
            true
        #else
            false
        #endif
    }

    /// Traps when an invariant is broken, in builds compiled with `STATECHART_INTERNAL_CHECKS`
    /// (the project's own tests and CI: `.ci/run`, `Scripts/sanitizers.sh`); otherwise empty and
    /// inlined away. The check walks the whole chart (28 µs a send at 50 states, 23 ms at 50,000),
    /// too much for users' debug builds (rule R75), so it is an internal check as in
    /// swift-collections (`COLLECTIONS_INTERNAL_CHECKS`).
    @inlinable @inline(__always)
    func assertInvariants() {
        #if STATECHART_INTERNAL_CHECKS
            checkInvariants()
        #endif
    }

    /// The check itself: a `precondition`, so it holds in the optimized builds of the sanitizer
    /// runs too.
    @usableFromInline @inline(never)
    func checkInvariants() {
        let problems = invariantViolations()
        precondition(problems.isEmpty, "Statechart invariant broken: " + problems.joined(separator: "; "))
    }
}
