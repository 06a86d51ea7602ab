extension ChartInstance {
    /// Selects the enabled transitions for an event into `selected`, in selection order (rules
    /// R4, R5): for each active atomic state, the first candidate whose descriptor matches and
    /// whose conditions hold. Domains and conflicts (rules R6, R7) are left to
    /// ``takeSelection()``, which decides first whether a fast case applies.
    ///
    /// Always inlined into its callers, so that a user event's descriptor test is specialized to
    /// an exact comparison.
    ///
    /// - Returns: Whether any transition is selected.
    @inlinable @inline(__always)
    mutating func selectTransitions(for event: ChartEvent<Event>) -> Bool {
        startSelection()
        var walk = SelectionWalk(over: self)
        while let (t, conditional, own) = walk.nextCandidate(in: self, matching: event) {
            if select(t, conditional: conditional, own: own, event: event, hint: walk.hint) {
                walk.selectedForThisState()
            }
        }
        return !selected.isEmpty
    }

    /// ``selectTransitions(for:)`` for the eventless transitions (rule R2): the same walk over
    /// the states' eventless candidates.
    @inlinable
    mutating func selectEventlessTransitions() -> Bool {
        startSelection()
        var walk = SelectionWalk(over: self)
        while let (t, conditional) = walk.nextEventlessCandidate(in: self) {
            if select(t, conditional: conditional, own: false, event: nil, hint: walk.hint) {
                walk.selectedForThisState()
            }
        }
        return !selected.isEmpty
    }

    @inlinable @inline(__always)
    mutating func startSelection() {
        selected.removeAll()
        clearResolvedTargets()
    }

    /// Selects a candidate whose descriptor matched when its conditions hold (rule R5). An
    /// ancestor's transition can be selected by several atomic states (parallel regions) and is
    /// taken once; a state's `own` transition can be selected by that state alone. `hint` says
    /// where the selecting state is (``SelectionWalk/hint``, kept by ``SelectionList``).
    ///
    /// - Returns: Whether it was selected (the walk then leaves this atomic state).
    @inlinable @inline(__always)
    mutating func select(
        _ t: Int32, conditional: Bool, own: Bool, event: @autoclosure () -> ChartEvent<Event>?, hint: Int32
    ) -> Bool {
        if conditional, !conditionsHold(t, event: event()) { return false }
        if own || !selected.contains(t) { selected.append(t, hint: hint) }
        return true
    }

    /// Takes the selected transitions (one microstep, rule R8): a fast case of `LeanStep.swift`
    /// when one applies to the selection (``takePlainSelection()``), otherwise with their
    /// domains computed and conflicts removed (rules R6, R7), the lean or the general microstep.
    @inlinable @inline(__always)
    mutating func takeSelection() {
        if !isTracing && takePlainSelection() { return }
        finishSelection()
        microstep()
    }

    /// Whether a transition whose descriptor matched is enabled: its guard holds, its
    /// asynchronous guard answered yes (rule R58) and its dynamic targets resolve.
    @inlinable
    mutating func conditionsHold(_ t: Int32, event: ChartEvent<Event>?) -> Bool {
        if let boxed = chart.closures.guards[Int(t)] {
            // A predicate, called through the chart's box: no retain (``ClosureBlocks``).
            let holds = boxed._withUnsafeGuaranteedRef { g in
                do {
                    return try g.predicate(scope.context, event)
                } catch {
                    guardThrew(transition: t, error)
                    return false
                }
            }
            if !holds { return false }
        } else if let g = chart.guardCondition(of: t), !evaluate(g, event: event, transition: t) {
            return false
        }
        if chart.hasAsyncGuards, chart.asyncGuards.hasValue(at: Int(t)), asyncGuardResults[t] != true {
            return false
        }
        if chart.dynamicTargets.hasValue(at: Int(t)), !resolveDynamicTargets(t, event: event) {
            return false
        }
        return true
    }

    /// Computes the domains of the selected transitions and removes conflicts (rules R6, R7).
    @inlinable
    mutating func finishSelection() {
        let scratch = stepScratch
        scratch.pointee.selectedDomains.removeAll()
        var n = 0
        while n < selected.count {
            let t = selected[n]
            let d = chart.lean[Int(t)].domain
            scratch.pointee.selectedDomains.append(d != -2 ? d : domain(of: t))
            n += 1
        }
        if selected.count > 1 { removeConflictingTransitions() }
    }

    /// The asynchronous guards an external event could consult in the current configuration, in
    /// selection order (rule R58): the runtime awaits them and passes the answers to
    /// ``setAsyncGuardResults(_:)`` before sending the event.
    public func asyncGuards(for event: Event) -> [(transition: Int32, condition: @Sendable (Context, Event) async -> Bool)] {
        guard chart.hasAsyncGuards else { return [] }
        var result: [(transition: Int32, condition: @Sendable (Context, Event) async -> Bool)] = []
        // Every matching candidate with an asynchronous guard, not only the first of each state:
        // which one is selected depends on the answers.
        var walk = SelectionWalk(over: self)
        while let (t, _, _) = walk.nextCandidate(in: self, matching: .event(event)) {
            guard let condition = chart.asyncGuards[Int(t)], !result.contains(where: { $0.transition == t }) else {
                continue
            }
            result.append((t, condition))
        }
        return result
    }

    /// Sets the answers of asynchronous guards for the next external event only (rule R58).
    public mutating func setAsyncGuardResults(_ results: [Int32: Bool]) {
        asyncGuardResults = results
    }

    /// A guard's closure threw: it counts as false, and `error.execution` is raised.
    @usableFromInline
    mutating func guardThrew(transition: Int32, _ error: any Error) {
        fail("guard of \(describeTransition(transition)) threw \(error)")
    }

    /// Evaluates a guard; a throwing predicate counts as false and raises `error.execution`.
    @inlinable
    mutating func evaluate(_ g: CompiledGuard<Event, Context>, event: ChartEvent<Event>?, transition: Int32) -> Bool {
        switch g {
        case .inState(let s):
            return configuration.contains(s)
        case .not(let inner):
            return !evaluate(inner, event: event, transition: transition)
        case .all(let gs):
            for x in gs where !evaluate(x, event: event, transition: transition) { return false }
            return true
        case .any(let gs):
            for x in gs where evaluate(x, event: event, transition: transition) { return true }
            return false
        case .predicate, .withInput:
            do {
                if case .predicate(let p) = g { return try p(scope.context, event) }
                if case .withInput(let p) = g { return try p(GuardInput(context: scope.context, environment: environment(event: event))) }
                return false
            } catch {
                guardThrew(transition: transition, error)
                return false
            }
        case .expression(_, let evaluate):
            do {
                return try evaluate(&scope.context, environment(event: event))
            } catch {
                fail("condition of \(describeTransition(transition)) failed: \(error)")
                return false
            }
        }
    }

    /// Runs a dynamic transition's target closure; an unknown id is an execution error and the
    /// transition is not taken.
    @usableFromInline
    mutating func resolveDynamicTargets(_ t: Int32, event: ChartEvent<Event>?) -> Bool {
        guard let compute = chart.dynamicTargets[Int(t)] else { return true }
        var targets: [Int32] = []
        for id in compute(scope.context, event) {
            guard let index = chart.indexByID[id] else {
                fail("dynamic target '\(id)' of \(describeTransition(t)) is not a state of the chart")
                return false
            }
            targets.append(index)
        }
        appendResolvedTargets(of: t, targets)
        return true
    }

    /// The declared targets of a transition, or those resolved when it was selected: a dynamic
    /// transition's (``resolveDynamicTargets(_:event:)``), a request's (``selectRequest(_:entering:)``).
    @inlinable
    func targets(of t: Int32) -> TargetList {
        if chart.targetsAreResolved(t) {
            if let box = stepScratchBox {
                let found: TargetList? = box.withUnsafeMutablePointerToHeader { scratch in
                    for r in scratch.pointee.resolvedTargets where r.transition == t {
                        // The pool's storage: the run is inside its count.
                        return TargetList(pool: scratch.pointee.resolvedTargetPool.storage, start: Int(r.start), count: Int(r.count))
                    }
                    return nil
                }
                if let found { return found }
            }
        }
        return chart.targets(of: t)
    }

    /// Targets with history states replaced by their stored value or default (SCXML
    /// `getEffectiveTargetStates`). Only transitions whose domain depends on it (`domain == -2`)
    /// can have history targets; for the others this is `targets(of:)`, without allocating.
    @inlinable
    func effectiveTargets(of t: Int32) -> TargetList {
        if chart.transitions[Int(t)].domain != -2 { return chart.targets(of: t) }
        // One target that is not a history state (a state request's, most dynamic ones): the
        // list itself, without the three arrays below (a request computes it three times).
        let declared = targets(of: t)
        if declared.count == 1 && !chart.states[Int(declared[0])].kind.isHistory { return declared }
        var result: [Int32] = []
        var pending = declared.array
        var i = 0
        while i < pending.count {
            let s = pending[i]
            i += 1
            let state = chart.states[Int(s)]
            if state.kind.isHistory {
                if let stored = historyValues[Int(state.historySlot)] {
                    for v in stored where !result.contains(v) { result.append(v) }
                } else {
                    pending.append(contentsOf: chart.targets(of: state.initialTransition))
                }
            } else if !result.contains(s) {
                result.append(s)
            }
        }
        return TargetList(result)
    }

    /// The transition domain (rule R6): -1 when targetless.
    @inlinable
    func domain(of t: Int32) -> Int32 {
        let d = chart.transitions[Int(t)].domain
        if d != -2 { return d }
        let targets = effectiveTargets(of: t)
        if targets.isEmpty { return -1 }
        return chart.domain(
            source: chart.transitions[Int(t)].source, targets: targets, isInternal: chart.transitions[Int(t)].isInternal)
    }

    /// SCXML `removeConflictingTransitions`: two transitions conflict when their exit sets
    /// intersect; a transition whose source is a descendant of the other's preempts it, otherwise
    /// the one selected first (document order of the atomic states) wins.
    @inlinable
    mutating func removeConflictingTransitions() {
        // Kept transitions are compacted in place at the front of `selected`: the transition at
        // index k is only compared with those kept before it, all at indices below k.
        let scratch = stepScratch
        var kept = 0
        for k in 0..<selected.count {
            let t1 = selected[k]
            let d1 = scratch.pointee.selectedDomains[k]
            var preempted = false
            var j = 0
            var removed = 0
            // First pass: is t1 preempted by a kept transition it conflicts with?
            while j < kept {
                if exitSetsIntersect(d1, scratch.pointee.selectedDomains[j]),
                    !chart.isDescendant(chart.transitions[Int(t1)].source, of: chart.transitions[Int(selected[j])].source)
                {
                    preempted = true
                    break
                }
                j += 1
            }
            if preempted { continue }
            // Second pass: drop the kept transitions t1 preempts (its source is their descendant).
            j = 0
            var write = 0
            while j < kept {
                if exitSetsIntersect(d1, scratch.pointee.selectedDomains[j]) {
                    removed += 1
                } else {
                    selected[write] = selected[j]
                    scratch.pointee.selectedDomains[write] = scratch.pointee.selectedDomains[j]
                    write += 1
                }
                j += 1
            }
            kept -= removed
            selected[kept] = t1
            scratch.pointee.selectedDomains[kept] = d1
            kept += 1
        }
        selected.truncate(to: kept)
        scratch.pointee.selectedDomains.truncate(to: kept)
    }

    /// Whether the exit sets of two transitions with these domains share an active state.
    ///
    /// Always inlined: a non-mutating method called from a mutating one receives a copy of the
    /// whole instance when it is not.
    @inline(__always) @inlinable
    func exitSetsIntersect(_ a: Int32, _ b: Int32) -> Bool {
        guard a >= 0, b >= 0 else { return false }
        let inner: Int32
        if a == b {
            inner = a
        } else if chart.isDescendant(b, of: a) {
            inner = b
        } else if chart.isDescendant(a, of: b) {
            inner = a
        } else {
            return false
        }
        let end = chart.states[Int(inner)].end
        for s in configuration.list where s > inner && s < end { return true }
        return false
    }

    @usableFromInline
    func describeTransition(_ t: Int32) -> String {
        let tr = chart.transitions[Int(t)]
        let source = tr.source == 0 ? chart.name : chart.ids[Int(tr.source)]
        return "transition \(tr.ordinal) of '\(source)'" + (chart.transitionLocations[Int(t)].map { " (\($0))" } ?? "")
    }
}
