/// Guards that read the machine's time (rule R69): the closure receives a ``GuardInput`` with the
/// context, the event and `now`, so a cache expiry is compared with machine time directly.
///
/// ```swift
/// On(.sync, to: .inProgress, guardInput: { $0.now >= $0.context.expiry })
/// ```
extension On {
    /// A transition on `event` whose guard reads a ``GuardInput`` (context, event and `now`; rule R69).
    @inlinable
    @_disfavoredOverload
    public init(
        _ event: Event, to targets: State..., internal isInternal: Bool = false,
        guardInput condition: @escaping @Sendable (GuardInput<Event, Context>) throws -> Bool,
        action: (@Sendable (inout ActionScope<Event, Context>) throws -> Void)? = nil
    ) {
        spec = TransitionSpec(
            event: .event(event), target: targets.isEmpty ? .none : .states(targets),
            guardCondition: .withInput(condition), actions: runAction(action), kind: isInternal ? .internal : .external)
    }
}

extension Always {
    /// An eventless transition taken as soon as its guard, which reads a ``GuardInput``, holds (rule R69).
    @inlinable
    @_disfavoredOverload
    public init(
        to targets: State..., guardInput condition: @escaping @Sendable (GuardInput<Event, Context>) throws -> Bool,
        action: (@Sendable (inout ActionScope<Event, Context>) throws -> Void)? = nil
    ) {
        spec = TransitionSpec(
            event: nil, target: targets.isEmpty ? .none : .states(targets), guardCondition: .withInput(condition),
            actions: runAction(action), kind: .external)
    }
}

extension Transition {
    /// A flat transition whose guard reads a ``GuardInput`` (context, event and `now`; rule R69).
    @inlinable
    @_disfavoredOverload
    public init(
        from source: State, on event: Event, to target: State,
        guardInput condition: @escaping @Sendable (GuardInput<Event, Context>) throws -> Bool,
        action: (@Sendable (inout ActionScope<Event, Context>) throws -> Void)? = nil
    ) {
        element = MachineElement(
            kind: .transition(
                from: [source],
                TransitionSpec(
                    event: .event(event), target: .states([target]), guardCondition: .withInput(condition),
                    actions: runAction(action), kind: .external)))
    }
}
