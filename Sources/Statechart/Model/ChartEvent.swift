/// An event as the interpreter sees it: one of the chart's own events, or an event the engine
/// raises itself (done events and execution errors).
public enum ChartEvent<Event: Hashable & Sendable>: Hashable, Sendable {
    /// An event of the chart's event type, sent from outside or raised by an action.
    case event(Event)
    /// `done.state.<id>`: the compound state (or parallel) with this index has completed.
    case done(ChartStateID)
    /// `error.execution`: an action or guard threw; the message says which and why.
    case error(ExecutionErrorEvent)
    /// `timer.<key>`: a delayed transition's timer fired (``Action/startTimer(_:after:)``).
    case timer(String)

    /// The user event, if this is one.
    @inlinable public var userEvent: Event? {
        if case .event(let e) = self { return e }
        return nil
    }
}

/// The payload of an `error.execution` event.
public struct ExecutionErrorEvent: Hashable, Sendable, CustomStringConvertible {
    // Its fields live in one shared box (copy-on-write): a ``ChartEvent`` is copied at every
    // guard and action that reads it, and a payload of four fields inline made every
    // `ChartEvent` of every chart as large as this one, its copies a switch over nine words.
    private var fields: Fields

    /// The SCXML name of the event, `error.execution`.
    public var name: String {
        get { fields.name }
        set { update { $0.name = newValue } }
    }
    /// What failed, naming the state or transition whose content threw.
    public var message: String {
        get { fields.message }
        set { update { $0.message = newValue } }
    }
    /// The id of the send that failed, when the error comes from one (SCXML's `_event.sendid`).
    public var sendID: String? {
        get { fields.sendID }
        set { update { $0.sendID = newValue } }
    }
    /// What the failing content said about itself (``DescribedFailure``); `undefined` otherwise.
    /// SCXML charts read it as `_event.data`: the element, line, column and reason.
    public var data: DataValue {
        get { fields.data }
        set { update { $0.data = newValue } }
    }

    /// Creates an execution error event.
    public init(name: String = "error.execution", message: String, sendID: String? = nil, data: DataValue = .undefined) {
        fields = Fields(name: name, message: message, sendID: sendID, data: data)
    }

    /// The event name followed by the message.
    public var description: String { "\(name): \(message)" }

    /// Equal fields.
    public static func == (a: Self, b: Self) -> Bool {
        a.fields === b.fields
            || (a.name == b.name && a.message == b.message && a.sendID == b.sendID && a.data == b.data)
    }

    /// Hashes the fields.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(message)
        hasher.combine(sendID)
        hasher.combine(data)
    }

    private mutating func update(_ change: (Fields) -> Void) {
        if !isKnownUniquelyReferenced(&fields) { fields = fields.copy() }
        change(fields)
    }

    private final class Fields: @unchecked Sendable {
        // Unchecked: a box is only changed while uniquely referenced (`update` copies first).
        var name: String
        var message: String
        var sendID: String?
        var data: DataValue

        init(name: String, message: String, sendID: String?, data: DataValue) {
            self.name = name
            self.message = message
            self.sendID = sendID
            self.data = data
        }

        func copy() -> Fields { Fields(name: name, message: message, sendID: sendID, data: data) }
    }
}

/// A state of a compiled chart, by its index in document order.
///
/// Indices are stable for a given chart: the root is 0, every parent comes before its children,
/// and a state's descendants occupy the indices right after it.
public struct ChartStateID: Hashable, Sendable, Comparable, Codable, CustomStringConvertible {
    /// The document-order index.
    public let index: Int32

    /// Wraps an index.
    @inlinable public init(_ index: Int32) { self.index = index }

    /// Document order.
    @inlinable public static func < (a: Self, b: Self) -> Bool { a.index < b.index }

    /// `#index`.
    public var description: String { "#\(index)" }
}

/// An error an action throws that belongs to a send: the `error.execution` event raised for it
/// carries the send's id (SCXML 6.2: a `<send>` that fails names itself in `_event.sendid`).
public protocol SendFailure: Error {
    /// The id of the send that failed.
    var sendID: String? { get }
}

/// An error an action throws that describes itself as data: the `error.execution` event raised
/// for it carries that data (SCXML charts read it as `_event.data`, with the element, the line,
/// the column and the reason, as SCION's charts expect).
public protocol DescribedFailure: Error {
    /// The data of the error event.
    var errorData: DataValue { get }
}
