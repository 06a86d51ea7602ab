/// A running statechart with typed states and events: the synchronous runtime.
///
/// ```swift
/// var machine = try StateMachine(order, context: Order())
/// try machine.send(.confirm)
/// machine.state                          // .confirmed
/// machine.isActive(Payment.authorizing)  // true: the payment child started with its parent
/// ```
///
/// `StateMachine` is a value: copying one copies the whole running state (configuration, history,
/// context, queues, timers); the compiled chart is shared. Sends are processed run-to-completion:
/// an event sent from an action is queued and handled after the current step (rule R9).
public struct StateMachine<State: Hashable & Sendable, Event: Hashable & Sendable, Context> {
    /// The interpreter underneath, for inspection (rule R60): read-only, because a replaced
    /// instance would run behind the undo log, the observers and the failed-send handlers.
    public package(set) var instance: ChartInstance<Event, Context> {
        get { core }
        set { core = newValue }
    }
    @usableFromInline var core: ChartInstance<Event, Context>
    /// The compiled chart with its typed tables.
    public let typed: TypedChart<Event, Context>
    /// Behaviour switches.
    public var options: Options
    /// Observers, failed-send handlers, the undo log, the suspension slot and run-time routes: one
    /// box created on first use, `nil` for a machine that uses none (StateMachine+Extras.swift).
    @usableFromInline var extras: MachineExtras<State, Event, Context>?

    /// Behaviour switches of a ``StateMachine``.
    public struct Options: Sendable {
        // The numbers are stored in 32 bits each and the three flags after them, so that the
        // options take 11 bytes (20 with `Int`s, 25 with the flags first: issue 16, "Memory").
        @usableFromInline var redirectLimitStorage: Int32 = 16
        /// ``historyDepth``, with `Int32.min` for `nil`.
        @usableFromInline var historyDepthStorage: Int32 = .min
        /// The most barrier redirects one request may follow (rule R26). Default 16.
        ///
        /// Stored in 32 bits: a limit beyond `Int32`'s range is kept as its nearest bound.
        @inlinable public var redirectLimit: Int {
            get { Int(redirectLimitStorage) }
            set { redirectLimitStorage = Int32(clamping: newValue) }
        }
        /// How many steps ``StateMachine/undo()`` can take back (rule R41): `nil` keeps no log,
        /// `0` (or a negative depth) keeps every step, `n` the last `n`. Default `nil`.
        ///
        /// Stored in 32 bits: a depth above `Int32.max` is kept as `Int32.max`, one below
        /// `-Int32.max` as `-Int32.max`.
        @inlinable public var historyDepth: Int? {
            get { historyDepthStorage == .min ? nil : Int(historyDepthStorage) }
            set { historyDepthStorage = newValue.map { Int32(clamping: max($0, -Int(Int32.max))) } ?? .min }
        }
        /// Whether ``StateMachine/send(_:)-(Event)`` throws ``MachineError/eventNotHandled(event:configuration:)``
        /// for an event that enables no transition (rule R18). Default `true`.
        public var throwsOnUnhandledEvent = true
        /// Whether requesting the state that is already active throws
        /// ``MachineError/alreadyInState(_:)`` instead of doing nothing (Machinus' flag, rule R26). Default `false`.
        public var throwsWhenAlreadyInState = false
        /// Records every step in ``StateMachine/trace``. Default `false`.
        public var tracing = false
        /// Creates the default options.
        public init() {}
    }

    /// Compiles `machine` (and its attached children) and starts it: the initial configuration is
    /// entered with its entry actions and the machine runs to completion (rule R20).
    ///
    /// - Throws: ``MachineError/invalidChart(_:)`` when the declaration is not a valid chart, or
    ///   the errors of the first run (``MachineError/executionFailed(_:)``).
    public init(_ machine: Machine<State, Event, Context>, context: Context, options: Options = Options()) throws(MachineError) {
        let typed: TypedChart<Event, Context>
        do {
            typed = try TypedChart(machine)
        } catch {
            throw .invalidChart(error)
        }
        try self.init(typed: typed, context: context, options: options)
    }

    /// Starts a machine on an already compiled chart (compile once, run many).
    @inlinable
    public init(typed: TypedChart<Event, Context>, context: Context, options: Options = Options()) throws(MachineError) {
        self.typed = typed
        self.options = options
        self.core = ChartInstance(chart: typed.chart, context: context)
        core.isTracing = options.tracing
        try core.start()
    }

    /// The extended state.
    @inlinable
    public var context: Context {
        get { core.context }
        set { core.context = newValue }
    }

    /// The steps recorded since the last ``clearTrace()`` when ``Options/tracing`` is on.
    public var trace: [TraceStep] { core.trace }

    /// Forgets the recorded trace.
    public mutating func clearTrace() { core.trace.removeAll() }

    // MARK: - Events

    /// Sends an event and runs to completion (rules R1–R9): ``process(_:)`` with ``MachineInput/sent(_:)``.
    ///
    /// - Throws: ``MachineError/eventNotHandled(event:configuration:)`` when nothing handles it
    ///   (unless ``Options/throwsOnUnhandledEvent`` is off); ``MachineError/finished(finalState:)``
    ///   after the machine reached a top-level final state (rule R68); the failures of the run.
    @inlinable
    public mutating func send(_ event: Event) throws(MachineError) {
        try process(.sent(event))
    }

    @usableFromInline
    func unhandled(_ event: Event) -> MachineError {
        .eventNotHandled(event: core.chart.eventName(event), configuration: activeStateIDs)
    }

    /// Sends events in order; stops at the first that throws (the earlier ones stay processed).
    public mutating func send(_ events: [Event]) throws(MachineError) {
        for e in events { try send(e) }
    }

    /// Takes the asynchronous work actions queued with ``ActionScope/perform(_:_:)`` since the last
    /// call; a synchronous machine does not run it itself (rule R51).
    public mutating func takePendingWork() -> [PendingWork<Event>] { core.takePendingWork() }

    /// Takes the invoked work (``Work``) to start and cancel since the last call (rule R52).
    public mutating func takeInvocationRequests() -> [InvocationRequest<Event, Context>] {
        core.takeInvocationRequests()
    }

    /// Whether `event` would be handled now, at any level — an event only an ancestor handles
    /// counts — with guards evaluated and nothing changed (rule R59).
    @inlinable
    public func canSend(_ event: Event) -> Bool { core.canHandle(event) }

    /// The events among `candidates` that would be handled now (rule R59).
    @inlinable
    public func validEvents(among candidates: [Event]) -> [Event] { candidates.filter { core.canHandle($0) } }

    /// The machine's time: how far its clock has been advanced since it started (rule R17).
    @inlinable public var now: Duration { core.now }

    /// Advances machine time, firing delayed sends that fall due (rule R17).
    ///
    /// Like every input, this goes through ``process(_:)`` (``MachineInput/timePassed(_:)``): a
    /// delayed send that changes the configuration is logged and observed like a send (rule R60).
    ///
    /// - Throws: ``MachineError/finished(finalState:)`` after the machine finished (rule R68); the failures of the run.
    @inlinable
    public mutating func advance(by duration: Duration) throws(MachineError) {
        try refuseAfterEnd()  // rule R68
        try process(.timePassed(duration))
    }

    /// Brings machine time up to `elapsed`, the time since a runtime's clock started, firing the
    /// delayed sends that fell due (rule R54): what ``AsyncStateMachine`` and
    /// ``ObservableStateMachine`` do before every operation.
    ///
    /// Unlike ``advance(by:)``, catching up a finished machine is no error and fires nothing
    /// (rule R68: it does not move), but its time follows the clock, so that what `reset()`,
    /// `undo()` or `restore(from:)` starts afterwards is timed from the clock's time, not from
    /// the moment the machine finished (rule R54). The operation that follows gets its own
    /// answer — `finished` for a send, a machine back at its start for `reset()`. Time that
    /// fires no delayed send is the interpreter's alone (``MachineInput/timePassed(_:)`` logs and
    /// shows nothing for it), so it goes there directly: through ``advance(by:)``'s input it cost
    /// an uncontended `AsyncStateMachine.send` about 18 ns.
    ///
    /// With no delayed send pending, nothing can fall due: the time is set, and the invariants and
    /// failures checked, by the same ``ChartInstance/settle(at:)`` that ends
    /// ``ChartInstance/advance(by:)`` — without its call, its loop and
    /// its arithmetic on 128-bit durations (an uncontended `AsyncStateMachine.send` catches up
    /// before every event).
    @inlinable
    mutating func catchUp(toElapsed elapsed: Duration) throws(MachineError) {
        guard elapsed > core.now else { return }
        if core.nextDueTime == nil {
            try core.settle(at: elapsed)
            return
        }
        let duration = elapsed - core.now
        // A finished interpreter is not running: its `advance(by:)` moves the time and fires nothing.
        if !isFinished && core.firesDelayedSend(within: duration) {
            try advance(by: duration)
        } else {
            try core.advance(by: duration)
        }
    }

    /// Returns to the initial configuration (rule R19).
    public mutating func reset() throws(MachineError) {
        if extras != nil { records = MachineRecords() }
        try core.reset()
    }

    // MARK: - Observers

    // `observe(order:_:)` and `removeObserver(_:)` live in StateMachine+Routes.swift (rule R66).

    func notify(from: [ChartStateID], event: Event?) {
        guard !observers.isEmpty else { return }
        let record = MachineTransition<State, Event>(
            from: from.map { core.chart.id(of: $0) }, event: event,
            to: activeStateIDs, fromState: topState(in: from), toState: state)
        for o in observers { o.observer(record) }
    }

    // MARK: - Configuration

    /// The active top-level state (after the machine finished: the final state it stopped in).
    ///
    /// Inlinable, and read from the configuration in place: the top level always has exactly
    /// one active state while the machine runs, and in document order it is the first active
    /// state after the root. (Through the list of active atomic states and the library's
    /// unspecialized value tables, a read cost 2,366 instructions and an allocation, issue 16.)
    @inlinable
    public var state: State {
        let ended = endedIn
        if ended >= 0, let v = typed.value(at: Int(ended), as: State.self) { return v }
        var k = 0
        while k < core.configuration.count {
            let s = core.configuration[k]
            k += 1
            if s == 0 { continue }
            if let v = typed.value(at: Int(s), as: State.self) { return v }
            break
        }
        return initialState
    }

    @usableFromInline
    var initialState: State {
        let root = typed.chart.states[0]
        let first = typed.chart.targets(of: root.initialTransition)[0]
        guard let v = typed.value(at: Int(first), as: State.self) else {
            preconditionFailure("the top level of a typed chart holds State values")
        }
        return v
    }

    /// The top-level state among `states` or their ancestors (the list may hold atomic states only).
    func topState(in states: [ChartStateID]) -> State? {
        for s in states {
            var i = s.index
            while i > 0 && typed.chart.states[Int(i)].parent != 0 { i = typed.chart.states[Int(i)].parent }
            if i > 0, let v = typed.value(at: Int(i), as: State.self) { return v }
        }
        return nil
    }

    /// Whether a state with this value (of any machine level) is active; after the machine has
    /// ended, whether the value is the final state it ended in.
    ///
    /// Inlinable: the value's own table is looked up specialized for `T`, a table of another
    /// type only when `AnyHashable` could find the two values equal, and nothing is allocated
    /// (through an array of the value's states and a box of the value per table, a question
    /// about a machine of four levels cost about 15,000 instructions, issue 16).
    @inlinable
    public func isActive<T: Hashable & Sendable>(_ value: T) -> Bool {
        typed.isActive(value, in: core.configuration, endedIn: endedIn)
    }

    /// The index of the final state the machine ended in, or -1 while it runs: its configuration
    /// is empty then, and the queries answer with that state.
    ///
    /// The queries hand the typed chart this and the configuration rather than asking through the
    /// machine: a runtime's machine lives in its driver, a class, and a query that took the
    /// machine was given a copy of it (about 840 instructions of `ObservableStateMachine`'s
    /// `isActive(_:)`, issue 16).
    @inlinable
    var endedIn: Int32 { core.isRunning ? -1 : core.finalState?.index ?? -1 }

    /// The active states whose values are of type `T`, in document order (one per region where
    /// `T`'s machine runs); after the machine has ended, the final state it ended in when its
    /// value is a `T`, as ``isActive(_:)`` and ``state`` find it.
    ///
    /// The values are those that `as? T` casts to `T`: the states of `T`'s own levels, and those
    /// of another type that cast to it (the values of a subclass of the class `T`, or of the type
    /// an optional `T` wraps).
    @inlinable
    public func activeStates<T: Hashable & Sendable>(of type: T.Type) -> [T] {
        typed.activeStates(of: type, in: core.configuration, endedIn: endedIn)
    }

    /// The active state of type `T`, if exactly one machine level of that type is active (after
    /// the machine has ended, the final state it ended in when its value is a `T`).
    @inlinable
    public func activeState<T: Hashable & Sendable>(of type: T.Type) -> T? {
        typed.activeState(of: type, in: core.configuration, endedIn: endedIn)
    }

    /// The ids of the active atomic states (dotted paths such as `confirmed.authorizing`).
    public var activeStateIDs: [String] { core.activeAtomicIDs }

    /// The active configuration as paths of values from the top level down, one per active atomic
    /// state; after the machine has ended, the final state it ended in, alone (as
    /// ``activeStateIDs`` lists it).
    public var activePaths: [[AnyHashable]] {
        var atomic = core.activeAtomicStates
        if !core.isRunning, let f = core.finalState { atomic = [f] }
        return atomic.map { s in
            var path: [AnyHashable] = []
            var i = s.index
            while i > 0 {
                if let v = typed.value(at: Int(i)) { path.append(v) }
                i = typed.chart.states[Int(i)].parent
            }
            return path.reversed()
        }
    }

    /// Whether the machine reached a top-level final state.
    @inlinable
    public var isFinished: Bool { core.hasStarted && !core.isRunning }
}

/// What an observer of a ``StateMachine`` receives after each send or request.
public struct MachineTransition<State: Hashable & Sendable, Event: Hashable & Sendable>: Sendable {
    /// Active atomic state ids before.
    public var from: [String]
    /// The event sent or delivered by work, or `nil` for a state request or for time passing.
    public var event: Event?
    /// Active atomic state ids after.
    public var to: [String]
    /// The top-level state before.
    public var fromState: State?
    /// The top-level state after.
    public var toState: State
}

/// Identifies a registered observer.
public struct ObserverToken: Hashable, Sendable {
    let id: Int
}
