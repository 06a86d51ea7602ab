/// Suspend and resume (rule R42): Machinus' background state, as a one-slot history of the whole
/// nested configuration.

extension StateMachine {
    /// Whether the machine is suspended: ``suspend(to:)`` was called and ``resume()`` has not
    /// brought it back yet.
    public var isSuspended: Bool { records.suspension != nil }

    /// While suspended, the ids of the atomic states that ``resume()`` will bring back; else `nil`.
    public var suspendedStateIDs: [String]? {
        guard let s = records.suspension else { return nil }
        let chart = typed.chart
        return s.configuration.filter { chart.states[Int($0)].kind.isAtomic }.map { chart.ids[Int($0)] }
    }

    /// Suspends the machine to a background state of the top level, from anywhere (rule R42).
    ///
    /// The active configuration — every level, child machines and parallel regions included — is
    /// set aside as it is: no exit action runs and no history is recorded. Its pending delayed
    /// sends are paused with the time they have left. Then `background` is entered as a request
    /// would enter it: its entry actions (and its children's) run, an ``OnEntry`` that takes the
    /// previous state receives the suspended top-level state, and the machine runs to completion.
    /// Routes and barriers are not consulted: the background state is outside the state map.
    /// While suspended, the machine handles events and requests in the background state as usual.
    ///
    /// - Throws: ``MachineError/unknownState(_:)`` when `background` is not a state of the top level;
    ///   ``MachineError/finished(finalState:)`` when the machine finished, before any other check (rule R68);
    ///   ``MachineError/invalidSnapshot(_:)`` when it is already suspended;
    ///   ``MachineError/alreadyInState(_:)`` when `background` is the active state; the failures of
    ///   the run (the machine is suspended all the same).
    public mutating func suspend(to background: State) throws(MachineError) {
        try refuseAfterEnd()  // rule R68
        let chart = typed.chart
        guard let bg = typed.states(for: background).first(where: { typed.levelOfIndex[Int($0.index)] == 0 }),
            chart.requestTransitions[bg.index] != nil
        else { throw .unknownState("\(background)") }
        if let s = records.suspension {
            throw .invalidSnapshot(
                "the machine is already suspended to '\(chart.ids[Int(s.background)])'; resume() it first")
        }
        if core.configuration.contains(bg.index) { throw .alreadyInState(chart.id(of: bg)) }
        let checkpoint = undoCheckpoint()
        let from = observers.isEmpty ? [] : core.activeAtomicStates
        records.suspension = core.setAside(enteringInstead: bg)
        commit(checkpoint, event: nil)
        try core.throwFailures()
        notify(from: from, event: nil)
    }

    /// Brings a suspended machine back to the exact configuration it was suspended in (rule R42).
    ///
    /// First the barrier of the *restore state* — the top-level state that was active when the
    /// machine was suspended — is consulted (``TransitionBarrier``): `.allow` (or no barrier)
    /// resumes; `.deny` throws ``MachineError/transitionDenied(to:)`` and the machine stays
    /// suspended in the background; `.redirect(to:)` consults the new target's barrier in turn
    /// (a cycle, or more than ``Options/redirectLimit`` redirects, is ``MachineError/redirectCycle(_:)``).
    ///
    /// To resume, the active configuration (normally the background state) is exited — history
    /// recorded, exit actions run, an ``OnExit`` that takes the next state receives the restore
    /// state — and the remembered configuration is put back at every level without running any
    /// entry action; its paused delayed sends wait the time they had left. After a redirect, the
    /// machine instead makes the transition to the redirect target as a request would (exit
    /// actions, then the target's entry actions) and the remembered configuration is dropped with
    /// its paused sends. Either way the machine then runs to completion.
    ///
    /// - Throws: ``MachineError/invalidSnapshot(_:)`` when the machine is not suspended;
    ///   ``MachineError/finished(finalState:)`` when it finished (also while suspended), before any other
    ///   check (rule R68); barrier errors as
    ///   above (the machine stays suspended); ``MachineError/alreadyInState(_:)`` when a redirect
    ///   leads to the active state (it stays suspended); the failures of the run.
    public mutating func resume() throws(MachineError) {
        try refuseAfterEnd()  // rule R68
        guard let suspension = records.suspension else {
            throw .invalidSnapshot("the machine is not suspended: there is no configuration to resume")
        }
        let chart = typed.chart
        guard let restore = suspension.configuration.first(where: { chart.states[Int($0)].parent == 0 }) else {
            preconditionFailure("a suspended configuration has a top-level state")
        }
        let restoreID = chart.ids[Int(restore)]
        let level = typed.levels[0]
        var targetID = restoreID
        var visited: [String] = []
        // The source a barrier sees (rule R69): the active top-level state, normally the background.
        let sourceID = core.configuration.list.first { chart.states[Int($0)].parent == 0 }.map { chart.ids[Int($0)] } ?? restoreID
        consult: while let barrier = level?.barrier(of: targetID) {
            switch barrier(sourceID, context) {
            case .allow:
                break consult
            case .deny:
                throw .transitionDenied(to: targetID)
            case .redirect(let next):
                visited.append(targetID)
                if visited.contains(next) || visited.count > options.redirectLimit {
                    throw .redirectCycle(visited + [next])
                }
                targetID = next
            }
        }
        var redirect: ChartStateID?
        if targetID != restoreID {
            guard let target = chart.state(withID: targetID), typed.levelOfIndex[Int(target.index)] == 0 else {
                throw .unknownState(targetID)
            }
            if core.configuration.contains(target.index) { throw .alreadyInState(targetID) }
            redirect = target
        }
        let checkpoint = undoCheckpoint()
        let from = observers.isEmpty ? [] : core.activeAtomicStates
        records.suspension = nil
        if let redirect {
            do throws(MachineError) {
                try core.performRequest(to: redirect)
            } catch {
                commit(checkpoint, event: nil)
                throw error
            }
        } else {
            core.putBack(suspension)
        }
        commit(checkpoint, event: nil)
        try core.throwFailures()
        notify(from: from, event: nil)
    }
}
