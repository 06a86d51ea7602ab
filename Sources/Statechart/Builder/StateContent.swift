/// An entry action. The closure may receive the state of the same machine that was active before
/// (`nil` when the machine itself is being entered) — Machinus' `didEnter(previous)` (rule R29).
public struct OnEntry<State: Hashable & Sendable, Event: Hashable & Sendable, Context>: Sendable {
    @usableFromInline let action: ActionSpec<State, Event, Context>
    /// An entry action.
    @inlinable
    public init(_ name: String? = nil, _ body: @escaping @Sendable (inout ActionScope<Event, Context>) throws -> Void) {
        action = .plain(.run(name, body))
    }
    /// An entry action that receives the previous state of this machine.
    @inlinable
    public init(_ name: String? = nil, _ body: @escaping @Sendable (State?, inout ActionScope<Event, Context>) throws -> Void) {
        action = .withNeighbour(name, body)
    }
}

/// An exit action. The closure may receive the state of the same machine that is entered next
/// (`nil` when the machine itself is being exited) — Machinus' `didExit(next)` (rule R29).
public struct OnExit<State: Hashable & Sendable, Event: Hashable & Sendable, Context>: Sendable {
    @usableFromInline let action: ActionSpec<State, Event, Context>
    /// An exit action.
    @inlinable
    public init(_ name: String? = nil, _ body: @escaping @Sendable (inout ActionScope<Event, Context>) throws -> Void) {
        action = .plain(.run(name, body))
    }
    /// An exit action that receives the next state of this machine.
    @inlinable
    public init(_ name: String? = nil, _ body: @escaping @Sendable (State?, inout ActionScope<Event, Context>) throws -> Void) {
        action = .withNeighbour(name, body)
    }
}

/// Attaches a child machine to the enclosing state; see ``Machine/attach(child:to:history:)``.
public struct Attach<Event: Hashable & Sendable, Context>: Sendable {
    @usableFromInline let child: AnyChildMachine<Event, Context>
    /// Attaches `child`, re-entered according to `history`.
    @inlinable
    public init<ChildState>(_ child: Machine<ChildState, Event, Context>, history: AttachmentHistory = .none) {
        self.child = AnyChildMachine(child, history: history)
    }
}

/// The states the enclosing state may request a transition to (Machinus' `canTransitionTo`,
/// SwiftState's routes). Global states need not be listed (rule R26).
public struct Routes<State: Hashable & Sendable>: Sendable {
    @usableFromInline let states: [State]
    /// Declares the allowed request targets.
    @inlinable
    public init(_ states: State...) { self.states = states }
    /// Declares the allowed request targets.
    @inlinable
    public init(_ states: [State]) { self.states = states }
}

/// Decides whether a requested transition to the enclosing state may happen: allow, deny or
/// redirect (Machinus' transition barrier, rule R26).
public struct TransitionBarrier<State: Hashable & Sendable, Context>: Sendable {
    @usableFromInline let decide: @Sendable (State, Context) -> Barrier<State>
    /// Declares the barrier.
    @inlinable
    public init(_ decide: @escaping @Sendable (Context) -> Barrier<State>) { self.decide = { _, context in decide(context) } }

    /// Declares a barrier that also sees the state the request comes from: the active state of the
    /// same machine level (rule R69). For `resume()` it is the background state being left.
    ///
    /// ```swift
    /// TransitionBarrier { source, session in source == .registering && !session.registered ? .deny : .allow }
    /// ```
    @inlinable
    public init(_ decide: @escaping @Sendable (_ source: State, _ context: Context) -> Barrier<State>) {
        self.decide = decide
    }
}

/// The state that ``StateMachine/transition()`` requests from the enclosing state (Machinus'
/// dynamic transition, rule R27).
public struct DynamicTransition<State: Hashable & Sendable, Context>: Sendable {
    @usableFromInline let next: @Sendable (Context) -> State
    /// Declares the dynamic transition.
    @inlinable
    public init(_ next: @escaping @Sendable (Context) -> State) { self.next = next }
}

/// An entry or exit action before compilation: some need to know their machine's states.
@usableFromInline
enum ActionSpec<State: Hashable & Sendable, Event: Hashable & Sendable, Context>: Sendable {
    case plain(Action<Event, Context>)
    /// Receives the same-level state exited (for entry) or entered (for exit) by the microstep.
    case withNeighbour(String?, @Sendable (State?, inout ActionScope<Event, Context>) throws -> Void)
}
