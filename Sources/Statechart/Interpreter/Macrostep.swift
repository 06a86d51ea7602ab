extension ChartInstance {
    /// Processes external events until the queue is empty or the machine halts; each external
    /// event is its own macrostep (rule R1).
    ///
    /// - Parameter macrostepsTaken: Macrosteps of this send already taken by the caller (the lean
    ///   path takes the first one itself), counted towards the limit on endless sends (rule R16).
    /// - Returns: Whether the first event processed enabled a transition.
    @inlinable
    @discardableResult
    mutating func processExternalQueue(macrostepsTaken: Int = 0) -> Bool {
        var first = true
        var handledFirst = false
        var macrosteps = macrostepsTaken
        while isRunning, let event = popExternalEvent() {
            // Actions that keep sending external events would never let `send` return (rule R16).
            macrosteps += 1
            if macrosteps > microstepLimit {
                stopEndlessSends(at: event)
                break
            }
            if takeExternalEvent(event) && first { handledFirst = true }
            first = false
            runToCompletion()
        }
        if !isRunning { clearExternalQueue() }
        return handledFirst
    }

    /// The one way an external event is taken, whichever path takes it: the one selection walk
    /// (``selectTransitions(for:)``), then its microstep (``takeSelection()``), where the fast
    /// cases of `LeanStep.swift` are decisions over the walk's result, never a separate entry. The
    /// per-event tear-down below runs after every path — so a result cannot depend on which path
    /// ran, or on tracing (rule R58: asynchronous guard answers hold for this event's selection
    /// only, never for a later microstep).
    ///
    /// - Returns: Whether the event enabled a transition.
    @inlinable @inline(__always)
    mutating func takeExternalEvent(_ event: ChartEvent<Event>) -> Bool {
        // Only a nil test inline: the tear-down itself is out of line, so that this `defer` stays
        // small enough to be inlined (issue 16: the box's accessors made it an outlined call).
        defer { if extras != nil { clearAsyncGuardResults() } }
        scope.begin(event)
        if isTracing {
            trace.append(.event(chart.name(of: event), external: true))
            if recordsExternalEvents { recordedExternalEvents.append(event) }
        }
        let enabled = selectTransitions(for: event)
        if enabled {
            takeSelection()
        } else if isTracing {
            trace.append(.dropped(chart.name(of: event)))
        }
        return enabled
    }

    /// The inner loop of a macrostep: eventless transitions first; only when none is enabled, the
    /// next internal event (rules R2, R3). Bounded by ``microstepLimit`` (rule R16).
    @inlinable
    mutating func runToCompletion() {
        var steps = 0
        if extras != nil { clearRecentSteps() }
        while isRunning {
            if chart.hasEventless, selectEventlessTransitions() {
                scope.currentEvent = nil
                takeSelection()
            } else if let event = popInternalEvent() {
                scope.begin(event)
                if isTracing { trace.append(.event(chart.name(of: event), external: false)) }
                if selectTransitions(for: event) {
                    takeSelection()
                } else if isTracing {
                    trace.append(.dropped(chart.name(of: event)))
                }
            } else {
                break
            }
            steps += 1
            if steps > microstepLimit - 20 && noteMicrostepNearLimit(steps) { break }
        }
        if !isRunning && hasStarted && !configuration.isEmpty { exitInterpreter() }
    }

    /// Stops a chain of external events that actions keep sending (rule R16): the queue is
    /// cleared and the caller gets ``MachineError/microstepLimitExceeded(limit:states:events:)``.
    @usableFromInline
    mutating func stopEndlessSends(at event: ChartEvent<Event>) {
        var events = [chart.name(of: event)]
        for e in externalQueue.elements {
            let n = chart.name(of: e)
            if !events.contains(n) { events.append(n) }
        }
        clearExternalQueue()
        limitError = .microstepLimitExceeded(
            limit: microstepLimit, states: activeAtomicStates.map { chart.id(of: $0) }, events: events)
    }

    /// Records the last microsteps before the limit; at the limit, stops the macrostep with
    /// ``MachineError/microstepLimitExceeded(limit:states:events:)`` (rule R16).
    ///
    /// - Returns: Whether the macrostep must stop.
    @usableFromInline
    mutating func noteMicrostepNearLimit(_ steps: Int) -> Bool {
        let name = scope.event.map { chart.name(of: $0) } ?? "(eventless)"
        for t in selected { recentSteps.append((chart.transitions[Int(t)].source, name)) }
        guard steps >= microstepLimit else { return false }
        var states: [String] = []
        var events: [String] = []
        for (s, e) in recentSteps {
            let id = chart.ids[Int(s)]
            if !states.contains(id) { states.append(id) }
            if !events.contains(e) { events.append(e) }
        }
        limitError = .microstepLimitExceeded(limit: microstepLimit, states: states, events: events)
        clearInternalQueue()
        return true
    }

    /// Exits every active state in exit order and clears the queues (SCXML `exitInterpreter`).
    @usableFromInline
    mutating func exitInterpreter() {
        scope.setExits(configuration.list.reversed())
        scope.setEntries([])
        exitStates()
        clearInternalQueue()
        clearExternalQueue()
        if extras != nil { timers.removeAll() }
    }

    /// Forgets the asynchronous guards' answers of the event just taken (rule R58).
    @usableFromInline @inline(never)
    mutating func clearAsyncGuardResults() {
        if extras?.asyncGuardResults.isEmpty == false { asyncGuardResults.removeAll() }
    }

    /// Forgets the previous macrostep's record for the microstep limit (rule R16).
    @usableFromInline @inline(never)
    mutating func clearRecentSteps() {
        if extras?.recentSteps.isEmpty == false { recentSteps.removeAll(keepingCapacity: true) }
    }
}
