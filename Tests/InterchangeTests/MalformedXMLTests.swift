import Foundation
import Statechart
import Testing

@testable import StatechartInterchange

@Suite("Malformed documents, DTDs and namespaces")
struct MalformedXMLTests {
    static let ns = "xmlns=\"http://www.w3.org/2005/07/scxml\""

    @Test(
        "malformed XML is an error even where XMLParser returns true",
        arguments: [
            "<scxml \(ns)><state id=\"a\"></scxml>",
            "<scxml \(ns)>\n<state id=\"a\"/>",
            "<scxml \(ns)><state id=\"a\"/></scxml>junk",
            "<scxml \(ns)><state id=\"a\"/></scxml><scxml \(ns)/>",
            "<scxml \(ns)",
            "<scxml \(ns) version=1.0><state id=\"a\"/></scxml>",
            "<scxml \(ns)><state id=\"a\" id=\"b\"/></scxml>",
            "<scxml \(ns)><state id=\"&undefined;\"/></scxml>",
            "<scxml \(ns)><state id=\"a\"/></state>",
            "just text",
        ])
    func malformed(_ xml: String) {
        guard case .malformedXML? = loadError(xml) else {
            Issue.record("expected malformedXML, got \(String(describing: loadError(xml)))")
            return
        }
    }

    @Test("documents without a root", arguments: ["", "   \n  ", "<?xml version=\"1.0\"?>", "<!-- only a comment -->"])
    func noRoot(_ xml: String) {
        switch loadError(xml) {
        case .emptyDocument?, .malformedXML?: break
        case let other: Issue.record("expected an empty-document error, got \(String(describing: other))")
        }
    }

    @Test func theRootMustBeSCXMLInItsNamespace() {
        #expect(
            loadError("<statechart \(Self.ns)/>")
                == .notSCXML(root: "statechart", namespace: "http://www.w3.org/2005/07/scxml", line: 1))
        #expect(
            loadError("<scxml xmlns=\"urn:other\"><state id=\"a\"/></scxml>")
                == .notSCXML(root: "scxml", namespace: "urn:other", line: 1))
    }

    @Test func aRootWithoutNamespaceIsAccepted() throws {
        let chart = try SCXMLDocument.load(string: "<scxml version=\"1.0\"><state id=\"a\"/></scxml>")
        #expect(chart.state(withID: "a") != nil)
    }

    @Test(
        "a DOCTYPE is refused before parsing, so no entity is declared or resolved",
        arguments: [
            (
                "<?xml version=\"1.0\"?>\n<!DOCTYPE scxml [\n<!ENTITY x \"boom\">\n]>\n<scxml \(ns)><state id=\"&x;\"/></scxml>",
                2
            ),
            ("<!DOCTYPE scxml SYSTEM \"file:///etc/passwd\"><scxml \(ns)><state id=\"a\"/></scxml>", 1),
            (
                "<?xml version=\"1.0\"?>\n<!-- c -->\n<?pi x?>\n<!DOCTYPE scxml [<!ENTITY % p SYSTEM \"http://example.com/x\"> %p;]><scxml \(ns)/>",
                4
            ),
            ("\u{FEFF}<!DOCTYPE lol [<!ENTITY a \"aaaa\"><!ENTITY b \"&a;&a;&a;&a;\">]><scxml \(ns)>&b;</scxml>", 1),
        ])
    func doctype(_ xml: String, _ line: Int) {
        #expect(loadError(xml) == .documentTypeDeclaration(line: line))
    }

    @Test func utf16IsRefused() throws {
        let data = try #require("<scxml \(Self.ns)><state id=\"a\"/></scxml>".data(using: .utf16))
        #expect(throws: SCXMLError.self) { try SCXMLDocument.load(data: data) }
    }

    @Test func predefinedEntitiesAndCharacterReferencesWork() throws {
        let xml = document(
            "<state id=\"a&#x2D;b\">\n  <transition event=\"t&amp;\" cond=\"In('a&#45;b') &amp;&amp; !In('c')\" target=\"c\"/>\n</state>\n<state id=\"&#99;\"/>"
        )
        let chart = try SCXMLDocument.load(string: xml)
        #expect(chart.ids.contains("a-b"))
        #expect(try configurations(chart, ["t&"]) == [["a-b"], ["c"]])
    }

    @Test func elementsAndAttributesOfOtherNamespacesAreIgnored() throws {
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <scxml xmlns="http://www.w3.org/2005/07/scxml" xmlns:qt="http://www.qt.io/2015/02/scxml-ext"
                   xmlns:x="urn:example" version="1.0" name="Qt" qt:editorversion="4.8.0" initial="a">
                <qt:editorinfo initialGeometry="10;10;-20;-20;40;40"/>
                <state id="a" qt:colour="red">
                    <qt:editorinfo scenegeometry="1;2;3;4" geometry="1;2;3;4"/>
                    <x:annotation>free text, <x:datamodel/> and even <state id="hidden"/> are skipped</x:annotation>
                    <transition type="external" event="go" target="b" x:note="n">
                        <qt:editorinfo movePoint="1;2"/>
                    </transition>
                </state>
                <final id="b"/>
            </scxml>
            """
        let chart = try SCXMLDocument.load(string: xml)
        #expect(chart.name == "Qt")
        #expect(chart.ids == ["", "a", "b"])
        #expect(try configurations(chart, ["go"]) == [["a"], ["b"]])
    }

    @Test func prefixedSCXMLElementsAreSCXML() throws {
        let xml =
            "<s:scxml xmlns:s=\"http://www.w3.org/2005/07/scxml\" s:initial=\"b\"><s:state id=\"a\"/><s:state id=\"b\"/></s:scxml>"
        let chart = try SCXMLDocument.load(string: xml)
        #expect(try configurations(chart, []) == [["b"]])
    }

    @Test func deepNestingDoesNotRecurse() throws {
        let depth = 3000
        var xml = "<scxml \(Self.ns)>"
        for i in 0..<depth { xml += "<state id=\"s\(i)\">" }
        for _ in 0..<depth { xml += "</state>" }
        xml += "</scxml>"
        // libxml2 limits nesting itself (to 256 levels unless told otherwise): either outcome is fine,
        // as long as it is a value and not a crash.
        switch Result(catching: { () throws(SCXMLError) in try SCXMLDocument.load(string: xml) }) {
        case .success(let chart): #expect(chart.stateCount == depth + 1)
        case .failure(let error): #expect(error.line != nil)
        }
    }
}
