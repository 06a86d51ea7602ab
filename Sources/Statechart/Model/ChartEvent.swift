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
    /// The SCXML name of the event, `error.execution`.
    public var name: String
    /// What failed, naming the state or transition whose content threw.
    public var message: String
    /// The id of the send that failed, when the error comes from one (SCXML's `_event.sendid`).
    public var sendID: String?
    /// What the failing content said about itself (``DescribedFailure``); `undefined` otherwise.
    /// SCXML charts read it as `_event.data`: the element, line, column and reason.
    public var data: DataValue

    /// Creates an execution error event.
    public init(name: String = "error.execution", message: String, sendID: String? = nil, data: DataValue = .undefined) {
        self.name = name
        self.message = message
        self.sendID = sendID
        self.data = data
    }

    /// The event name followed by the message.
    public var description: String { "\(name): \(message)" }
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
