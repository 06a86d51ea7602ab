/// A value of a chart's data model as plain data: what crosses between a datamodel (such as the
/// ECMAScript one) and the engine, the host program and snapshots.
///
/// It is the JSON value space plus ECMAScript's `undefined` and an opaque XML fragment (SCXML
/// `<content>` holding markup), so that every datamodel value can be encoded in a snapshot.
public enum DataValue: Sendable, Hashable {
    /// No value (ECMAScript's `undefined`; an unbound `<data>`).
    case undefined
    /// `null`.
    case null
    /// A boolean.
    case boolean(Bool)
    /// A number (a double, as in ECMAScript).
    case number(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([DataValue])
    /// An object: named members in insertion order.
    case object(DataObject)
    /// Markup kept verbatim (an XML fragment from `<content>` or `<data>`).
    case xml(String)
}

/// The members of a ``DataValue/object(_:)``, in insertion order. Two objects are equal when they
/// have the same members, whatever their order.
public struct DataObject: Sendable, Hashable, Sequence {
    /// The member names in insertion order.
    public private(set) var keys: [String] = []
    private var values: [String: DataValue] = [:]

    /// An empty object.
    public init() {}

    /// An object with these members, in this order (a later duplicate replaces the earlier value).
    public init(_ members: [(String, DataValue)]) {
        for (k, v) in members { self[k] = v }
    }

    /// The member named `key`; assigning `nil` removes it.
    public subscript(key: String) -> DataValue? {
        get { values[key] }
        set {
            if let newValue {
                if values.updateValue(newValue, forKey: key) == nil { keys.append(key) }
            } else if values.removeValue(forKey: key) != nil {
                keys.removeAll { $0 == key }
            }
        }
    }

    /// The number of members.
    public var count: Int { keys.count }

    /// The members in insertion order.
    public func makeIterator() -> some IteratorProtocol<(key: String, value: DataValue)> {
        keys.lazy.map { (key: $0, value: self.values[$0]!) }.makeIterator()
    }

    /// Equal members, in any order.
    public static func == (a: DataObject, b: DataObject) -> Bool { a.values == b.values }

    /// Hashes the members independently of their order.
    public func hash(into hasher: inout Hasher) { hasher.combine(values) }
}

extension DataValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    /// `nil` is `null`.
    public init(nilLiteral: ()) { self = .null }
    /// A boolean literal.
    public init(booleanLiteral value: Bool) { self = .boolean(value) }
    /// An integer literal is a number.
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    /// A floating-point literal.
    public init(floatLiteral value: Double) { self = .number(value) }
    /// A string literal.
    public init(stringLiteral value: String) { self = .string(value) }
    /// An array literal.
    public init(arrayLiteral elements: DataValue...) { self = .array(elements) }
    /// A dictionary literal is an object with its members in the written order.
    public init(dictionaryLiteral elements: (String, DataValue)...) { self = .object(DataObject(elements)) }
}

/// Encoded as the JSON it stands for; what JSON cannot say is an object with one `$`-member:
/// `{"$undefined": true}`, `{"$xml": "<a/>"}`, `{"$number": "NaN"}` (also `Infinity`, `-Infinity`),
/// and `{"$object": {…}}` around an object that has a member whose name starts with `$`.
extension DataValue: Codable {
    private struct CodingName: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ s: String) { stringValue = s }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Encodes the value (see the type's documentation for the format).
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .null:
            var c = encoder.singleValueContainer()
            try c.encodeNil()
        case .boolean(let b):
            var c = encoder.singleValueContainer()
            try c.encode(b)
        case .number(let n) where n.isFinite:
            var c = encoder.singleValueContainer()
            try c.encode(n)
        case .number(let n):
            var c = encoder.container(keyedBy: CodingName.self)
            try c.encode(n.isNaN ? "NaN" : n < 0 ? "-Infinity" : "Infinity", forKey: CodingName("$number"))
        case .string(let s):
            var c = encoder.singleValueContainer()
            try c.encode(s)
        case .array(let a):
            var c = encoder.unkeyedContainer()
            for v in a { try c.encode(v) }
        case .object(let o):
            var c = encoder.container(keyedBy: CodingName.self)
            if o.keys.contains(where: { $0.hasPrefix("$") }) {
                var inner = c.nestedContainer(keyedBy: CodingName.self, forKey: CodingName("$object"))
                for (k, v) in o { try inner.encode(v, forKey: CodingName(k)) }
            } else {
                for (k, v) in o { try c.encode(v, forKey: CodingName(k)) }
            }
        case .undefined:
            var c = encoder.container(keyedBy: CodingName.self)
            try c.encode(true, forKey: CodingName("$undefined"))
        case .xml(let x):
            var c = encoder.container(keyedBy: CodingName.self)
            try c.encode(x, forKey: CodingName("$xml"))
        }
    }

    /// Decodes what ``encode(to:)`` wrote (and any JSON).
    public init(from decoder: any Decoder) throws {
        if let c = try? decoder.container(keyedBy: CodingName.self) {
            let keys = c.allKeys.map(\.stringValue)
            if keys == ["$undefined"] {
                self = .undefined
            } else if keys == ["$xml"] {
                self = .xml(try c.decode(String.self, forKey: CodingName("$xml")))
            } else if keys == ["$number"] {
                switch try c.decode(String.self, forKey: CodingName("$number")) {
                case "Infinity": self = .number(.infinity)
                case "-Infinity": self = .number(-.infinity)
                default: self = .number(.nan)
                }
            } else if keys == ["$object"] {
                let inner = try c.nestedContainer(keyedBy: CodingName.self, forKey: CodingName("$object"))
                self = .object(try DataValue.members(of: inner))
            } else {
                self = .object(try DataValue.members(of: c))
            }
            return
        }
        if var c = try? decoder.unkeyedContainer() {
            var a: [DataValue] = []
            while !c.isAtEnd { a.append(try c.decode(DataValue.self)) }
            self = .array(a)
            return
        }
        let c = try decoder.singleValueContainer()
        if c.decodeNil() {
            self = .null
        } else if let b = try? c.decode(Bool.self) {
            self = .boolean(b)
        } else if let n = try? c.decode(Double.self) {
            self = .number(n)
        } else {
            self = .string(try c.decode(String.self))
        }
    }

    private static func members(of c: KeyedDecodingContainer<CodingName>) throws -> DataObject {
        var o = DataObject()
        // Sorted: a decoder's key order is not the document's, so at least make it stable.
        for key in c.allKeys.sorted(by: { $0.stringValue < $1.stringValue }) {
            o[key.stringValue] = try c.decode(DataValue.self, forKey: key)
        }
        return o
    }
}
