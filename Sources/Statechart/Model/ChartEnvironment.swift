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
    /// A number for the event this environment sees, for hosts that keep what they build from an
    /// event (SCXML's `_event`): environments of one machine, or of copies of it, with the same
    /// nonzero number see the same event, and no other machine in the process uses the number.
    /// 0 means unknown: a hypothetical event, as ``ChartInstance/canHandle(_:)`` evaluates guards
    /// for. A host compares the number first and the event itself only when the numbers differ.
    public let eventSerial: UInt64
    /// The machine's time (time since it started, advanced by its driver).
    public let now: Duration
    /// The active states.
    public let activeStates: ActiveStateSet

    /// The chart's names: always a `ChartNames<Event>`, as only the interpreter makes environments.
    @usableFromInline var names: ChartNames<Event> { unsafeDowncast(activeStates.names, to: ChartNames<Event>.self) }

    // One object holds the chart's names (ids, ids by state, event names): an environment is
    // built for every guard and action with data, and each reference it holds is a retain and a
    // release per evaluation.
    @usableFromInline
    init(event: ChartEvent<Event>?, eventSerial: UInt64, now: Duration, bits: [UInt32], names: ChartNames<Event>) {
        self.event = event
        self.eventSerial = eventSerial
        self.now = now
        self.activeStates = ActiveStateSet(bits: bits, names: names)
    }

    /// Whether the state with this id is active (SCXML's `In()`); an unknown id is not.
    public func isActive(_ id: String) -> Bool { activeStates.contains(id) }
}

/// The active states of a machine at one moment, by id (shared with the interpreter, not copied).
public struct ActiveStateSet: Sendable {
    @usableFromInline let bits: [UInt32]
    @usableFromInline let names: StateNames

    @usableFromInline init(bits: [UInt32], names: StateNames) {
        self.bits = bits
        self.names = names
    }

    /// A set over the states named `ids`, in index order (tests and hosts without a chart).
    @usableFromInline init(bits: [UInt32], ids: [String]) {
        self.init(bits: bits, names: StateNames(table: StateIDTable(ids: ids)))
    }

    /// Whether the state with this id is active; an id that is not a state of the chart is not.
    public func contains(_ id: String) -> Bool {
        guard let s = names.indexByID[id] else { return false }
        return bits[Int(s) >> 5] & (1 << UInt32(s & 31)) != 0
    }
}

/// A chart's state ids, by index and by id (shared with the chart).
///
/// A class, not final: ``ChartNames`` adds the event names for a chart's event type, so that an
/// environment holds one reference for all of them while ``ActiveStateSet`` stays non-generic.
/// Unchecked `Sendable`: every stored property is an immutable `Sendable` value.
@usableFromInline
class StateNames: @unchecked Sendable {
    @usableFromInline let indexByID: StateIDTable
    /// The ids by index.
    @inlinable var ids: [String] { indexByID.ids }

    @usableFromInline init(table: StateIDTable) {
        self.indexByID = table
    }
}

/// How a chart names its states and its events (one per chart, shared by its environments).
@usableFromInline
final class ChartNames<Event: Hashable & Sendable>: StateNames, @unchecked Sendable {
    @usableFromInline let eventName: @Sendable (Event) -> String

    @usableFromInline init(table: StateIDTable, eventName: @escaping @Sendable (Event) -> String) {
        self.eventName = eventName
        super.init(table: table)
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
