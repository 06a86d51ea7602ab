extension ChartInstance {
    /// Processes external events until the queue is empty or the machine halts; each external
    /// event is its own macrostep (rule R1).
    ///
    /// - Returns: Whether the first event processed enabled a transition.
    @usableFromInline
    @discardableResult
    mutating func processExternalQueue() -> Bool {
        var first = true
        var handledFirst = false
        while isRunning, let event = externalQueue.popFirst() {
            scope.event = event
            if isTracing { trace.append(.event(chart.name(of: event), external: true)) }
            if selectTransitions(for: event) {
                if first { handledFirst = true }
                microstep()
            } else if isTracing {
                trace.append(.dropped(chart.name(of: event)))
            }
            first = false
            runToCompletion()
        }
        if !isRunning { externalQueue.removeAll() }
        return handledFirst
    }

    /// The inner loop of a macrostep: eventless transitions first; only when none is enabled, the
    /// next internal event (rules R2, R3). Bounded by ``microstepLimit`` (rule R16).
    @usableFromInline
    mutating func runToCompletion() {
        var steps = 0
        recentSteps.removeAll(keepingCapacity: true)
        while isRunning {
            if chart.hasEventless, selectTransitions(for: nil) {
                scope.event = nil
                microstep()
            } else if let event = internalQueue.popFirst() {
                scope.event = event
                if isTracing { trace.append(.event(chart.name(of: event), external: false)) }
                if selectTransitions(for: event) {
                    microstep()
                } else if isTracing {
                    trace.append(.dropped(chart.name(of: event)))
                }
            } else {
                break
            }
            steps += 1
            if steps > microstepLimit - 20 {
                let name = scope.event.map { chart.name(of: $0) } ?? "(eventless)"
                for t in selected { recentSteps.append((chart.transitions[Int(t)].source, name)) }
            }
            if steps >= microstepLimit {
                var states: [String] = []
                var events: [String] = []
                for (s, e) in recentSteps {
                    let id = chart.ids[Int(s)]
                    if !states.contains(id) { states.append(id) }
                    if !events.contains(e) { events.append(e) }
                }
                limitError = .microstepLimitExceeded(limit: microstepLimit, states: states, events: events)
                internalQueue.removeAll()
                break
            }
        }
        if !isRunning && hasStarted && !configuration.isEmpty { exitInterpreter() }
    }

    /// Exits every active state in exit order and clears the queues (SCXML `exitInterpreter`).
    @usableFromInline
    mutating func exitInterpreter() {
        scope.exits.removeAll(keepingCapacity: true)
        scope.entries.removeAll(keepingCapacity: true)
        for s in configuration.list.reversed() { scope.exits.append(s) }
        let exits = scope.exits
        for s in exits {
            if isTracing { trace.append(.exited(chart.ids[Int(s)])) }
            if chart.states[Int(s)].hasExitActions {
                for block in chart.exitActions[Int(s)] { runBlock(block, state: s) }
            }
            configuration.remove(s)
        }
        internalQueue.removeAll()
        externalQueue.removeAll()
        timers.removeAll()
    }
}
