import Statechart

/// What a test expects one operation of a ``TestStore`` to do, in order.
///
/// The closure given to `TestStore.send(_:assert:fileID:filePath:line:column:)` receives an empty
/// expectation and lists every step the operation must take, in the order the interpreter takes
/// them (rule R8): exits innermost first, each followed by the state's exit actions; then the
/// transition's actions; then entries outermost first, each followed by the state's entry actions.
///
/// ```swift
/// try store.send(.confirm) {
///     $0.exited(.pending)
///     $0.ran("log exit")               // OnExit("log exit") of pending
///     $0.ran("action")                 // the transition's action (unnamed)
///     $0.entered(.confirmed)
///     $0.ran("charge")                 // OnEntry("charge") of confirmed
///     $0.entered("confirmed.authorizing")
/// }
/// ```
///
/// States are named by their id — the dotted path of a nested state, such as
/// `"confirmed.authorizing"` — or by their typed value (`.pending`, `Payment.authorizing`). A value
/// used at several places of the chart (a child machine attached twice) matches any of them.
///
/// Exits, entries, actions, raised events, sent events and a halt are checked exhaustively: each
/// one that happens must be listed, and each one listed must happen, in that order. Timers of
/// `After` transitions, processed events, dropped events and log lines are not checked.
public struct ExpectedTrace<State: Hashable & Sendable, Event: Hashable & Sendable> {
    /// The listed steps, in order.
    var steps: [ExpectedStep] = []
    /// The expected active atomic state ids, when the test states them.
    var configuration: [ExpectedState]?
    /// Mistakes of the expectation itself (a name that is not a state of the chart).
    var problems: [String] = []
    let resolver: StateResolver
    let eventName: (Event) -> String

    init(resolver: StateResolver, eventName: @escaping (Event) -> String) {
        self.resolver = resolver
        self.eventName = eventName
    }

    // MARK: - Exits and entries

    /// Expects the state with this id (a dotted path for a nested state) to be exited.
    public mutating func exited(_ id: String) { append(.exited, resolver.state(id: id, problems: &problems)) }

    /// Expects a state of the top-level machine to be exited: `$0.exited(.pending)`.
    @_disfavoredOverload
    public mutating func exited(_ state: State) { exited(value: state) }

    /// Expects the state with this typed value, of any machine level, to be exited:
    /// `$0.exited(Payment.authorizing)`.
    @_disfavoredOverload
    public mutating func exited<T: Hashable & Sendable>(_ state: T) { exited(value: state) }

    /// Expects the state with this id (a dotted path for a nested state) to be entered.
    public mutating func entered(_ id: String) { append(.entered, resolver.state(id: id, problems: &problems)) }

    /// Expects a state of the top-level machine to be entered: `$0.entered(.confirmed)`.
    @_disfavoredOverload
    public mutating func entered(_ state: State) { entered(value: state) }

    /// Expects the state with this typed value, of any machine level, to be entered:
    /// `$0.entered(Payment.authorizing)`.
    @_disfavoredOverload
    public mutating func entered<T: Hashable & Sendable>(_ state: T) { entered(value: state) }

    private mutating func exited<T: Hashable & Sendable>(value: T) {
        append(.exited, resolver.state(value: value, problems: &problems))
    }

    private mutating func entered<T: Hashable & Sendable>(value: T) {
        append(.entered, resolver.state(value: value, problems: &problems))
    }

    // MARK: - Actions and events

    /// Expects an action to run: an `OnEntry`, `OnExit` or other action declared with this name.
    /// Actions declared without a name — transition actions among them — are labelled `"action"`.
    public mutating func ran(_ action: String) {
        steps.append(ExpectedStep(matches: [.action(action)], display: TraceStep.action(action).description))
    }

    /// Expects an event to be put on the internal queue (`scope.raise(_:)`, `Action.raise(_:)`).
    public mutating func raised(_ event: Event) { raised(named: eventName(event)) }

    /// Expects an event with this name to be put on the internal queue: a done event
    /// (`"done.state.confirmed"`, rules R13, R24) or `"error.execution"` (rule R14).
    public mutating func raised(named name: String) {
        steps.append(ExpectedStep(matches: [.raised(name)], display: TraceStep.raised(name).description))
    }

    /// Expects the done event of a compound or parallel state to be raised (rules R13, R24):
    /// `$0.raisedDone(of: .confirmed)`.
    @_disfavoredOverload
    public mutating func raisedDone(of state: State) { raisedDone(value: state) }

    /// Expects the done event of the state with this typed value to be raised (rules R13, R24).
    @_disfavoredOverload
    public mutating func raisedDone<T: Hashable & Sendable>(of state: T) { raisedDone(value: state) }

    /// Expects the done event of the state with this id to be raised (rules R13, R24).
    public mutating func raisedDone(of id: String) {
        let ids = resolver.state(id: id, problems: &problems)
        append(ids.map { .raised("done.state." + $0) }, ids: ids, kind: "raise done.state.")
    }

    private mutating func raisedDone<T: Hashable & Sendable>(value: T) {
        let ids = resolver.state(value: value, problems: &problems)
        append(ids.map { .raised("done.state." + $0) }, ids: ids, kind: "raise done.state.")
    }

    /// Expects an event to be put on the external queue (`scope.send(_:after:id:)`,
    /// `Action.send(_:delay:id:)`), with this delay (none by default).
    public mutating func sent(_ event: Event, after delay: Duration = .zero) { sent(named: eventName(event), after: delay) }

    /// Expects an event with this name to be put on the external queue, with this delay.
    public mutating func sent(named name: String, after delay: Duration = .zero) {
        let step = TraceStep.sent(name, delay: delay)
        steps.append(ExpectedStep(matches: [step], display: step.description))
    }

    /// Expects the machine to reach this top-level final state and stop (rule R15).
    public mutating func halted(in id: String) { append(.halted, resolver.state(id: id, problems: &problems)) }

    /// Expects the machine to reach this top-level final state and stop (rule R15): `$0.halted(in: .delivered)`.
    @_disfavoredOverload
    public mutating func halted(in state: State) {
        append(.halted, resolver.state(value: state, problems: &problems))
    }

    // MARK: - Configuration

    /// Expects the active atomic states after the operation to be exactly these (order does not
    /// matter): ids such as `"confirmed.authorizing"` or typed values such as `Payment.authorizing`.
    /// A machine halted in a top-level final state reports that state alone.
    ///
    /// Every change of configuration is a list of exits and entries, which the trace already
    /// checks; stating the configuration checks where the operation ended as well.
    public mutating func configuration(_ states: [any Hashable & Sendable]) {
        configuration = states.map { state in
            if let id = state as? String { return ExpectedState(ids: resolver.state(id: id, problems: &problems), display: id) }
            return ExpectedState(ids: resolver.state(value: state, problems: &problems), display: "\(state)")
        }
    }

    /// Expects the active atomic states after the operation to be exactly these states of the
    /// top-level machine: `$0.configuration([.shipped])`.
    @_disfavoredOverload
    public mutating func configuration(_ states: [State]) {
        configuration(states.map { $0 as any Hashable & Sendable })
    }

    // MARK: - Helpers

    private enum StateStep { case exited, entered, halted }

    private mutating func append(_ kind: StateStep, _ ids: [String]) {
        let make: (String) -> TraceStep
        let prefix: String
        switch kind {
        case .exited: (make, prefix) = (TraceStep.exited, "exit ")
        case .entered: (make, prefix) = (TraceStep.entered, "enter ")
        case .halted: (make, prefix) = (TraceStep.halted, "halt in ")
        }
        append(ids.map(make), ids: ids, kind: prefix)
    }

    private mutating func append(_ matches: [TraceStep], ids: [String], kind: String) {
        let display = ids.count == 1 ? kind + ids[0] : kind + "one of " + ids.joined(separator: ", ")
        steps.append(ExpectedStep(matches: matches, display: display))
    }
}

/// One listed step: it matches any of the trace steps in `matches` (several when a typed value
/// names several states).
struct ExpectedStep {
    var matches: [TraceStep]
    var display: String
}

/// One state of an expected configuration: any of `ids`.
struct ExpectedState {
    var ids: [String]
    var display: String
}

/// Maps the names a test uses for states to the chart's state ids.
struct StateResolver {
    let ids: (String) -> Bool
    let idsOfValue: (any Hashable & Sendable) -> [String]

    init<Event, Context>(_ typed: TypedChart<Event, Context>) {
        let chart = typed.chart
        ids = { chart.state(withID: $0) != nil }
        idsOfValue = { value in typed.states(for: value).map { chart.id(of: $0) } }
    }

    /// The id itself; a problem when the chart has no such state (the step then matches nothing).
    func state(id: String, problems: inout [String]) -> [String] {
        if !ids(id) { problems.append("'\(id)' is not a state id of the chart") }
        return [id]
    }

    /// The ids of every state with this value; a problem when there is none.
    func state(value: any Hashable & Sendable, problems: inout [String]) -> [String] {
        let found = idsOfValue(value)
        if found.isEmpty {
            problems.append("\(type(of: value)).\(value) is not a state of the chart")
            return ["\(value)"]
        }
        return found
    }
}
