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
}
