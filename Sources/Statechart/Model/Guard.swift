/// A transition's condition.
///
/// Guards are evaluated when transitions are selected, in declaration order; the first transition
/// whose guard holds wins and a failing guard falls through to the next candidate. A guard that
/// throws counts as false and raises `error.execution` (rule R14 in Docs/Semantics.md).
public indirect enum Guard<Event: Hashable & Sendable, Context>: Sendable {
    /// Holds while the state with this id is active (SCXML `In('id')`).
    case inState(String)
    /// Holds when the wrapped guard does not.
    case not(Guard)
    /// Holds when every wrapped guard holds (evaluated left to right, short-circuit).
    case all([Guard])
    /// Holds when any wrapped guard holds (evaluated left to right, short-circuit).
    case any([Guard])
    /// A predicate over the extended state and the event being processed (`nil` for eventless transitions).
    case predicate(@Sendable (Context, ChartEvent<Event>?) throws -> Bool)
    /// A condition written in an expression language (a datamodel's `cond`): `source` is its text,
    /// kept for export and diagnostics; the closure evaluates it with the extended state and what
    /// the machine looks like (``ChartEnvironment``: the event, the active states, the time).
    ///
    /// The context is `inout` so that a datamodel that evaluates in place (a script session)
    /// can own its storage; a query that must change nothing (``ChartInstance/canHandle(_:)``)
    /// hands it a copy (rule R81).
    case expression(String, @Sendable (inout Context, ChartEnvironment<Event>) throws -> Bool)
    /// A predicate over a ``GuardInput``: the extended state, the event and the machine's time (rule R69).
    case withInput(@Sendable (GuardInput<Event, Context>) throws -> Bool)
}

/// What a guard built with ``Guard/withInput(_:)`` sees (rule R69): the extended state, the event
/// being processed and the machine's time, as an action's ``ActionScope/now`` would read it.
///
/// It is the same view of the machine that a datamodel's expressions get (``ChartEnvironment``,
/// rule R81), with the extended state beside it.
public struct GuardInput<Event: Hashable & Sendable, Context> {
    /// The extended state.
    public let context: Context
    /// The event, the time and the active states.
    public let environment: ChartEnvironment<Event>
    /// The event being processed (`nil` for eventless transitions).
    public var event: ChartEvent<Event>? { environment.event }
    /// The machine's time (time since it started, rule R17).
    public var now: Duration { environment.now }

    /// The user event being processed, if the current event is one.
    public var userEvent: Event? { event?.userEvent }

    /// Whether the state with this id is active.
    public func isActive(_ id: String) -> Bool { environment.isActive(id) }

    @usableFromInline
    init(context: Context, environment: ChartEnvironment<Event>) {
        self.context = context
        self.environment = environment
    }
}

/// A guard with state ids resolved to indices.
@usableFromInline
indirect enum CompiledGuard<Event: Hashable & Sendable, Context>: Sendable {
    case inState(Int32)
    case not(CompiledGuard)
    case all([CompiledGuard])
    case any([CompiledGuard])
    case predicate(@Sendable (Context, ChartEvent<Event>?) throws -> Bool)
    case expression(String, @Sendable (inout Context, ChartEnvironment<Event>) throws -> Bool)
    case withInput(@Sendable (GuardInput<Event, Context>) throws -> Bool)
}

extension CompiledGuard {
    /// Whether evaluating the guard can read machine time: an expression or a guard given its
    /// input sees the environment, which holds it; a predicate sees the context and the event only
    /// (``Chart/readsTime``).
    @inlinable var readsTime: Bool {
        switch self {
        case .inState, .predicate: return false
        case .not(let inner): return inner.readsTime
        case .all(let guards), .any(let guards): return guards.contains { $0.readsTime }
        case .expression, .withInput: return true
        }
    }
}
