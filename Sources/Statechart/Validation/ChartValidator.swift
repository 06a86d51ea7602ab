extension Chart {
    /// Checks the chart for states, transitions and events that can never matter, and for
    /// certain endless loops. The result is sorted: errors first, then by state order.
    ///
    /// Guards on the extended state are treated as free choices (either outcome is possible);
    /// `In(...)` conditions too. Nothing runs.
    public func validate() -> [ChartDiagnostic] {
        var v = ChartValidator(chart: self)
        return v.run()
    }

    /// ``validate()`` with state requests (typed routes and global states) as extra edges, and the
    /// typed builder's states that were only mentioned as targets (rule R65).
    func validate(requestEdges: [(from: Int32, to: Int32)], mentionedOnly: [Int32]) -> [ChartDiagnostic] {
        var v = ChartValidator(chart: self)
        v.requestEdges = requestEdges
        v.mentionedOnly = mentionedOnly
        return v.run()
    }
}

/// The checks of ``Chart/validate()``, over the compiled model.
struct ChartValidator<Event: Hashable & Sendable, Context> {
    let chart: Chart<Event, Context>
    var diagnostics: [ChartDiagnostic] = []
    /// State requests a front end allows: from a state to a target (entered through its request transition).
    var requestEdges: [(from: Int32, to: Int32)] = []
    /// States a typed machine only mentions as targets (rule R65).
    var mentionedOnly: [Int32] = []

    init(chart: Chart<Event, Context>) { self.chart = chart }

    typealias Ref = ChartDiagnostic.TransitionReference

    func name(_ s: Int32) -> String { s == 0 ? chart.name : chart.ids[Int(s)] }
    func ref(_ t: Int32) -> Ref {
        Ref(source: name(chart.transitions[Int(t)].source), ordinal: Int(chart.transitions[Int(t)].ordinal))
    }
    func location(_ t: Int32) -> SourceLocation? {
        if let declared = chart.transitionLocations[Int(t)] { return declared }
        return chart.locations[Int(chart.transitions[Int(t)].source)]
    }
    func selectable(of s: Int32) -> Range<Int32> { chart.states[Int(s)].transitionStart..<chart.states[Int(s)].transitionEnd }

    mutating func run() -> [ChartDiagnostic] {
        let reachable = reachableStates()
        for s in 1..<Int32(chart.stateCount) where !reachable[Int(s)] && !chart.states[Int(s)].kind.isHistory {
            diagnostics.append(
                ChartDiagnostic(
                    .warning, .unreachableState, "'\(name(s))' can never be entered", states: [name(s)],
                    location: chart.locations[Int(s)]))
        }
        for s in mentionedOnly {
            diagnostics.append(
                ChartDiagnostic(
                    .warning, .undeclaredState,
                    "'\(name(s))' is only mentioned as a target: no When, Final or Global declares it",
                    states: [name(s)], location: chart.locations[Int(s)]))
        }
        checkTransitionsOfEachState()
        checkUnhandledEvents()
        checkEventlessCycles()
        checkStructure()
        return diagnostics.enumerated().sorted { a, b in
            a.element.severity != b.element.severity ? a.element.severity < b.element.severity : a.offset < b.offset
        }.map(\.element)
    }

    // MARK: - Reachability

    /// The states some sequence of events can make active: entry sets of every transition of an
    /// active state (guards as free choices), starting with the initial configuration.
    func reachableStates() -> [Bool] {
        var reached = [Bool](repeating: false, count: chart.stateCount)
        var work: [Int32] = []
        var builder = EntrySetBuilder(stateCount: chart.stateCount)
        // A request transition is shared by its container's states: `target` is the one requested.
        func enter(_ t: Int32, target: Int32? = nil) {
            let tr = chart.transitions[Int(t)]
            var targets = target.map { TargetList([$0]) } ?? chart.targets(of: t)
            if chart.dynamicTargets.hasValue(at: Int(t)) {
                // Any state of the machine could be computed: treat the source's siblings and theirs as possible.
                let container = tr.source == 0 ? 0 : chart.states[Int(tr.source)].parent
                targets = TargetList(Array(chart.states.children(of: max(container, 0))))
            }
            guard !targets.isEmpty else { return }
            builder.clear()
            // A request's domain is its source (an internal transition into the source's descendants).
            let domain = tr.domain >= 0 ? tr.domain : target != nil ? tr.source : 0
            chart.states.withUnsafeBufferPointer { states in
                builder.add(targets: targets, domain: domain, states: states, transitions: chart)
            }
            builder.finish()
            for s in builder.entries where !reached[Int(s)] {
                reached[Int(s)] = true
                work.append(s)
            }
            // A history target may restore anything below its parent that was reached before: the
            // fixed point below adds those as the parent's descendants become reachable.
            for s in targets where chart.states[Int(s)].kind.isHistory { reached[Int(s)] = true }
        }
        enter(chart.states[0].initialTransition)
        // The root's transitions (chart-wide routes) apply whatever is active.
        for t in selectable(of: 0) { enter(t) }
        while let s = work.popLast() {
            for t in selectable(of: s) { enter(t) }
            for edge in requestEdges where edge.from == s {
                if let t = chart.requestTransitions[edge.to] { enter(t, target: edge.to) }
            }
        }
        return reached
    }

    // MARK: - Per-state transition checks

    mutating func checkTransitionsOfEachState() {
        for s in 0..<Int32(chart.stateCount) {
            let range = selectable(of: s)
            let ts = Array(range)
            for (i, later) in ts.enumerated() {
                for earlier in ts[..<i] {
                    if !chart.guards.hasValue(at: Int(earlier)), !chart.asyncGuards.hasValue(at: Int(earlier)), covers(chart.matchers[Int(earlier)], chart.matchers[Int(later)]) {
                        if isDuplicate(earlier, later) {
                            diagnostics.append(
                                ChartDiagnostic(
                                    .warning, .duplicateTransition,
                                    "\(ref(later)) repeats \(ref(earlier)): same events, condition and targets",
                                    states: [name(s)], transitions: [ref(earlier), ref(later)], location: location(later)))
                        } else {
                            diagnostics.append(
                                ChartDiagnostic(
                                    .warning, .shadowedTransition,
                                    "\(ref(later)) can never be taken: the unguarded \(ref(earlier)) handles \(describe(chart.matchers[Int(later)])) first",
                                    states: [name(s)], transitions: [ref(earlier), ref(later)], location: location(later)))
                        }
                        break
                    }
                    if isDuplicate(earlier, later) {
                        diagnostics.append(
                            ChartDiagnostic(
                                .warning, .duplicateTransition,
                                "\(ref(later)) repeats \(ref(earlier)): same events, condition and targets",
                                states: [name(s)], transitions: [ref(earlier), ref(later)], location: location(later)))
                        break
                    }
                }
            }
        }
    }

    func describe(_ m: EventMatcher<Event>?) -> String {
        guard let m else { return "the eventless case" }
        switch m {
        case .any: return "every event"
        case .event(let e): return "'\(chart.eventName(e))'"
        case .matching: return "the events of its predicate"
        case .done(let s): return "'done.state.\(name(s))'"
        case .error: return "error events"
        case .timer(let k): return "timer '\(k)'"
        case .names(let tokens): return "'\(tokens.joined(separator: " "))'"
        }
    }

    /// Whether every event `b` matches is matched by `a` (both eventless counts).
    func covers(_ a: EventMatcher<Event>?, _ b: EventMatcher<Event>?) -> Bool {
        switch (a, b) {
        case (nil, nil): return true
        case (nil, _), (_, nil): return false
        case (.any?, _): return true
        case (.event(let x)?, .event(let y)?): return x == y
        case (.done(let x)?, .done(let y)?): return x == y
        case (.error?, .error?): return true
        case (.timer(let x)?, .timer(let y)?): return x == y
        case (.names(let xs)?, .names(let ys)?):
            return !ys.isEmpty && ys.allSatisfy { y in xs.contains { EventMatcher<Event>.tokenMatches($0, y) } }
        case (.names(let xs)?, .error?): return xs.contains { EventMatcher<Event>.tokenMatches($0, "error.execution") }
        case (.names(let xs)?, .done(let s)?):
            return xs.contains { EventMatcher<Event>.tokenMatches($0, "done.state." + name(s)) }
        default: return false
        }
    }

    /// Whether transition `t` has dynamic targets or an asynchronous guard: closures that make
    /// two transitions alike in everything else differ.
    func hasClosures(_ t: Int32) -> Bool {
        chart.dynamicTargets.hasValue(at: Int(t)) || chart.asyncGuards.hasValue(at: Int(t))
    }

    func isDuplicate(_ x: Int32, _ y: Int32) -> Bool {
        let a = chart.transitions[Int(x)]
        let b = chart.transitions[Int(y)]
        guard chart.targets(of: x) == chart.targets(of: y), a.isInternal == b.isInternal, !hasClosures(x), !hasClosures(y),
            covers(chart.matchers[Int(x)], chart.matchers[Int(y)]), covers(chart.matchers[Int(y)], chart.matchers[Int(x)])
        else { return false }
        switch (chart.guardCondition(of: x), chart.guardCondition(of: y)) {
        case (nil, nil): return true
        case (let g?, let h?): return sameGuard(g, h)
        default: return false
        }
    }

    func sameGuard(_ g: CompiledGuard<Event, Context>, _ h: CompiledGuard<Event, Context>) -> Bool {
        switch (g, h) {
        case (.inState(let a), .inState(let b)): return a == b
        case (.not(let a), .not(let b)): return sameGuard(a, b)
        case (.all(let a), .all(let b)), (.any(let a), .any(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { sameGuard($0, $1) }
        default: return false  // Swift predicates cannot be compared
        }
    }

    // MARK: - Events

    /// Events that actions raise or send (by name) that no transition descriptor matches.
    mutating func checkUnhandledEvents() {
        var produced: [(name: String, event: Event, state: Int32)] = []
        func collect(_ actions: [Action<Event, Context>], _ s: Int32) {
            for a in actions {
                switch a {
                case .raise(let e), .send(let e, _, _):
                    let n = chart.eventName(e)
                    if !produced.contains(where: { $0.name == n }) { produced.append((n, e, s)) }
                default: break
                }
            }
        }
        for s in 0..<Int32(chart.stateCount) {
            for block in chart.entryActions[Int(s)] { collect(block, s) }
            for block in chart.exitActions[Int(s)] { collect(block, s) }
        }
        for (k, t) in chart.transitions.enumerated() { collect(chart.actions(of: Int32(k)), t.source) }
        for p in produced {
            let handled = chart.transitions.indices.contains { k in
                guard let m = chart.matchers[k], !chart.transitions[k].isPseudo else { return false }
                return m.matches(.event(p.event), in: chart)
            }
            if !handled {
                diagnostics.append(
                    ChartDiagnostic(
                        .warning, .unhandledEvent, "'\(p.name)' is raised or sent by '\(name(p.state))' but no transition handles it",
                        states: [name(p.state)], location: chart.locations[Int(p.state)]))
            }
        }
    }

    // MARK: - Eventless cycles

    /// From each atomic state, the eventless transition that is certainly taken (the first
    /// eventless candidate when it is unguarded); following those from state to state and coming
    /// back is an endless loop.
    mutating func checkEventlessCycles() {
        var next = [Int32](repeating: -1, count: chart.stateCount)
        var via = [Int32](repeating: -1, count: chart.stateCount)
        var builder = EntrySetBuilder(stateCount: chart.stateCount)
        for s in 0..<Int32(chart.stateCount) where chart.states[Int(s)].kind == .atomic {
            let st = chart.states[Int(s)]
            guard st.eventlessStart < st.eventlessEnd else { continue }
            let t = chart.eventlessCandidates[Int(st.eventlessStart)]
            let tr = chart.transitions[Int(t)]
            guard !chart.guards.hasValue(at: Int(t)), !hasClosures(t), tr.domain >= 0,
                tr.targetCount > 0
            else { continue }
            builder.clear()
            chart.states.withUnsafeBufferPointer { states in
                builder.add(targets: chart.targets(of: t), domain: tr.domain, states: states, transitions: chart)
            }
            builder.finish()
            // Only a single resulting atomic state is followed (parallel targets are not).
            let atomics = builder.entries.filter { chart.states[Int($0)].kind.isAtomic }
            if atomics.count == 1 {
                next[Int(s)] = atomics[0]
                via[Int(s)] = t
            }
        }
        var reported = Set<Int32>()
        for start in 0..<Int32(chart.stateCount) where next[Int(start)] >= 0 && !reported.contains(start) {
            var path: [Int32] = []
            var s = start
            while s >= 0, !path.contains(s), path.count <= chart.stateCount {
                path.append(s)
                s = next[Int(s)]
            }
            guard s >= 0, let i = path.firstIndex(of: s) else { continue }
            let cycle = Array(path[i...])
            if cycle.contains(where: reported.contains) { continue }
            reported.formUnion(cycle)
            diagnostics.append(
                ChartDiagnostic(
                    .error, .eventlessCycle,
                    "unguarded eventless transitions loop forever: " + (cycle + [cycle[0]]).map { "'\(name($0))'" }.joined(separator: " → "),
                    states: cycle.map(name), transitions: cycle.map { ref(via[Int($0)]) }, location: location(via[Int(cycle[0])])))
        }
    }

    // MARK: - Structure

    mutating func checkStructure() {
        for s in 1..<Int32(chart.stateCount) {
            let st = chart.states[Int(s)]
            switch st.kind {
            case .parallel:
                let regions = chart.states.children(of: s).filter { !chart.states[Int($0)].kind.isHistory }
                if regions.count == 1 {
                    diagnostics.append(
                        ChartDiagnostic(
                            .warning, .singleRegionParallel, "parallel state '\(name(s))' has a single region",
                            states: [name(s)], location: chart.locations[Int(s)]))
                }
            case .shallowHistory, .deepHistory:
                let parent = st.parent
                // The parent is exited by a transition whose domain is a proper ancestor of it (or
                // may be, when the domain depends on history or a computed target), or by a request.
                let exited =
                    chart.transitions.contains { t in
                        !t.isPseudo && (t.domain == -2 || (t.domain >= 0 && chart.isDescendant(parent, of: t.domain)))
                    }
                    || requestEdges.contains { edge in
                        chart.requestTransitions[edge.to].map { chart.isDescendant(parent, of: chart.transitions[Int($0)].domain) } ?? false
                    }
                if !exited {
                    diagnostics.append(
                        ChartDiagnostic(
                            .warning, .historyNeverRecorded,
                            "history '\(name(s))' never records anything: no transition ever exits '\(name(parent))'",
                            states: [name(s), name(parent)], location: chart.locations[Int(s)]))
                }
            case .atomic:
                var leaves = false
                var a = s
                while a >= 0 && !leaves {
                    leaves = !selectable(of: a).isEmpty
                    a = chart.states[Int(a)].parent
                }
                if !leaves && !requestEdges.contains(where: { $0.from == s }) {
                    diagnostics.append(
                        ChartDiagnostic(
                            .warning, .terminalState, "'\(name(s))' is not final but no transition leaves it",
                            states: [name(s)], location: chart.locations[Int(s)]))
                }
            default:
                break
            }
        }
    }
}
