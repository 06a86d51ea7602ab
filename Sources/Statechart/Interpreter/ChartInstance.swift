/// A running instance of a ``Chart``: the SCXML interpreter (W3C SCXML 1.0 §3.13, Appendix D).
///
/// The instance is a value: it holds the active configuration, history values, the extended
/// state, the internal and external queues and the pending delayed sends, and nothing else — the
/// chart itself is shared. Every front end runs on it: the typed ``StateMachine`` wraps one, and
/// SCXML documents run on one directly.
///
/// Time is virtual: a delayed send falls due when the owner advances the clock with
/// ``advance(by:)``. The asynchronous runtimes drive that from a real `Clock`.
public struct ChartInstance<Event: Hashable & Sendable, Context> {
    /// The chart this instance runs.
    public let chart: Chart<Event, Context>
    @usableFromInline var configuration: Configuration
    @usableFromInline var historyValues: [[Int32]?]
    /// The internal and external queues: made when the first event is queued, `nil` for a machine
    /// that never queues one (QueuedEvents.swift).
    @usableFromInline var queueBox: QueueBox?
    /// The machine's virtual time: how far its clock has been advanced since it started.
    @inlinable public var now: Duration { machineTime }
    /// The storage of ``now`` (settable from the inlinable ``advance(by:)``): the scope's copy,
    /// which actions read, so that the instance does not hold the same 16 bytes twice.
    @inlinable var machineTime: Duration {
        get { scope.machineTime }
        set { scope.machineTime = newValue }
    }
    // The flags sit together, before the 4-byte `finalState`, so that they share one word of
    // padding instead of taking one each (issue 16, "Memory").
    /// Whether the machine has started and not yet reached a top-level final state.
    public internal(set) var isRunning = false
    /// Whether ``start()`` has been called (and not undone by a reset that failed).
    public internal(set) var hasStarted = false
    /// Whether ``trace`` records what the interpreter does.
    public var isTracing = false
    /// Whether external events are recorded as they are taken, for a driver that forwards them
    /// (SCXML's `autoforward`, rule R86). Recorded on the traced path only: set ``isTracing`` too.
    @usableFromInline package var recordsExternalEvents = false
    /// The top-level final state the machine stopped in, if it did.
    public internal(set) var finalState: ChartStateID?
    /// The storage of ``microstepLimit``: 32 bits, in the padding after ``finalState`` (a 64-bit
    /// field took a word of its own, issue 16, "Memory").
    @usableFromInline var microstepLimitStorage: Int32 = 10_000
    @usableFromInline var scope: ActionScope<Event, Context>
    /// The most microsteps one macrostep may take before it is stopped with
    /// ``MachineError/microstepLimitExceeded(limit:states:events:)`` (rule R16).
    ///
    /// A limit above `Int32.max` (2,147,483,647) is stored as `Int32.max`, and one below
    /// `Int32.min` as `Int32.min`: no macrostep takes two billion microsteps before it is stopped.
    @inlinable public var microstepLimit: Int {
        get { Int(microstepLimitStorage) }
        set { microstepLimitStorage = Int32(clamping: newValue) }
    }

    // Scratch buffers, reused by every macrostep.
    @usableFromInline var selected = SelectionList()
    /// For the lean path across regions: each selected transition's run of the configuration
    /// list, as start and end positions. Kept here, not in the step scratch: through the box, the
    /// parallel step cost 125 instructions more (9 %).
    @usableFromInline var selectedRuns = ScratchBuffer<Int>()
    /// The entry-set builder, the selected transitions' domains and the targets of dynamic
    /// transitions: made on first use, `nil` for a machine whose steps are all splices (StepScratch.swift).
    @usableFromInline var stepScratchBox: StepScratchBox?
    /// Delayed sends, trace, work and invocation bookkeeping, failures: one box created on first
    /// use, `nil` for an instance that needs none of them (InstanceExtras.swift).
    @usableFromInline var extras: InstanceExtras<Event, Context>?

    @usableFromInline
    struct PendingSend: Sendable {
        @usableFromInline var due: Duration
        @usableFromInline var sequence: UInt64
        @usableFromInline var event: ChartEvent<Event>
        @usableFromInline var id: String?

        @usableFromInline init(due: Duration, sequence: UInt64, event: ChartEvent<Event>, id: String?) {
            self.due = due
            self.sequence = sequence
            self.event = event
            self.id = id
        }
    }

    /// Creates a stopped instance of a chart with an initial extended state.
    // Inlinable, as `start()` is: compiled unspecialized, creating an instance looked up the
    // generic metadata of a dozen types (its queues, scratch buffers, pending sends) at run time,
    // about half of the 18,000 instructions it took.
    @inlinable
    public init(chart: Chart<Event, Context>, context: Context) {
        self.chart = chart
        self.configuration = Configuration(stateCount: chart.stateCount, bound: chart.configurationBound)
        self.historyValues = Array(repeating: nil, count: chart.historyCount)
        self.scope = ActionScope(context: context, ids: chart.ids)
    }

    /// The extended state.
    @inlinable
    public var context: Context {
        get { scope.context }
        set { scope.context = newValue }
    }

    // MARK: - Driving

    /// Enters the initial configuration and runs to completion: eventless transitions, raised
    /// events, then every event that was sent to the external queue.
    ///
    /// - Throws: ``MachineError/executionFailed(_:)`` when an action threw (the machine still
    ///   started), ``MachineError/microstepLimitExceeded(limit:states:events:)``.
    @inlinable
    public mutating func start() throws(MachineError) {
        guard !hasStarted else { return }
        markStarted()
        scope.currentEvent = nil
        // The initial transition is taken like any selected one: one splice when nothing runs
        // (a machine that only ever splices never makes its step scratch, StepScratch.swift).
        selected.removeAll()
        selected.append(chart.states[0].initialTransition)
        takeSelection()
        runToCompletion()
        processExternalQueue()
        assertInvariants()
        try throwFailures()
    }

    /// Sends an event to the external queue and runs until the machine is idle: this event's
    /// macrostep, then the macrosteps of every event its actions sent.
    ///
    /// - Returns: Whether the event enabled a transition (an event that enables none is dropped).
    /// - Throws: ``MachineError/notStarted``, ``MachineError/finished(finalState:)``, or the errors
    ///   of a run (``MachineError/executionFailed(_:)``, ``MachineError/microstepLimitExceeded(limit:states:events:)``)
    ///   after the run completed.
    @inlinable @inline(__always)
    @discardableResult
    public mutating func send(_ event: Event) throws(MachineError) -> Bool {
        // Idle with nothing queued (the usual case): the event's macrostep runs directly.
        guard isRunning, !isTracing, queuesAreEmpty, microstepLimit > 0 else { return try sendQueued(event) }
        let handled = sendLean(event)
        assertInvariants()
        if extras != nil { try throwFailures() }
        return handled
    }

    /// ``send(chartEvent:)`` for a user event, specialized but out of line: inlined, the queue's
    /// accessors made `send(_:)` too large for the optimizer to inline into its caller (a call and
    /// a frame more on every flat event: 324 → 340 instructions).
    @inlinable @inline(never)
    mutating func sendQueued(_ event: Event) throws(MachineError) -> Bool {
        try send(chartEvent: .event(event))
    }

    /// Sends any chart event (a user event, or a done or error event injected from outside).
    @inlinable
    @discardableResult
    public mutating func send(chartEvent event: ChartEvent<Event>) throws(MachineError) -> Bool {
        guard isRunning else { throw notRunningError() }
        externalQueue.append(event)
        let handled = processExternalQueue()
        assertInvariants()
        if extras != nil { try throwFailures() }
        return handled
    }

    /// Why a machine that is not running refuses an event.
    @usableFromInline
    func notRunningError() -> MachineError {
        hasStarted ? .finished(finalState: finalState.map { chart.ids[Int($0.index)] } ?? "") : .notStarted
    }

    /// Performs a state-requested transition declared with ``ChartDefinition/addRequestRoute(to:within:)``:
    /// exits everything active inside the route's container, enters `target`, then runs to completion
    /// like any microstep. Route checks (which requests are legal) belong to the caller.
    ///
    /// - Returns: `false` when the chart declares no request route to `target`.
    @discardableResult @inlinable
    public mutating func performRequest(to target: ChartStateID) throws(MachineError) -> Bool {
        guard hasStarted else { throw .notStarted }
        guard isRunning else { throw .finished(finalState: finalState.map { chart.ids[Int($0.index)] } ?? "") }
        guard let t = chart.requestTransitions[target.index] else { return false }
        selectRequest(t, entering: target.index)
        microstep()
        runToCompletion()
        processExternalQueue()
        assertInvariants()
        try throwFailures()
        return true
    }

    /// Selects the request transition `t` — the one its container's states share
    /// (``RequestTransitions``) — with `target` as its target, for the microstep that takes it.
    @inlinable
    mutating func selectRequest(_ t: Int32, entering target: Int32) {
        scope.currentEvent = nil
        clearResolvedTargets()
        selected.removeAll()
        selected.append(t)
        appendResolvedTargets(of: t, CollectionOfOne(target))
        let scratch = stepScratch
        scratch.pointee.selectedDomains.removeAll()
        // The transition is internal, from a compound container to a state inside it (the
        // compiler checked both): unless the target is a history state, its domain is the
        // container (rule R6), with no effective targets to resolve.
        let domain = chart.states[Int(target)].kind.isHistory ? domain(of: t) : chart.transitions[Int(t)].source
        scratch.pointee.selectedDomains.append(domain)
    }

    /// Advances the virtual clock, firing every delayed send that falls due, in due order, each as
    /// its own external event processed at its due time.
    @inlinable
    public mutating func advance(by duration: Duration) throws(MachineError) {
        let target = now + duration
        while isRunning, let first = extras?.timers.first, first.due <= target {
            timers.removeFirst()
            machineTime = first.due
            externalQueue.append(first.event)
            processExternalQueue()
        }
        try settle(at: target)
    }

    /// Moves the time to `time` once nothing falls due before it, then checks the invariants and
    /// reports what failed. The end of ``advance(by:)``, and all of a runtime's catch-up when no
    /// delayed send is pending (one place, so the two cannot drift apart).
    @inlinable @inline(__always)
    mutating func settle(at time: Duration) throws(MachineError) {
        machineTime = time
        assertInvariants()
        try throwFailures()
    }

    /// The time at which the next delayed send falls due, if any.
    ///
    /// (Always inlined: the runtimes read it at every send, and called out of line it had the
    /// whole instance copied for its `self`.)
    @inlinable public var nextDueTime: Duration? {
        @inline(__always) get {
            guard let extras else { return nil }
            return extras.timers.first?.due
        }
    }

    /// Whether advancing the clock by `duration` fires a delayed send.
    @inlinable @inline(__always)
    func firesDelayedSend(within duration: Duration) -> Bool {
        guard let due = nextDueTime else { return false }
        return due <= now + duration
    }

    /// Takes the work queued by actions since the last call (rule R51).
    public mutating func takePendingWork() -> [PendingWork<Event>] {
        // Emptying the list through its accessor would create the extras box of a machine that
        // never queued work (and every later check of the box would then pay for it).
        guard let extras, !extras.pendingWork.isEmpty else { return [] }
        defer { pendingWork.removeAll() }
        return pendingWork
    }

    /// Takes what must be started and cancelled since the last call: work of states entered (and
    /// still active) and of states exited (rule R52).
    public mutating func takeInvocationRequests() -> [InvocationRequest<Event, Context>] {
        guard let extras, !extras.invocationRequests.isEmpty else { return [] }  // as takePendingWork()
        defer { invocationRequests.removeAll() }
        return invocationRequests
    }

    /// Tokens of the invoked work that is running (started and its state still active), with its state.
    public var runningInvocationTokens: [(token: UInt64, state: ChartStateID)] {
        runningInvocations.map { ($0.token, ChartStateID($0.state)) }
    }

    /// The number of delayed sends waiting for their time.
    public var pendingDelayedSends: Int { timers.count }

    /// Stops the machine: runs the exit actions of every active state (exit order) and clears the
    /// queues and timers. A stopped machine is not finished: ``reset()`` starts it again.
    public mutating func stop() {
        guard isRunning else { return }
        exitInterpreter()
        isRunning = false
    }

    /// Returns to the initial configuration (rule R19): exits every active state (exit actions
    /// run), forgets history values, queued events and pending delayed sends, keeps the extended
    /// state, then starts again (the initial configuration's entry actions run).
    public mutating func reset() throws(MachineError) {
        if isRunning { exitInterpreter() }
        for i in historyValues.indices { historyValues[i] = nil }
        clearInternalQueue()
        clearExternalQueue()
        if extras != nil { timers.removeAll() }
        finalState = nil
        hasStarted = false
        isRunning = false
        try start()
    }

    // MARK: - Queries

    /// The active states in document order (compound and parallel ancestors included; the root is never listed).
    public var activeStates: [ChartStateID] { configuration.list.map(ChartStateID.init) }

    /// The active atomic (and final) states in document order.
    public var activeAtomicStates: [ChartStateID] {
        configuration.list.filter { chart.states[Int($0)].kind.isAtomic }.map(ChartStateID.init)
    }

    /// The ids of the active atomic states; when the machine halted in a top-level final state,
    /// that state's id alone.
    public var activeAtomicIDs: [String] {
        if !isRunning, let f = finalState { return [chart.ids[Int(f.index)]] }
        return configuration.list.filter { chart.states[Int($0)].kind.isAtomic }.map { chart.ids[Int($0)] }
    }

    /// Whether a state is active.
    @inlinable public func isActive(_ state: ChartStateID) -> Bool { configuration.contains(state.index) }

    /// The recorded history value of a history state (`nil` before its parent was first exited).
    public func historyValue(of state: ChartStateID) -> [ChartStateID]? {
        let slot = chart.states[Int(state.index)].historySlot
        guard slot >= 0 else { return nil }
        return historyValues[Int(slot)]?.map(ChartStateID.init)
    }

    /// Events on the external queue that have not been processed yet.
    public var queuedExternalEvents: [ChartEvent<Event>] { Array(externalQueue.elements) }

    // MARK: - Failures

    /// Sets the flags ``start()`` sets (their setters are internal: not reachable from inlinable code).
    @usableFromInline
    mutating func markStarted() {
        hasStarted = true
        isRunning = true
    }

    @usableFromInline
    mutating func throwFailures() throws(MachineError) {
        guard let x = extras, x.hasFailures else { return }
        if let e = limitError {
            limitError = nil
            failures.removeAll()
            throw e
        }
        if !failures.isEmpty {
            let f = failures
            failures.removeAll()
            throw .executionFailed(f)
        }
    }

    /// Records a failing action or guard: `error.execution` goes on the internal queue (rule R14).
    @usableFromInline
    mutating func fail(_ message: String, sendID: String? = nil, data: DataValue = .undefined) {
        failures.append(message)
        internalQueue.append(.error(ExecutionErrorEvent(message: message, sendID: sendID, data: data)))
        if isTracing { trace.append(.error(message)) }
    }
}
