/// A delayed transition: taken when its state has been active for `delay` of machine time
/// (rule R53). Leaving the state cancels the timer; entering it again starts a new one, so an old
/// timer can never fire early (swift-state-kit's timeout flaw).
///
/// ```swift
/// When(.loading) {
///     After(.seconds(30), to: .failed)
/// }
/// ```
public struct After<State: Hashable & Sendable, Event: Hashable & Sendable, Context>: Sendable {
    @usableFromInline let delay: Duration
    @usableFromInline let spec: TransitionSpec<State, Event, Context>

    /// Declares the delayed transition (targetless when no target is given: only its action runs).
    @inlinable
    public init(
        _ delay: Duration, to targets: State...,
        action: (@Sendable (inout ActionScope<Event, Context>) throws -> Void)? = nil
    ) {
        self.delay = delay
        spec = TransitionSpec(
            event: nil, target: targets.isEmpty ? .none : .states(targets), guardCondition: nil,
            actions: runAction(action), kind: .external)
    }

    /// Declares a delayed transition taken only if the guard holds when the timer fires.
    @inlinable
    public init(
        _ delay: Duration, to targets: State..., guard condition: @escaping @Sendable (Context) throws -> Bool,
        action: (@Sendable (inout ActionScope<Event, Context>) throws -> Void)? = nil
    ) {
        self.delay = delay
        spec = TransitionSpec(
            event: nil, target: targets.isEmpty ? .none : .states(targets), guardCondition: guardFrom(condition),
            actions: runAction(action), kind: .external)
    }
}

/// Work the state runs while it is active — DDStateMachine's work state, SCXML's `<invoke>`
/// (rule R52). It starts when the state is entered (the initial state included), is cancelled
/// when the state is exited, and the event it returns is sent to the machine, where transitions
/// check it in declaration order like any event.
///
/// ```swift
/// When(.inProgress) {
///     Work("sync") { context in try await sync(context) ? .succeeded : .failed } failure: { _ in .failed }
///     On(.succeeded, to: .synced)
///     On(.failed, to: .failed)
/// }
/// ```
/// Work runs in ``AsyncStateMachine``; a synchronous ``StateMachine`` hands the requests to the
/// caller through ``StateMachine/takeInvocationRequests()``.
public struct Work<Event: Hashable & Sendable, Context>: Sendable {
    @usableFromInline let invocation: Invocation<Event, Context>

    /// Declares the work; `failure` maps an error to an event (else `error.execution` is raised).
    @inlinable
    public init(
        _ name: String, run: @escaping @Sendable (Context) async throws -> Event?,
        failure: (@Sendable (any Error) -> Event?)? = nil
    ) {
        invocation = Invocation(name, run: run, failure: failure)
    }
}

extension StateBuilder {
    /// A delayed transition.
    @inlinable
    public static func buildExpression(_ e: After<State, Event, Context>) -> Component {
        [StateElement(kind: .after(e.delay, e.spec))]
    }

    /// Invoked work.
    @inlinable
    public static func buildExpression(_ e: Work<Event, Context>) -> Component {
        [StateElement(kind: .invoke(e.invocation))]
    }
}
