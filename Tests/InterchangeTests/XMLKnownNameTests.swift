import Foundation
import Testing

@testable import StatechartInterchange

/// The reader finds element kinds and attribute names from their bytes (`XMLNameTable`) instead
/// of making strings: these tests hold that lookup to the schema's names as strings.
@Suite("Known names found from bytes")
struct XMLKnownNameTests {
    static func bytes<T>(_ name: String, _ body: (UnsafeBufferPointer<UInt8>) -> T) -> T {
        Array(name.utf8).withUnsafeBufferPointer(body)
    }

    /// Every name of the schema, with its near misses: each prefix, each name with a byte added
    /// before or after or one byte changed, and the names with a prefix of their own.
    static var candidates: [String] {
        let known = SCXMLSchema.allowedChildren.keys.map { $0 } + SCXMLSchema.allowedAttributes.values.flatMap { $0 }
            + SCXMLSchema.expressionAttributes
        var all = Set(known)
        for name in known {
            for k in 0...name.count { all.insert(String(name.prefix(k))) }
            all.insert(name + "s")
            all.insert("x" + name)
            all.insert("s:" + name)
            all.insert(name.uppercased())
            all.insert(String(name.dropLast()) + "\u{E9}")
        }
        all.formUnion(["", "a", "transitionsxxxxxxxx", "autoforwardautoforward", "\u{212A}", "st\u{0}ate", "state\u{0}", "id\u{0}"])
        return all.sorted()
    }

    @Test("an element kind is found exactly for the names SCXML has")
    func elementKinds() {
        // The schema's element names, as strings, are what `find` and `init?(name:)` must agree
        // with: both read the one table, so comparing them with each other would prove nothing.
        let schema = Set(SCXMLSchema.allowedChildren.keys)
        #expect(Set(SCXMLElementKind.allCases.map(\.name)) == schema)
        for name in Self.candidates {
            // `find` reads names the scanner found, which never hold a zero byte; the string
            // initializer takes any string and refuses one.
            if !name.utf8.contains(0) {
                let found = Self.bytes(name) { SCXMLElementKind.find($0) }
                #expect(found?.name == (schema.contains(name) ? name : nil), "\(name)")
            }
            #expect(SCXMLElementKind(name: name)?.name == (schema.contains(name) ? name : nil), "\(name)")
        }
    }

    @Test("an attribute name is found exactly for the names SCXML's elements have")
    func attributeNames() {
        let schema = Set(SCXMLSchema.allowedAttributes.values.flatMap { $0 }).union(SCXMLSchema.expressionAttributes)
        #expect(Set(SCXMLAttributeName.allCases.map(\.name)) == schema)
        for name in Self.candidates {
            if !name.utf8.contains(0) {
                let found = Self.bytes(name) { SCXMLAttributeName.find($0) }
                #expect(found?.name == (schema.contains(name) ? name : nil), "\(name)")
            }
            #expect(SCXMLAttributeName(name)?.name == (schema.contains(name) ? name : nil), "\(name)")
        }
    }

    @Test("the masks by kind are the schema's lists")
    func masks() {
        let rules = SCXMLElementKind.rules
        for kind in SCXMLElementKind.allCases {
            for name in SCXMLAttributeName.allCases {
                #expect((rules.plainAttributeMask(of: kind) & name.bit != 0) == kind.plainAttributes.contains(name.name))
                #expect((rules.expressionAttributeMask(of: kind) & name.bit != 0) == kind.expressionAttributes.contains(name.name))
            }
        }
        for name in SCXMLAttributeName.allCases {
            #expect((rules.expressionAttributeNames & name.bit != 0) == SCXMLSchema.expressionAttributes.contains(name.name))
        }
    }

    /// The packing read byte by byte, as the word reads must give it.
    static func packedByBytes(_ bytes: [UInt8]) -> (low: UInt64, high: UInt64)? {
        guard !bytes.isEmpty, bytes.count <= 16 else { return nil }
        var low: UInt64 = 0
        var high: UInt64 = 0
        for (k, b) in bytes.enumerated() {
            if k < 8 { low |= UInt64(b) << UInt64(8 * k) } else { high |= UInt64(b) << UInt64(8 * (k - 8)) }
        }
        return (low, high)
    }

    @Test("a name is packed a word at a time exactly as byte by byte, at every length and offset")
    func packing() {
        var generator = SystemRandomNumberGenerator()
        // A buffer with bytes on both sides of each name: the word reads must not take them in.
        let buffer = (0..<64).map { _ in UInt8.random(in: 1...255, using: &generator) }
        buffer.withUnsafeBufferPointer { all in
            for length in 0...18 {
                for offset in 0...(all.count - length) where offset < 24 {
                    let name = UnsafeBufferPointer(rebasing: all[offset..<(offset + length)])
                    let packed = XMLPackedName(name)
                    let expected = Self.packedByBytes(Array(name))
                    #expect(packed?.low == expected?.low && packed?.high == expected?.high, "length \(length), offset \(offset)")
                }
            }
        }
    }

    @Test("bytes and end tags are counted sixteen at a time as one at a time, at lengths around the vector and block boundaries")
    func byteCount() {
        var generator = SystemRandomNumberGenerator()
        // Mostly the bytes counted, so that lanes pass 255 within a long buffer, and `</` pairs
        // across every lane and across the sixteen-byte boundaries.
        let alphabet = [UInt8(ascii: "<"), UInt8(ascii: "="), UInt8(ascii: "/"), UInt8(ascii: "a")]
        let buffer = (0..<9_000).map { _ in alphabet.randomElement(using: &generator)! }
        buffer.withUnsafeBufferPointer { all in
            for (offset, length) in [(0, 0), (0, 1), (0, 2), (3, 15), (1, 16), (5, 17), (2, 18), (7, 31), (4, 33), (0, 4_096), (9, 4_081), (2, 8_990)] {
                let part = UnsafeBufferPointer(rebasing: all[offset..<(offset + length)])
                let counted = XMLByteCount.count(UInt8(ascii: "<"), UInt8(ascii: "="), firstThen: UInt8(ascii: "/"), in: part)
                #expect(counted.first == part.count(where: { $0 == UInt8(ascii: "<") }), "\(offset), \(length)")
                #expect(counted.second == part.count(where: { $0 == UInt8(ascii: "=") }), "\(offset), \(length)")
                let pairs = part.indices.dropLast().count { part[$0] == UInt8(ascii: "<") && part[$0 + 1] == UInt8(ascii: "/") }
                #expect(counted.firstThenThird == pairs, "\(offset), \(length)")
            }
        }
        let same = [UInt8](repeating: UInt8(ascii: "<"), count: 5_000)
        same.withUnsafeBufferPointer {
            let counted = XMLByteCount.count(UInt8(ascii: "<"), UInt8(ascii: "<"), firstThen: UInt8(ascii: "<"), in: $0)
            #expect(counted == (5_000, 5_000, 4_999))
        }
        // A pair split by the buffer's end is not one: the byte after the buffer is not read,
        // whether the buffer's last `<` ends a vector (16, 32 bytes) or the bytes left after it.
        for length in [16, 17, 32, 33] {
            var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: length + 1)
            bytes[length - 1] = UInt8(ascii: "<")
            bytes[length] = UInt8(ascii: "/")
            bytes.withUnsafeBufferPointer { all in
                let part = UnsafeBufferPointer(rebasing: all[0..<length])
                #expect(XMLByteCount.count(UInt8(ascii: "<"), UInt8(ascii: "="), firstThen: UInt8(ascii: "/"), in: part) == (1, 0, 0), "\(length)")
            }
        }
    }

    @Test("the tables' names, written out, are the cases' names in raw-value order")
    func namesWrittenOut() {
        for kind in SCXMLElementKind.allCases { #expect(kind.name == "\(kind)") }
        for name in SCXMLAttributeName.allCases { #expect(name.name == "\(name)") }
        #expect(SCXMLElementKind.table.strings.count == SCXMLElementKind.allCases.count)
        #expect(SCXMLAttributeName.table.strings.count == SCXMLAttributeName.allCases.count)
    }

    @Test("an attribute written twice under one local name keeps the last value")
    func repeatedLocalName() throws {
        let xml = """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" xmlns:s="http://www.w3.org/2005/07/scxml" version="1.0">
              <state id="a" s:id="b"/>
            </scxml>
            """
        let tree = try XMLTreeReader.read(Data(xml.utf8))
        #expect(tree.elements[1].attributes["id"] == "b")
        #expect(tree.elements[1].attributes[.id] == "b")
        #expect(tree.elements[1].attributes.count == 1)
    }
}
