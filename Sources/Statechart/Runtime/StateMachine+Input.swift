/// The one entry every event of a ``StateMachine`` goes through (rule R60), and the handlers of
/// failed sends (rule R62).

/// What a ``StateMachine`` is asked to process. Sends, delayed sends falling due and results of
/// asynchronous work all enter through ``StateMachine/process(_:)``, so each is logged for
/// ``StateMachine/undo()``, shown to observers and reported to failed-send handlers the same way
/// (rule R60).
public enum MachineInput<Event: Hashable & Sendable>: Hashable, Sendable {
    /// An event a caller sent (``StateMachine/send(_:)-(Event)``).
    case sent(Event)
    /// Machine time moving forward by this much: the delayed sends that fall due fire
    /// (``StateMachine/advance(by:)``).
    case timePassed(Duration)
    /// The event that work queued with ``ActionScope/perform(_:_:)`` or invoked ``Work`` returned.
    /// Nobody sent it, so when nothing handles it (or the machine has finished) it is dropped —
    /// never thrown — and only the failed-send handlers hear of it.
    case workDelivered(Event)
    /// Work that threw: `error.execution` is raised with this message.
    case workFailed(String)

    /// The event logged and observed for this input: `nil` for time and failures.
    @inlinable var event: Event? {
        switch self {
        case .sent(let e), .workDelivered(let e): return e
        case .timePassed, .workFailed: return nil
        }
    }
}

extension StateMachine {
    /// Processes one input run to completion (rule R60). A step that changed the machine is logged
    /// for ``undo()`` (when ``Options/historyDepth`` is set) and shown to observers; a rejected or
    /// failed send is reported to the handlers registered with ``onFailedSend(_:)``.
    ///
    /// - Returns: Whether the input changed the machine: the event enabled a transition, or for
    ///   ``MachineInput/timePassed(_:)``, a delayed send that fell due changed the configuration.
    /// - Throws: for ``MachineInput/sent(_:)`` the errors of ``send(_:)-(Event)``; for the others
    ///   the failures of the run (``MachineError/executionFailed(_:)``…).
    @inlinable
    @discardableResult
    public mutating func process(_ input: MachineInput<Event>) throws(MachineError) -> Bool {
        if recordsSteps { return try processRecorded(input) }
        return try take(input)
    }

    /// Whether a step goes the recorded way: the undo log is on, or an observer or failed-send
    /// handler listens. One test for a machine nobody listens to: its extras box was never created.
    @inlinable var recordsSteps: Bool { options.historyDepth != nil || extras?.listens == true }

    /// Runs the input in the interpreter; nothing is recorded here.
    @inlinable
    mutating func take(_ input: MachineInput<Event>) throws(MachineError) -> Bool {
        guard case .sent(let event) = input else { return try takeOther(input) }
        let handled = try core.send(event)
        if !handled && options.throwsOnUnhandledEvent { throw unhandled(event) }
        return handled
    }

    /// ``take(_:)`` for time and work. Inlinable: ``AsyncStateMachine`` moves the clock before
    /// every send, and compiled once in the library (unspecialized) this looked up the generic
    /// metadata of the machine's types at every call.
    @inlinable
    mutating func takeOther(_ input: MachineInput<Event>) throws(MachineError) -> Bool {
        switch input {
        case .sent(let event):
            return try take(.sent(event))
        case .timePassed(let duration):
            guard core.firesDelayedSend(within: duration) else {
                try core.advance(by: duration)
                return false
            }
            let before = core.activeStates
            try core.advance(by: duration)
            return core.activeStates != before
        case .workDelivered(let event):
            guard core.isRunning else { return false }
            return try core.send(event)
        case .workFailed(let message):
            guard core.isRunning else { return false }
            return try core.send(chartEvent: .error(ExecutionErrorEvent(message: message)))
        }
    }

    /// ``process(_:)`` when something listens: logs, notifies and reports around ``take(_:)``.
    @usableFromInline
    mutating func processRecorded(_ input: MachineInput<Event>) throws(MachineError) -> Bool {
        // Time that fires nothing changes nothing to log, observe or report (the runtimes move
        // the clock before every operation): no checkpoint of the whole running state for it.
        if case .timePassed(let duration) = input, !core.firesDelayedSend(within: duration) { return try take(input) }
        let checkpoint = undoCheckpoint()
        let from = observers.isEmpty ? [] : core.activeAtomicStates
        let changed: Bool
        do throws(MachineError) {
            changed = try take(input)
        } catch {
            // The run went through and reported failures afterwards: the step happened (R41).
            if error.followsCompletedRun { commit(checkpoint, event: input.event) }
            if let event = input.event { reportFailedSend(event, error) }
            throw error
        }
        if changed {
            commit(checkpoint, event: input.event)
            notify(from: from, event: input.event)
        } else if let event = input.event {
            reportFailedSend(event, core.isRunning ? unhandled(event) : core.notRunningError())
        }
        return changed
    }

    // MARK: - Failed sends

    /// Registers a handler called whenever a send is rejected or fails (rule R62; SwiftState's
    /// `addErrorHandler`): with the event and the typed error — ``MachineError/eventNotHandled(event:configuration:)``
    /// (also when ``Options/throwsOnUnhandledEvent`` is off, or for a work result nobody handles),
    /// ``MachineError/finished(finalState:)``, ``MachineError/executionFailed(_:)``, or a middleware's
    /// rejection in the asynchronous runtimes. Handlers run in registration order, after the
    /// send's run, before it throws.
    ///
    /// - Returns: A token for ``removeFailedSendHandler(_:)``.
    @discardableResult
    public mutating func onFailedSend(_ handler: @escaping (Event, MachineError) -> Void) -> ObserverToken {
        nextObserverID += 1
        failedSendHandlers.append((nextObserverID, handler))
        return ObserverToken(id: nextObserverID)
    }

    /// Removes a handler registered with ``onFailedSend(_:)``.
    public mutating func removeFailedSendHandler(_ token: ObserverToken) {
        failedSendHandlers.removeAll { $0.id == token.id }
    }

    /// Calls the failed-send handlers, or keeps the report for them in the inbox a runtime gave
    /// (the asynchronous runtimes also call it for middleware rejections, which the machine never
    /// sees).
    func reportFailedSend(_ event: Event, _ error: MachineError) {
        if let inbox = extras?.failedSendInbox {
            inbox.record(event, error)
            return
        }
        for h in failedSendHandlers { h.handler(event, error) }
    }

    /// From now on, failed sends are kept in `inbox` for the handlers instead of reaching them
    /// inside the send; the runtime that holds the machine hands them over (`MachineDriver.deliverFailedSends(from:)`)
    /// whenever it lets go of it (``ObservableStateMachine``, rule R62).
    mutating func deferFailedSends(to inbox: FailedSendInbox<Event>) {
        uniqueExtras().failedSendInbox = inbox
    }

    /// Makes this machine call its handlers itself again: for a copy handed out of the runtime,
    /// which is a machine of its own — its failures are not the runtime's to report.
    mutating func stopDeferringFailedSends() {
        if extras?.failedSendInbox != nil { uniqueExtras().failedSendInbox = nil }
    }
}
