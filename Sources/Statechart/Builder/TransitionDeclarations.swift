/// A transition on an event, declared inside ``When``.
///
/// ```swift
/// On(.confirm, to: .confirmed)                          // external
/// On(.retry, to: .authorizing, guard: { $0.attempts < 3 })
/// On(.tick) { scope in scope.ticks += 1 }                // targetless: nothing exits or enters
/// On(.refresh, to: .loading, internal: true)             // does not exit a compound source
/// On(.cancel, to: .state(Order.cancelled))               // a state of another level
/// ```
/// Guards are tried in declaration order; the first transition whose guard holds is taken and a
/// failing guard falls through to the next (rule R25).
///
/// A trailing closure is always the action, whatever the target form (rule R70); a guard is given
/// with its label only.
public struct On<State: Hashable & Sendable, Event: Hashable & Sendable, Context>: Sendable {
    @usableFromInline let spec: TransitionSpec<State, Event, Context>

    /// A transition on `event` to states of the same machine (none: targetless).
    @inlinable
    public init(
        _ event: Event, to targets: State..., internal isInternal: Bool = false,
        action: (@Sendable (inout ActionScope<Event, Context>) throws -> Void)? = nil
    ) {
        spec = TransitionSpec(
            event: .event(event), target: targets.isEmpty ? .none : .states(targets), guardCondition: nil,
            actions: runAction(action), kind: isInternal ? .internal : .external)
    }

    /// A guarded transition on `event` to states of the same machine (none: targetless).
    // Disfavored: a trailing closure is the action, never this guard (rule R70).
    @inlinable
    @_disfavoredOverload
    public init(
        _ event: Event, to targets: State..., internal isInternal: Bool = false,
        guard condition: @escaping @Sendable (Context) throws -> Bool,
        action: (@Sendable (inout ActionScope<Event, Context>) throws -> Void)? = nil
    ) {
        spec = TransitionSpec(
            event: .event(event), target: targets.isEmpty ? .none : .states(targets),
            guardCondition: guardFrom(condition), actions: runAction(action), kind: isInternal ? .internal : .external)
    }

    /// A transition on `event` with an asynchronous guard, awaited by ``AsyncStateMachine`` before
    /// the event is processed (rule R58); a synchronous ``StateMachine`` never takes it.
    // Disfavored: a trailing closure is the action, never this guard (rule R70).
    @inlinable
    @_disfavoredOverload
    public init(
        _ event: Event, to targets: State..., internal isInternal: Bool = false,
        asyncGuard condition: @escaping @Sendable (Context) async -> Bool,
        action: (@Sendable (inout ActionScope<Event, Context>) throws -> Void)? = nil
    ) {
        spec = TransitionSpec(
            event: .event(event), target: targets.isEmpty ? .none : .states(targets), guardCondition: nil,
            actions: runAction(action), kind: isInternal ? .internal : .external,
            asyncGuard: { context, _ in await condition(context) })
    }

    /// A transition on `event` to states anywhere in the chart; a trailing closure is its action (rule R70).
    @inlinable
    public init(
        _ event: Event, to target: StateRef, _ more: StateRef..., internal isInternal: Bool = false,
        action: (@Sendable (inout ActionScope<Event, Context>) throws -> Void)? = nil
    ) {
        spec = TransitionSpec(
            event: .event(event), target: .refs([target] + more), guardCondition: nil,
            actions: runAction(action), kind: isInternal ? .internal : .external)
    }

    /// A guarded transition on `event` to states anywhere in the chart.
    // Disfavored: a trailing closure is the action, never this guard (rule R70).
    @inlinable
    @_disfavoredOverload
    public init(
        _ event: Event, to target: StateRef, _ more: StateRef..., internal isInternal: Bool = false,
        guard condition: @escaping @Sendable (Context) throws -> Bool,
        action: (@Sendable (inout ActionScope<Event, Context>) throws -> Void)? = nil
    ) {
        spec = TransitionSpec(
            event: .event(event), target: .refs([target] + more), guardCondition: guardFrom(condition),
            actions: runAction(action), kind: isInternal ? .internal : .external)
    }

    /// A transition on every event the predicate accepts — an enum case whatever its associated
    /// values (SwiftState's route mappings). The guard sees the event.
    @inlinable
    public init(
        matching predicate: @escaping @Sendable (Event) -> Bool, to targets: State...,
        action: (@Sendable (inout ActionScope<Event, Context>) throws -> Void)? = nil
    ) {
        spec = TransitionSpec(
            event: .matching(predicate), target: targets.isEmpty ? .none : .states(targets), guardCondition: nil,
            actions: runAction(action), kind: .external)
    }

    /// A guarded transition on every event the predicate accepts; the guard sees the event.
    @inlinable
    public init(
        matching predicate: @escaping @Sendable (Event) -> Bool, to targets: State...,
        guard condition: @escaping @Sendable (Context, Event) throws -> Bool,
        action: (@Sendable (inout ActionScope<Event, Context>) throws -> Void)? = nil
    ) {
        spec = TransitionSpec(
            event: .matching(predicate), target: targets.isEmpty ? .none : .states(targets),
            guardCondition: eventGuard(condition), actions: runAction(action), kind: .external)
    }

    /// A transition on `event` whose target is computed when it is selected (a dynamic transition).
    /// Returning a state that is not part of this machine is an execution error (rule R27).
    /// A trailing closure is its action (rule R70).
    @inlinable
    public init(
        _ event: Event, dynamic target: @escaping @Sendable (Context, Event?) -> State,
        action: (@Sendable (inout ActionScope<Event, Context>) throws -> Void)? = nil
    ) {
        spec = TransitionSpec(
            event: .event(event), target: .dynamic(target), guardCondition: nil, actions: runAction(action), kind: .external)
    }

    /// A guarded transition on `event` whose target is computed when it is selected (rule R27).
    // Disfavored: a trailing closure is the action, never this guard (rule R70).
    @inlinable
    @_disfavoredOverload
    public init(
        _ event: Event, dynamic target: @escaping @Sendable (Context, Event?) -> State,
        guard condition: @escaping @Sendable (Context) throws -> Bool,
        action: (@Sendable (inout ActionScope<Event, Context>) throws -> Void)? = nil
    ) {
        spec = TransitionSpec(
            event: .event(event), target: .dynamic(target), guardCondition: guardFrom(condition),
            actions: runAction(action), kind: .external)
    }
}

/// An eventless transition: taken as soon as its guard holds, before any queued event (rule R2).
public struct Always<State: Hashable & Sendable, Event: Hashable & Sendable, Context>: Sendable {
    @usableFromInline let spec: TransitionSpec<State, Event, Context>
    /// Declares an unguarded eventless transition: taken at once whenever its source is active.
    @inlinable
    public init(to targets: State..., action: (@Sendable (inout ActionScope<Event, Context>) throws -> Void)? = nil) {
        spec = TransitionSpec(
            event: nil, target: targets.isEmpty ? .none : .states(targets), guardCondition: nil,
            actions: runAction(action), kind: .external)
    }

    /// Declares an eventless transition taken as soon as the guard holds.
    // Disfavored: a trailing closure is the action, never this guard (rule R70).
    @inlinable
    @_disfavoredOverload
    public init(
        to targets: State..., guard condition: @escaping @Sendable (Context) throws -> Bool,
        action: (@Sendable (inout ActionScope<Event, Context>) throws -> Void)? = nil
    ) {
        spec = TransitionSpec(
            event: nil, target: targets.isEmpty ? .none : .states(targets), guardCondition: guardFrom(condition),
            actions: runAction(action), kind: .external)
    }
}

/// A transition on this state's done event: its attached child machine (or every one of several)
/// reached a final state (rules R13, R24). `OnDone(child:to:)` waits for one child only (rule R67).
public struct OnDone<State: Hashable & Sendable, Event: Hashable & Sendable, Context>: Sendable {
    @usableFromInline let spec: TransitionSpec<State, Event, Context>
    /// Declares the transition taken when the state's children are done.
    @inlinable
    public init(to targets: State..., action: (@Sendable (inout ActionScope<Event, Context>) throws -> Void)? = nil) {
        spec = TransitionSpec(
            event: nil, doneOfSource: true, target: targets.isEmpty ? .none : .states(targets), guardCondition: nil,
            actions: runAction(action), kind: .external)
    }

    /// Declares a guarded transition taken when the state's children are done.
    // Disfavored: a trailing closure is the action, never this guard (rule R70).
    @inlinable
    @_disfavoredOverload
    public init(
        to targets: State..., guard condition: @escaping @Sendable (Context) throws -> Bool,
        action: (@Sendable (inout ActionScope<Event, Context>) throws -> Void)? = nil
    ) {
        spec = TransitionSpec(
            event: nil, doneOfSource: true, target: targets.isEmpty ? .none : .states(targets),
            guardCondition: guardFrom(condition), actions: runAction(action), kind: .external)
    }
}

extension OnDone {
    /// Declares the transition taken when one attached child — the machine named `child` (or
    /// `"region1"`, `"region2"`, … for unnamed children, in attachment order) — reaches a final
    /// state, whatever the other children do (rule R67). It waits for the child's region's done
    /// event, `done.state.<state>.<child>` (SCXML's done event of a parallel region); with a single
    /// child it is the state's own done event. A name that is not an attached child of the state
    /// makes the chart invalid.
    @inlinable
    public init(
        child: String, to targets: State..., action: (@Sendable (inout ActionScope<Event, Context>) throws -> Void)? = nil
    ) {
        spec = TransitionSpec(
            event: nil, doneOfChild: child, target: targets.isEmpty ? .none : .states(targets), guardCondition: nil,
            actions: runAction(action), kind: .external)
    }

    /// Declares a guarded transition taken when the attached child named `child` is done (rule R67).
    // Disfavored: a trailing closure is the action, never this guard (rule R70).
    @inlinable
    @_disfavoredOverload
    public init(
        child: String, to targets: State..., guard condition: @escaping @Sendable (Context) throws -> Bool,
        action: (@Sendable (inout ActionScope<Event, Context>) throws -> Void)? = nil
    ) {
        spec = TransitionSpec(
            event: nil, doneOfChild: child, target: targets.isEmpty ? .none : .states(targets),
            guardCondition: guardFrom(condition), actions: runAction(action), kind: .external)
    }
}

/// A transition on `error.execution`: an action or guard threw (rule R14).
public struct OnError<State: Hashable & Sendable, Event: Hashable & Sendable, Context>: Sendable {
    @usableFromInline let spec: TransitionSpec<State, Event, Context>
    /// Declares the transition taken when an action or guard fails.
    @inlinable
    public init(
        to targets: State..., action: (@Sendable (inout ActionScope<Event, Context>) throws -> Void)? = nil
    ) {
        spec = TransitionSpec(
            event: .error, target: targets.isEmpty ? .none : .states(targets), guardCondition: nil,
            actions: runAction(action), kind: .external)
    }
}

/// A transition on every event of the chart's event type (an any-event route), tried in
/// declaration order with the state's other transitions.
public struct OnAnyEvent<State: Hashable & Sendable, Event: Hashable & Sendable, Context>: Sendable {
    @usableFromInline let spec: TransitionSpec<State, Event, Context>
    /// Declares an any-event transition.
    @inlinable
    public init(to targets: State..., action: (@Sendable (inout ActionScope<Event, Context>) throws -> Void)? = nil) {
        spec = TransitionSpec(
            event: .matching { _ in true }, target: targets.isEmpty ? .none : .states(targets), guardCondition: nil,
            actions: runAction(action), kind: .external)
    }

    /// Declares a guarded any-event transition; the guard sees the event.
    @inlinable
    public init(
        to targets: State..., guard condition: @escaping @Sendable (Context, Event) throws -> Bool,
        action: (@Sendable (inout ActionScope<Event, Context>) throws -> Void)? = nil
    ) {
        spec = TransitionSpec(
            event: .matching { _ in true }, target: targets.isEmpty ? .none : .states(targets),
            guardCondition: eventGuard(condition), actions: runAction(action), kind: .external)
    }
}

@inlinable
func eventGuard<Event: Hashable & Sendable, Context>(
    _ condition: @escaping @Sendable (Context, Event) throws -> Bool
) -> Guard<Event, Context> {
    .predicate { context, event in
        guard let e = event?.userEvent else { return false }
        return try condition(context, e)
    }
}

@inlinable
func runAction<Event: Hashable & Sendable, Context>(
    _ body: (@Sendable (inout ActionScope<Event, Context>) throws -> Void)?
) -> [Action<Event, Context>] {
    body.map { [.run(nil, $0)] } ?? []
}
