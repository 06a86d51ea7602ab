/// The history log and undo of a ``StateMachine`` (rule R41; swift-state-kit's `history`,
/// `historyDepth` and `undo()`).

/// What a ``StateMachine`` keeps besides its instance: the undo log (rule R41) and, while it is
/// suspended, the configuration it will resume (rule R42).
struct MachineRecords<State: Hashable & Sendable, Event: Hashable & Sendable, Context> {
    /// One logged step: its record, and the running state and suspension slot before it.
    struct Step {
        var transition: MachineTransition<State, Event>
        var before: RunningState<Event, Context>
        var suspension: Suspension<Event>?
    }

    var steps: [Step] = []
    var suspension: Suspension<Event>?
}

/// The state before a step, taken only while the undo log is on.
struct UndoCheckpoint<Event: Hashable & Sendable, Context> {
    var before: RunningState<Event, Context>
    var suspension: Suspension<Event>?
    var from: [ChartStateID]
    var fromIDs: [String]
}

extension MachineError {
    /// Whether the error is reported after a run that went through (rule R14, R16): the step
    /// happened, and undo must be able to take it back.
    var followsCompletedRun: Bool {
        switch self {
        case .executionFailed, .microstepLimitExceeded: return true
        default: return false
        }
    }
}

extension StateMachine {
    /// The logged steps, oldest first (rules R41, R60): every ``send(_:)-(Event)`` and result of work
    /// that an event handled, every ``advance(by:)`` whose delayed sends changed the configuration,
    /// every state request that moved the machine, every ``suspend(to:)`` and ``resume()`` — each with
    /// the active atomic state ids before and after and the event (`nil` for requests, time, suspend
    /// and resume). Kept only while ``Options/historyDepth`` is set; bounded by it.
    public var history: [MachineTransition<State, Event>] { records.steps.map(\.transition) }

    /// Whether ``undo()`` has a step to take back.
    public var canUndo: Bool { !records.steps.isEmpty }

    /// Takes back the last logged step (rule R41): the machine returns to the running state it had
    /// before that step — the whole nested configuration (child machines and parallel regions
    /// included), history values, extended state, queued events, pending delayed sends (each with
    /// the time it had left) and the suspension slot. No action and no observer runs; the clock does
    /// not go back. The step is removed from ``history``.
    ///
    /// - Returns: The top-level state after the undo, or `nil` (and nothing changes) when there is
    ///   nothing to undo.
    @discardableResult
    public mutating func undo() -> State? {
        guard let step = records.steps.popLast() else { return nil }
        core.apply(step.before, keepingClock: true)
        records.suspension = step.suspension
        return state
    }

    // MARK: Recording

    /// The state before a step, or `nil` when the log is off.
    func undoCheckpoint() -> UndoCheckpoint<Event, Context>? {
        guard options.historyDepth != nil else { return nil }
        return UndoCheckpoint(
            before: core.captureRunningState(), suspension: records.suspension, from: core.activeStates,
            fromIDs: activeStateIDs)
    }

    /// Logs a step that happened, trimming the log to ``Options/historyDepth``.
    mutating func commit(_ checkpoint: UndoCheckpoint<Event, Context>?, event: Event?) {
        guard let checkpoint, let depth = options.historyDepth else { return }
        let record = MachineTransition<State, Event>(
            from: checkpoint.fromIDs, event: event, to: activeStateIDs, fromState: topState(in: checkpoint.from),
            toState: state)
        records.steps.append(
            MachineRecords.Step(transition: record, before: checkpoint.before, suspension: checkpoint.suspension))
        if depth > 0 && records.steps.count > depth { records.steps.removeFirst(records.steps.count - depth) }
    }

    /// Performs a checked state request, logging it when the undo log is on.
    mutating func performRequestRecorded(to target: ChartStateID) throws(MachineError) {
        let checkpoint = undoCheckpoint()
        let moved: Bool
        do throws(MachineError) {
            moved = try core.performRequest(to: target)
        } catch {
            if error.followsCompletedRun { commit(checkpoint, event: nil) }
            throw error
        }
        if moved { commit(checkpoint, event: nil) }
    }
}
