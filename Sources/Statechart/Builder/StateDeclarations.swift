/// Declares a state and what happens in it.
///
/// ```swift
/// When(.pending) {
///     OnEntry { scope in scope.attempts = 0 }
///     On(.confirm, to: .confirmed, guard: { $0.paid })
/// }
/// ```
///
/// Declaring the same state again merges the bodies in declaration order (rule R65); a state that
/// is only a transition's target is added without a `When`, but ``TypedChart/validate()`` reports it.
public struct When<State: Hashable & Sendable, Event: Hashable & Sendable, Context>: Sendable {
    @usableFromInline let element: MachineElement<State, Event, Context>
    /// Declares `state` with its transitions, actions and attached children.
    @inlinable
    public init(_ state: State, @StateBuilder<State, Event, Context> _ content: () -> [StateElement<State, Event, Context>] = { [] }) {
        element = MachineElement(kind: .state(state, .normal, content()))
    }
}

/// Declares a final state: entering it completes its machine. At the top level the whole machine
/// stops (rule R15); in a child machine the parent state gets its done event (rule R13, R24).
/// A final state has no outgoing transitions.
public struct Final<State: Hashable & Sendable, Event: Hashable & Sendable, Context>: Sendable {
    @usableFromInline let element: MachineElement<State, Event, Context>
    /// Declares a final state; its body may hold ``OnEntry`` and ``OnExit``.
    @inlinable
    public init(_ state: State, @StateBuilder<State, Event, Context> _ content: () -> [StateElement<State, Event, Context>] = { [] }) {
        element = MachineElement(kind: .state(state, .final, content()))
    }
}

/// Declares a global state: any state of its machine may request it with
/// ``StateMachine/transition(to:)-(T)`` without listing it in its ``Routes`` (Machinus' `.global`).
public struct Global<State: Hashable & Sendable, Event: Hashable & Sendable, Context>: Sendable {
    @usableFromInline let element: MachineElement<State, Event, Context>
    /// Declares a global state.
    @inlinable
    public init(_ state: State, @StateBuilder<State, Event, Context> _ content: () -> [StateElement<State, Event, Context>] = { [] }) {
        element = MachineElement(kind: .state(state, .global, content()))
    }
}

/// Declares a state that is both global and final (Machinus' `.finalGlobal`).
public struct FinalGlobal<State: Hashable & Sendable, Event: Hashable & Sendable, Context>: Sendable {
    @usableFromInline let element: MachineElement<State, Event, Context>
    /// Declares a final global state.
    @inlinable
    public init(_ state: State, @StateBuilder<State, Event, Context> _ content: () -> [StateElement<State, Event, Context>] = { [] }) {
        element = MachineElement(kind: .state(state, .finalGlobal, content()))
    }
}

/// A transition declared flat, swift-state-kit style: `Transition(from: .pending, on: .confirm, to: .confirmed)`.
///
/// It belongs to its source state exactly as an ``On`` inside ``When`` would, at this point of the
/// declaration order. `Transition(fromAny:to:)` is an any-state route of the machine: it is tried
/// after every transition of the exact state (rule R25).
public struct Transition<State: Hashable & Sendable, Event: Hashable & Sendable, Context>: Sendable {
    @usableFromInline let element: MachineElement<State, Event, Context>

    /// A transition from one state.
    @inlinable
    public init(
        from source: State, on event: Event, to target: State,
        action: (@Sendable (inout ActionScope<Event, Context>) throws -> Void)? = nil
    ) {
        self.init(from: [source], on: event, to: target, guard: nil, action: action)
    }

    /// A guarded transition from one state.
    // Disfavored: a trailing closure is the action, never this guard (rule R70).
    @inlinable
    @_disfavoredOverload
    public init(
        from source: State, on event: Event, to target: State,
        guard condition: @escaping @Sendable (Context) throws -> Bool,
        action: (@Sendable (inout ActionScope<Event, Context>) throws -> Void)? = nil
    ) {
        self.init(from: [source], on: event, to: target, guard: condition, action: action)
    }

    /// A transition from one state with an asynchronous guard (swift-state-kit's async guards):
    /// awaited by ``AsyncStateMachine`` before the event is processed, while no other send can
    /// move the machine (rules R50, R58).
    // Disfavored: a trailing closure is the action, never this guard (rule R70).
    @inlinable
    @_disfavoredOverload
    public init(
        from source: State, on event: Event, to target: State,
        asyncGuard condition: @escaping @Sendable (Context) async -> Bool,
        action: (@Sendable (inout ActionScope<Event, Context>) throws -> Void)? = nil
    ) {
        element = MachineElement(
            kind: .transition(
                from: [source],
                TransitionSpec(
                    event: .event(event), target: .states([target]), guardCondition: nil,
                    actions: runAction(action), kind: .external, asyncGuard: { context, _ in await condition(context) })))
    }

    /// The same transition from each of several states.
    @inlinable
    public init(
        from sources: [State], on event: Event, to target: State,
        action: (@Sendable (inout ActionScope<Event, Context>) throws -> Void)? = nil
    ) {
        self.init(from: sources, on: event, to: target, guard: nil, action: action)
    }

    /// The same guarded transition from each of several states.
    @inlinable
    public init(
        from sources: [State], on event: Event, to target: State,
        guard condition: (@Sendable (Context) throws -> Bool)?,
        action: (@Sendable (inout ActionScope<Event, Context>) throws -> Void)? = nil
    ) {
        element = MachineElement(
            kind: .transition(
                from: sources,
                TransitionSpec(
                    event: .event(event), target: .states([target]), guardCondition: condition.map(guardFrom),
                    actions: runAction(action), kind: .external)))
    }

    /// A wildcard transition: from any state of this machine, after the exact state's own transitions.
    @inlinable
    public init(
        fromAny event: Event, to target: State,
        action: (@Sendable (inout ActionScope<Event, Context>) throws -> Void)? = nil
    ) {
        self.init(fromAny: event, to: target, guard: nil, action: action)
    }

    /// A guarded wildcard transition.
    @inlinable
    public init(
        fromAny event: Event, to target: State,
        guard condition: (@Sendable (Context) throws -> Bool)?,
        action: (@Sendable (inout ActionScope<Event, Context>) throws -> Void)? = nil
    ) {
        let spec = TransitionSpec<State, Event, Context>(
            event: .event(event), target: .states([target]), guardCondition: condition.map(guardFrom),
            actions: runAction(action), kind: .external)
        element = MachineElement(kind: .anyState([StateElement(kind: .transition(spec))]))
    }
}

/// Transitions that apply in every state of this machine (any-state routes). Each is tried only
/// after the active state's own transitions (rule R25); in a child machine, before the parent
/// state's transitions.
public struct AnyState<State: Hashable & Sendable, Event: Hashable & Sendable, Context>: Sendable {
    @usableFromInline let element: MachineElement<State, Event, Context>
    /// Declares the routes. Only transition entries (``On``, ``Always``, ``OnAnyEvent``, ``OnError``)
    /// belong here; anything else makes the chart invalid (``ChartError/invalidStructure(_:reason:location:)``).
    @inlinable
    public init(@StateBuilder<State, Event, Context> _ content: () -> [StateElement<State, Event, Context>]) {
        element = MachineElement(kind: .anyState(content()))
    }
}

@inlinable
func guardFrom<Event: Hashable & Sendable, Context>(
    _ condition: @escaping @Sendable (Context) throws -> Bool
) -> Guard<Event, Context> {
    .predicate { context, _ in try condition(context) }
}
