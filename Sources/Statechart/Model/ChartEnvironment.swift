/// What an expression language sees of the running machine besides the extended state: the
/// event being processed, the active states (SCXML's `In()`) and the machine's time.
///
/// A datamodel's conditions receive it with ``Guard/expression(_:_:)`` and its executable
/// content with ``Action/content(_:_:)``. It is a view of the interpreter at the moment of the
/// evaluation (rule R81): within a microstep, the active states are those of the configuration as
/// states are being exited and entered, as SCXML requires.
public struct ChartEnvironment<Event: Hashable & Sendable>: Sendable {
    /// The event being processed, or `nil` for eventless transitions and while the machine starts.
    public let event: ChartEvent<Event>?
    /// The event's SCXML name (`done.state.<id>`, `error.execution`, a user event's name), or
    /// `nil` when there is no event.
    public var eventName: String? { event.map { names.name(of: $0) } }
    /// The machine's time (time since it started, advanced by its driver).
    public let now: Duration
    /// The active states.
    public let activeStates: ActiveStateSet
    @usableFromInline let names: EventNames<Event>

    @usableFromInline
    init(event: ChartEvent<Event>?, now: Duration, activeStates: ActiveStateSet, names: EventNames<Event>) {
        self.event = event
        self.now = now
        self.activeStates = activeStates
        self.names = names
    }

    /// Whether the state with this id is active (SCXML's `In()`); an unknown id is not.
    public func isActive(_ id: String) -> Bool { activeStates.contains(id) }
}

/// The active states of a machine at one moment, by id (shared with the interpreter, not copied).
public struct ActiveStateSet: Sendable {
    @usableFromInline let bits: [UInt64]
    @usableFromInline let indexByID: [String: Int32]

    @usableFromInline init(bits: [UInt64], indexByID: [String: Int32]) {
        self.bits = bits
        self.indexByID = indexByID
    }

    /// Whether the state with this id is active; an id that is not a state of the chart is not.
    public func contains(_ id: String) -> Bool {
        guard let s = indexByID[id] else { return false }
        return bits[Int(s) >> 6] & (1 << UInt64(s & 63)) != 0
    }
}

/// How a chart names its events (shared with the chart).
@usableFromInline
struct EventNames<Event: Hashable & Sendable>: Sendable {
    @usableFromInline let ids: [String]
    @usableFromInline let eventName: @Sendable (Event) -> String

    @usableFromInline init(ids: [String], eventName: @escaping @Sendable (Event) -> String) {
        self.ids = ids
        self.eventName = eventName
    }

    @inlinable func name(of event: ChartEvent<Event>) -> String {
        switch event {
        case .event(let e): return eventName(e)
        case .done(let s): return "done.state." + ids[Int(s.index)]
        case .error(let x): return x.name
        case .timer(let key): return "timer." + key
        }
    }
}
