import Statechart

/// An event of a chart loaded from SCXML: its name and the fields SCXML's `_event` shows.
///
/// Transitions match the name (event descriptors); the rest travels with the event through the
/// queues, delayed sends and snapshots, and a data model chart reads it as `_event`. A string
/// literal is an external event without data: `try instance.send("go")`.
public struct SCXMLEvent: Hashable, Sendable, Codable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// How the event arose (`_event.type`).
    public enum Kind: String, Hashable, Sendable, Codable {
        /// Sent from outside, or by `<send>` to the external queue.
        case external
        /// Raised by `<raise>` or `<send target="#_internal">`.
        case `internal`
        /// Raised by the platform: `done.*`, `error.*`.
        case platform
    }

    /// The event's name, matched by transitions' event descriptors.
    public var name: String
    /// The data it carries (`_event.data`): from `<param>`/`namelist` (an object), `<content>`, or the sender.
    public var data: DataValue
    /// How it arose (`_event.type`).
    public var kind: Kind
    /// The id of the `<send>` that sent it, when it had one (`_event.sendid`).
    public var sendID: String?
    /// Where a reply goes (`_event.origin`), for events sent by a session.
    public var origin: String?
    /// The Event I/O processor of ``origin`` (`_event.origintype`).
    public var originType: String?
    /// The id of the invocation it came from (`_event.invokeid`).
    public var invokeID: String?

    /// Creates an event.
    public init(
        _ name: String, data: DataValue = .undefined, kind: Kind = .external, sendID: String? = nil,
        origin: String? = nil, originType: String? = nil, invokeID: String? = nil
    ) {
        self.name = name
        self.data = data
        self.kind = kind
        self.sendID = sendID
        self.origin = origin
        self.originType = originType
        self.invokeID = invokeID
    }

    /// An external event without data.
    public init(stringLiteral name: String) { self.init(name) }

    /// The name.
    public var description: String { name }

    /// `_event` as the data model shows it.
    var scriptValue: DataValue {
        func optional(_ s: String?) -> DataValue { s.map { .string($0) } ?? .undefined }
        return .object(
            DataObject([
                ("name", .string(name)), ("type", .string(kind.rawValue)), ("sendid", optional(sendID)),
                ("origin", optional(origin)), ("origintype", optional(originType)), ("invokeid", optional(invokeID)),
                ("data", data),
            ]))
    }
}
