import Statechart

/// A chart loaded from SCXML, running together with the sessions its `<invoke>`s start (rule R86).
///
/// ```swift
/// var session = SCXMLSession(chart: try SCXMLDocument.load(contentsOf: url))
/// try session.start()
/// try session.send("go")
/// try session.advance(by: .seconds(5))   // one virtual clock for every session
/// session.root.activeAtomicIDs
/// ```
///
/// Each session is its own ``ChartInstance``; the root is the chart given. When a macrostep of a
/// session ends with a state entered whose `<invoke>` has not started, the invocation's
/// arguments are evaluated in that session and the invoked document starts as a child session.
/// Sessions exchange events through `<send target="#_parent">`, `#_<invokeid>` and
/// `#_scxml_<sessionid>`: an event is delivered to its receiver's external queue when the step
/// that sent it has ended (or at its due time, for a delayed send), the receiver runs it to
/// completion, and so on until every session is idle, so each call returns with the whole system
/// idle. An event from a child carries the invocation's id (`_event.invokeid`) and runs the
/// invocation's `<finalize>` first; with `autoforward="true"` every external event the invoking
/// session takes is also sent to the child. A child that reaches a top-level final state ends and
/// its parent receives `done.invoke.<invokeid>` (with the final state's `<donedata>`); a child
/// whose invoking state is exited is cancelled, and nothing it sent afterwards is delivered.
///
/// Time is virtual and shared: ``advance(by:)`` fires every session's delayed sends in due order.
public struct SCXMLSession {
    /// One running session.
    struct Node {
        var instance: ChartInstance<SCXMLEvent, SCXMLContext>
        /// The number that names the node while it lives (never reused).
        var serial: Int
        /// The invoking node's serial, for a child.
        var parent: Int?
        /// The child's invocation id, as its parent knows it.
        var invokeID: String?
        /// The parent's invocation token (cancellation names it).
        var token: UInt64?
        var definition: SCXMLInvokeDefinition?
        /// Where the child's document came from (for snapshots).
        var source: SCXMLSessionSnapshot.Source = .inline
        /// The shared clock's time when the session started (its own clock starts at zero).
        var epoch: Duration
        var depth: Int
    }

    var nodes: [Node]
    var nextSerial = 1
    /// Execution errors of the current call (sessions other than the root say which they are).
    var failures: [String] = []
    /// The first error of the current call that is not an execution error.
    var firstError: MachineError?
    /// Whether the caller asked for traces (sessions forwarding events trace anyway, and forget it).
    private var tracesRequested = false
    /// The traces of sessions that ended since the last ``takeInvocationTraces()``.
    var endedTraces: [(invokeID: String, steps: [TraceStep])] = []

    /// The shared virtual clock: how far ``advance(by:)`` has moved it since the start.
    public internal(set) var now: Duration = .zero
    /// The most sessions that may run at once, the root included; an `<invoke>` beyond it raises
    /// `error.execution` in the invoking session. Default 1,000.
    public var maximumSessions = 1_000
    /// How deep invocations may nest (a chart that invokes itself stops here); an `<invoke>`
    /// deeper raises `error.execution`. Default 64.
    public var maximumDepth = 64
    /// The Basic HTTP Event I/O Processor the sessions send and receive through (rule R93), if
    /// the host gave one.
    public let http: BasicHTTPEventProcessor?
    /// The number that keeps this host's received events apart from those of other hosts sharing
    /// the processor.
    let httpOwner = BasicHTTPEventProcessor.newOwner()
    /// The sessions last registered with the processor.
    var httpSessions: Set<String> = []

    /// Creates a stopped session of `chart`; ``start()`` starts it.
    ///
    /// - Parameters:
    ///   - chart: The chart of the root session.
    ///   - context: Its initial context.
    ///   - http: A Basic HTTP Event I/O Processor: every session is then reachable at its
    ///     location (`_ioprocessors.basichttp.location`), and a `<send>` of that type posts to
    ///     its target. Without one, such a `<send>` raises `error.execution`.
    public init(chart: SCXMLChart, context: SCXMLContext = SCXMLContext(), http: BasicHTTPEventProcessor? = nil) {
        var context = context
        if context.sessionID.isEmpty { context.sessionID = Self.newSessionID() }
        context.links.sessions = [context.sessionID]
        self.http = http
        let root = ChartInstance(chart: chart, context: context)
        nodes = [Node(instance: root, serial: 0, epoch: .zero, depth: 0)]
        refreshSessionLinks()
    }

    /// The root session: the chart given to ``init(chart:context:)``.
    public var root: ChartInstance<SCXMLEvent, SCXMLContext> { nodes[0].instance }

    /// The root session's context: its data as Swift values (``SCXMLContext/value(of:as:)``,
    /// ``SCXMLContext/setValue(_:for:)``). Writing runs nothing: the chart sees the new values at
    /// its next condition or content.
    public var context: SCXMLContext {
        get { nodes[0].instance.context }
        set { nodes[0].instance.context = newValue }
    }

    /// Whether the root session runs (started, and not finished or stopped).
    public var isRunning: Bool { nodes[0].instance.isRunning }

    /// The sessions started by `<invoke>` that run now, by invocation id, in the order they started
    /// (a child's children after it).
    public var invocations: [(invokeID: String, session: ChartInstance<SCXMLEvent, SCXMLContext>)] {
        nodes.dropFirst().map { ($0.invokeID ?? "", $0.instance) }
    }

    /// Whether every session records a trace (``ChartInstance/trace``). Default `false`.
    public var isTracing: Bool {
        get { tracesRequested }
        set {
            tracesRequested = newValue
            for i in nodes.indices { nodes[i].instance.isTracing = newValue || nodes[i].instance.recordsExternalEvents }
        }
    }

    /// Takes the root session's trace since the last call.
    public mutating func takeTrace() -> [TraceStep] {
        defer { nodes[0].instance.trace.removeAll() }
        return nodes[0].instance.trace
    }

    /// Takes the traces of the invoked sessions since the last call, by invocation id.
    public mutating func takeInvocationTraces() -> [(invokeID: String, steps: [TraceStep])] {
        var traces = endedTraces
        endedTraces = []
        for i in nodes.indices.dropFirst() where !nodes[i].instance.trace.isEmpty {
            traces.append((nodes[i].invokeID ?? "", nodes[i].instance.trace))
            nodes[i].instance.trace.removeAll()
        }
        return traces
    }

    /// A new session id (`_sessionid`): unique in practice, random.
    static func newSessionID() -> String {
        "session-" + String(UInt64.random(in: 1...UInt64.max), radix: 36)
    }

    // MARK: - Driving

    /// Starts the root session and runs until every session is idle.
    ///
    /// - Throws: ``MachineError/executionFailed(_:)`` with the execution errors of every session
    ///   (the sessions still started), or the first other failure (``MachineError/microstepLimitExceeded(limit:states:events:)``…).
    public mutating func start() throws(MachineError) {
        attempt(0) { instance throws(MachineError) in try instance.start() }
        settle()
        try throwCollected()
    }

    /// Sends an external event to the root session and runs until every session is idle.
    ///
    /// - Returns: Whether the event enabled a transition of the root session.
    /// - Throws: ``MachineError/finished(finalState:)`` or ``MachineError/notStarted`` when the root
    ///   does not run; otherwise as ``start()``.
    @discardableResult
    public mutating func send(_ event: SCXMLEvent) throws(MachineError) -> Bool {
        guard nodes[0].instance.isRunning else {
            throw nodes[0].instance.hasStarted
                ? .finished(finalState: nodes[0].instance.finalState.map { root.chart.id(of: $0) } ?? "") : .notStarted
        }
        var handled = false
        attempt(0) { instance throws(MachineError) in handled = try instance.send(chartEvent: .event(event)) }
        settle()
        try throwCollected()
        return handled
    }

    /// Advances the shared clock, firing every session's delayed sends that fall due, in due order,
    /// each at its due time, and running until every session is idle after each.
    ///
    /// - Throws: as ``start()``.
    public mutating func advance(by duration: Duration) throws(MachineError) {
        let target = now + duration
        while let due = nextDueTime, due <= target {
            advanceClocks(to: due)
            deliverDelayedSends(dueBy: due)
            settle()
        }
        advanceClocks(to: target)
        try throwCollected()
    }

    /// The shared-clock time of the next delayed send of any session, if any.
    public var nextDueTime: Duration? {
        var next: Duration?
        for n in nodes {
            if let d = n.instance.nextDueTime.map({ n.epoch + $0 }), next.map({ d < $0 }) ?? true { next = d }
            for send in n.instance.context.links.outbox {
                if let d = send.due.map({ n.epoch + $0 }), next.map({ d < $0 }) ?? true { next = d }
            }
        }
        return next
    }

    /// Stops every session: exit actions run, queues and timers are cleared (children first), and
    /// the Basic HTTP processor stops taking requests for them.
    public mutating func stop() {
        for i in nodes.indices.reversed() { nodes[i].instance.stop() }
        nodes.removeSubrange(1...)
        nodes[0].instance.context.links.invocations = [:]
        registerHTTPSessions()
    }

    // MARK: - Running to idle

    /// Moves every session's clock to `time` on the shared clock, firing their own delayed sends.
    private mutating func advanceClocks(to time: Duration) {
        now = time
        var i = 0
        while i < nodes.count {
            let serial = nodes[i].serial
            let step = time - (nodes[i].epoch + nodes[i].instance.now)
            if step > .zero { attempt(serial) { instance throws(MachineError) in try instance.advance(by: step) } }
            i = (index(of: serial) ?? i) + 1
        }
    }

    /// Runs until no session has anything to do: invocations to start or cancel, events to deliver
    /// to other sessions or to forward, children that ended.
    mutating func settle() {
        var progress = true
        while progress {
            progress = false
            var i = 0
            while i < nodes.count {
                let serial = nodes[i].serial
                if startAndCancelInvocations(serial) { progress = true }
                if deliverOutbox(serial) { progress = true }
                if forwardTakenEvents(serial) { progress = true }
                if endIfDone(serial) { progress = true }
                i = (index(of: serial) ?? i - 1) + 1
            }
            if deliverReceivedHTTP() { progress = true }
        }
        registerHTTPSessions()
    }

    /// Delivers the events the Basic HTTP processor received from outside since the last step
    /// (a host serving requests calls it when it wakes), and runs until every session is idle.
    /// Events a session sent itself over HTTP are delivered after the step that sent them,
    /// without it.
    ///
    /// - Returns: Whether any event was delivered.
    /// - Throws: as ``start()``.
    @discardableResult
    public mutating func deliverReceivedHTTPEvents() throws(MachineError) -> Bool {
        let delivered = deliverReceivedHTTP()
        settle()
        try throwCollected()
        return delivered
    }

    /// Runs `body` on a session's instance, keeping its errors for the end of the call.
    mutating func attempt(_ serial: Int, _ body: (inout ChartInstance<SCXMLEvent, SCXMLContext>) throws(MachineError) -> Void) {
        guard let i = index(of: serial) else { return }
        do {
            try body(&nodes[i].instance)
        } catch .executionFailed(let messages) {
            let who = nodes[i].invokeID.map { "invocation '\($0)': " } ?? ""
            failures += messages.map { who + $0 }
        } catch {
            if firstError == nil { firstError = error }
        }
    }

    private mutating func throwCollected() throws(MachineError) {
        defer {
            failures = []
            firstError = nil
        }
        if let firstError { throw firstError }
        if !failures.isEmpty { throw .executionFailed(failures) }
    }

    func index(of serial: Int) -> Int? { nodes.firstIndex { $0.serial == serial } }
}
