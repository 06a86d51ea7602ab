/// Collects the body of a ``Machine``: ``When``, ``Final``, ``Global``, ``FinalGlobal``,
/// ``Transition`` and ``AnyState`` entries, with `if`, `switch` and `for` allowed.
@resultBuilder
public enum MachineBuilder<State: Hashable & Sendable, Event: Hashable & Sendable, Context> {
    /// The body's entries.
    public typealias Component = [MachineElement<State, Event, Context>]
    /// A state declaration.
    @inlinable
    public static func buildExpression(_ e: When<State, Event, Context>) -> Component { [e.element] }
    /// A final state.
    @inlinable
    public static func buildExpression(_ e: Final<State, Event, Context>) -> Component { [e.element] }
    /// A global state.
    @inlinable
    public static func buildExpression(_ e: Global<State, Event, Context>) -> Component { [e.element] }
    /// A final global state.
    @inlinable
    public static func buildExpression(_ e: FinalGlobal<State, Event, Context>) -> Component { [e.element] }
    /// A flat transition.
    @inlinable
    public static func buildExpression(_ e: Transition<State, Event, Context>) -> Component { [e.element] }
    /// Any-state routes.
    @inlinable
    public static func buildExpression(_ e: AnyState<State, Event, Context>) -> Component { [e.element] }
    /// Combines entries.
    @inlinable
    public static func buildBlock(_ parts: Component...) -> Component { parts.flatMap { $0 } }
    /// An `if` without `else`.
    @inlinable
    public static func buildOptional(_ part: Component?) -> Component { part ?? [] }
    /// The first branch of an `if`/`else` or `switch`.
    @inlinable
    public static func buildEither(first: Component) -> Component { first }
    /// The second branch of an `if`/`else` or `switch`.
    @inlinable
    public static func buildEither(second: Component) -> Component { second }
    /// A `for` loop.
    @inlinable
    public static func buildArray(_ parts: [Component]) -> Component { parts.flatMap { $0 } }
    /// An `if #available` block.
    @inlinable
    public static func buildLimitedAvailability(_ part: Component) -> Component { part }
}

/// Collects the body of a state: ``On``, ``Always``, ``OnDone``, ``OnError``, ``OnAnyEvent``,
/// ``OnEntry``, ``OnExit``, ``Attach``, ``Routes``, ``TransitionBarrier`` and ``DynamicTransition``.
@resultBuilder
public enum StateBuilder<State: Hashable & Sendable, Event: Hashable & Sendable, Context> {
    /// The body's entries.
    public typealias Component = [StateElement<State, Event, Context>]
    /// A transition on an event.
    @inlinable
    public static func buildExpression(_ e: On<State, Event, Context>) -> Component { [StateElement(kind: .transition(e.spec))] }
    /// An eventless transition.
    @inlinable
    public static func buildExpression(_ e: Always<State, Event, Context>) -> Component { [StateElement(kind: .transition(e.spec))] }
    /// A transition on the state's done event.
    @inlinable
    public static func buildExpression(_ e: OnDone<State, Event, Context>) -> Component { [StateElement(kind: .transition(e.spec))] }
    /// A transition on an execution error.
    @inlinable
    public static func buildExpression(_ e: OnError<State, Event, Context>) -> Component { [StateElement(kind: .transition(e.spec))] }
    /// A transition on any event.
    @inlinable
    public static func buildExpression(_ e: OnAnyEvent<State, Event, Context>) -> Component { [StateElement(kind: .transition(e.spec))] }
    /// An entry action.
    @inlinable
    public static func buildExpression(_ e: OnEntry<State, Event, Context>) -> Component { [StateElement(kind: .entry(e.action))] }
    /// An exit action.
    @inlinable
    public static func buildExpression(_ e: OnExit<State, Event, Context>) -> Component { [StateElement(kind: .exit(e.action))] }
    /// An attached child machine.
    @inlinable
    public static func buildExpression(_ e: Attach<Event, Context>) -> Component { [StateElement(kind: .attach(e.child))] }
    /// Declared routes for state requests.
    @inlinable
    public static func buildExpression(_ e: Routes<State>) -> Component { [StateElement(kind: .routes(e.states))] }
    /// A barrier.
    @inlinable
    public static func buildExpression(_ e: TransitionBarrier<State, Context>) -> Component { [StateElement(kind: .barrier(e.decide))] }
    /// A dynamic transition.
    @inlinable
    public static func buildExpression(_ e: DynamicTransition<State, Context>) -> Component { [StateElement(kind: .dynamic(e.next))] }
    /// Combines entries.
    @inlinable
    public static func buildBlock(_ parts: Component...) -> Component { parts.flatMap { $0 } }
    /// An `if` without `else`.
    @inlinable
    public static func buildOptional(_ part: Component?) -> Component { part ?? [] }
    /// The first branch of an `if`/`else` or `switch`.
    @inlinable
    public static func buildEither(first: Component) -> Component { first }
    /// The second branch of an `if`/`else` or `switch`.
    @inlinable
    public static func buildEither(second: Component) -> Component { second }
    /// A `for` loop.
    @inlinable
    public static func buildArray(_ parts: [Component]) -> Component { parts.flatMap { $0 } }
    /// An `if #available` block.
    @inlinable
    public static func buildLimitedAvailability(_ part: Component) -> Component { part }
}
