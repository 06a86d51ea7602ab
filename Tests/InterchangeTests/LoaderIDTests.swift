import Foundation
import Statechart
import Testing

@testable import StatechartInterchange

/// State ids are XML IDs, and every refusal of the loader has a line (rule R76).
@Suite("SCXML loader: ids and lines")
struct LoaderIDTests {
    @Test(
        "R76: a state id that is not an XML ID (an NCName) is refused with the id, the element and its line",
        arguments: [
            ("state", "1"), ("state", "1a"), ("parallel", "-p"), ("final", "a:b"), ("history", ".h"),
            ("state", "a/b"), ("state", "é#"),
        ])
    func notAnXMLID(_ element: String, _ id: String) throws {
        let body =
            element == "history"
            ? "<state id=\"s\">\n  <state id=\"x\"/>\n  <history id=\"\(id)\"/>\n</state>"
            : "<state id=\"s\"/>\n<\(element) id=\"\(id)\"/>"
        let line = element == "history" ? 4 : 3
        let error = try #require(loadError(document(body)))
        guard case .invalidAttributeValue(id, "id", element, line, _) = error else {
            Issue.record("expected the id '\(id)' refused at line \(line), got \(error)")
            return
        }
        #expect(error.description.contains("'\(id)' is not an XML ID"))
        #expect(error.line == line)
    }

    @Test(
        "R76: ids that are XML IDs load: letters of any script, digits after the first, '_', '-', '.'",
        arguments: ["a", "_1", "s1.b-c", "état", "状態", "a·b"])
    func xmlIDsLoad(_ id: String) throws {
        let chart = try SCXMLDocument.load(string: document("<state id=\"\(id)\"/>"))
        #expect(chart.state(withID: id) != nil)
    }

    @Test("R76: requiresXMLIDs off reads a document whose ids are not XML IDs")
    func lenientLoading() throws {
        let options = SCXMLLoadOptions(requiresXMLIDs: false)
        let chart = try SCXMLDocument.load(string: document("<state id=\"1\"/>"), options: options)
        #expect(chart.state(withID: "1") != nil)
    }

    @Test("R76: an <scxml> in no namespace with nothing to start in is refused at the line of <scxml>")
    func rootInNoNamespaceHasALine() throws {
        let xml = "<?xml version=\"1.0\"?>\n<scxml version=\"1.0\" xmlns:x=\"urn:x\">\n  <x:state id=\"a\"/>\n</scxml>"
        let error = try #require(loadError(xml))
        #expect(error.line == 2)
        #expect(error.element == "scxml")
        #expect(error.description.contains("<scxml> at line 2"))
    }

    @Test("R76: an empty <scxml> in the SCXML namespace is refused at its line too")
    func emptyRootHasALine() throws {
        let error = try #require(loadError("\n\n<scxml xmlns=\"http://www.w3.org/2005/07/scxml\" version=\"1.0\"/>"))
        guard case .invalidChart(.missingInitialState, "scxml", 3) = error else {
            Issue.record("expected missingInitialState at the <scxml> of line 3, got \(error)")
            return
        }
    }

    @Test("R76: a root whose prefix is not declared (so in no namespace) is refused at its line, in words")
    func undeclaredPrefix() throws {
        let xml = "<?xml version=\"1.0\"?>\n<sc:scxml version=\"1.0\">\n  <sc:state id=\"a\"/>\n</sc:scxml>"
        let error = try #require(loadError(xml))
        guard case .malformedXML(let message, let line) = error else {
            Issue.record("expected malformed XML, got \(error)")
            return
        }
        #expect(line == 2)
        #expect(message.contains("namespace prefix is not declared"))
    }
}
