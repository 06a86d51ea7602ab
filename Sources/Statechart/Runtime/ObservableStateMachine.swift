import Observation

/// A statechart for SwiftUI: an `Observable` model on the main actor whose properties change
/// after every operation, so views that read them update (rules R56, R61).
///
/// It drives its machine like ``AsyncStateMachine`` — with the same driver: an injected clock fires
/// ``After`` transitions and delayed sends, ``Work`` runs while its state is active, work queued
/// with ``ActionScope/perform(_:_:)`` runs after its macrostep, middleware wraps each event — all
/// on the main actor.
///
/// ```swift
/// struct OrderView: View {
///     @State var order: ObservableStateMachine<OrderState, OrderEvent, Order>  // made by the app
///     var body: some View {
///         Text("Status: \(order.state)")
///         Button("Confirm") { try? order.send(.confirm) }.disabled(!order.canSend(.confirm))
///     }
/// }
/// ```
@MainActor
public final class ObservableStateMachine<State: Hashable & Sendable, Event: Hashable & Sendable, Context: Sendable>:
    Observable
{
    /// The clock, the work and the middleware (shared with ``AsyncStateMachine``).
    @usableFromInline let driver: MachineDriver<State, Event, Context>
    /// Bumped after every operation: what observers of the model's properties track, through
    /// ``observeVersion()`` and ``bumpVersion()``.
    @usableFromInline let version = ObservedVersion()

    /// Compiles and starts a machine on a clock (a `ContinuousClock` by default). What follows the
    /// start — the initial state's ``Work``, its timers — begins on the main actor right after.
    ///
    /// - Throws: ``MachineError/invalidChart(_:)``, or the failures of the start's run.
    @inlinable
    public convenience init<C: Clock>(
        _ declaration: Machine<State, Event, Context>, context: Context, clock: C = ContinuousClock(),
        options: StateMachine<State, Event, Context>.Options = .init(), tracer: (any StatechartTracer)? = nil
    ) throws(MachineError) where C.Duration == Duration {
        var options = options
        options.tracing = options.tracing || tracer != nil
        let machine = try StateMachine(declaration, context: context, options: options)
        self.init(
            machine, clock: clock, name: declaration.name ?? "\(State.self)", tracer: tracer, steps: MachineSteps())
    }

    /// Wraps a machine that is already running, driven by `clock` from now on.
    @inlinable
    public convenience init<C: Clock>(_ machine: StateMachine<State, Event, Context>, clock: C = ContinuousClock())
    where C.Duration == Duration {
        self.init(machine, clock: clock, name: "\(State.self)", tracer: nil, steps: MachineSteps())
    }

    @usableFromInline
    init<C: Clock>(
        _ machine: StateMachine<State, Event, Context>, clock: C, name: String, tracer: (any StatechartTracer)?,
        steps: MachineSteps<State, Event, Context>
    ) where C.Duration == Duration {
        driver = MachineDriver(machine, clock: clock, name: name, tracer: tracer, steps: steps)
        // The failed-send handlers run once the failed operation released the machine (R62).
        let inbox = FailedSendInbox<Event>()
        driver.failedSendInbox = inbox
        driver.machine.deferFailedSends(to: inbox)
        driver.connect { [weak self] call in await self?.handle(call) }
        // What follows the start (invoked work, timers) is an operation like any other; failures of
        // work the start queued are reported to the next operation.
        driver.busy = true
        finishNow(from: nil, event: nil)
    }

    /// Runs, on the main actor, what a task of the driver asks; observers see the result.
    func handle(_ call: DriverCall<Event>) async {
        await driver.handle(call)
        bumpVersion()
    }

    /// Tells observation that the model's state was read (every property reads it through here).
    @inlinable
    func observeVersion() {
        version.access()
    }

    /// Tells observers that the model's state changed: after every operation.
    private func bumpVersion() {
        version.bump()
    }

    // MARK: - Reading

    /// The machine, a copy of it; reading it is observed as a whole.
    ///
    /// The copy is a machine of its own (value semantics): its failed sends reach the handlers
    /// registered on it, at once, and never the model's (rule R62).
    public var machine: StateMachine<State, Event, Context> {
        var copy = observedInTime
        copy.stopDeferringFailedSends()
        return copy
    }
    /// The driver's machine, read for the model's own properties (observed, not copied out).
    private var observed: StateMachine<State, Event, Context> {
        observeVersion()
        return driver.machine
    }
    /// ``observed`` with its time up to the clock, for what shows the time (see
    /// ``MachineDriver/bringTimeUp()``).
    private var observedInTime: StateMachine<State, Event, Context> {
        observeVersion()
        driver.bringTimeUp()
        return driver.machine
    }
    // The queries of the machine's state are inlinable: specialized for the caller's types, they
    // read the driver's machine in place. Unspecialized, in the library, each one copied the
    // machine through its value witnesses and looked its types' metadata up: `isActive(_:)` and
    // `state` of a machine of four levels cost 4,572 instructions together (issue 16).

    /// The active top-level state.
    @inlinable
    public var state: State {
        observeVersion()
        return driver.machine.state
    }
    /// The ids of the active atomic states.
    public var activeStateIDs: [String] { observed.activeStateIDs }
    /// The active configuration as paths of values from the top level down, one per active
    /// atomic state; after the machine has ended, the final state alone
    /// (``StateMachine/activePaths``).
    public var activePaths: [[AnyHashable]] { observed.activePaths }
    /// Whether the machine reached a top-level final state (rule R68): a view shows its end
    /// screen from it, and is redrawn when ``reset()`` brings the machine back.
    @inlinable
    public var isFinished: Bool {
        observeVersion()
        return driver.machine.isFinished
    }
    /// The extended state.
    @inlinable
    public var context: Context {
        observeVersion()
        return driver.context
    }
    /// The machine's time: how far its clock had moved since the machine started at the last
    /// operation, or — for a chart nothing of which can read the time, whose sends do not read
    /// the clock — when it is read (rule R54).
    public var now: Duration { observedInTime.now }
    /// Whether a state with this value (of any machine level) is active; after the machine has
    /// ended, whether the value is the final state it ended in (``StateMachine/isActive(_:)``).
    @inlinable
    public func isActive<T: Hashable & Sendable>(_ value: T) -> Bool {
        observeVersion()
        return driver.isActive(value)
    }
    /// The active states whose values are of type `T`, in document order
    /// (``StateMachine/activeStates(of:)``).
    @inlinable
    public func activeStates<T: Hashable & Sendable>(of type: T.Type) -> [T] {
        observeVersion()
        return driver.activeStates(of: type)
    }
    /// The active state of type `T`, if exactly one machine level of that type is active
    /// (``StateMachine/activeState(of:)``).
    @inlinable
    public func activeState<T: Hashable & Sendable>(of type: T.Type) -> T? {
        observeVersion()
        return driver.activeState(of: type)
    }
    /// Whether `event` would be handled now, with guards evaluated and nothing changed (rule R59).
    @inlinable
    public func canSend(_ event: Event) -> Bool {
        observeVersion()
        return driver.canSend(event)
    }
    /// The events among `candidates` that would be handled now, in their order (rule R59): a
    /// view's buttons read it, and are redrawn when it changes.
    @inlinable
    public func validEvents(among candidates: [Event]) -> [Event] {
        observeVersion()
        return driver.validEvents(among: candidates)
    }
    /// The number of operations waiting for the one that is running.
    public var waitingOperations: Int { driver.waiting.count }

    // MARK: - Operations, synchronous

    /// Sends an event now (rules R1–R9, R61) and returns: the work its actions queued, the invoked
    /// work it starts and the timers follow on the main actor. When another operation holds the
    /// machine (it awaits work) or the event needs awaiting (middleware, asynchronous guards), the
    /// send waits its turn in a task instead, and its errors reach the ``onFailedSend(_:)`` handlers.
    ///
    /// - Throws: the errors of ``StateMachine/send(_:)-(Event)`` when the event was processed now.
    public func send(_ event: Event) throws(MachineError) {
        guard !driver.sendNeedsAwaiting, driver.tryAcquire() else {
            Task { try? await self.sendAndWait(event) }
            return
        }
        let step = driver.sendNow(event)
        if step.followUp {
            follow(step, of: event)
        } else {
            endOperation()
        }
        if let error = step.error { throw error }
        try driver.throwFailures()
    }

    /// Requests a state now (rule R26); while another operation holds the machine, the request
    /// waits its turn in a task (and its error is dropped).
    public func transition<T: Hashable & Sendable>(to target: T) throws(MachineError) {
        try operationNow { (m) throws(MachineError) in try m.transition(to: target) }
    }

    /// Returns to the initial configuration (rule R19), now or after the running operation.
    public func reset() throws(MachineError) {
        try operationNow { (m) throws(MachineError) in try m.reset() }
    }

    /// Runs an operation now if nothing holds the machine, else queues it behind the running one.
    func operationNow(_ body: @escaping (inout StateMachine<State, Event, Context>) throws(MachineError) -> Void)
        throws(MachineError)
    {
        guard driver.tryAcquire() else {
            Task { try? await self.operation(body) }
            return
        }
        let from = driver.catchUpForOperation()
        var failure: MachineError?
        do { try body(&driver.machine) } catch { failure = error }
        finishNow(from: from, event: nil)
        if let failure { throw failure }
        try driver.throwFailures()
    }

    /// What follows a send that has anything to follow. Out of line, and reached only then: making
    /// the `Event?` that ``finishNow(from:event:)`` takes looks up `Optional<Event>`'s metadata
    /// (about 325 instructions), which the caller did at every send when it made it itself.
    @inline(never)
    private func follow(_ step: SentEvent, of event: Event) {
        finishNow(from: step.from, event: event)
    }

    /// Ends a synchronous operation: what follows it runs now, or — when it queued work — in a task
    /// that keeps holding the machine until the work is done.
    func finishNow(from: [ChartStateID]?, event: Event?) {
        guard driver.machine.core.pendingWork.isEmpty else {
            Task {
                await driver.afterOperation(from: from, event: event)
                endOperation()
            }
            // Observers see the operation's own changes now, and the work's when it is done.
            bumpVersion()
            return
        }
        driver.finishOperation(from: from, event: event)
        endOperation()
    }

    /// Lets go of the machine at the end of an operation and tells observers: every operation ends here.
    private func endOperation() {
        driver.release()
        bumpVersion()
    }

    // MARK: - Operations, awaited

    /// Sends an event and waits like ``AsyncStateMachine/send(_:)``: waits its turn, runs the
    /// middleware and asynchronous guards, and returns when the work its actions queued is done
    /// (rules R50, R51). (Named apart from ``send(_:)`` so that the synchronous send stays callable
    /// from `async` code such as a view's `.task`.)
    ///
    /// - Throws: the errors of ``AsyncStateMachine/send(_:)``.
    public func sendAndWait(_ event: Event) async throws(MachineError) {
        await driver.acquire()
        defer { endOperation() }
        try await driver.sendHeld(event)
    }

    /// Requests a state (rule R26) once the running operation is done, and waits for the work it queued.
    public func transitionAndWait<T: Hashable & Sendable>(to target: T) async throws(MachineError) {
        try await operation { (m) throws(MachineError) in try m.transition(to: target) }
    }

    func operation<T>(_ body: (inout StateMachine<State, Event, Context>) throws(MachineError) -> T) async throws(
        MachineError
    ) -> T {
        await driver.acquire()
        defer { endOperation() }
        return try await driver.operationHeld(body)
    }

    // MARK: - Configuration

    /// Adds middleware (rule R55); it runs after the middleware added before it. Sends that it
    /// wraps wait their turn (see ``send(_:)``).
    public func addMiddleware(_ m: some TransitionMiddleware<Event>) {
        driver.middleware.append(m)
        driver.updatePlainSends()
    }

    /// Registers a handler called for every send that was rejected or failed (rule R62).
    ///
    /// Handlers run on the main actor once the operation that failed has let go of the machine
    /// (before a synchronous ``send(_:)`` throws), so a handler may read the model and send to it;
    /// a send from a handler while another operation waits for the machine takes its turn after it.
    ///
    /// - Returns: A token for ``removeFailedSendHandler(_:)``.
    @discardableResult
    public func onFailedSend(_ handler: @escaping (Event, MachineError) -> Void) -> ObserverToken {
        driver.machine.onFailedSend(handler)
    }

    /// Removes a handler registered with ``onFailedSend(_:)``.
    public func removeFailedSendHandler(_ token: ObserverToken) { driver.machine.removeFailedSendHandler(token) }
}

/// The one observed property of an ``ObservableStateMachine``: a counter bumped after every
/// operation, which every property of the model reads.
///
/// Observation written out rather than by the `@Observable` macro, and in a class of its own that
/// is neither generic nor isolated, because each of those cost every send and every read: the
/// macro's accessors spell the key path at each use, and a key path into a generic class is
/// instantiated at run time (its type demangled, about 50,000 instructions); the registrar's calls
/// into a generic subject looked up its `Observable` witness table (about 100); and the mutation's
/// closure, isolated to the main actor, checked the executor it ran on (about 110). Observers
/// track registrars, not subjects, so reading the model registers the same dependency as before.
@usableFromInline
final class ObservedVersion: Observable {
    @exclusivity(unchecked) private var value = 0
    private let registrar = ObservationRegistrar()
    /// Made once: spelled at each use, the key path was fetched from the runtime each time.
    private static let valueKey: any KeyPath<ObservedVersion, Int> & Sendable = \.value

    @usableFromInline
    func access() {
        registrar.access(self, keyPath: Self.valueKey)
    }

    func bump() {
        registrar.withMutation(of: self, keyPath: Self.valueKey) { value &+= 1 }
    }
}

extension ObservableStateMachine where Event: CaseIterable {
    /// Every event of a `CaseIterable` event type that would be handled now (rule R59), observed
    /// as ``validEvents(among:)`` is.
    @inlinable
    public var validEvents: [Event] { validEvents(among: Array(Event.allCases)) }
}
