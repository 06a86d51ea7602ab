import Foundation
import Statechart
import Testing

@testable import StatechartInterchange

/// The loader's own XML reader (`XMLScanner`, `XMLTreeBuilder`): what XML 1.0 and Namespaces in
/// XML require of a well-formed document, the normalizations it makes, and where it says a
/// problem is.
@Suite("The XML reader")
struct XMLReaderTests {
    static let ns = "xmlns=\"http://www.w3.org/2005/07/scxml\""

    func tree(_ xml: String) throws -> XMLTree { try XMLTreeReader.read(Data(xml.utf8)) }

    func failure(_ xml: String) -> SCXMLError? {
        do {
            _ = try XMLTreeReader.read(Data(xml.utf8))
            return nil
        } catch {
            return error
        }
    }

    @Test(
        "what is not well-formed is refused, with the line it is on",
        arguments: [
            ("<scxml \(ns)>\n<!-- a -- b -->\n</scxml>", 2),  // '--' inside a comment
            ("<scxml \(ns)>\n\n]]></scxml>", 3),  // ']]>' in text
            ("<scxml \(ns)><state id=\"a&#0;\"/></scxml>", 1),  // a reference to a character XML has not
            ("<scxml \(ns)><state id=\"a&#xD800;\"/></scxml>", 1),  // a surrogate
            ("<scxml \(ns)>\n<state id=\"a&b\"/></scxml>", 2),  // a bare '&'
            ("<scxml \(ns)><state id=\"a\" \n\nid2=\"<\"/></scxml>", 3),  // '<' in an attribute value
            ("<scxml \(ns)><state id=\"a\"/>\u{1}</scxml>", 1),  // a control character
            ("<scxml \(ns)>\n<p:state id=\"a\"/></scxml>", 2),  // an undeclared prefix
            ("<scxml \(ns) xmlns:p=\"\"><state id=\"a\"/></scxml>", 1),  // a prefix bound to no namespace
            ("<scxml \(ns) xmlns:a=\"u\" xmlns:b=\"u\"><state a:x=\"1\" b:x=\"2\"/></scxml>", 1),  // one expanded name twice
            ("<scxml \(ns)><a:b:c xmlns:a=\"u\"/></scxml>", 1),  // two colons
            ("<scxml \(ns) xmlns:xml=\"urn:other\"/>", 1),  // 'xml' rebound
            ("<scxml \(ns)>\n<?xml version=\"1.0\"?></scxml>", 2),  // a declaration not at the start
            ("<?xml version=\"2.0\"?><scxml \(ns)/>", 1),  // no such version
            ("<?xml encoding=\"UTF-8\"?><scxml \(ns)/>", 1),  // no version
            ("<scxml \(ns)>\n<state id='a\"/>\n", 2),  // an attribute value never closed (its line)
            ("<scxml \(ns)>\n<state id=\"a\">\n</scxml>", 3),  // the wrong end tag
            ("<scxml \(ns)>\n<state id=\"a\">\n", 3),  // an element never closed (reported at the end)
            ("<scxml \(ns)/>\n<!-- ok --> x", 2),  // text after the root
            ("<scxml \(ns)/>\n<![CDATA[x]]>", 2),  // CDATA after the root
        ])
    func refused(_ xml: String, _ line: Int) {
        guard case .malformedXML(_, let at)? = failure(xml) else {
            Issue.record("expected malformedXML for \(xml.debugDescription), got \(String(describing: failure(xml)))")
            return
        }
        #expect(at == line, "\(xml.debugDescription)")
    }

    @Test func bytesThatAreNotUTF8AreRefused() {
        for bad: [UInt8] in [[0xFF], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xEF, 0xBF, 0xBE], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82]] {
            let data = Data("<scxml \(Self.ns)><state id=\"a".utf8) + Data(bad) + Data("\"/></scxml>".utf8)
            #expect(throws: SCXMLError.self, "\(bad)") { try XMLTreeReader.read(data) }
        }
    }

    @Test func lineEndsAndAttributeWhiteSpaceAreNormalized() throws {
        let t = try tree("<scxml \(Self.ns)><script>a\r\nb\rc\n</script><state id=\"s\" label=\"x\r\ny\tz\n&#10;w\"/></scxml>")
        #expect(t.elements[1].text == "a\nb\nc\n")
        // Each white space character of a value becomes a space; a character reference stays what it names.
        #expect(t.elements[2].attributes["label"] == "x y z \nw")
    }

    @Test func referencesAndCDATAAreText() throws {
        let t = try tree("<scxml \(Self.ns)><script>&lt;&#x41;&#66;&amp;&apos;&quot;&gt;<![CDATA[<&\r\n>]]></script></scxml>")
        #expect(t.elements[1].text == "<AB&'\">" + "<&\n>")
    }

    @Test func locationsAreTheTagsLineAndColumnInCharacters() throws {
        let t = try tree("<scxml \(Self.ns)>\n  <state id=\"é\"/><state id=\"b\"/>\n\t<final\nid=\"f\"/></scxml>")
        #expect(t.elements.map(\.location) == [
            SourceLocation(line: 1, column: 1), SourceLocation(line: 2, column: 3), SourceLocation(line: 2, column: 18),
            SourceLocation(line: 3, column: 2),
        ])
    }

    @Test("children and parents read back as written, from the tree's one list, in 72 bytes an element")
    func childrenAndParents() throws {
        let t = try tree(
            "<scxml \(Self.ns)><state id=\"a\"><state id=\"a1\"/><state id=\"a2\"><final id=\"x\"/></state></state>"
                + "<state id=\"b\"/><final id=\"f\"/></scxml>")
        #expect(t.elements.map(\.parent) == [-1, 0, 1, 1, 3, 0, 0])
        #expect(t.elements.map { Array($0.children) } == [[1, 5, 6], [2, 3], [], [4], [], [], []])
        #expect(t.elements[0].children.reversed() == [6, 5, 1])
        #expect(t.elements[3].children.first == 4 && t.elements[2].children.isEmpty)
        // Issue 16, "Memory": a 1,000,000-state document has some three and a half million
        // elements (72 bytes each with the name in place).
        #expect(MemoryLayout<XMLElementNode>.stride <= 56)
    }

    @Test("more attributes than the tree's 32-bit bounds hold are refused, naming that bound and the element")
    func attributesBeyondTheCapAreRefused() throws {
        // The real cap is Int32.max attributes; a builder with a cap of 3 shows the refusal.
        let xml = "<scxml \(Self.ns) initial=\"a\">\n<state id=\"a\"/>\n<transition event=\"e\" target=\"a\"/></scxml>"
        func read(cap: Int) throws(SCXMLError) -> XMLTree {
            let bytes = Array(xml.utf8)
            return try bytes.withUnsafeBufferPointer { (utf8) throws(SCXMLError) in
                var builder = XMLTreeBuilder(scanner: XMLScanner(utf8), limits: .default, attributeCap: cap)
                return try builder.build()
            }
        }
        #expect(throws: SCXMLError.limitExceeded(.elements, limit: 3, element: "transition", line: 3)) { try read(cap: 3) }
        #expect(try read(cap: 5).elements.count == 3)
        #expect(XMLTreeBuilder.elementCap == Int(Int32.max))
    }

    @Test func namespacesDecideWhatIsSCXML() throws {
        let xml = """
            <s:scxml xmlns:s="http://www.w3.org/2005/07/scxml" xmlns:x="urn:x">
              <s:state id="a" s:initial="b" x:note="n"><x:anything><s:state id="hidden"/></x:anything></s:state>
              <state xmlns="http://www.w3.org/2005/07/scxml" id="c"/>
              <state xmlns="urn:other" id="d"/>
            </s:scxml>
            """
        let t = try tree(xml)
        #expect(t.elements.map(\.name) == ["scxml", "state", "state"])
        #expect(t.elements[1].attributes["initial"] == "b")
        #expect(t.elements[1].attributes["note"] == nil)
        #expect(t.elements[2].attributes["id"] == "c")
    }

    @Test("an element SCXML knows is named by its kind; one it does not know keeps the name it was read with, beside its text")
    func elementNamesAreTheKindsOrTheirOwn() throws {
        let t = try tree(
            "<scxml \(Self.ns)><state id=\"a\"><sparkle/><glow/></state><script>x = 1</script></scxml>")
        #expect(t.elements.map(\.name) == ["scxml", "state", "sparkle", "glow", "script"])
        #expect(t.elements.map(\.kind) == [.scxml, .state, nil, nil, .script])
        #expect(t.elements[4].text == "x = 1" && t.elements[4].name == "script")
        // Known elements without text or markup hold no box.
        #expect(t.elements[0].extras == nil && t.elements[1].extras == nil)
        // Text in an unknown element is refused by the name it was read with.
        #expect(throws: SCXMLError.unexpectedText(element: "sparkle", line: 1)) {
            try tree("<scxml \(Self.ns)><state id=\"a\"><sparkle>lit</sparkle></state></scxml>")
        }
    }

    @Test func markupIsKeptWithTheNamespacesInScope() throws {
        let xml = """
            <scxml \(Self.ns) xmlns:p="urn:p" datamodel="ecmascript"><datamodel><data id="d"><p:a q="1 &amp; 2"><b xmlns="urn:b">x&lt;y</b><c/></p:a></data></datamodel></scxml>
            """
        let t = try tree(xml)
        let data = try #require(t.elements.first { $0.name == "data" })
        #expect(data.markup == "<p:a xmlns:p=\"urn:p\" q=\"1 &amp; 2\"><b xmlns=\"urn:b\">x&lt;y</b><c></c></p:a>")
    }

    @Test func singleByteEncodingsAreReadAsTheyDeclare() throws {
        // 0xA1 is U+0104 in ISO-8859-2, U+00A1 in ISO-8859-1; 0xA4 is U+20AC in ISO-8859-15.
        for (encoding, expected) in [("ISO-8859-2", "\u{104}\u{A4}"), ("ISO-8859-1", "\u{A1}\u{A4}"), ("ISO-8859-15", "\u{A1}\u{20AC}")] {
            let data =
                Data("<?xml version=\"1.0\" encoding=\"\(encoding)\"?>\n<scxml \(Self.ns)><state id=\"a\" label=\"".utf8)
                + Data([0xA1, 0xA4]) + Data("\"/></scxml>".utf8)
            #expect(try XMLTreeReader.read(data).elements[1].attributes["label"] == expected, "\(encoding)")
        }
        let ascii = Data("<?xml version=\"1.0\" encoding=\"US-ASCII\"?>\n<scxml \(Self.ns)>\u{E9}</scxml>".utf8)
        #expect(throws: SCXMLError.self) { try XMLTreeReader.read(ascii) }
    }

    @Test func deepDocumentsDoNotRecurse() throws {
        let depth = 100_000
        let xml = "<scxml \(Self.ns)>" + String(repeating: "<x:a xmlns:x=\"urn:x\">", count: depth)
            + String(repeating: "</x:a>", count: depth) + "</scxml>"
        let t = try XMLTreeReader.read(Data(xml.utf8), limits: .unlimited)
        #expect(t.elements.count == 1)
    }

    @Test("the byte classes of the reader's ASCII paths are XML's classes for those bytes")
    func asciiByteClassesAreXMLs() {
        // XML 1.0's NameStartChar and NameChar below U+0080, written out.
        let letters = Array(UInt8(ascii: "a")...UInt8(ascii: "z")) + Array(UInt8(ascii: "A")...UInt8(ascii: "Z"))
        let nameStart = letters + [UInt8(ascii: "_"), UInt8(ascii: ":")]
        let nameChar = nameStart + Array(UInt8(ascii: "0")...UInt8(ascii: "9")) + [UInt8(ascii: "-"), UInt8(ascii: ".")]
        for value in 0...255 {
            let b = UInt8(value)
            let ascii = b < 0x80
            #expect(XMLCharacters.isASCIINameCharOtherThanColon(b) == (b != UInt8(ascii: ":") && nameChar.contains(b)), "\(b)")
            if ascii {
                #expect(XMLCharacters.isASCIINameStart(b) == nameStart.contains(b), "\(b)")
                #expect(XMLCharacters.isNameStart(UInt32(b)) == nameStart.contains(b), "\(b)")
                #expect(XMLCharacters.isNameChar(UInt32(b)) == nameChar.contains(b), "\(b)")
            }
            let meaningful: [UInt8] = [UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "<"), UInt8(ascii: "&")]
            #expect(XMLCharacters.isPlainValueByte(b) == (b >= 0x20 && ascii && !meaningful.contains(b)), "\(b)")
        }
    }

    @Test("names read to their last character, ASCII or not, and values to their own quote")
    func namesAndValuesEndWhereTheyEnd() throws {
        // Non-ASCII name characters after ASCII ones and before them, in element and attribute
        // names of another namespace, and a prefixed SCXML attribute after them.
        let t = try tree(
            "<scxml \(Self.ns) xmlns:o=\"urn:o\" xmlns:s=\"http://www.w3.org/2005/07/scxml\">"
                + "<o:a\u{E9}b-1.c\u{B7}d o:\u{E9}x=\"1\" s:initial=\"b\"/>"
                + "<state id=\"a\" o:n\u{E9}e_2=\"it's &quot;quoted&quot;\" s:initial=\"b\"><state id=\"b\"/></state>"
                + "<log label='say \"hi\"'/></scxml>")
        #expect(t.elements.map(\.name) == ["scxml", "state", "state", "log"])
        #expect(t.elements[1].attributes["initial"] == "b")
        #expect(t.elements[3].attributes["label"] == "say \"hi\"")
        // A name ends at the first byte that is no name character, and a colon counts once.
        #expect(failure("<scxml \(Self.ns)><state id=\"a\" a:b:c=\"1\"/></scxml>") != nil)
        #expect(failure("<scxml \(Self.ns)><state id=\"a\" :b=\"1\"/></scxml>") != nil)
        #expect(failure("<scxml \(Self.ns)><state id=\"a\" b:=\"1\"/></scxml>") != nil)
        #expect(failure("<scxml \(Self.ns)><state id=\"a\" 1b=\"1\"/></scxml>") != nil)
        #expect(failure("<scxml \(Self.ns)><state \u{E9}=\"1\"/></scxml>") == nil)
    }
}
