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
    /// A predicate over a ``GuardInput``: the extended state, the event and the machine's time (rule R69).
    case withInput(@Sendable (GuardInput<Event, Context>) throws -> Bool)
}

/// What a guard built with ``Guard/withInput(_:)`` sees (rule R69): the extended state, the event
/// being processed and the machine's time, as an action's ``ActionScope/now`` would read it.
public struct GuardInput<Event: Hashable & Sendable, Context> {
    /// The extended state.
    public let context: Context
    /// The event being processed (`nil` for eventless transitions).
    public let event: ChartEvent<Event>?
    /// The machine's time (time since it started, rule R17).
    public let now: Duration

    /// The user event being processed, if the current event is one.
    public var userEvent: Event? { event?.userEvent }

    @usableFromInline
    init(context: Context, event: ChartEvent<Event>?, now: Duration) {
        self.context = context
        self.event = event
        self.now = now
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
    case withInput(@Sendable (GuardInput<Event, Context>) throws -> Bool)
}
