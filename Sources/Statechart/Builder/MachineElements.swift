/// One entry of a ``Machine``'s body, produced by ``When``, ``Final``, ``Global``, ``Transition`` and ``AnyState``.
public struct MachineElement<State: Hashable & Sendable, Event: Hashable & Sendable, Context>: Sendable {
    @usableFromInline enum Kind: Sendable {
        case state(State, StateRole, [StateElement<State, Event, Context>])
        case transition(from: [State], TransitionSpec<State, Event, Context>)
        case anyState([StateElement<State, Event, Context>])
        case states([State])
    }
    @usableFromInline let kind: Kind

    @inlinable init(kind: Kind) { self.kind = kind }
}

/// What kind of state a declaration makes.
@usableFromInline
enum StateRole: Sendable {
    case normal, final, global, finalGlobal
}

/// One entry of a state's body: a transition, an entry or exit action, an attached child, routes,
/// a barrier or a dynamic transition.
public struct StateElement<State: Hashable & Sendable, Event: Hashable & Sendable, Context>: Sendable {
    @usableFromInline enum Kind: Sendable {
        case transition(TransitionSpec<State, Event, Context>)
        case entry(ActionSpec<State, Event, Context>)
        case exit(ActionSpec<State, Event, Context>)
        case attach(AnyChildMachine<Event, Context>)
        case routes([State])
        case barrier(@Sendable (State, Context) -> Barrier<State>)
        case dynamic(@Sendable (Context) -> State)
        case after(Duration, TransitionSpec<State, Event, Context>)
        case invoke(Invocation<Event, Context>)
    }
    @usableFromInline let kind: Kind

    @inlinable init(kind: Kind) { self.kind = kind }
}

/// Where a transition goes.
@usableFromInline
enum TargetSpec<State: Hashable & Sendable, Event: Hashable & Sendable, Context>: Sendable {
    /// Targetless: only the actions run, nothing is exited or entered.
    case none
    /// States of the same machine.
    case states([State])
    /// States anywhere in the chart, by reference.
    case refs([StateRef])
    /// Computed when the transition is selected.
    case dynamic(@Sendable (Context, Event?) -> State)
}

/// A transition before compilation.
@usableFromInline
struct TransitionSpec<State: Hashable & Sendable, Event: Hashable & Sendable, Context>: Sendable {
    @usableFromInline var event: EventDescriptor<Event>?
    @usableFromInline var doneOfSource = false
    /// The name of the attached child whose own done event this transition waits for (rule R67).
    @usableFromInline var doneOfChild: String? = nil
    @usableFromInline var target: TargetSpec<State, Event, Context>
    @usableFromInline var guardCondition: Guard<Event, Context>?
    @usableFromInline var actions: [Action<Event, Context>]
    @usableFromInline var kind: TransitionKind
    @usableFromInline var asyncGuard: (@Sendable (Context, Event) async -> Bool)? = nil

    @inlinable
    init(
        event: EventDescriptor<Event>?, doneOfSource: Bool = false, doneOfChild: String? = nil,
        target: TargetSpec<State, Event, Context>, guardCondition: Guard<Event, Context>?, actions: [Action<Event, Context>],
        kind: TransitionKind, asyncGuard: (@Sendable (Context, Event) async -> Bool)? = nil
    ) {
        self.event = event
        self.doneOfSource = doneOfSource
        self.doneOfChild = doneOfChild
        self.target = target
        self.guardCondition = guardCondition
        self.actions = actions
        self.kind = kind
        self.asyncGuard = asyncGuard
    }
}

/// What a state's barrier answers when a transition to it is requested (Machinus' transition barrier).
public enum Barrier<State: Hashable & Sendable>: Hashable, Sendable {
    /// The request goes ahead.
    case allow
    /// The request fails with ``MachineError/transitionDenied(to:)``.
    case deny
    /// The request is made again for another state (bounded; a cycle is an error, rule R26).
    case redirect(to: State)
}

/// A reference to a state anywhere in a chart, by its typed value — for transitions that target a
/// state of another level (a child's state from the parent, or the parent's from a child).
public struct StateRef: Hashable, @unchecked Sendable, CustomStringConvertible {
    // AnyHashable wraps a `Hashable & Sendable` value only (see the factory), so it is sendable.
    let path: [AnyHashable]

    /// The state with this value; it must be unique in the chart (otherwise use ``path(_:)``).
    public static func state<T: Hashable & Sendable>(_ value: T) -> StateRef { StateRef(path: [AnyHashable(value)]) }

    /// The state reached by this path of values from the top machine down (`[Order.confirmed, Payment.failed]`),
    /// or a suffix of such a path that is unique in the chart.
    public static func path(_ values: any Hashable & Sendable...) -> StateRef {
        StateRef(path: values.map { AnyHashable($0) })
    }

    /// The values joined with dots.
    public var description: String { path.map { "\($0.base)" }.joined(separator: ".") }
}
