import Statechart
import Testing

/// An exhaustive test driver for a `StateMachine`, modelled on The Composable Architecture's
/// `TestStore`: every operation states what it must do, and the test fails on anything else.
///
/// ```swift
/// @Test func confirmStartsThePayment() throws {
///     var store = try TestStore(order, context: Order())
///     try store.send(.confirm) {
///         $0.exited(.pending)
///         $0.entered(.confirmed)
///         $0.ran("charge")
///         $0.entered(Payment.authorizing)
///     }
///     try store.send(.authorize) {
///         $0.exited("confirmed.authorizing")
///         $0.entered("confirmed.authorized")
///     }
/// }
/// ```
///
/// The store runs the machine with tracing on. After each ``send(_:assert:fileID:filePath:line:column:)``,
/// ``advance(by:assert:fileID:filePath:line:column:)`` or `transition(to:)`
/// it compares the steps the closure listed (``ExpectedTrace``) with the exits, entries, actions,
/// raised events, sent events and halt the machine recorded. Any step that happened and was not
/// listed, any listed step that did not happen, and any step out of order records an issue
/// (Swift Testing's `Issue.record`) at the line of the call, showing both traces side by side:
///
/// ```text
/// send(cancel): the trace differs from the expected one (- expected only, + actual only, ≠ both differ):
///   expected        | actual
/// +                 | exit pending
///   action log exit | action log exit
/// - action refund   |
///   enter cancelled | enter cancelled
/// What happened, as expectations:
///     $0.exited("pending")
///     $0.ran("log exit")
///     $0.entered("cancelled")
/// ```
///
/// A state configuration the closure states with `configuration(_:)`
/// is compared too. Every change of configuration is a list of exits and entries, so an unlisted
/// change never goes unnoticed.
///
/// A `context:` closure states the context after the operation, from the one before it (TCA's
/// `store.send(.x) { $0.count = 1 }`), and an `Equatable` context may change only as stated;
/// ``exhaustivity`` `.off` checks only what the closures state; ``finish(fileID:filePath:line:column:)``
/// fails on pending timers, work and running invocations (rule R78).
///
/// Without a closure an operation must do nothing at all. Errors of the machine are thrown after
/// the check (an event nothing handles throws `MachineError.eventNotHandled(event:configuration:)`
/// unless `StateMachine.Options.throwsOnUnhandledEvent` is off), so
/// `#expect(throws:) { try store.send(.ship) }` checks both.
public struct TestStore<State: Hashable & Sendable, Event: Hashable & Sendable, Context> {
    /// The machine under test. Read it for anything the store does not check (its history, its
    /// undo log); operate it through the store so that every step is checked.
    public internal(set) var machine: StateMachine<State, Event, Context>

    /// How much each operation must state (rule R78). `.on` (the default): every step, and every
    /// change of an `Equatable` context. `.off`: only what the closures state must hold; other
    /// steps and context changes pass.
    public var exhaustivity: Exhaustivity = .on

    /// Starts a machine for testing (rule R20).
    ///
    /// - Parameters:
    ///   - machine: The chart, with its attached children.
    ///   - context: The extended state it starts with.
    ///   - options: The machine's options; tracing is always turned on.
    ///   - started: When given, the steps of the start itself — the initial entries and their
    ///     actions — checked like an operation's. When `nil` the start is not checked.
    ///   - fileID: The file of the call, where issues are recorded (leave the default).
    ///   - filePath: The path of that file (leave the default).
    ///   - line: The line of the call (leave the default).
    ///   - column: The column of the call (leave the default).
    /// - Throws: What `StateMachine.init(_:context:options:)` throws.
    public init(
        _ machine: Machine<State, Event, Context>,
        context: Context,
        options: StateMachine<State, Event, Context>.Options = .init(),
        assert started: ((inout ExpectedTrace<State, Event>) -> Void)? = nil,
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
    ) throws(MachineError) {
        var options = options
        options.tracing = true
        let running = try StateMachine(machine, context: context, options: options)
        self.init(
            running: running, assert: started,
            location: Testing.SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column))
    }

    /// Tests a machine that is already running, from its current configuration: what it did
    /// before is not checked.
    public init(_ machine: StateMachine<State, Event, Context>) {
        var running = machine
        running.options.tracing = true
        running.instance.isTracing = true
        self.init(running: running, assert: nil, location: nil)
    }

    private init(
        running: StateMachine<State, Event, Context>,
        assert started: ((inout ExpectedTrace<State, Event>) -> Void)?,
        location: Testing.SourceLocation?
    ) {
        machine = running
        if let started, let location {
            check("start", started, location: location)
        }
        machine.clearTrace()
    }

    // MARK: - Reading the machine

    /// The active top-level state.
    public var state: State { machine.state }

    /// The extended state. Setting it changes the machine's (to make a guard hold, say) and is not
    /// a step.
    public var context: Context {
        get { machine.context }
        set { machine.context = newValue }
    }

    /// The ids of the active atomic states (dotted paths such as `confirmed.authorizing`).
    public var activeStateIDs: [String] { machine.activeStateIDs }

    // MARK: - Operations

    /// Sends an event and checks every step it causes — until the machine is idle again, external
    /// events sent by its actions included (rule R1) — against the steps listed by `expected`.
    ///
    /// - Parameters:
    ///   - event: The event.
    ///   - expected: Lists the steps, in order (``ExpectedTrace``). Without it the event must cause none.
    ///   - expectedContext: Changes the context before the operation into the one expected after
    ///     it, as in TCA (`{ $0.charges = 1 }`); needs an `Equatable` context.
    ///   - fileID: The file of the call, where issues are recorded (leave the default).
    ///   - filePath: The path of that file (leave the default).
    ///   - line: The line of the call (leave the default).
    ///   - column: The column of the call (leave the default).
    /// - Throws: What `StateMachine.send(_:)` throws, after the check.
    public mutating func send(
        _ event: Event,
        assert expected: ((inout ExpectedTrace<State, Event>) -> Void)? = nil,
        context expectedContext: ((inout Context) throws -> Void)? = nil,
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
    ) throws(MachineError) {
        let location = Testing.SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        try perform("send(\(machine.typed.chart.eventName(event)))", expected, expectedContext, location) { (m) throws(MachineError) in
            try m.send(event)
        }
    }

    /// Advances machine time and checks every step of the delayed sends that fall due (rule R17),
    /// `After` transitions included, against the steps listed by `expected`.
    ///
    /// - Parameters:
    ///   - duration: How far to advance the clock.
    ///   - expected: Lists the steps, in order (``ExpectedTrace``). Without it nothing may fall due.
    ///   - expectedContext: Changes the context before the operation into the one expected after it.
    ///   - fileID: The file of the call, where issues are recorded (leave the default).
    ///   - filePath: The path of that file (leave the default).
    ///   - line: The line of the call (leave the default).
    ///   - column: The column of the call (leave the default).
    /// - Throws: What `StateMachine.advance(by:)` throws, after the check.
    public mutating func advance(
        by duration: Duration,
        assert expected: ((inout ExpectedTrace<State, Event>) -> Void)? = nil,
        context expectedContext: ((inout Context) throws -> Void)? = nil,
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
    ) throws(MachineError) {
        let location = Testing.SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        try perform("advance(by: \(duration))", expected, expectedContext, location) { (m) throws(MachineError) in
            try m.advance(by: duration)
        }
    }

    /// Requests a transition to a state of the top-level machine (rule R26) and checks its steps.
    ///
    /// - Throws: What `StateMachine.transition(to:)` throws, after the check.
    public mutating func transition(
        to target: State,
        assert expected: ((inout ExpectedTrace<State, Event>) -> Void)? = nil,
        context expectedContext: ((inout Context) throws -> Void)? = nil,
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
    ) throws(MachineError) {
        let location = Testing.SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        try perform("transition(to: \(target))", expected, expectedContext, location) { (m) throws(MachineError) in
            try m.transition(to: target)
        }
    }

    /// Requests a transition to a state of any machine level (rule R26) and checks its steps.
    ///
    /// - Throws: What `StateMachine.transition(to:)` throws, after the check.
    @_disfavoredOverload
    public mutating func transition<T: Hashable & Sendable>(
        to target: T,
        assert expected: ((inout ExpectedTrace<State, Event>) -> Void)? = nil,
        context expectedContext: ((inout Context) throws -> Void)? = nil,
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
    ) throws(MachineError) {
        let location = Testing.SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        try perform("transition(to: \(T.self).\(target))", expected, expectedContext, location) { (m) throws(MachineError) in
            try m.transition(to: target)
        }
    }

    /// Resets the machine (rule R19) and checks its steps: the exits of the active configuration,
    /// then the initial entries.
    ///
    /// - Throws: What `StateMachine.reset()` throws, after the check.
    public mutating func reset(
        assert expected: ((inout ExpectedTrace<State, Event>) -> Void)? = nil,
        context expectedContext: ((inout Context) throws -> Void)? = nil,
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
    ) throws(MachineError) {
        let location = Testing.SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        try perform("reset()", expected, expectedContext, location) { (m) throws(MachineError) in try m.reset() }
    }

    // MARK: - Checking

    private mutating func perform(
        _ operation: String,
        _ expected: ((inout ExpectedTrace<State, Event>) -> Void)?,
        _ expectedContext: ((inout Context) throws -> Void)?,
        _ location: Testing.SourceLocation,
        _ body: (inout StateMachine<State, Event, Context>) throws(MachineError) -> Void
    ) throws(MachineError) {
        // Whatever the machine recorded outside the store is not this operation's.
        machine.clearTrace()
        let before = machine.context
        var failure: MachineError?
        do { try body(&machine) } catch { failure = error }
        check(operation, expected ?? { _ in }, location: location)
        checkContext(operation, before: before, expectedContext, location: location)
        machine.clearTrace()
        if let failure { throw failure }
    }

    private func check(
        _ operation: String, _ expected: (inout ExpectedTrace<State, Event>) -> Void, location: Testing.SourceLocation
    ) {
        let typed = machine.typed
        var expectation = ExpectedTrace<State, Event>(
            resolver: StateResolver(typed), eventName: { typed.chart.eventName($0) })
        expected(&expectation)
        for problem in expectation.problems {
            Issue.record(Comment(rawValue: "\(operation): \(problem)"), sourceLocation: location)
        }
        let actual = TraceComparison.checked(machine.trace)
        let rows = TraceComparison.align(expectation.steps, actual)
        // Not exhaustive: the stated steps must happen in that order; others may happen between.
        let passes = exhaustivity == .on ? rows.allSatisfy(\.matched) : !rows.contains { !$0.matched && $0.expected != nil }
        if !passes {
            let allowed = exhaustivity == .on ? "" : "; exhaustivity is off, so + steps alone pass"
            let message = """
                \(operation): the trace differs from the expected one \
                (- expected only, + actual only, ≠ both differ\(allowed)):
                \(TraceComparison.table(rows))
                What happened, as expectations:
                \(TraceComparison.statements(actual))
                """
            Issue.record(Comment(rawValue: message), sourceLocation: location)
        }
        if let states = expectation.configuration {
            let active = Set(machine.activeStateIDs)
            let unmatched = states.filter { $0.ids.allSatisfy { !active.contains($0) } }
            let covered = Set(states.flatMap(\.ids))
            let extra = active.filter { !covered.contains($0) }.sorted()
            if !unmatched.isEmpty || !extra.isEmpty {
                let message = """
                    \(operation): the configuration differs from the expected one:
                      expected: [\(states.map(\.display).joined(separator: ", "))]
                      actual:   [\(machine.activeStateIDs.joined(separator: ", "))]
                    """
                Issue.record(Comment(rawValue: message), sourceLocation: location)
            }
        }
    }
}
