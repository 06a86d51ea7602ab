extension StateMachine {
    /// Requests a transition to a state (Machinus' `transition(to:)`, SwiftState's `<-`; rule R26).
    ///
    /// A machine that finished in a top-level final state refuses every request with
    /// ``MachineError/finished(finalState:)`` (rule R68). Otherwise the request is checked in this
    /// order: the target must be a state of the chart
    /// (``MachineError/unknownState(_:)``) whose machine level is active; a request for the active
    /// state does nothing (or throws ``MachineError/alreadyInState(_:)`` when
    /// ``Options/throwsWhenAlreadyInState`` is on); a final current state cannot be left
    /// (``MachineError/finalState(_:)``); the target must be listed in the current state's
    /// ``Routes``, be ``Global`` or be allowed by a route added with ``addRoute(from:to:condition:)``
    /// (``MachineError/illegalTransition(from:to:)``); finally the
    /// target's ``TransitionBarrier`` may allow, deny (``MachineError/transitionDenied(to:)``) or
    /// redirect — a redirect checks the new target from the start, at most
    /// ``Options/redirectLimit`` times, and a cycle is ``MachineError/redirectCycle(_:)``.
    /// The transition itself exits the current state of that level (innermost first), enters the
    /// target with its default or history entry, and runs to completion like any event.
    ///
    /// Inlinable, so that the transition itself runs specialized for the machine's types: the
    /// checks stay in the library (`checkedRequest(for:)`), and the microstep, compiled once
    /// there, looked up generic metadata at every step (issue 16).
    @inlinable
    public mutating func transition<T: Hashable & Sendable>(to target: T) throws(MachineError) {
        guard let request = try checkedRequest(for: target) else { return }
        try perform(request)
    }

    /// Requests a transition to a state of the top-level machine: `machine.transition(to: .loggedIn)`.
    /// See ``transition(to:)-(T)`` for the checks (rule R26).
    @inlinable
    public mutating func transition(to target: State) throws(MachineError) {
        guard let request = try checkedRequest(for: target) else { return }
        try perform(request)
    }

    /// The checks of a request for the state whose value is `target` (rule R26): the state it
    /// enters, or `nil` when there is nothing to do.
    @usableFromInline
    func checkedRequest<T: Hashable & Sendable>(for target: T) throws(MachineError) -> ChartStateID? {
        try refuseAfterEnd()  // rule R68: before the target is even looked up
        let candidates = typed.indices(of: target)
        guard !candidates.isEmpty else { throw .unknownState("\(target)") }
        // Among several places where T's machine runs, the active one.
        let index = candidates.first { isLevelActive(of: $0) } ?? candidates[0]
        return try checkedRequest(typed.chart.ids[Int(index)])
    }

    /// Takes a checked request: in the interpreter, and with the undo log and the observers
    /// when the machine has them (``performRequestRecorded(to:)``), as ``process(_:)`` takes a send.
    @inlinable
    mutating func perform(_ target: ChartStateID) throws(MachineError) {
        if recordsSteps { return try performRequestNotified(to: target) }
        _ = try core.performRequest(to: target)
    }

    /// ``perform(_:)`` with the undo log and the observers.
    @usableFromInline
    mutating func performRequestNotified(to target: ChartStateID) throws(MachineError) {
        let from = observers.isEmpty ? [] : core.activeAtomicStates
        try performRequestRecorded(to: target)
        notify(from: from, event: nil)
    }

    /// Runs the dynamic transition of the innermost active state that declares one
    /// (``DynamicTransition``) and requests the state it returns (rule R27).
    ///
    /// - Throws: ``MachineError/finished(finalState:)`` after the machine finished (rule R68);
    ///   ``MachineError/noDynamicTransition(_:)`` when no active state has one; the errors of the request.
    public mutating func transition() throws(MachineError) {
        try refuseAfterEnd()  // rule R68
        let chart = typed.chart
        for s in core.activeStates.reversed() {
            let level = typed.levelOfIndex[Int(s.index)]
            guard level >= 0 else { continue }
            if let dynamic = typed.levels[Int(level)].dynamic(of: chart.id(of: s)) {
                try request(dynamic(context))
                return
            }
        }
        throw .noDynamicTransition(activeStateIDs.joined(separator: ", "))
    }

    func isLevelActive(of index: Int32) -> Bool {
        let level = typed.levelOfIndex[Int(index)]
        guard level >= 0 else { return false }
        let container = typed.containerOfLevel[Int(level)]
        return container == 0 ? core.isRunning : core.configuration.contains(container)
    }

    mutating func request(_ firstTarget: String) throws(MachineError) {
        guard let target = try checkedRequest(firstTarget) else { return }
        try perform(target)
    }

    /// The checks of a request for the state `firstTarget` (rule R26), redirects followed: the
    /// state it enters, or `nil` when it is already active.
    func checkedRequest(_ firstTarget: String) throws(MachineError) -> ChartStateID? {
        let chart = typed.chart
        var targetID = firstTarget
        var visited: [String] = []
        while true {
            guard let target = chart.state(withID: targetID), typed.levelOfIndex[Int(target.index)] >= 0 else {
                throw .unknownState(targetID)
            }
            let levelIndex = Int(typed.levelOfIndex[Int(target.index)])
            let level = typed.levels[levelIndex]
            let container = typed.containerOfLevel[levelIndex]
            guard container == 0 || core.configuration.contains(container) else {
                throw .illegalTransition(from: chart.id(of: ChartStateID(container)) + " (inactive)", to: targetID)
            }
            // The active state of that level: the active child of its container.
            guard let current = core.configuration.list.first(where: { chart.states[Int($0)].parent == container })
            else { throw .illegalTransition(from: "", to: targetID) }
            let currentID = chart.ids[Int(current)]
            if current == target.index {
                if options.throwsWhenAlreadyInState { throw .alreadyInState(targetID) }
                return nil
            }
            if level.finals.contains(currentID) { throw .finalState(currentID) }
            guard
                level.globals.contains(targetID) || level.routes[currentID]?.contains(targetID) == true
                    || runtimeRouteAllows(from: currentID, to: targetID, level: levelIndex)
            else {
                throw .illegalTransition(from: currentID, to: targetID)
            }
            if let barrier = level.barrier(of: targetID) {
                switch barrier(currentID, context) {
                case .allow:
                    break
                case .deny:
                    throw .transitionDenied(to: targetID)
                case .redirect(let next):
                    visited.append(targetID)
                    if visited.contains(next) || visited.count > options.redirectLimit {
                        throw .redirectCycle(visited + [next])
                    }
                    targetID = next
                    continue
                }
            }
            return target
        }
    }
}
