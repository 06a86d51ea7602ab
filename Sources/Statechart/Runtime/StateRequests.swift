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
    /// enters, or `nil` when there is nothing to do. Among several places where `T`'s machine
    /// runs, the first active one in document order, else the first.
    ///
    /// Inlinable, so that the value is looked up in its own machine's table specialized for its
    /// type (``TypedChart/forEachIndex(of:_:)``): in the library, unspecialized, the lookup in
    /// that table's dictionary went through its type's witnesses.
    @inlinable
    func checkedRequest<T: Hashable & Sendable>(for target: T) throws(MachineError) -> ChartStateID? {
        try refuseAfterEnd()  // rule R68: before the target is even looked up
        var first: Int32 = -1
        var active: Int32 = -1
        // The closure captures plain values, not `self`: a call of this generic type's method
        // from it looked the type's metadata up at every request.
        let typed = self.typed
        let running = core.isRunning
        let configuration = core.configuration
        typed.forEachIndex(of: target) { index in
            if first < 0 || index < first { first = index }
            if (active < 0 || index < active) && typed.isLevelActive(of: index, running: running, in: configuration) {
                active = index
            }
        }
        guard first >= 0 else { throw .unknownState("\(target)") }
        return try checkedRequest(toIndex: active >= 0 ? active : first)
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
            if let dynamic = typed.levels[Int(level)]?.dynamic(of: chart.id(of: s)) {
                try request(dynamic(context))
                return
            }
        }
        throw .noDynamicTransition(activeStateIDs.joined(separator: ", "))
    }

    mutating func request(_ firstTarget: String) throws(MachineError) {
        guard let target = typed.chart.state(withID: firstTarget) else { throw .unknownState(firstTarget) }
        guard let checked = try checkedRequest(toIndex: target.index) else { return }
        try perform(checked)
    }

    /// The checks of a request for the state at chart index `first` (rule R26), redirects
    /// followed: the state it enters, or `nil` when it is already active.
    ///
    /// By index, against ``RequestRules``: ids are read only for an error, a barrier or a route
    /// added at run time (issue 16: checked by id, through the levels' sets, a request cost about
    /// 6,000 instructions here).
    @usableFromInline
    func checkedRequest(toIndex first: Int32) throws(MachineError) -> ChartStateID? {
        let chart = typed.chart
        // The rules are read in place (``TypedChart/requestRules``): a copy of them in a local
        // retained and released their four arrays at every request.
        var target = first
        var visited: [String] = []
        while true {
            let levelIndex = Int(typed.levelOfIndex[Int(target)])
            guard levelIndex >= 0 else { throw .unknownState(chart.ids[Int(target)]) }
            let container = typed.containerOfLevel[levelIndex]
            guard container == 0 || core.configuration.contains(container) else {
                throw .illegalTransition(from: chart.ids[Int(container)] + " (inactive)", to: chart.ids[Int(target)])
            }
            // The active state of that level: the active child of its container, read from the
            // list in place (a view of it retained its storage).
            var current: Int32 = -1
            var k = 0
            while k < core.configuration.count {
                let s = core.configuration[k]
                k += 1
                if chart.states[Int(s)].parent == container {
                    current = s
                    break
                }
            }
            guard current >= 0 else { throw .illegalTransition(from: "", to: chart.ids[Int(target)]) }
            if current == target {
                if options.throwsWhenAlreadyInState { throw .alreadyInState(chart.ids[Int(target)]) }
                return nil
            }
            if typed.requestRules.isFinal(current) { throw .finalState(chart.ids[Int(current)]) }
            guard
                typed.requestRules.isGlobal(target) || typed.requestRules.hasRoute(from: current, to: target)
                    || runtimeRouteAllows(from: current, to: target, level: levelIndex)
            else {
                throw .illegalTransition(from: chart.ids[Int(current)], to: chart.ids[Int(target)])
            }
            if typed.requestRules.hasBarrier(target), let barrier = typed.levels[levelIndex]?.barrier(of: chart.ids[Int(target)]) {
                switch barrier(chart.ids[Int(current)], context) {
                case .allow:
                    break
                case .deny:
                    throw .transitionDenied(to: chart.ids[Int(target)])
                case .redirect(let next):
                    visited.append(chart.ids[Int(target)])
                    if visited.contains(next) || visited.count > options.redirectLimit {
                        throw .redirectCycle(visited + [next])
                    }
                    guard let redirected = chart.state(withID: next) else { throw .unknownState(next) }
                    target = redirected.index
                    continue
                }
            }
            return ChartStateID(target)
        }
    }
}
