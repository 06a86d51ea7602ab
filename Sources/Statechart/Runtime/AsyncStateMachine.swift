/// A statechart that runs in its own actor: `await machine.send(event)` from any task.
///
/// Sends are serialized (rule R50): a send that arrives while another is still awaiting its
/// asynchronous work waits its turn, so a transition always commits from the configuration it
/// was selected in — the actor-reentrancy flaw of swift-state-kit cannot happen. Time comes from
/// an injected `Clock` (``ManualClock`` in tests): delayed sends and ``After`` transitions fire
/// when it reaches their due time (rules R53, R54). Work queued with ``ActionScope/perform(_:_:)``
/// runs after each macrostep and `send` waits for it (rule R51); ``Work`` runs while its state is
/// active and is cancelled when it is left (rule R52).
public actor AsyncStateMachine<State: Hashable & Sendable, Event: Hashable & Sendable, Context: Sendable> {
    /// The clock, the work and the middleware (shared with ``ObservableStateMachine``).
    @usableFromInline let driver: MachineDriver<State, Event, Context>

    /// Compiles and starts a machine on a clock (a `ContinuousClock` by default).
    ///
    /// - Throws: ``MachineError/invalidChart(_:)``, or the failures of the start.
    @inlinable
    public init<C: Clock>(
        _ declaration: Machine<State, Event, Context>, context: Context, clock: C = ContinuousClock(),
        options: StateMachine<State, Event, Context>.Options = .init(), tracer: (any StatechartTracer)? = nil
    ) async throws(MachineError) where C.Duration == Duration {
        try await self.init(
            declaration, context: context, clock: clock, options: options, tracer: tracer, steps: MachineSteps())
    }

    @usableFromInline
    init<C: Clock>(
        _ declaration: Machine<State, Event, Context>, context: Context, clock: C,
        options: StateMachine<State, Event, Context>.Options, tracer: (any StatechartTracer)?,
        steps: MachineSteps<State, Event, Context>
    ) async throws(MachineError) where C.Duration == Duration {
        var options = options
        options.tracing = options.tracing || tracer != nil
        let machine = try StateMachine(declaration, context: context, options: options)
        driver = MachineDriver(
            machine, clock: clock, name: declaration.name ?? "\(State.self)", tracer: tracer, steps: steps)
        try await driver.start { [weak self] call in await self?.handle(call) }
    }

    /// Runs, on this actor, what a task of the driver asks.
    func handle(_ call: DriverCall<Event>) async { await driver.handle(call) }

    // MARK: - Sending

    /// Sends an event: fires timers that fell due, runs the middleware, processes the event run to
    /// completion, then awaits the work its actions queued (rule R51) before returning.
    ///
    /// - Throws: the errors of ``StateMachine/send(_:)-(Event)``; ``MachineError/transitionRejected(event:)``
    ///   or a middleware's error when middleware refuses the event; ``MachineError/executionFailed(_:)``
    ///   when queued work failed.
    public func send(_ event: Event) async throws(MachineError) {
        // Uncontended (the usual case): take the machine without another async call, and with
        // nothing to await before the machine takes the event, send without one either.
        if driver.busy { await driver.acquire() } else { driver.busy = true }
        defer { driver.release() }
        if driver.sendNeedsAwaiting {
            try await driver.sendHeld(event)
        } else if let queued = try driver.sendUnawaited(event) {
            try await driver.finishSend(queued, event: event)
        }
    }

    /// Requests a state (rule R26), serialized like a send.
    public func transition<T: Hashable & Sendable>(to target: T) async throws(MachineError) {
        try await operation { (m) throws(MachineError) in try m.transition(to: target) }
    }

    /// Adds middleware; it runs after the middleware added before it.
    public func addMiddleware(_ m: some TransitionMiddleware<Event>) {
        driver.middleware.append(m)
        driver.updatePlainSends()
    }

    // MARK: - Reading

    /// The number of operations (sends, requests, timer firings, finished work) waiting for the
    /// one that is running.
    public var waitingOperations: Int { driver.waiting.count }

    // The queries of the machine's state are inlinable: specialized for the caller's types, they
    // read the driver's machine in place instead of copying it through its value witnesses.

    /// The active top-level state.
    @inlinable public var state: State { driver.machine.state }
    /// The ids of the active atomic states.
    public var activeStateIDs: [String] { driver.machine.activeStateIDs }
    /// The extended state.
    @inlinable public var context: Context { driver.context }
    /// Whether a state with this value (of any machine level) is active; after the machine has
    /// ended, whether the value is the final state it ended in (``StateMachine/isActive(_:)``).
    @inlinable
    public func isActive<T: Hashable & Sendable>(_ value: T) -> Bool { driver.isActive(value) }
    /// The active states whose values are of type `T`, in document order
    /// (``StateMachine/activeStates(of:)``).
    @inlinable
    public func activeStates<T: Hashable & Sendable>(of type: T.Type) -> [T] { driver.activeStates(of: type) }
    /// The active state of type `T`, if exactly one machine level of that type is active
    /// (``StateMachine/activeState(of:)``).
    @inlinable
    public func activeState<T: Hashable & Sendable>(of type: T.Type) -> T? { driver.activeState(of: type) }
    /// The machine's time: how far its clock had moved since the machine started at the last
    /// operation, or — for a chart nothing of which can read the time, whose sends do not read
    /// the clock — when it is read (rule R54).
    public var now: Duration {
        driver.bringTimeUp()
        return driver.machine.now
    }
    /// Whether the machine reached a top-level final state.
    @inlinable public var isFinished: Bool { driver.machine.isFinished }
    /// A copy of the synchronous machine underneath, for inspection.
    public var snapshotMachine: StateMachine<State, Event, Context> {
        driver.bringTimeUp()
        return driver.machine
    }

    /// A stream of the active state ids after every operation that changed them, starting with the
    /// current ones (rule R56).
    public func configurations() -> AsyncStream<[String]> { driver.configurations() }

    /// A stream of transitions (from, event, to) after every operation that changed the configuration
    /// (rule R56).
    public func transitions() -> AsyncStream<MachineTransition<State, Event>> { driver.transitions() }

    /// Waits until a state with this value is active (swift-state-kit's `waitFor`).
    public func waitFor<T: Hashable & Sendable>(_ value: T) async {
        if driver.isActive(value) { return }
        for await _ in configurations() where driver.isActive(value) { return }
    }
}
