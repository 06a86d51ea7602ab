/// Decoding Swift values from ``DataValue`` (rule R90); ``DataValue/decode(_:)`` is the entry point.
enum DataValueDecoding {
    /// Decodes `type` from `value`; a ``DataValue`` is taken as it is.
    static func unbox<T: Decodable>(_ type: T.Type, from value: DataValue, path: [any CodingKey]) throws -> T {
        if let data = value as? T { return data }
        return try T(from: DataValueDecoder(value: value, codingPath: path))
    }

    static func mismatch(_ expected: String, _ value: DataValue, _ path: [any CodingKey]) -> DecodingError {
        var found = value.kindDescription
        switch value {
        case .string(let s) where s.count <= 40: found += " (\"\(s)\")"
        case .number(let n): found += " (\(n))"
        case .boolean(let b): found += " (\(b))"
        default: break
        }
        return DecodingError.typeMismatch(
            Any.self, .init(codingPath: path, debugDescription: "expected \(expected), found \(found)"))
    }
}

struct DataValueDecoder: Decoder {
    let value: DataValue
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let members) = value else { throw DataValueDecoding.mismatch("an object", value, codingPath) }
        return KeyedDecodingContainer(KeyedDataDecoder<Key>(members: members, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let elements) = value else { throw DataValueDecoding.mismatch("an array", value, codingPath) }
        return UnkeyedDataDecoder(elements: elements, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        SingleDataDecoder(value: value, codingPath: codingPath)
    }
}

struct SingleDataDecoder: SingleValueDecodingContainer {
    let value: DataValue
    let codingPath: [any CodingKey]

    func decodeNil() -> Bool { value == .null || value == .undefined }

    func decode(_ type: Bool.Type) throws -> Bool {
        guard case .boolean(let b) = value else { throw DataValueDecoding.mismatch("a boolean", value, codingPath) }
        return b
    }

    func decode(_ type: String.Type) throws -> String {
        guard case .string(let s) = value else { throw DataValueDecoding.mismatch("a string", value, codingPath) }
        return s
    }

    func decode(_ type: Double.Type) throws -> Double {
        guard case .number(let n) = value else { throw DataValueDecoding.mismatch("a number", value, codingPath) }
        return n
    }

    func decode(_ type: Float.Type) throws -> Float { Float(try decode(Double.self)) }

    /// A number that is exactly an integer of type `I`.
    private func integer<I: FixedWidthInteger>(_ type: I.Type) throws -> I {
        guard case .number(let n) = value else { throw DataValueDecoding.mismatch("an integer", value, codingPath) }
        guard let i = I(exactly: n) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: codingPath, debugDescription: "the number \(n) is not \(I.self)'s (an integer in its range)"))
        }
        return i
    }

    func decode(_ type: Int.Type) throws -> Int { try integer(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try integer(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try integer(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try integer(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try integer(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try integer(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try DataValueDecoding.unbox(type, from: value, path: codingPath) }
}

struct KeyedDataDecoder<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let members: DataObject
    let codingPath: [any CodingKey]

    var allKeys: [Key] { members.keys.compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool { members[key.stringValue] != nil }

    /// The single-value container of the member `key`: every primitive goes through it.
    private func slot(_ key: Key) throws -> SingleDataDecoder {
        guard let v = members[key.stringValue] else {
            throw DecodingError.keyNotFound(
                key, .init(codingPath: codingPath, debugDescription: "the member '\(key.stringValue)' is missing"))
        }
        return SingleDataDecoder(value: v, codingPath: codingPath + [key])
    }

    func decodeNil(forKey key: Key) throws -> Bool { try slot(key).decodeNil() }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try slot(key).decode(type) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try slot(key).decode(type) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try slot(key).decode(type) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try slot(key).decode(type) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try slot(key).decode(type) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try slot(key).decode(type) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try slot(key).decode(type) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try slot(key).decode(type) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try slot(key).decode(type) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try slot(key).decode(type) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try slot(key).decode(type) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try slot(key).decode(type) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try slot(key).decode(type) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try slot(key).decode(type) }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try slot(key).decode(type) }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        let s = try slot(key)
        return try DataValueDecoder(value: s.value, codingPath: s.codingPath).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        let s = try slot(key)
        return try DataValueDecoder(value: s.value, codingPath: s.codingPath).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        DataValueDecoder(value: members["super"] ?? .null, codingPath: codingPath)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        let s = try slot(key)
        return DataValueDecoder(value: s.value, codingPath: s.codingPath)
    }
}

struct UnkeyedDataDecoder: UnkeyedDecodingContainer {
    let elements: [DataValue]
    let codingPath: [any CodingKey]
    private(set) var currentIndex = 0

    init(elements: [DataValue], codingPath: [any CodingKey]) {
        self.elements = elements
        self.codingPath = codingPath
    }

    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    /// The single-value container of the next element, moving past it: every primitive goes through it.
    private mutating func next() throws -> SingleDataDecoder {
        let path = codingPath + [IndexKey(currentIndex)]
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(
                Any.self, .init(codingPath: path, debugDescription: "the array has only \(elements.count) elements"))
        }
        defer { currentIndex += 1 }
        return SingleDataDecoder(value: elements[currentIndex], codingPath: path)
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, elements[currentIndex] == .null || elements[currentIndex] == .undefined else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try next().decode(type) }
    mutating func decode(_ type: String.Type) throws -> String { try next().decode(type) }
    mutating func decode(_ type: Double.Type) throws -> Double { try next().decode(type) }
    mutating func decode(_ type: Float.Type) throws -> Float { try next().decode(type) }
    mutating func decode(_ type: Int.Type) throws -> Int { try next().decode(type) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try next().decode(type) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try next().decode(type) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try next().decode(type) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try next().decode(type) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try next().decode(type) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try next().decode(type) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try next().decode(type) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try next().decode(type) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try next().decode(type) }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try next().decode(type) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        let s = try next()
        return try DataValueDecoder(value: s.value, codingPath: s.codingPath).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let s = try next()
        return try DataValueDecoder(value: s.value, codingPath: s.codingPath).unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder {
        let s = try next()
        return DataValueDecoder(value: s.value, codingPath: s.codingPath)
    }
}
