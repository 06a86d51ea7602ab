/// Codable bridging between Swift values and ``DataValue`` (rule R90), without Foundation: a Swift
/// value encodes to the data a datamodel holds, and data decodes to a Swift value, as `JSONEncoder`
/// and `JSONDecoder` would through JSON text — structs and dictionaries are objects (members in
/// the order they are encoded), arrays are arrays, numbers are numbers, `nil` is `null`.
///
/// ```swift
/// struct Cart: Codable { var items: [String]; var total: Double }
/// let data = try DataValue(encoding: Cart(items: ["tea"], total: 3.5))  // {"items": ["tea"], "total": 3.5}
/// let cart = try data.decode(Cart.self)
/// ```
///
/// A ``DataValue`` inside a Swift value is taken as it is (not re-encoded). An integer that a
/// double cannot hold exactly fails to encode; a number that is not an integer of the asked type
/// (`1.5` as `Int`, `300` as `UInt8`) fails to decode; `null` and `undefined` decode as `nil`.
/// Every failure is a ``DataValueCodingError`` naming where in the value it happened.
extension DataValue {
    /// Encodes a Swift value as plain data.
    ///
    /// - Throws: ``DataValueCodingError`` naming where the value could not be encoded.
    public init<T: Encodable>(encoding value: T) throws(DataValueCodingError) {
        let root = EncodedNode()
        do {
            try EncodedNode.box(value, into: root, path: [])
        } catch {
            throw DataValueCodingError(error)
        }
        self = root.resolved()
    }

    /// Decodes a Swift value from this data.
    ///
    /// - Throws: ``DataValueCodingError`` naming where the data does not fit the type, and why.
    public func decode<T: Decodable>(_ type: T.Type = T.self) throws(DataValueCodingError) -> T {
        do {
            return try DataValueDecoding.unbox(type, from: self, path: [])
        } catch {
            throw DataValueCodingError(error)
        }
    }

    /// What kind of value this is, in words ("a string", "an object"…), for error messages.
    public var kindDescription: String {
        switch self {
        case .undefined: return "undefined"
        case .null: return "null"
        case .boolean: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        case .xml: return "an XML value"
        }
    }
}

/// Why a Swift value could not be encoded as ``DataValue``, or data decoded as a Swift type.
public struct DataValueCodingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Where in the value: `items[2].name`, or empty for the value itself.
    public var path: String
    /// What does not fit.
    public var reason: String

    /// Describes a failure.
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    /// The failure of a `Codable` implementation, said with its coding path.
    init(_ error: any Error) {
        switch error {
        case let e as DataValueCodingError:
            self = e
        case DecodingError.typeMismatch(_, let c), DecodingError.valueNotFound(_, let c), DecodingError.dataCorrupted(let c):
            self.init(path: Self.path(c.codingPath), reason: c.debugDescription)
        case DecodingError.keyNotFound(let key, let c):
            self.init(path: Self.path(c.codingPath + [key]), reason: "the member '\(key.stringValue)' is missing")
        case EncodingError.invalidValue(_, let c):
            self.init(path: Self.path(c.codingPath), reason: c.debugDescription)
        default:
            self.init(path: "", reason: String(describing: error))
        }
    }

    /// `a.b[2].c`.
    static func path(_ keys: [any CodingKey]) -> String {
        var text = ""
        for key in keys {
            if let i = key.intValue, key.stringValue == "Index \(i)" || key.stringValue == String(i) {
                text += "[\(i)]"
            } else {
                text += text.isEmpty ? key.stringValue : "." + key.stringValue
            }
        }
        return text
    }

    /// `"at items[2]: …"`, or the reason alone for the value itself.
    public var description: String { path.isEmpty ? reason : "at \(path): \(reason)" }
}

/// A position in an array, as a coding key.
struct IndexKey: CodingKey {
    let intValue: Int?
    var stringValue: String { "Index \(intValue ?? 0)" }
    init(_ index: Int) { intValue = index }
    init?(intValue: Int) { self.intValue = intValue }
    init?(stringValue: String) { nil }
}

// MARK: - Encoding

/// A value being encoded: containers write into nodes, which become ``DataValue`` at the end
/// (a nested container can still be written after its parent moved on).
final class EncodedNode {
    private enum Content {
        case empty
        case value(DataValue)
        case object(keys: [String], members: [String: EncodedNode])
        case array([EncodedNode])
    }

    private var content = Content.empty

    func set(_ value: DataValue) { content = .value(value) }

    /// The member node named `key` (made an object first if it was not one).
    func member(_ key: String) -> EncodedNode {
        guard case .object(var keys, var members) = content else {
            let node = EncodedNode()
            content = .object(keys: [key], members: [key: node])
            return node
        }
        if let node = members[key] { return node }
        let node = EncodedNode()
        keys.append(key)
        members[key] = node
        content = .object(keys: keys, members: members)
        return node
    }

    /// Makes the node an (empty) object unless it is one.
    func becomeObject() {
        if case .object = content { return }
        content = .object(keys: [], members: [:])
    }

    /// Makes the node an (empty) array unless it is one.
    func becomeArray() {
        if case .array = content { return }
        content = .array([])
    }

    /// Appends an element node (made an array first if it was not one).
    func append() -> EncodedNode {
        let node = EncodedNode()
        if case .array(var items) = content {
            items.append(node)
            content = .array(items)
        } else {
            content = .array([node])
        }
        return node
    }

    var count: Int {
        switch content {
        case .array(let items): return items.count
        case .object(let keys, _): return keys.count
        default: return 0
        }
    }

    /// The data; a value that encoded nothing is an empty object (as with `JSONEncoder`).
    func resolved() -> DataValue {
        switch content {
        case .empty: return .object(DataObject())
        case .value(let v): return v
        case .array(let items): return .array(items.map { $0.resolved() })
        case .object(let keys, let members):
            return .object(DataObject(keys.map { ($0, members[$0]!.resolved()) }))
        }
    }

    /// Encodes `value` into `node`; a ``DataValue`` is taken as it is.
    static func box<T: Encodable>(_ value: T, into node: EncodedNode, path: [any CodingKey]) throws {
        if let data = value as? DataValue {
            node.set(data)
        } else {
            try value.encode(to: DataValueEncoder(node: node, codingPath: path))
        }
    }

    /// An integer as a number, when a double holds it exactly.
    static func number<I: BinaryInteger>(_ value: I, path: [any CodingKey]) throws -> DataValue {
        guard let d = Double(exactly: value) else {
            throw EncodingError.invalidValue(
                value, .init(codingPath: path, debugDescription: "the integer \(value) has no exact number (double) value"))
        }
        return .number(d)
    }
}

struct DataValueEncoder: Encoder {
    let node: EncodedNode
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        node.becomeObject()
        return KeyedEncodingContainer(KeyedDataEncoder<Key>(node: node, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        node.becomeArray()
        return UnkeyedDataEncoder(node: node, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleDataEncoder(node: node, codingPath: codingPath)
    }
}

struct SingleDataEncoder: SingleValueEncodingContainer {
    let node: EncodedNode
    let codingPath: [any CodingKey]

    mutating func encodeNil() throws { node.set(.null) }
    mutating func encode(_ value: Bool) throws { node.set(.boolean(value)) }
    mutating func encode(_ value: String) throws { node.set(.string(value)) }
    mutating func encode(_ value: Double) throws { node.set(.number(value)) }
    mutating func encode(_ value: Float) throws { node.set(.number(Double(value))) }
    mutating func encode(_ value: Int) throws { node.set(try EncodedNode.number(value, path: codingPath)) }
    mutating func encode(_ value: Int8) throws { node.set(try EncodedNode.number(value, path: codingPath)) }
    mutating func encode(_ value: Int16) throws { node.set(try EncodedNode.number(value, path: codingPath)) }
    mutating func encode(_ value: Int32) throws { node.set(try EncodedNode.number(value, path: codingPath)) }
    mutating func encode(_ value: Int64) throws { node.set(try EncodedNode.number(value, path: codingPath)) }
    mutating func encode(_ value: UInt) throws { node.set(try EncodedNode.number(value, path: codingPath)) }
    mutating func encode(_ value: UInt8) throws { node.set(try EncodedNode.number(value, path: codingPath)) }
    mutating func encode(_ value: UInt16) throws { node.set(try EncodedNode.number(value, path: codingPath)) }
    mutating func encode(_ value: UInt32) throws { node.set(try EncodedNode.number(value, path: codingPath)) }
    mutating func encode(_ value: UInt64) throws { node.set(try EncodedNode.number(value, path: codingPath)) }
    mutating func encode<T: Encodable>(_ value: T) throws { try EncodedNode.box(value, into: node, path: codingPath) }
}

struct KeyedDataEncoder<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: EncodedNode
    let codingPath: [any CodingKey]

    /// The single-value container of the member `key`: every primitive goes through it.
    private func slot(_ key: Key) -> SingleDataEncoder {
        SingleDataEncoder(node: node.member(key.stringValue), codingPath: codingPath + [key])
    }

    mutating func encodeNil(forKey key: Key) throws { node.member(key.stringValue).set(.null) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { var s = slot(key); try s.encode(value) }
    mutating func encode(_ value: String, forKey key: Key) throws { var s = slot(key); try s.encode(value) }
    mutating func encode(_ value: Double, forKey key: Key) throws { var s = slot(key); try s.encode(value) }
    mutating func encode(_ value: Float, forKey key: Key) throws { var s = slot(key); try s.encode(value) }
    mutating func encode(_ value: Int, forKey key: Key) throws { var s = slot(key); try s.encode(value) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { var s = slot(key); try s.encode(value) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { var s = slot(key); try s.encode(value) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { var s = slot(key); try s.encode(value) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { var s = slot(key); try s.encode(value) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { var s = slot(key); try s.encode(value) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { var s = slot(key); try s.encode(value) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { var s = slot(key); try s.encode(value) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { var s = slot(key); try s.encode(value) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { var s = slot(key); try s.encode(value) }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { var s = slot(key); try s.encode(value) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
        DataValueEncoder(node: node.member(key.stringValue), codingPath: codingPath + [key]).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        DataValueEncoder(node: node.member(key.stringValue), codingPath: codingPath + [key]).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        DataValueEncoder(node: node.member("super"), codingPath: codingPath)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        DataValueEncoder(node: node.member(key.stringValue), codingPath: codingPath + [key])
    }
}

struct UnkeyedDataEncoder: UnkeyedEncodingContainer {
    let node: EncodedNode
    let codingPath: [any CodingKey]
    var count: Int { node.count }

    /// The single-value container of a new element: every primitive goes through it.
    private func slot() -> SingleDataEncoder {
        let index = node.count
        return SingleDataEncoder(node: node.append(), codingPath: codingPath + [IndexKey(index)])
    }

    mutating func encodeNil() throws { slot().node.set(.null) }
    mutating func encode(_ value: Bool) throws { var s = slot(); try s.encode(value) }
    mutating func encode(_ value: String) throws { var s = slot(); try s.encode(value) }
    mutating func encode(_ value: Double) throws { var s = slot(); try s.encode(value) }
    mutating func encode(_ value: Float) throws { var s = slot(); try s.encode(value) }
    mutating func encode(_ value: Int) throws { var s = slot(); try s.encode(value) }
    mutating func encode(_ value: Int8) throws { var s = slot(); try s.encode(value) }
    mutating func encode(_ value: Int16) throws { var s = slot(); try s.encode(value) }
    mutating func encode(_ value: Int32) throws { var s = slot(); try s.encode(value) }
    mutating func encode(_ value: Int64) throws { var s = slot(); try s.encode(value) }
    mutating func encode(_ value: UInt) throws { var s = slot(); try s.encode(value) }
    mutating func encode(_ value: UInt8) throws { var s = slot(); try s.encode(value) }
    mutating func encode(_ value: UInt16) throws { var s = slot(); try s.encode(value) }
    mutating func encode(_ value: UInt32) throws { var s = slot(); try s.encode(value) }
    mutating func encode(_ value: UInt64) throws { var s = slot(); try s.encode(value) }
    mutating func encode<T: Encodable>(_ value: T) throws { var s = slot(); try s.encode(value) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
        -> KeyedEncodingContainer<NestedKey>
    {
        let s = slot()
        return DataValueEncoder(node: s.node, codingPath: s.codingPath).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let s = slot()
        return DataValueEncoder(node: s.node, codingPath: s.codingPath).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        let s = slot()
        return DataValueEncoder(node: s.node, codingPath: s.codingPath)
    }
}
