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
    var machine: StateMachine<State, Event, Context>
    /// The machine's own steps compiled for its types (see ``SpecializedSteps``).
    let steps: SpecializedSteps
    let driver: ClockDriver
    let name: String
    var waiting: [CheckedContinuation<Void, Never>] = []
    var busy = false
    var timerTask: Task<Void, Never>?
    var clockObserver: UInt64?
    var invocationTasks: [UInt64: Task<Void, Never>] = [:]
    var middleware: [any TransitionMiddleware<Event>] = []
    var tracer: (any StatechartTracer)?
    var configurationStreams: [Int: AsyncStream<[String]>.Continuation] = [:]
    var transitionStreams: [Int: AsyncStream<MachineTransition<State, Event>>.Continuation] = [:]
    var nextStreamID = 0
    var failures: [String] = []
    var middlewareOutcome: Result<Void, MachineError>?
    /// Whether a send needs nothing but the machine: no middleware, no asynchronous guards, no
    /// tracer, no stream (kept up to date by ``updatePlainSends()``).
    var plainSends = false

    /// The synchronous machine's send and clock advance, as closures made in the `@inlinable`
    /// initializer — that is, in the caller's module, for the caller's `State`, `Event` and
    /// `Context`. Methods of a generic actor are not specialized for their type arguments across
    /// modules (its initializers are), and the interpreter run unspecialized costs microseconds per
    /// event instead of nanoseconds; through these closures every send runs the specialized one.
    @usableFromInline
    struct SpecializedSteps: Sendable {
        @usableFromInline let send: @Sendable (inout StateMachine<State, Event, Context>, Event) throws(MachineError) -> Void
        @usableFromInline let advance: @Sendable (inout StateMachine<State, Event, Context>, Duration) throws(MachineError) -> Void

        /// Catches the machine up to the clock, then sends: what a plain send does (see ``SendOutcome``).
        @usableFromInline let catchUpAndSend: @Sendable (inout StateMachine<State, Event, Context>, Event, Duration) -> SendOutcome

        @inlinable init() {
            send = { (machine, event) throws(MachineError) in try machine.send(event) }
            advance = { (machine, duration) throws(MachineError) in try machine.advance(by: duration) }
            catchUpAndSend = { machine, event, elapsed in
                var outcome = SendOutcome()
                if elapsed > machine.now {
                    do throws(MachineError) { try machine.advance(by: elapsed - machine.now) } catch { outcome.clockError = error }
                }
                do throws(MachineError) { try machine.send(event) } catch { outcome.sendError = error }
                outcome.followUp =
                    !machine.core.pendingWork.isEmpty || !machine.core.invocationRequests.isEmpty
                    || machine.core.nextDueTime != nil || machine.options.tracing
                return outcome
            }
        }
    }

    /// What a plain send did, and whether anything must follow it.
    @usableFromInline
    struct SendOutcome: Sendable {
        /// What firing the delayed sends that fell due threw.
        @usableFromInline var clockError: MachineError?
        /// What the send threw.
        @usableFromInline var sendError: MachineError?
        /// Queued work, invoked work to start or cancel, a timer to arm or a trace to publish.
        @usableFromInline var followUp = false

        @inlinable init() {}
    }

    /// Recomputes ``plainSends`` after anything it depends on changed.
    func updatePlainSends() {
        plainSends =
            middleware.isEmpty && tracer == nil && configurationStreams.isEmpty && transitionStreams.isEmpty
            && !machine.core.chart.hasAsyncGuards
    }

    /// Compiles and starts a machine on a clock (a `ContinuousClock` by default).
    ///
    /// - Throws: ``MachineError/invalidChart(_:)``, or the failures of the start.
    @inlinable
    public init<C: Clock>(
        _ declaration: Machine<State, Event, Context>, context: Context, clock: C = ContinuousClock(),
        options: StateMachine<State, Event, Context>.Options = .init(), tracer: (any StatechartTracer)? = nil
    ) async throws(MachineError) where C.Duration == Duration {
        try await self.init(
            declaration, context: context, clock: clock, options: options, tracer: tracer, steps: SpecializedSteps())
    }

    @usableFromInline
    init<C: Clock>(
        _ declaration: Machine<State, Event, Context>, context: Context, clock: C,
        options: StateMachine<State, Event, Context>.Options, tracer: (any StatechartTracer)?, steps: SpecializedSteps
    ) async throws(MachineError) where C.Duration == Duration {
        self.steps = steps
        var options = options
        options.tracing = options.tracing || tracer != nil
        self.machine = try StateMachine(declaration, context: context, options: options)
        self.driver = ClockDriver(clock)
        self.name = declaration.name ?? "\(State.self)"
        self.tracer = tracer
        if let manual = driver.manual {
            clockObserver = manual.addObserver { [weak self] in await self?.clockTicked() }
        }
        updatePlainSends()
        await afterOperation()
        try throwFailures()
    }

    deinit {
        timerTask?.cancel()
        for task in invocationTasks.values { task.cancel() }
        if let id = clockObserver { driver.manual?.removeObserver(id) }
        for c in configurationStreams.values { c.finish() }
        for c in transitionStreams.values { c.finish() }
    }

    // MARK: - Serialization

    /// Waits until no other operation is running, in arrival order.
    func acquire() async {
        if !busy {
            busy = true
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    func release() {
        if waiting.isEmpty {
            busy = false
        } else {
            waiting.removeFirst().resume()
        }
    }

    // MARK: - Sending

    /// Sends an event: fires timers that fell due, runs the middleware, processes the event run to
    /// completion, then awaits the work its actions queued (rule R51) before returning.
    ///
    /// - Throws: the errors of ``StateMachine/send(_:)-(Event)``; ``MachineError/transitionRejected(event:)``
    ///   or a middleware's error when middleware refuses the event; ``MachineError/executionFailed(_:)``
    ///   when queued work failed.
    public func send(_ event: Event) async throws(MachineError) {
        // Uncontended (the usual case): take the machine without another async call.
        if busy { await acquire() } else { busy = true }
        defer { release() }
        if plainSends {
            // Nothing between the clock and the machine: one call into the specialized code.
            let outcome = steps.catchUpAndSend(&machine, event, driver.elapsed())
            if let error = outcome.clockError { failures.append("\(error)") }
            if outcome.followUp || timerTask != nil { await afterOperation(from: nil, event: event) }
            if let error = outcome.sendError { throw error }
            try throwFailures()
            return
        }
        catchUp()
        let from = configurationBefore()
        if machine.core.chart.hasAsyncGuards { await evaluateAsyncGuards(for: event) }
        var result: Result<Void, MachineError> = .success(())
        if middleware.isEmpty {
            do { try steps.send(&machine, event) } catch { result = .failure(error) }
        } else {
            result = await sendThroughMiddleware(event)
        }
        if machine.core.pendingWork.isEmpty {
            finishOperation(from: from, event: event)
        } else {
            await afterOperation(from: from, event: event)
        }
        if case .failure(let error) = result { throw error }
        try throwFailures()
    }

    func sendThroughMiddleware(_ event: Event) async -> Result<Void, MachineError> {
        middlewareOutcome = nil
        var rejection: MachineError?
        do {
            try await Self.runMiddleware(middleware, from: 0, event: event, configuration: machine.activeStateIDs, on: self)
        } catch let error as MachineError {
            rejection = error
        } catch {
            rejection = .transitionRejected(event: "\(event): \(error)")
        }
        guard let outcome = middlewareOutcome else {
            // Refused before the machine saw it: only the runtime can report it (rule R62).
            let error = rejection ?? .transitionRejected(event: "\(event)")
            machine.reportFailedSend(event, error)
            return .failure(error)
        }
        if let rejection { return .failure(rejection) }
        return outcome
    }

    static func runMiddleware(
        _ chain: [any TransitionMiddleware<Event>], from index: Int, event: Event, configuration: [String],
        on machine: AsyncStateMachine
    ) async throws {
        guard index < chain.count else {
            await machine.processFromMiddleware(event)
            return
        }
        try await chain[index].intercept(event: event, configuration: configuration) {
            try await runMiddleware(chain, from: index + 1, event: event, configuration: configuration, on: machine)
        }
    }

    /// The innermost `next`: processes the event once (a second call does nothing).
    func processFromMiddleware(_ event: Event) {
        guard middlewareOutcome == nil else { return }
        do {
            try steps.send(&machine, event)
            middlewareOutcome = .success(())
        } catch {
            middlewareOutcome = .failure(error)
        }
    }

    /// Awaits the asynchronous guards the event could consult, in selection order, while the
    /// operation holds the machine (rule R58).
    func evaluateAsyncGuards(for event: Event) async {
        let guards = machine.core.asyncGuards(for: event)
        guard !guards.isEmpty else { return }
        var results: [Int32: Bool] = [:]
        let context = machine.context
        for (transition, condition) in guards { results[transition] = await condition(context, event) }
        machine.core.setAsyncGuardResults(results)
    }

    /// Requests a state (rule R26), serialized like a send.
    public func transition<T: Hashable & Sendable>(to target: T) async throws(MachineError) {
        await acquire()
        defer { release() }
        catchUp()
        let from = configurationBefore()
        var failure: MachineError?
        do { try machine.transition(to: target) } catch { failure = error }
        await afterOperation(from: from, event: nil)
        if let failure { throw failure }
        try throwFailures()
    }

    /// Adds middleware; it runs after the middleware added before it.
    public func addMiddleware(_ m: some TransitionMiddleware<Event>) {
        middleware.append(m)
        updatePlainSends()
    }

    // MARK: - Reading

    /// The number of operations (sends, requests, timer firings, finished work) waiting for the
    /// one that is running.
    public var waitingOperations: Int { waiting.count }

    /// The active top-level state.
    public var state: State { machine.state }
    /// The ids of the active atomic states.
    public var activeStateIDs: [String] { machine.activeStateIDs }
    /// The extended state.
    public var context: Context { machine.context }
    /// Whether a state with this value is active.
    public func isActive<T: Hashable & Sendable>(_ value: T) -> Bool { machine.isActive(value) }
    /// The machine's time.
    public var now: Duration { machine.now }
    /// Whether the machine reached a top-level final state.
    public var isFinished: Bool { machine.isFinished }
    /// A copy of the synchronous machine underneath, for inspection.
    public var snapshotMachine: StateMachine<State, Event, Context> { machine }

    /// A stream of the active state ids after every operation, starting with the current ones (rule R56).
    public func configurations() -> AsyncStream<[String]> {
        let (stream, continuation) = AsyncStream.makeStream(of: [String].self, bufferingPolicy: .unbounded)
        nextStreamID += 1
        let id = nextStreamID
        configurationStreams[id] = continuation
        updatePlainSends()
        continuation.yield(machine.activeStateIDs)
        continuation.onTermination = { [weak self] _ in
            Task { await self?.removeConfigurationStream(id) }
        }
        return stream
    }

    /// A stream of transitions (from, event, to) after every operation that changed the configuration.
    public func transitions() -> AsyncStream<MachineTransition<State, Event>> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: MachineTransition<State, Event>.self, bufferingPolicy: .unbounded)
        nextStreamID += 1
        let id = nextStreamID
        transitionStreams[id] = continuation
        updatePlainSends()
        continuation.onTermination = { [weak self] _ in
            Task { await self?.removeTransitionStream(id) }
        }
        return stream
    }

    func removeConfigurationStream(_ id: Int) {
        configurationStreams[id] = nil
        updatePlainSends()
    }

    func removeTransitionStream(_ id: Int) {
        transitionStreams[id] = nil
        updatePlainSends()
    }

    /// Waits until a state with this value is active (swift-state-kit's `waitFor`).
    public func waitFor<T: Hashable & Sendable>(_ value: T) async {
        if machine.isActive(value) { return }
        for await _ in configurations() where machine.isActive(value) { return }
    }

    // MARK: - After each operation

    /// Runs queued work, starts and cancels invoked work, publishes, traces, re-arms the timer.
    func afterOperation(from: [ChartStateID]? = nil, event: Event? = nil) async {
        await runQueuedWork()
        finishOperation(from: from, event: event)
    }

    /// What follows every operation once no queued work is left: invoked work, streams, tracer, timer.
    /// (Synchronous, so that a send that queued no work does not pay for another async call.)
    func finishOperation(from: [ChartStateID]?, event: Event?) {
        if !machine.core.invocationRequests.isEmpty { handleInvocations() }
        if tracer != nil || !configurationStreams.isEmpty || !transitionStreams.isEmpty {
            publish(from: from, event: event)
        } else if machine.options.tracing {
            machine.clearTrace()
        }
        if timerTask != nil || machine.core.nextDueTime != nil { scheduleTimer() }
    }

    /// The active atomic states before an operation, for the transition stream's records; `nil`
    /// when nobody listens (it costs an allocation per operation).
    func configurationBefore() -> [ChartStateID]? {
        transitionStreams.isEmpty ? nil : machine.core.activeAtomicStates
    }

    /// Work queued by actions, in order; each result event is its own macrostep and may queue more.
    func runQueuedWork() async {
        var work = machine.core.takePendingWork()
        while !work.isEmpty {
            for item in work {
                do {
                    if let event = try await item.work() { deliver(event) }
                } catch {
                    let message = "work \(item.name.map { "'\($0)' " } ?? "")of '\(item.source)' threw \(error)"
                    failures.append(message)
                    workFailed(message)
                }
            }
            handleInvocations()
            work = machine.core.takePendingWork()
        }
    }

    /// Sends an event produced by work through the machine's one entry (rule R60); an event nobody
    /// handles is dropped (it was not sent by a caller).
    func deliver(_ event: Event) {
        do { try machine.process(.workDelivered(event)) } catch { failures.append("\(error)") }
    }

    /// Raises `error.execution` for work that threw (its message is already among the failures).
    func workFailed(_ message: String) {
        _ = try? machine.process(.workFailed(message))
    }

    func handleInvocations() {
        for request in machine.core.takeInvocationRequests() {
            switch request {
            case .start(let token, _, let invocation):
                let context = machine.context
                invocationTasks[token] = Task { [weak self] in
                    let event: Event?
                    var failure: String?
                    do {
                        event = try await invocation.run(context)
                    } catch {
                        if Task.isCancelled { return }
                        event = invocation.failure?(error)
                        if event == nil { failure = "work '\(invocation.name)' threw \(error)" }
                    }
                    if Task.isCancelled { return }
                    await self?.invocationFinished(token: token, event: event, failure: failure)
                }
            case .cancel(let token):
                invocationTasks.removeValue(forKey: token)?.cancel()
            }
        }
    }

    func invocationFinished(token: UInt64, event: Event?, failure: String?) async {
        await acquire()
        defer { release() }
        // Dropped if its state was exited meanwhile (rule R52).
        guard invocationTasks.removeValue(forKey: token) != nil,
            machine.core.runningInvocationTokens.contains(where: { $0.token == token })
        else { return }
        catchUp()
        let from = configurationBefore()
        if let failure {
            failures.append(failure)
            workFailed(failure)
        } else if let event {
            deliver(event)
        }
        await afterOperation(from: from, event: event)
    }

    func publish(from: [ChartStateID]?, event: Event?) {
        if let tracer, machine.options.tracing {
            for step in machine.trace { tracer.record(step, machine: name) }
        }
        if machine.options.tracing { machine.clearTrace() }
        if configurationStreams.isEmpty && transitionStreams.isEmpty { return }
        let ids = machine.activeStateIDs
        for c in configurationStreams.values { c.yield(ids) }
        if let from, !transitionStreams.isEmpty {
            let record = MachineTransition<State, Event>(
                from: from.map { machine.typed.chart.id(of: $0) }, event: event, to: ids,
                fromState: machine.topState(in: from), toState: machine.state)
            for c in transitionStreams.values { c.yield(record) }
        }
    }

    // MARK: - Time

    /// Brings machine time up to the clock, firing the delayed sends that fell due (rule R54).
    func catchUp() {
        let elapsed = driver.elapsed()
        guard elapsed > machine.now else { return }
        do { try steps.advance(&machine, elapsed - machine.now) } catch { failures.append("\(error)") }
    }

    func clockTicked() async {
        await acquire()
        defer { release() }
        let from = configurationBefore()
        catchUp()
        await afterOperation(from: from, event: nil)
    }

    func scheduleTimer() {
        timerTask?.cancel()
        timerTask = nil
        guard driver.manual == nil, let due = machine.core.nextDueTime else { return }
        let sleep = driver.sleepUntilElapsed
        timerTask = Task { [weak self] in
            do { try await sleep(due) } catch { return }
            await self?.clockTicked()
        }
    }

    func throwFailures() throws(MachineError) {
        guard !failures.isEmpty else { return }
        let f = failures
        failures.removeAll()
        throw .executionFailed(f)
    }
}
