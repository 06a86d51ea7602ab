extension ChartInstance {
    /// Takes the selected transitions together (SCXML `microstep`, rule R8): exit the exit set in
    /// exit order (history recorded first), run the transitions' actions in selection order, enter
    /// the entry set in entry order.
    ///
    /// Transitions whose entry sets were precomputed take the lean path (`LeanStep.swift`); the
    /// others, and every step while tracing, take the general one. Both do the same thing.
    @inlinable
    mutating func microstep() {
        if !isTracing && selectedAreStatic() {
            leanMicrostep()
        } else {
            generalMicrostep()
        }
    }

    /// The general microstep: any transitions, history and dynamic targets included, with tracing.
    @inlinable
    mutating func generalMicrostep() {
        // The chart read through `self` at each use, not held in a local (a retain and a release
        // per step: see ``enterStates(scratch:)``).
        let scratch = stepScratch
        // 1. Exit set: active proper descendants of any domain, in reverse document order (the
        //    scope's lists through one pointer: no action runs before step 3).
        let lists = scope.stepLists(room: configuration.count)
        lists.clearExits()
        var i = configuration.count - 1
        while i >= 0 {
            let s = configuration[i]
            i -= 1
            for d in scratch.pointee.selectedDomains where d >= 0 && chart.isDescendant(s, of: d) {
                lists.appendExit(s)
                break
            }
        }
        // 2. History is recorded for every exited state before any exit action runs (rule R11).
        for s in lists.exits where chart.states[Int(s)].hasHistoryChild { recordHistory(of: s) }
        // The entry set reads the history just recorded; computing it now lets exit actions see
        // where the machine is going.
        let plainEntry = computeEntrySet(in: scratch)
        // 3. Exit actions, then removal from the configuration: in one pass when no exited state
        //    runs anything (tracing records each exit, so it takes the loop).
        if isTracing || chart.hasInvocations || exitsRunActions() {
            exitStates()
        } else {
            configuration.remove(all: UnsafeBufferPointer(scope.stepLists(room: 0).exits))
        }
        // 4. Transition actions in selection order.
        var n = 0
        while n < selected.count {
            let t = selected[n]
            n += 1
            if isTracing { traceTransition(t) }
            if !chart.actions(of: t).isEmpty { runTransitionActions(t) }
        }
        // 5. Entry in document order; in one pass when entering runs nothing, as in the lean
        //    microstep (a history re-entered from memory, ``EntrySetMemo``, usually does not).
        if plainEntry {
            configuration.insert(sorted: UnsafeBufferPointer(scope.stepLists(room: 0).entries))
        } else {
            enterStates(scratch: scratch)
        }
    }

    /// Whether a state of the scope's exit set has exit actions.
    @inlinable
    func exitsRunActions() -> Bool {
        var k = 0
        while k < scope.exitCount {
            if chart.states[Int(scope.exit(at: k))].hasExitActions { return true }
            k += 1
        }
        return false
    }

    /// Whether entering the entry set just computed runs nothing (``LeanTransition/Flags/plainEntry``
    /// for a set found at run time): no entry actions, no final state, no actions of an initial
    /// transition taken by default or of a history default.
    @inlinable
    func entrySetRunsNothing(_ scratch: UnsafeMutablePointer<StepScratch>) -> Bool {
        var k = 0
        while k < scope.entryCount {
            let s = scope.entry(at: k)
            k += 1
            if chart.states[Int(s)].hasEntryActions || chart.states[Int(s)].kind == .final { return false }
            if scratch.pointee.entrySet.isDefaultEntered(s),
                !chart.actions(of: chart.states[Int(s)].initialTransition).isEmpty
            {
                return false
            }
        }
        var h = 0
        while h < scratch.pointee.entrySet.defaultHistory.count {
            if !chart.actions(of: scratch.pointee.entrySet.defaultHistory[h].transition).isEmpty { return false }
            h += 1
        }
        return true
    }

    @usableFromInline
    mutating func traceTransition(_ t: Int32) {
        let tr = chart.transitions[Int(t)]
        guard !tr.isPseudo else { return }
        trace.append(
            .transition(
                source: tr.source == 0 ? chart.name : chart.ids[Int(tr.source)], ordinal: Int(tr.ordinal),
                targets: targets(of: t).map { chart.ids[Int($0)] }))
    }

    /// Exits the scope's exited states in that order: each one's exit actions, its invoked work
    /// cancelled, then its removal from the configuration (SCXML `exitStates`, after the history
    /// was recorded).
    @inlinable
    mutating func exitStates() {
        var k = 0
        while k < scope.exitCount {
            let s = scope.exit(at: k)
            k += 1
            if isTracing { trace.append(.exited(chart.ids[Int(s)])) }
            runActions(of: s, onExit: true)
            if chart.hasInvocations { stopInvocations(of: s) }
            configuration.remove(s)
        }
    }

    /// Stores the history values of an exiting state: deep = active atomic descendants,
    /// shallow = active children.
    ///
    /// The slot's array is taken out, emptied and filled again, so that it is the only reference
    /// to its storage and keeps it: recording a history again allocates nothing (a new array
    /// each time cost a deep-history cycle two allocations per event). A snapshot that shares
    /// the old value keeps it: the storage is then copied, not changed.
    @inlinable
    mutating func recordHistory(of s: Int32) {
        // Inlinable, so that it is specialized with the step that calls it (compiled once in the
        // library, each read of the instance's fields went through its generic metadata).
        let end = chart.states[Int(s)].end
        for h in chart.states.children(of: s) {
            let kind = chart.states[Int(h)].kind
            guard kind.isHistory else { continue }
            let slot = Int(chart.states[Int(h)].historySlot)
            let deep = kind == .deepHistory
            // Leaving a state as it was left before records what the slot holds: a read, no write.
            if historyHolds(slot, of: s, end: end, deep: deep) { continue }
            var value = historyValues[slot] ?? []
            historyValues[slot] = nil
            value.removeAll(keepingCapacity: true)
            forEachHistoryMember(of: s, end: end, deep: deep) { a in
                value.append(a)
                return true
            }
            historyValues[slot] = value
        }
    }

    /// Whether history slot `slot` of state `s` (whose subtree ends before `end`) holds what
    /// recording it now would store.
    @inlinable
    func historyHolds(_ slot: Int, of s: Int32, end: Int32, deep: Bool) -> Bool {
        guard let stored = historyValues[slot] else { return false }
        var k = 0
        var same = true
        forEachHistoryMember(of: s, end: end, deep: deep) { a in
            same = k < stored.count && stored[k] == a
            k += 1
            return same
        }
        return same && k == stored.count
    }

    /// Calls `body` with each state the history of `s` (whose subtree ends before `end`)
    /// records, in document order — its active atomic descendants (`deep`) or its active
    /// children — until `body` returns `false`. The configuration's list is sorted, so the
    /// subtree is one run of it.
    @inlinable
    func forEachHistoryMember(of s: Int32, end: Int32, deep: Bool, _ body: (Int32) -> Bool) {
        var i = 0
        while i < configuration.count {
            let a = configuration[i]
            i += 1
            if a <= s { continue }
            if a >= end { return }
            if deep ? chart.states[Int(a)].kind.isAtomic : chart.states[Int(a)].parent == s {
                if !body(a) { return }
            }
        }
    }

    /// SCXML `computeEntrySet` into the scope's entered states (entry order): a precomputed entry set for
    /// each transition that has one, the ``EntrySetBuilder`` for those that involve history or a
    /// dynamic target. Transitions taken together never enter overlapping subtrees (their exit
    /// sets are disjoint, rule R7), so the union of their entry sets is the joint one.
    ///
    /// A step of one such transition that met history is remembered with the history values it
    /// read, and taken from memory while they hold (``EntrySetMemo``); never while tracing.
    ///
    /// - Returns: Whether entering the set runs nothing (``entrySetRunsNothing(_:)``), so that
    ///   the configuration can take it in one pass; the default-entry marks are then cleared (or,
    ///   for a set taken from memory, never made). Always `false` while tracing, or when the
    ///   chart invokes work.
    @inlinable
    mutating func computeEntrySet(in scratch: UnsafeMutablePointer<StepScratch>) -> Bool {
        scratch.pointee.entrySet.clear()
        // A state request's set is remembered by its target too (``EntrySetMemo``); other
        // transitions whose targets are given at run time are not remembered.
        var memoTarget: Int32 = -1
        var remembered = false
        if selected.count == 1 && !isTracing && !chart.lean[Int(selected[0])].flags.contains(.isStatic) {
            let t = selected[0]
            if chart.requestTransitions.contains(t) {
                let ts = targets(of: t)
                if ts.count == 1 {
                    memoTarget = ts[0]
                    remembered = true
                }
            } else {
                remembered = !chart.targetsAreResolved(t)
            }
        }
        if remembered, let r = scratch.pointee.entryMemo.record(of: selected[0], target: memoTarget, history: historyValues) {
            let count = scratch.pointee.entryMemo.entryCount(r)
            let lists = scope.stepLists(room: count)
            scratch.pointee.entryMemo.copyEntries(r, to: lists.entryStorage)
            lists.setEntryCount(count)
            // A set that runs nothing needs no default marks: they only say which initial and
            // history-default actions to run.
            if scratch.pointee.entryMemo.runsNothing(r) { return !chart.hasInvocations }
            scratch.pointee.entryMemo.markDefaults(r, in: &scratch.pointee.entrySet)
            return false
        }
        var n = 0
        while n < selected.count {
            let t = selected[n]
            n += 1
            let lean = chart.lean[Int(t)]
            if lean.flags.contains(.isStatic) {
                scratch.pointee.entrySet.addStatic(
                    chart.leanEntries, lean.entryStart..<lean.entryEnd, defaultEntered: chart.staticDefaultEntries,
                    chart.staticDefaults[Int(t)])
            } else {
                let ts = targets(of: t)
                if ts.isEmpty { continue }
                // The domain the selection worked out (``finishSelection()``, or a request's
                // ``selectRequest(_:entering:)``), not worked out again.
                scratch.pointee.entrySet.add(
                    targets: ts, effectiveTargets: effectiveTargets(of: t), domain: scratch.pointee.selectedDomains[n - 1],
                    chart: chart, history: historyValues)
            }
        }
        scratch.pointee.entrySet.finish()
        let count = scratch.pointee.entrySet.entries.count
        let lists = scope.stepLists(room: count)
        lists.clearEntries()
        var k = 0
        while k < count {
            lists.appendEntry(scratch.pointee.entrySet.entries[k])
            k += 1
        }
        let plain = !isTracing && !chart.hasInvocations && entrySetRunsNothing(scratch)
        if remembered && (scratch.pointee.entrySet.touchedHistory || memoTarget >= 0) {
            scratch.pointee.entryMemo.remember(
                selected[0], target: memoTarget, from: scratch.pointee.entrySet, runsNothing: plain, history: historyValues)
        }
        if plain { scratch.pointee.entrySet.clearDefaultMarks() }
        return plain
    }

    /// SCXML `enterStates`: per state in document order — add to the configuration, entry actions,
    /// the initial transition's actions if entered by default, a history default's actions, then
    /// done events (rules R10, R12, R13).
    @inlinable
    mutating func enterStates(scratch: UnsafeMutablePointer<StepScratch>) {
        // The chart is read through `self` at each use, not held in a local: a local is a retain
        // and a release per microstep, and each array read from it another pair (issue 16).
        // Default entries and history defaults are marked in the step scratch (the caller's,
        // passed down: each `stepScratch` is a uniqueness check; nothing replaces the box while
        // the step runs).
        var k = 0
        while k < scope.entryCount {
            let s = scope.entry(at: k)
            k += 1
            configuration.insert(s)
            if isTracing { trace.append(.entered(chart.ids[Int(s)])) }
            runActions(of: s, onExit: false)
            if scratch.pointee.entrySet.takeDefaultMark(s) {
                let actions = chart.actions(of: chart.states[Int(s)].initialTransition)
                if !actions.isEmpty { runBlock(actions, state: s) }
            }
            let defaultHistory = scratch.pointee.entrySet.defaultHistory
            if !defaultHistory.isEmpty, let h = defaultHistory.last(where: { $0.parent == s }) {
                let actions = chart.actions(of: h.transition)
                if !actions.isEmpty { runBlock(actions, state: s) }
            }
            if chart.hasInvocations && !chart.invocations[Int(s)].isEmpty { startInvocations(of: s) }
            if chart.states[Int(s)].kind == .final { enteredFinal(s) }
        }
    }

    /// Runs a state's entry actions (or, with `onExit`, its exit actions), block by block: a block
    /// that throws does not stop the next. A block of closures runs boxed (``runClosures(_:)``).
    /// `onExit` is a constant at every call, so each call keeps one side.
    @inlinable @inline(__always)
    mutating func runActions(of s: Int32, onExit: Bool) {
        guard onExit ? chart.states[Int(s)].hasExitActions : chart.states[Int(s)].hasEntryActions else { return }
        let boxed = onExit ? chart.closures.exits[Int(s)] : chart.closures.entries[Int(s)]
        if boxed.exists { return runClosures(boxed) }
        // By index, and the chart read through `self`: see enterStates(scratch:).
        let blocks = onExit ? chart.exitActions[Int(s)].count : chart.entryActions[Int(s)].count
        var b = 0
        while b < blocks {
            runBlock(onExit ? chart.exitActions[Int(s)][b] : chart.entryActions[Int(s)][b], state: s)
            b += 1
        }
    }

    /// Done events, or the end of the machine, for an entered final state (rules R13, R15).
    @usableFromInline
    mutating func enteredFinal(_ s: Int32) {
        let chart = self.chart
        let parent = chart.states[Int(s)].parent
        if parent == 0 {
            isRunning = false
            finalState = ChartStateID(s)
            if isTracing { trace.append(.halted(chart.ids[Int(s)])) }
            return
        }
        raiseInternal(.done(ChartStateID(parent)))
        let grandparent = chart.states[Int(parent)].parent
        if grandparent >= 0, chart.states[Int(grandparent)].kind == .parallel,
            chart.states.children(of: grandparent).allSatisfy({ chart.states[Int($0)].kind.isHistory || isInFinalState($0) })
        {
            raiseInternal(.done(ChartStateID(grandparent)))
        }
    }

    /// Keeps work queued by ``ActionScope/perform(_:_:)`` for the runtime (rule R51).
    @usableFromInline
    mutating func queueWork(_ name: String?, _ work: @escaping @Sendable () async throws -> Event?) {
        let source = scope.currentState.map { chart.ids[Int($0.index)] } ?? chart.name
        pendingWork.append(PendingWork(name: name, source: source, work: work))
    }

    /// Requests the start of a state's invoked work (rule R52).
    @usableFromInline
    mutating func startInvocations(of s: Int32) {
        for invocation in chart.invocations[Int(s)] {
            invocationToken &+= 1
            invocationRequests.append(.start(token: invocationToken, state: ChartStateID(s), invocation: invocation))
            runningInvocations.append((invocationToken, s))
        }
    }

    /// Cancels a state's invoked work; work requested in this macrostep is simply not started.
    @usableFromInline
    mutating func stopInvocations(of s: Int32) {
        guard runningInvocations.contains(where: { $0.state == s }) else { return }
        for (token, state) in runningInvocations where state == s {
            let pendingStart = invocationRequests.firstIndex {
                if case .start(let t, _, _) = $0 { return t == token }
                return false
            }
            if let pendingStart {
                invocationRequests.remove(at: pendingStart)
            } else {
                invocationRequests.append(.cancel(token: token))
            }
        }
        runningInvocations.removeAll { $0.state == s }
    }

    /// Whether a compound state has an active final child, or every region of a parallel does.
    @usableFromInline
    func isInFinalState(_ s: Int32) -> Bool {
        let state = chart.states[Int(s)]
        switch state.kind {
        case .compound:
            return chart.states.children(of: s).contains { chart.states[Int($0)].kind == .final && configuration.contains($0) }
        case .parallel:
            return chart.states.children(of: s).allSatisfy { chart.states[Int($0)].kind.isHistory || isInFinalState($0) }
        default:
            return false
        }
    }

    @inlinable
    mutating func raiseInternal(_ event: ChartEvent<Event>) {
        internalQueue.append(event)
        if isTracing { trace.append(.raised(chart.name(of: event))) }
    }

    /// Runs one closure of a block with the scope; `false` when it threw (the error is raised as
    /// `error.execution` and the rest of the block is skipped, rule R14).
    @inlinable @inline(__always)
    mutating func runClosure(
        _ label: @autoclosure () -> String, named: @autoclosure () -> Bool, state: Int32,
        _ body: (inout ActionScope<Event, Context>) throws -> Void
    ) -> Bool {
        scope.currentState = ChartStateID(state)
        if isTracing { trace.append(.action(label())) }
        do {
            try body(&scope)
            applyEffects()
            return true
        } catch {
            applyEffects()
            let owner = state == 0 ? chart.name : chart.ids[Int(state)]
            // Failed content that says which element failed is named by it, not by its block.
            let described = error as? any DescribedFailure
            let message = described == nil
                ? "action \(named() ? "'\(label())' " : "")of '\(owner)' threw \(error)" : "content of '\(owner)' failed: \(error)"
            fail(message, sendID: (error as? any SendFailure)?.sendID, data: described?.errorData ?? .undefined)
            return false
        }
    }

    /// Runs a block of boxed closures (``ClosureBlocks``): each is called through a reference the
    /// chart keeps alive, with no retain or release. When one throws, the rest of the block is
    /// skipped (rule R14), as in ``runBlock(_:state:)``.
    @inlinable
    mutating func runClosures(_ block: ClosureBlock) {
        var i = block.start
        while i < block.end {
            let box = chart.closures.pool[Int(i)]
            i += 1
            let ran = box._withUnsafeGuaranteedRef { action in
                runClosure(action.name ?? Action<Event, Context>.unnamedLabel, named: action.name != nil, state: block.state) { try action.body(&$0) }
            }
            if !ran { return }
        }
    }

    /// Runs one block of executable content. When an action throws, the rest of the block is
    /// skipped and `error.execution` is raised (rule R14); other blocks still run.
    @inlinable
    mutating func runBlock(_ actions: [Action<Event, Context>], state: Int32) {
        // By index, and each case binds only what it uses: `for action in actions` copied every
        // action, and binding a content block's source copied that too.
        for i in actions.indices {
            // Content first, matched alone: the `switch` copied the whole action (all its cases'
            // payloads, through an outlined copy) before looking at it. A closure's name is only
            // read when it is traced or throws: binding it retained its string at every call.
            if case .run(_, let body) = actions[i] {
                guard runClosure(actions[i].label, named: actions[i].isNamed, state: state, { try body(&$0) }) else { return }
                continue
            }
            if case .content(_, let body) = actions[i] {
                let environment = environment(event: scope.currentEvent)
                guard runClosure(actions[i].label, named: true, state: state, { try body(&$0, environment) }) else { return }
                continue
            }
            switch actions[i] {
            case .raise(let e):
                raiseInternal(.event(e))
            case .send(let e, let delay, let id):
                send(.event(e), delay: delay, id: id)
            case .cancel(let id):
                cancelSend(id: id)
            case .log(let label, let message):
                if isTracing { trace.append(.log(message.map { "\(label): \($0)" } ?? label)) }
            case .startTimer(let key, let delay):
                let id = "timer." + key
                cancelSend(id: id)
                send(.timer(key), delay: delay, id: id)
            case .cancelTimer(let key):
                cancelSend(id: "timer." + key)
            case .run, .content:
                continue  // run above
            }
        }
    }

    /// Takes the effects the action just ran queued (the test is inline: most actions queue none).
    @inlinable @inline(__always)
    mutating func applyEffects() {
        if scope.hasEffects { applyQueuedEffects() }
    }

    @inlinable
    mutating func applyQueuedEffects() {
        // By index: copying the array out and clearing it would reallocate its storage.
        var i = 0
        while i < scope.effects.count {
            let effect = scope.effects[i]
            i += 1
            switch effect {
            case .raise(let e): raiseInternal(e)
            case .send(let e, let delay, let id): send(.event(e), delay: delay, id: id)
            case .cancel(let id): cancelSend(id: id)
            case .log(let m): if isTracing { trace.append(.log(m)) }
            case .perform(let name, let work):
                queueWork(name, work)
            }
        }
        scope.effects.removeAll()
    }

    /// Queues an event on the external queue now, or after a delay of machine time.
    @inlinable
    mutating func send(_ event: ChartEvent<Event>, delay: Duration, id: String?) {
        if delay <= .zero && !isTracing {
            externalQueue.append(event)
            return
        }
        sendSlowPath(event, delay: delay, id: id)
    }

    @usableFromInline
    mutating func sendSlowPath(_ event: ChartEvent<Event>, delay: Duration, id: String?) {
        if isTracing { trace.append(.sent(chart.name(of: event), delay: delay)) }
        if delay <= .zero {
            externalQueue.append(event)
            return
        }
        timerSequence &+= 1
        let pending = PendingSend(due: now + delay, sequence: timerSequence, event: event, id: id)
        var i = timers.count
        while i > 0 && timers[i - 1].due > pending.due { i -= 1 }
        timers.insert(pending, at: i)
    }

    /// Removes pending delayed sends with this id.
    @usableFromInline
    mutating func cancelSend(id: String) {
        timers.removeAll { $0.id == id }
    }
}
