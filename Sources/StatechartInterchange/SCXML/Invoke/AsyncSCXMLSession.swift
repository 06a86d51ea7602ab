import Statechart

/// An ``SCXMLSession`` on a real clock, behind an actor: the asynchronous runtime of charts loaded
/// from SCXML and the sessions they invoke (rule R86).
///
/// ```swift
/// let session = try await AsyncSCXMLSession(chart: chart, clock: ContinuousClock())
/// try await session.send("go")
/// await session.activeStateIDs
/// ```
///
/// The shared virtual clock of the session follows `clock`: before each operation it catches up
/// with the time elapsed since the start, and while idle a timer wakes it at the next due time of
/// any session (a delayed send, a child's delayed send to its parent…). With a ``ManualClock``,
/// `advance(by:)` returns once every due send has run. Operations are serialized by the actor.
/// Execution errors raised while nobody was sending (by a delayed send, or an event received over
/// HTTP) are kept in ``backgroundFailures``.
///
/// Given a ``BasicHTTPEventProcessor``, every session is reachable at its location (rule R93), and
/// a POST there is taken as soon as it arrives; a `<send>` over HTTP is posted by the actor, which
/// waits for the answer (``BasicHTTPEventProcessor/timeoutSeconds`` at most).
public actor AsyncSCXMLSession {
    private var session: SCXMLSession
    private let clock: ClockDriver
    private var timerTask: Task<Void, Never>?
    private var clockObserver: UInt64?
    private var logHandler: (@Sendable (String) -> Void)?
    /// The session's processor and its number there, kept apart for `deinit` (which cannot read
    /// the session).
    private let http: (processor: BasicHTTPEventProcessor, owner: UInt64)?

    /// The execution errors of delayed sends that fired between operations, oldest first.
    public private(set) var backgroundFailures: [String] = []

    /// Starts a session of `chart` on `clock` (time zero is now).
    ///
    /// - Parameter http: A Basic HTTP Event I/O Processor the sessions send and receive through.
    /// - Throws: the errors of ``SCXMLSession/start()``; on ``MachineError/executionFailed(_:)`` the
    ///   session still started, and the errors are lost with it — handle them in the chart.
    public init<C: Clock>(
        chart: SCXMLChart, context: SCXMLContext = SCXMLContext(), clock: C, http: BasicHTTPEventProcessor? = nil
    ) async throws(MachineError) where C.Duration == Duration {
        self.session = SCXMLSession(chart: chart, context: context, http: http)
        let owner = session.httpOwner
        self.http = http.map { ($0, owner) }
        self.clock = ClockDriver(clock)
        if let manual = self.clock.manual {
            clockObserver = manual.addObserver { [weak self] in await self?.clockTicked() }
        }
        // Requests are answered on the processor's thread; each one queued wakes the actor.
        http?.setArrivalHandler({ [weak self] in Task { await self?.httpArrived() } }, owner: owner)
        try session.start()
        scheduleTimer()
    }

    deinit {
        timerTask?.cancel()
        if let clockObserver { clock.manual?.removeObserver(clockObserver) }
        if let http {
            http.processor.setArrivalHandler(nil, owner: http.owner)
            http.processor.setSessions([], owner: http.owner)
        }
    }

    /// The root session's active atomic states.
    public var activeStateIDs: [String] { session.root.activeAtomicIDs }
    /// Whether the root session runs.
    public var isRunning: Bool { session.isRunning }
    /// The ids of the invocations that run now, in the order they started.
    public var invocationIDs: [String] { session.invocations.map(\.invokeID) }
    /// Reads the running session (its sessions, data and time) inside the actor.
    public func inspect<T: Sendable>(_ body: (SCXMLSession) throws -> T) rethrows -> T { try body(session) }

    /// Calls `handler` with every `<log>` line of every session (an invoked one's prefixed by its
    /// invocation id), after each operation; `nil` stops it.
    public func onLog(_ handler: (@Sendable (String) -> Void)?) {
        logHandler = handler
        session.isTracing = handler != nil
    }

    /// Sends an external event to the root session, after catching up with the clock, and runs
    /// until every session is idle.
    ///
    /// - Returns: Whether the event enabled a transition of the root session.
    /// - Throws: as ``SCXMLSession/send(_:)``.
    @discardableResult
    public func send(_ event: SCXMLEvent) throws(MachineError) -> Bool {
        catchUp()
        defer { afterOperation() }
        return try session.send(event)
    }

    /// Stops every session (exit actions run) and the timer.
    public func stop() {
        session.stop()
        timerTask?.cancel()
        timerTask = nil
    }

    // MARK: - Time

    private func catchUp() {
        let elapsed = clock.elapsed()
        guard elapsed > session.now else { return }
        do throws(MachineError) {
            try session.advance(by: elapsed - session.now)
        } catch .executionFailed(let messages) {
            backgroundFailures += messages
        } catch {
            backgroundFailures.append(error.description)
        }
    }

    private func clockTicked() {
        catchUp()
        afterOperation()
    }

    /// Takes the events the Basic HTTP processor queued for these sessions.
    private func httpArrived() {
        catchUp()
        do throws(MachineError) {
            try session.deliverReceivedHTTPEvents()
        } catch .executionFailed(let messages) {
            backgroundFailures += messages
        } catch {
            backgroundFailures.append(error.description)
        }
        afterOperation()
    }

    private func afterOperation() {
        if let logHandler {
            for case .log(let line) in session.takeTrace() { logHandler(line) }
            for (id, steps) in session.takeInvocationTraces() {
                for case .log(let line) in steps { logHandler("[\(id)] \(line)") }
            }
        }
        scheduleTimer()
    }

    /// Wakes the actor at the next due time of any session (not with a ``ManualClock``, whose
    /// `advance` reaches the actor itself).
    private func scheduleTimer() {
        timerTask?.cancel()
        timerTask = nil
        guard clock.manual == nil, let due = session.nextDueTime else { return }
        let sleep = clock.sleepUntilElapsed
        timerTask = Task { [weak self] in
            do { try await sleep(due) } catch { return }
            await self?.clockTicked()
        }
    }
}
