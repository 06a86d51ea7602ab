/// The synchronous machine's other operations, serialized like sends (rule R50).
extension AsyncStateMachine {
    /// Runs one operation on the machine while holding it, then does what follows every
    /// operation (queued work, invoked work, streams, timer).
    func operation<T>(
        _ body: (inout StateMachine<State, Event, Context>) throws(MachineError) -> T
    ) async throws(MachineError) -> T {
        await driver.acquire()
        defer { driver.release() }
        return try await driver.operationHeld(body)
    }

    /// Runs the dynamic transition of the innermost active state that declares one (rule R27).
    public func transition() async throws(MachineError) {
        try await operation { (m) throws(MachineError) in try m.transition() }
    }

    /// Returns to the initial configuration (rule R19).
    public func reset() async throws(MachineError) {
        try await operation { (m) throws(MachineError) in try m.reset() }
    }

    /// Registers an observer called after every step that changed the machine — a send, a state
    /// request, a delayed send, a result of work — with the top-level state before, the event and
    /// the state after (rules R30, R60). It runs on the machine's actor.
    ///
    /// - Returns: A token for ``removeObserver(_:)``.
    @discardableResult
    public func observe(_ observer: @escaping @Sendable (MachineTransition<State, Event>) -> Void) -> ObserverToken {
        driver.machine.observe(observer)
    }

    /// Removes an observer.
    public func removeObserver(_ token: ObserverToken) { driver.machine.removeObserver(token) }

    /// Registers a handler called for every send that was rejected or failed — by the machine or by
    /// middleware — and for a result of work that nothing handled (rule R62).
    ///
    /// - Returns: A token for ``removeFailedSendHandler(_:)``.
    @discardableResult
    public func onFailedSend(_ handler: @escaping @Sendable (Event, MachineError) -> Void) -> ObserverToken {
        driver.machine.onFailedSend(handler)
    }

    /// Removes a handler registered with ``onFailedSend(_:)``.
    public func removeFailedSendHandler(_ token: ObserverToken) { driver.machine.removeFailedSendHandler(token) }

    /// Whether `event` would be handled now (rule R59).
    @inlinable
    public func canSend(_ event: Event) -> Bool { driver.canSend(event) }

    /// The events among `candidates` that would be handled now (rule R59).
    @inlinable
    public func validEvents(among candidates: [Event]) -> [Event] { driver.validEvents(among: candidates) }

    /// A snapshot of the whole running state (rule R40), taken between operations.
    public func snapshot() async -> ChartSnapshot<Event, Context> {
        await driver.acquire()
        defer { driver.release() }
        driver.bringTimeUp()
        return driver.machine.snapshot()
    }

    /// Restores a snapshot (rule R40): checked against the chart, no actions run; invoked work is
    /// reconciled with the restored configuration.
    public func restore(from snapshot: ChartSnapshot<Event, Context>) async throws(MachineError) {
        try await operation { (m) throws(MachineError) in try m.restore(from: snapshot) }
    }

    /// The logged steps (rule R41), when `historyDepth` is set in the options.
    public var history: [MachineTransition<State, Event>] { driver.machine.history }

    /// Whether ``undo()`` has a step to take back.
    public var canUndo: Bool { driver.machine.canUndo }

    /// Takes back the last logged step (rule R41); returns the top-level state after, or `nil`.
    @discardableResult
    public func undo() async -> State? {
        try? await operation { (m) throws(MachineError) in m.undo() } ?? nil
    }

    /// Suspends to a background state (rule R42).
    public func suspend(to background: State) async throws(MachineError) {
        try await operation { (m) throws(MachineError) in try m.suspend(to: background) }
    }

    /// Resumes the suspended configuration (rule R42).
    public func resume() async throws(MachineError) {
        try await operation { (m) throws(MachineError) in try m.resume() }
    }
}

extension AsyncStateMachine where Event: CaseIterable {
    /// Every event of a `CaseIterable` event type that would be handled now (rule R59).
    @inlinable
    public var validEvents: [Event] { driver.validEvents(among: Array(Event.allCases)) }
}
