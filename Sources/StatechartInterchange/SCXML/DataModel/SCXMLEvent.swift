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
    /// Everything but the name, or `nil` for an external event without data or ids (the common
    /// case). An event is copied many times per step (queues, selection, `_event`'s key); kept in
    /// one shared box, the six other fields cost one reference count instead of five.
    private var details: Details?

    /// The data it carries (`_event.data`): from `<param>`/`namelist` (an object), `<content>`, or the sender.
    public var data: DataValue {
        get { details?.data ?? .undefined }
        set { update { $0.data = newValue } }
    }
    /// How it arose (`_event.type`).
    public var kind: Kind {
        get { details?.kind ?? .external }
        set { update { $0.kind = newValue } }
    }
    /// The id of the `<send>` that sent it, when it had one (`_event.sendid`).
    public var sendID: String? {
        get { details?.sendID }
        set { update { $0.sendID = newValue } }
    }
    /// Where a reply goes (`_event.origin`), for events sent by a session.
    public var origin: String? {
        get { details?.origin }
        set { update { $0.origin = newValue } }
    }
    /// The Event I/O processor of ``origin`` (`_event.origintype`).
    public var originType: String? {
        get { details?.originType }
        set { update { $0.originType = newValue } }
    }
    /// The id of the invocation it came from (`_event.invokeid`).
    public var invokeID: String? {
        get { details?.invokeID }
        set { update { $0.invokeID = newValue } }
    }
    /// The message as its Event I/O processor received it (`_event.raw`): the whole HTTP request
    /// of an event that came through the Basic HTTP processor; `nil` for any other.
    public var raw: String? {
        get { details?.raw }
        set { update { $0.raw = newValue } }
    }

    /// Creates an event.
    public init(
        _ name: String, data: DataValue = .undefined, kind: Kind = .external, sendID: String? = nil,
        origin: String? = nil, originType: String? = nil, invokeID: String? = nil, raw: String? = nil
    ) {
        self.name = name
        let fields = Details(
            data: data, kind: kind, sendID: sendID, origin: origin, originType: originType, invokeID: invokeID, raw: raw)
        details = fields.isDefault ? nil : fields
    }

    /// An external event without data.
    public init(stringLiteral name: String) { self.init(name) }

    /// The name.
    public var description: String { name }

    /// Equal names and equal fields.
    public static func == (a: Self, b: Self) -> Bool {
        guard a.name == b.name else { return false }
        if a.details === b.details { return true }
        return (a.details ?? Details.none).hasSameFields(as: b.details ?? Details.none)
    }

    /// Hashes the name and the fields.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(data)
        hasher.combine(kind)
        hasher.combine(sendID)
        hasher.combine(origin)
        hasher.combine(originType)
        hasher.combine(invokeID)
        hasher.combine(raw)
    }

    /// The box of the fields besides the name, or `nil` when they are the defaults: two events
    /// with the same name and the same box are equal (the box is never changed once shared).
    var fieldsIdentity: AnyObject? { details }

    /// `_event` as the data model shows it (`raw` only for an event that has one).
    var scriptValue: DataValue {
        func optional(_ s: String?) -> DataValue { s.map { .string($0) } ?? .undefined }
        var fields: [(String, DataValue)] = [
            ("name", .string(name)), ("type", .string(kind.rawValue)), ("sendid", optional(sendID)),
            ("origin", optional(origin)), ("origintype", optional(originType)), ("invokeid", optional(invokeID)),
            ("data", data),
        ]
        if let raw { fields.append(("raw", .string(raw))) }
        return .object(DataObject(fields))
    }
}

extension SCXMLEvent {
    /// The fields besides the name, shared between copies and copied before a change
    /// (copy-on-write).
    private final class Details: @unchecked Sendable {
        // Unchecked: an instance is never changed once it is shared (`update` copies it first).
        var data: DataValue
        var kind: Kind
        var sendID: String?
        var origin: String?
        var originType: String?
        var invokeID: String?
        var raw: String?

        init(data: DataValue, kind: Kind, sendID: String?, origin: String?, originType: String?, invokeID: String?, raw: String?) {
            self.data = data
            self.kind = kind
            self.sendID = sendID
            self.origin = origin
            self.originType = originType
            self.invokeID = invokeID
            self.raw = raw
        }

        /// The fields of an external event without data or ids.
        static let none = Details(data: .undefined, kind: .external, sendID: nil, origin: nil, originType: nil, invokeID: nil, raw: nil)

        var isDefault: Bool { hasSameFields(as: .none) }

        func copy() -> Details {
            Details(data: data, kind: kind, sendID: sendID, origin: origin, originType: originType, invokeID: invokeID, raw: raw)
        }

        func hasSameFields(as other: Details) -> Bool {
            data == other.data && kind == other.kind && sendID == other.sendID && origin == other.origin
                && originType == other.originType && invokeID == other.invokeID && raw == other.raw
        }
    }

    /// Changes one field, on a box of this event's own.
    private mutating func update(_ change: (Details) -> Void) {
        if details == nil {
            details = Details.none.copy()
        } else if !isKnownUniquelyReferenced(&details) {
            details = details?.copy()
        }
        if let details { change(details) }
    }

    private enum CodingKeys: String, CodingKey {
        case name, data, kind, sendID, origin, originType, invokeID, raw
    }

    /// Decodes the form ``encode(to:)`` writes (the one the synthesized conformance wrote).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            try c.decode(String.self, forKey: .name), data: try c.decode(DataValue.self, forKey: .data),
            kind: try c.decode(Kind.self, forKey: .kind), sendID: try c.decodeIfPresent(String.self, forKey: .sendID),
            origin: try c.decodeIfPresent(String.self, forKey: .origin),
            originType: try c.decodeIfPresent(String.self, forKey: .originType),
            invokeID: try c.decodeIfPresent(String.self, forKey: .invokeID), raw: try c.decodeIfPresent(String.self, forKey: .raw))
    }

    /// Encodes every field by name; absent ids are left out.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(name, forKey: .name)
        try c.encode(data, forKey: .data)
        try c.encode(kind, forKey: .kind)
        try c.encodeIfPresent(sendID, forKey: .sendID)
        try c.encodeIfPresent(origin, forKey: .origin)
        try c.encodeIfPresent(originType, forKey: .originType)
        try c.encodeIfPresent(invokeID, forKey: .invokeID)
        try c.encodeIfPresent(raw, forKey: .raw)
    }
}
