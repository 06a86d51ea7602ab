/// The interpreter side of suspend and resume (rule R42): setting the active configuration aside
/// without exiting it, and putting it back without entering it.

/// What a suspended machine remembers: the configuration it was suspended in (by index, document
/// order) and the delayed sends that were pending then, paused with the time they had left.
struct Suspension<Event: Hashable & Sendable>: Sendable {
    /// The background state the machine was suspended to.
    var background: Int32
    var configuration: [Int32]
    var sends: [SavedSend<Event>]
}

extension ChartInstance {
    /// Sets the active configuration aside — no exit action runs and no history is recorded; its
    /// invoked work is cancelled (rule R52) — with its pending delayed sends, then enters
    /// `background` through its request route as a request would (its entry actions, and its
    /// children's, run; they see the set-aside states as the states exited, rule R29) and runs to
    /// completion. Failures of that run stay for ``throwFailures()``.
    ///
    /// The caller checks that the machine is running and that `background` has a request route.
    mutating func setAside(enteringInstead background: ChartStateID) -> Suspension<Event> {
        let t = chart.requestTransitions[background.index] ?? -1
        precondition(t >= 0, "a background state has a request route")
        let remembered = Array(configuration.list)
        let suspension = Suspension(background: background.index, configuration: remembered, sends: savedSends())
        timers.removeAll()
        scope.setExits(remembered.reversed())
        configuration.removeAll()
        reconcileInvocations()  // the set-aside states' invoked work is cancelled (rule R52)
        selectRequest(t, entering: background.index)
        let scratch = stepScratch
        // Entered state by state whatever the answer: a set that runs nothing has had its
        // default marks cleared, and entering it one by one runs nothing either.
        _ = computeEntrySet(in: scratch)
        if !chart.actions(of: t).isEmpty { runTransitionActions(t) }
        enterStates(scratch: scratch)
        runToCompletion()
        processExternalQueue()
        return suspension
    }

    /// Exits the active configuration in exit order — history recorded first (rule R11), exit
    /// actions run, and they see the remembered states as the states entered (rule R29) — then
    /// puts the remembered configuration back without running any entry action (its invoked work
    /// starts again, rule R52), schedules its paused delayed sends with the time they had left, and
    /// runs to completion. Failures of that run stay for ``throwFailures()``.
    mutating func putBack(_ suspension: Suspension<Event>) {
        let chart = self.chart
        scope.currentEvent = nil
        scope.setExits(configuration.list.reversed())
        for k in 0..<scope.exitCount where chart.states[Int(scope.exit(at: k))].hasHistoryChild {
            recordHistory(of: scope.exit(at: k))
        }
        scope.setEntries(suspension.configuration)
        exitStates()
        for s in suspension.configuration {
            configuration.insert(s)
            if isTracing { trace.append(.entered(chart.ids[Int(s)])) }
        }
        reconcileInvocations()  // the put-back states' invoked work starts again (rule R52)
        schedule(suspension.sends)
        runToCompletion()
        processExternalQueue()
    }
}
