/// What drives a ``StateMachine`` in time, shared by ``AsyncStateMachine`` (its own actor) and
/// ``ObservableStateMachine`` (the main actor): serialization of operations (rule R50), the clock
/// and its timer (R53, R54), queued and invoked work (R51, R52), middleware (R55), asynchronous
/// guards (R58), streams and tracer (R56).
///
/// The driver is not `Sendable`: it belongs to one owner and runs in the owner's isolation (every
/// `async` method takes the caller's actor as `isolation`). Tasks it starts — timers, invoked work,
/// middleware's `next` — come back through ``host``, a callback into the owner.
@usableFromInline
final class MachineDriver<State: Hashable & Sendable, Event: Hashable & Sendable, Context: Sendable> {
    typealias Steps = MachineSteps<State, Event, Context>

    // The typed queries of both runtimes, handed the parts of the machine they read. Asked of
    // the machine (`machine.isActive(value)`), the machine was copied out of this class first —
    // its calls into the standard library could write to the class for all the compiler knows —
    // and destroyed after: about 840 instructions of the observable model's `isActive(_:)`
    // (issue 16).

    /// What the typed queries read of the machine: its configuration and the final state it
    /// ended in (-1 while it runs), read out of the class before the query runs.
    @inlinable
    var activeParts: (configuration: Configuration, endedIn: Int32) {
        (machine.core.configuration, machine.endedIn)
    }

    /// The machine's extended state, read in place (the runtimes' `context` and ``peekView``).
    @inlinable
    var context: Context { machine.core.scope.context }

    /// What ``StateMachine/canSend(_:)`` reads of the driver's machine: the four fields of a
    /// ``PeekView``, read out of the class each alone, not the machine copied whole.
    @inlinable
    var peekView: PeekView<Event, Context> {
        PeekView(
            chart: machine.core.chart, configuration: machine.core.configuration, context: context,
            now: machine.core.scope.machineTime)
    }

    /// ``StateMachine/canSend(_:)`` of the driver's machine, without a copy of it.
    @inlinable
    func canSend(_ event: Event) -> Bool {
        machine.core.isRunning && peekView.wouldHandle(event)
    }

    /// ``StateMachine/validEvents(among:)`` of the driver's machine, without a copy of it: one
    /// view for every candidate.
    @inlinable
    func validEvents(among candidates: [Event]) -> [Event] {
        guard machine.core.isRunning else { return [] }
        let view = peekView
        return candidates.filter { view.wouldHandle($0) }
    }

    /// ``StateMachine/isActive(_:)`` of the driver's machine, without a copy of it.
    @inlinable
    func isActive<T: Hashable & Sendable>(_ value: T) -> Bool {
        let (configuration, endedIn) = activeParts
        return machine.typed.isActive(value, in: configuration, endedIn: endedIn)
    }

    /// ``StateMachine/activeStates(of:)`` of the driver's machine, without a copy of it.
    @inlinable
    func activeStates<T: Hashable & Sendable>(of type: T.Type) -> [T] {
        let (configuration, endedIn) = activeParts
        return machine.typed.activeStates(of: type, in: configuration, endedIn: endedIn)
    }

    /// ``StateMachine/activeState(of:)`` of the driver's machine, without a copy of it.
    @inlinable
    func activeState<T: Hashable & Sendable>(of type: T.Type) -> T? {
        let (configuration, endedIn) = activeParts
        return machine.typed.activeState(of: type, in: configuration, endedIn: endedIn)
    }
    /// The machine's own steps compiled for its types (see ``MachineSteps``).
    let steps: Steps
    let clock: ClockDriver
    let name: String
    /// The way back into the owner's isolation for tasks the driver started.
    var host: (@Sendable (DriverCall<Event>) async -> Void)?
    @exclusivity(unchecked) var waiting: [CheckedContinuation<Void, Never>] = []
    @exclusivity(unchecked) var busy = false
    @exclusivity(unchecked) var timerTask: Task<Void, Never>?
    var clockObserver: UInt64?
    var invocationTasks: [UInt64: Task<Void, Never>] = [:]
    var middleware: [any TransitionMiddleware<Event>] = []
    var tracer: (any StatechartTracer)?
    var configurationStreams: [Int: AsyncStream<[String]>.Continuation] = [:]
    var transitionStreams: [Int: AsyncStream<MachineTransition<State, Event>>.Continuation] = [:]
    var nextStreamID = 0
    @exclusivity(unchecked) var failures: [String] = []
    var middlewareOutcome: Result<Void, MachineError>?
    /// Where the machine keeps its failed sends until an operation releases it, for its handlers
    /// (``ObservableStateMachine``, see ``FailedSendInbox``); `nil` where the handlers run inside
    /// the change.
    var failedSendInbox: FailedSendInbox<Event>?
    /// Whether something must be awaited before the machine takes an event: middleware or
    /// asynchronous guards (kept up to date by ``updatePlainSends()``). Stored, not computed: this
    /// code is compiled once for every machine type, and reading the machine's chart from it
    /// looked up the machine's generic metadata at every send.
    private(set) var sendNeedsAwaiting = false

    /// Whether a send needs nothing but the machine: no middleware, no asynchronous guards, no
    /// tracer, no stream (kept up to date by ``updatePlainSends()``).
    var plainSends = false
    /// Whether nothing the chart runs can read machine time (``Chart/readsTime``): a plain send
    /// then reads the clock only when a delayed send is pending (``MachineSteps/catchUpAndSend``).
    let chartIgnoresTime: Bool
    /// Whether machine time may be behind the clock: set by a plain send of a chart that ignores
    /// time, cleared by every catch-up. What shows the time (``now``, a snapshot, the machine
    /// copied out) brings it up first (``bringTimeUp()``), so a reader sees what the send would
    /// have set (rule R54).
    @exclusivity(unchecked) var timeBehind = false

    /// Only the owner's isolation touches the driver, one operation at a time: the fields every
    /// send reads or writes skip the dynamic exclusivity check (a `swift_beginAccess` per access).
    ///
    /// The runtimes' queries (`state`, `isActive(_:)`, `activeStates(of:)`) read it from inlinable
    /// code, specialized for the caller's types.
    ///
    /// The last stored property on purpose: its size depends on the type arguments, so in the
    /// driver's unspecialized code every field after it sits at an offset read from the class's
    /// metadata at each access; before it, each is at an offset known when compiling.
    @usableFromInline @exclusivity(unchecked) var machine: StateMachine<State, Event, Context>

    init<C: Clock>(
        _ machine: StateMachine<State, Event, Context>, clock: C, name: String, tracer: (any StatechartTracer)?,
        steps: Steps
    ) where C.Duration == Duration {
        self.chartIgnoresTime = !machine.core.chart.readsTime
        self.machine = machine
        self.steps = steps
        self.clock = ClockDriver(clock)
        self.name = name
        self.tracer = tracer
        updatePlainSends()
    }

    /// Connects the owner: tasks the driver starts come back through `host`.
    func connect(host: @escaping @Sendable (DriverCall<Event>) async -> Void) {
        self.host = host
        if let manual = clock.manual {
            clockObserver = manual.addObserver { await host(.clockTicked) }
        }
    }

    /// Connects the owner and runs what follows the start (invoked work of the initial state, timers).
    func start(
        host: @escaping @Sendable (DriverCall<Event>) async -> Void, isolation: isolated (any Actor)? = #isolation
    ) async throws(MachineError) {
        connect(host: host)
        await afterOperation()
        try throwFailures()
    }

    /// Stops the timer and the invoked work, finishes the streams: the owner went away (only the
    /// owner holds the driver; its tasks hold the owner weakly).
    deinit {
        timerTask?.cancel()
        for task in invocationTasks.values { task.cancel() }
        if let id = clockObserver { clock.manual?.removeObserver(id) }
        for c in configurationStreams.values { c.finish() }
        for c in transitionStreams.values { c.finish() }
    }

    /// Runs a call a task made through ``host``, in the owner's isolation.
    func handle(_ call: DriverCall<Event>, isolation: isolated (any Actor)? = #isolation) async {
        switch call {
        case .clockTicked: await clockTicked()
        case .invocationFinished(let token, let event, let failure):
            await invocationFinished(token: token, event: event, failure: failure)
        case .middlewareNext(let event): processFromMiddleware(event)
        case .streamEnded(let id):
            configurationStreams[id] = nil
            transitionStreams[id] = nil
            updatePlainSends()
        }
    }

    func updatePlainSends() {
        let hasAsyncGuards = machine.core.chart.hasAsyncGuards
        sendNeedsAwaiting = !middleware.isEmpty || hasAsyncGuards
        plainSends =
            middleware.isEmpty && tracer == nil && configurationStreams.isEmpty && transitionStreams.isEmpty
            && !hasAsyncGuards
    }

    // MARK: - Serialization

    /// Waits until no other operation is running, in arrival order.
    func acquire(isolation: isolated (any Actor)? = #isolation) async {
        if !busy {
            busy = true
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    /// Takes the machine if no operation holds it (for the synchronous calls of the observable model).
    func tryAcquire() -> Bool {
        if busy { return false }
        busy = true
        return true
    }

    /// Ends an operation: the next waiting one takes the machine, and failed sends kept while it
    /// was held are handed over. The usual case — nobody waiting, no inbox — is a test inline in
    /// the caller.
    @inline(__always)
    func release() {
        if waiting.isEmpty, failedSendInbox == nil {
            busy = false
        } else {
            releaseToWaiting()
        }
    }

    /// ``release()`` when an operation waits or the machine has an inbox: the first waiting
    /// operation resumes (or nothing holds the machine), then the inbox's reports are handed over.
    @inline(never)
    func releaseToWaiting() {
        if waiting.isEmpty {
            busy = false
        } else {
            waiting.removeFirst().resume()
        }
        if let inbox = failedSendInbox, inbox.hasReports { deliverFailedSends(from: inbox) }
    }

    /// Hands the failed sends kept while an operation held the machine to the machine's own
    /// handlers, now that nothing holds it (``FailedSendInbox``): each report to every handler, in
    /// order. A handler may send again; what that reports is handed over by its own operation's
    /// release, or by the next round here when the send ran in a task.
    func deliverFailedSends(from inbox: FailedSendInbox<Event>) {
        while inbox.hasReports {
            let reports = inbox.take()
            let handlers = machine.failedSendHandlers
            for (event, error) in reports {
                for h in handlers { h.handler(event, error) }
            }
        }
    }

    // MARK: - Sending

    /// A send while holding the machine: catches up the clock, runs asynchronous guards and
    /// middleware, processes the event, awaits the work it queued (rule R51).
    func sendHeld(_ event: Event, isolation: isolated (any Actor)? = #isolation) async throws(MachineError) {
        if !sendNeedsAwaiting {
            if let queued = try sendUnawaited(event) { try await finishSend(queued, event: event) }
            return
        }
        let from = catchUpForOperation()
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

    /// A held send that needs no awaiting (see ``sendNeedsAwaiting``), taken synchronously: the
    /// event processed and, unless its actions queued work, everything that follows it. The owner's
    /// `send` calls it directly, so that the usual send makes no other async call (each one costs a
    /// frame from the task's allocator and, from a generic actor's method, a lookup of the actor's
    /// metadata and conformance for the `isolation` argument).
    ///
    /// - Returns: `nil` when the send is complete; otherwise the send, whose queued work is left
    ///   for ``finishSend(_:event:isolation:)``.
    /// - Throws: the send's error, or the failures collected, when the send is complete.
    func sendUnawaited(_ event: Event) throws(MachineError) -> SentEvent? {
        let step = sendNow(event)
        if step.followUp, !follow(step, of: event) { return step }
        if let error = step.error { throw error }
        try throwFailures()
        return nil
    }

    /// What follows a send that needs it: ``finishOperation(from:event:)`` now, unless its
    /// actions queued work (``finishSend(_:event:isolation:)`` runs it then). Out of line: in
    /// ``sendUnawaited(_:)`` (compiled once for every machine type) its `Event?` argument made
    /// every send look up the metadata of `Optional<Event>`.
    ///
    /// - Returns: Whether the send is finished; `false` when queued work is left to await.
    @inline(never)
    func follow(_ step: SentEvent, of event: Event) -> Bool {
        guard machine.core.pendingWork.isEmpty else { return false }
        finishOperation(from: step.from, event: event)
        return true
    }

    /// A send whose actions queued work (rule R51): the work awaited, then what follows every
    /// operation; then the send's error or the failures collected.
    func finishSend(
        _ step: SentEvent, event: Event, isolation: isolated (any Actor)? = #isolation
    ) async throws(MachineError) {
        await afterOperation(from: step.from, event: event)
        if let error = step.error { throw error }
        try throwFailures()
    }

    /// A send that needs no awaiting (see ``sendNeedsAwaiting``), shared by the awaited sends and
    /// the observable model's synchronous one: the clock caught up and the event processed. What
    /// follows it (``finishOperation(from:event:)``, or ``afterOperation(from:event:isolation:)``
    /// when work was queued) is the caller's to run when `followUp` is set.
    func sendNow(_ event: Event) -> SentEvent {
        if plainSends {
            // Nothing between the clock and the machine: one call into the specialized code.
            var clockError: MachineError?
            var sendError: MachineError?
            var followUp = true  // after a failed send, what follows checks for itself
            do { followUp = try steps.catchUpAndSend(&machine, event, clock.elapsed, &clockError) } catch {
                sendError = error
            }
            if chartIgnoresTime { timeBehind = true }
            // Consumed, not bound: bound, the optional was destroyed at the end of the scope
            // through its value witness, nil or not (about 65 instructions per send).
            if let error = consume clockError { failures.append("\(error)") }
            return SentEvent(error: sendError, from: nil, followUp: followUp || timerTask != nil)
        }
        let from = catchUpForOperation()
        var error: MachineError?
        do { try steps.send(&machine, event) } catch let failure { error = failure }
        return SentEvent(error: error, from: from, followUp: true)
    }

    func sendThroughMiddleware(_ event: Event, isolation: isolated (any Actor)? = #isolation) async -> Result<
        Void, MachineError
    > {
        middlewareOutcome = nil
        var rejection: MachineError?
        do {
            try await Self.runMiddleware(
                middleware, from: 0, event: event, configuration: machine.activeStateIDs, host: host)
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
        host: (@Sendable (DriverCall<Event>) async -> Void)?
    ) async throws {
        guard index < chain.count else {
            await host?(.middlewareNext(event))
            return
        }
        try await chain[index].intercept(event: event, configuration: configuration) {
            try await runMiddleware(chain, from: index + 1, event: event, configuration: configuration, host: host)
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
    func evaluateAsyncGuards(for event: Event, isolation: isolated (any Actor)? = #isolation) async {
        let guards = machine.core.asyncGuards(for: event)
        guard !guards.isEmpty else { return }
        var results: [Int32: Bool] = [:]
        let context = machine.context
        for (transition, condition) in guards { results[transition] = await condition(context, event) }
        machine.core.setAsyncGuardResults(results)
    }

    /// Runs one operation on the machine while holding it, then does what follows every
    /// operation (queued work, invoked work, streams, timer).
    func operationHeld<T>(
        isolation: isolated (any Actor)? = #isolation,
        _ body: (inout StateMachine<State, Event, Context>) throws(MachineError) -> T
    ) async throws(MachineError) -> T {
        let from = catchUpForOperation()
        let result: Result<T, MachineError>
        do { result = .success(try body(&machine)) } catch { result = .failure(error) }
        await afterOperation(from: from, event: nil)
        let value = try result.get()
        try throwFailures()
        return value
    }

    // MARK: - After each operation

    /// Runs queued work, starts and cancels invoked work, publishes, traces, re-arms the timer.
    func afterOperation(
        from: [ChartStateID]? = nil, event: Event? = nil, isolation: isolated (any Actor)? = #isolation
    ) async {
        // A stream subscribed while the work runs received the configuration on subscribing:
        // what the work changes is published from there. (Taken only when work is queued: a
        // copy of the configuration costs an allocation.)
        let from = from ?? (machine.core.pendingWork.isEmpty ? nil : machine.core.activeAtomicStates)
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

    /// The active atomic states before an operation, for the streams (they publish only a change,
    /// rule R56); `nil` when nobody listens (it costs an allocation per operation).
    func configurationBefore() -> [ChartStateID]? {
        transitionStreams.isEmpty && configurationStreams.isEmpty ? nil : machine.core.activeAtomicStates
    }

    /// Work queued by actions, in order; each result event is its own macrostep and may queue more.
    func runQueuedWork(isolation: isolated (any Actor)? = #isolation) async {
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
        let host = self.host
        for request in machine.core.takeInvocationRequests() {
            switch request {
            case .start(let token, _, let invocation):
                let context = machine.context
                invocationTasks[token] = Task {
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
                    await host?(.invocationFinished(token: token, event: event, failure: failure))
                }
            case .cancel(let token):
                invocationTasks.removeValue(forKey: token)?.cancel()
            }
        }
    }

    func invocationFinished(
        token: UInt64, event: Event?, failure: String?, isolation: isolated (any Actor)? = #isolation
    ) async {
        await acquire()
        defer { release() }
        // Dropped if its state was exited meanwhile (rule R52).
        guard invocationTasks.removeValue(forKey: token) != nil,
            machine.core.runningInvocationTokens.contains(where: { $0.token == token })
        else { return }
        let from = catchUpForOperation()
        if let failure {
            failures.append(failure)
            workFailed(failure)
        } else if let event {
            deliver(event)
        }
        await afterOperation(from: from, event: event)
    }

    /// Yields to the streams when the operation changed the configuration (rule R56), and gives
    /// the trace to the tracer.
    func publish(from: [ChartStateID]?, event: Event?) {
        if let tracer, machine.options.tracing {
            for step in machine.trace { tracer.record(step, machine: name) }
        }
        if machine.options.tracing { machine.clearTrace() }
        guard let from, from != machine.core.activeAtomicStates else { return }
        let ids = machine.activeStateIDs
        for c in configurationStreams.values { c.yield(ids) }
        if !transitionStreams.isEmpty {
            let record = MachineTransition<State, Event>(
                from: from.map { machine.typed.chart.id(of: $0) }, event: event, to: ids,
                fromState: machine.topState(in: from), toState: machine.state)
            for c in transitionStreams.values { c.yield(record) }
        }
    }

    // MARK: - Streams

    /// A stream of the active state ids after every operation that changed them, starting with the current ones.
    func configurations() -> AsyncStream<[String]> {
        let (stream, continuation) = AsyncStream.makeStream(of: [String].self, bufferingPolicy: .unbounded)
        nextStreamID += 1
        let id = nextStreamID
        configurationStreams[id] = continuation
        updatePlainSends()
        continuation.yield(machine.activeStateIDs)
        let host = self.host
        continuation.onTermination = { _ in Task { await host?(.streamEnded(id)) } }
        return stream
    }

    /// A stream of transitions (from, event, to) after every operation that changed the configuration.
    func transitions() -> AsyncStream<MachineTransition<State, Event>> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: MachineTransition<State, Event>.self, bufferingPolicy: .unbounded)
        nextStreamID += 1
        let id = nextStreamID
        transitionStreams[id] = continuation
        updatePlainSends()
        let host = self.host
        continuation.onTermination = { _ in Task { await host?(.streamEnded(id)) } }
        return stream
    }

    // MARK: - Time

    /// Brings machine time up to the clock, firing the delayed sends that fell due (rule R54).
    func catchUp() {
        timeBehind = false
        do { try steps.catchUp(&machine, clock.elapsed()) } catch { failures.append("\(error)") }
    }

    /// Brings machine time up to the clock before something shows it, when a plain send of a
    /// chart that ignores time left it behind (``timeBehind``). Nothing is pending then, so the
    /// catch-up only sets the time (rule R54).
    func bringTimeUp() {
        if timeBehind, machine.core.nextDueTime == nil { catchUp() }
    }

    /// ``catchUp()`` before an operation, and the configuration the operation starts from (see
    /// ``configurationBefore()``). What the catch-up changed — delayed sends that fell due while
    /// nothing woke the machine — is published first, as a tick of the clock publishes it (rule
    /// R56): compared with the configuration after the catch-up, an operation that changes nothing
    /// itself would publish nothing.
    func catchUpForOperation() -> [ChartStateID]? {
        let before = configurationBefore()
        catchUp()
        guard let before else { return nil }
        if before != machine.core.activeAtomicStates { publish(from: before, event: nil) }
        return machine.core.activeAtomicStates
    }

    func clockTicked(isolation: isolated (any Actor)? = #isolation) async {
        await acquire()
        defer { release() }
        let from = configurationBefore()
        catchUp()
        await afterOperation(from: from, event: nil)
    }

    func scheduleTimer() {
        timerTask?.cancel()
        timerTask = nil
        guard clock.manual == nil, let due = machine.core.nextDueTime else { return }
        let sleep = clock.sleepUntilElapsed
        let host = self.host
        timerTask = Task {
            do { try await sleep(due) } catch { return }
            await host?(.clockTicked)
        }
    }

    /// Throws the failures collected since the last operation, if any. The test is inline in
    /// every operation's end (most have none); the throw is out of line.
    @inline(__always)
    func throwFailures() throws(MachineError) {
        if !failures.isEmpty { try throwCollectedFailures() }
    }

    /// Throws the failures collected, emptying the list: ``MachineError/executionFailed(_:)``.
    @inline(never)
    func throwCollectedFailures() throws(MachineError) {
        let f = failures
        failures.removeAll()
        throw .executionFailed(f)
    }
}

/// What a task the driver started asks of it, back in the owner's isolation.
enum DriverCall<Event: Sendable>: Sendable {
    /// The clock reached a due time (or a ``ManualClock`` was advanced).
    case clockTicked
    /// Invoked work finished with its event or failure.
    case invocationFinished(token: UInt64, event: Event?, failure: String?)
    /// The innermost middleware called `next`.
    case middlewareNext(Event)
    /// A stream's consumer went away.
    case streamEnded(Int)
}

/// A send the machine took (``MachineDriver/sendNow(_:)``): its error, the configuration before
/// it (for the streams; `nil` when nobody listens) and whether anything must follow it. When its
/// actions queued work, the error is thrown once that work has run. (Not nested in the generic
/// driver: a nested type is generic too, and returning it optional looked up its metadata at
/// every send.)
///
/// Three words, returned in registers: the error, rare, is boxed (``BoxedSendError``). Held inline,
/// the optional error made the struct eight words, returned through memory and copied again by
/// every caller (issue 16).
struct SentEvent {
    let failure: BoxedSendError?
    let from: [ChartStateID]?
    let followUp: Bool

    init(error: MachineError?, from: [ChartStateID]?, followUp: Bool) {
        failure = error.map(BoxedSendError.init)
        self.from = from
        self.followUp = followUp
    }

    /// The send's error.
    var error: MachineError? { failure?.error }
}

/// The error of a failed send, boxed so that ``SentEvent`` stays small.
final class BoxedSendError {
    let error: MachineError
    init(_ error: MachineError) { self.error = error }
}
