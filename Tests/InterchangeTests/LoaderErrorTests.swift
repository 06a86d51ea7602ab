import Foundation
import Statechart
import Testing

@testable import StatechartInterchange

@Suite("SCXML loader errors")
struct LoaderErrorTests {
    @Test(
        "every element that needs a data model is refused under the null one, by name and line",
        arguments: ["datamodel", "data", "assign", "script", "foreach", "param", "content", "donedata"])
    func unsupportedElement(_ name: String) throws {
        let xml = document("<state id=\"s\">\n  <\(name)/>\n</state>", rootAttributes: " datamodel=\"null\"")
        let reason = try #require(SCXMLSchema.unsupportedElements[name] ?? SCXMLSchema.nullDataModelRefusals[name])
        #expect(loadError(xml) == .unsupportedElement(name, line: 3, reason: reason))
        #expect(loadError(xml)?.description.contains("<\(name)> at line 3 is unsupported") == true)
    }

    @Test func nullDataModelConditionsInIfAreInOnly() {
        let xml = document(
            "<state id=\"s\">\n  <onentry>\n    <if cond=\"x &gt; 1\"><raise event=\"e\"/></if>\n  </onentry>\n</state>", rootAttributes: " datamodel=\"null\"")
        #expect(loadError(xml) == .unsupportedExpression("x > 1", attribute: "cond", element: "if", line: 4))
    }

    @Test func unknownElementInTheSCXMLNamespace() {
        #expect(loadError(document("<state id=\"s\">\n  <sparkle/>\n</state>")) == .unknownElement("sparkle", line: 3))
    }

    @Test(
        "elements in the wrong place",
        arguments: [
            ("<transition event=\"t\" target=\"a\"/>", "transition", "scxml", 2),
            ("<parallel id=\"p\">\n  <final id=\"f\"/>\n</parallel>", "final", "parallel", 3),
            (
                "<parallel id=\"p\">\n  <initial><transition target=\"a\"/></initial>\n</parallel>", "initial",
                "parallel", 3
            ),
            ("<state id=\"a\">\n  <raise event=\"e\"/>\n</state>", "raise", "state", 3),
            ("<state id=\"a\">\n  <onentry><state id=\"b\"/></onentry>\n</state>", "state", "onentry", 3),
            ("<final id=\"f\">\n  <transition target=\"f\"/>\n</final>", "transition", "final", 3),
            ("<state id=\"a\">\n  <scxml/>\n</state>", "scxml", "state", 3),
        ])
    func misplaced(_ body: String, _ element: String, _ parent: String, _ line: Int) {
        #expect(loadError(document(body)) == .misplacedElement(element, parent: parent, line: line))
    }

    @Test func unsupportedAttribute() {
        let xml = document("<state id=\"a\" colour=\"red\"/>")
        #expect(loadError(xml) == .unsupportedAttribute("colour", element: "state", line: 2))
        #expect(
            loadError(document("<parallel id=\"p\" initial=\"a\"><state id=\"a\"/></parallel>"))
                == .unsupportedAttribute("initial", element: "parallel", line: 2))
    }

    @Test(
        "expression attributes are refused: the null data model has no expressions",
        arguments: [
            ("<send eventexpr=\"'e'\"/>", "eventexpr", "'e'", "send"),
            ("<send event=\"e\" delayexpr=\"'1s'\"/>", "delayexpr", "'1s'", "send"),
            ("<send event=\"e\" targetexpr=\"t\"/>", "targetexpr", "t", "send"),
            ("<send event=\"e\" typeexpr=\"t\"/>", "typeexpr", "t", "send"),
            ("<send event=\"e\" idlocation=\"x\"/>", "idlocation", "x", "send"),
            ("<send event=\"e\" namelist=\"a b\"/>", "namelist", "a b", "send"),
            ("<cancel sendidexpr=\"x\"/>", "sendidexpr", "x", "cancel"),
            ("<log label=\"l\" expr=\"greeting\"/>", "expr", "greeting", "log"),
            ("<log label=\"l\" expr=\"'it\\'s'\"/>", "expr", "'it\\'s'", "log"),
        ])
    func expressionAttribute(_ content: String, _ attribute: String, _ value: String, _ element: String) {
        let xml = document("<state id=\"a\">\n  <onentry>\n    \(content)\n  </onentry>\n</state>", rootAttributes: " datamodel=\"null\"")
        #expect(loadError(xml) == .unsupportedExpression(value, attribute: attribute, element: element, line: 4))
    }

    @Test(
        "conditions other than In() and logic are refused",
        arguments: [
            "x > 1", "In(a)", "In('a') &amp; In('b')", "In('a') ||", "(In('a')", "In('a'))", "foo()", "",
            "In('a') In('b')", "!", "_predicate()",
        ])
    func unsupportedCondition(_ cond: String) {
        let xml = document("<state id=\"a\">\n  <transition cond=\"\(cond)\" target=\"a\"/>\n</state>", rootAttributes: " datamodel=\"null\"")
        let expected = cond.replacingOccurrences(of: "&amp;", with: "&")
        #expect(loadError(xml) == .unsupportedExpression(expected, attribute: "cond", element: "transition", line: 3))
    }

    @Test(
        "invalid attribute values",
        arguments: [
            ("<history id=\"h\" type=\"medium\"/>", "type", "history"),
            ("<transition type=\"sideways\" target=\"a\"/>", "type", "transition"),
            ("<transition event=\"\" target=\"a\"/>", "event", "transition"),
            ("<transition event=\"t\" target=\" \"/>", "target", "transition"),
            ("<onentry><send event=\"e\" target=\"http://example.com/inbox\"/></onentry>", "target", "send"),
            ("<onentry><send event=\"e\" type=\"http://example.com/io\"/></onentry>", "type", "send"),
            ("<onentry><send event=\"e\" delay=\"5\"/></onentry>", "delay", "send"),
            ("<onentry><send event=\"e\" delay=\"1min\"/></onentry>", "delay", "send"),
            ("<onentry><raise event=\"a b\"/></onentry>", "event", "raise"),
            ("<onentry><raise event=\"a.*\"/></onentry>", "event", "raise"),
            ("<state id=\"\"/>", "id", "state"),
        ])
    func invalidValue(_ content: String, _ attribute: String, _ element: String) throws {
        let xml = document("<state id=\"a\">\n  \(content)\n  <state id=\"a1\"/>\n</state>")
        let error = try #require(loadError(xml))
        guard case .invalidAttributeValue(_, let a, let e, let line, _) = error else {
            Issue.record("unexpected \(error)")
            return
        }
        #expect(a == attribute)
        #expect(e == element)
        #expect(line == 3)
    }

    @Test func rootAttributeValues() {
        #expect(loadError(document("<state id=\"a\"/>", rootAttributes: " initial=\"\""))?.line == 1)
        let version = "<scxml xmlns=\"http://www.w3.org/2005/07/scxml\" version=\"2.0\"><state id=\"a\"/></scxml>"
        guard case .invalidAttributeValue("2.0", "version", "scxml", 1, _)? = loadError(version) else {
            Issue.record("version 2.0 accepted")
            return
        }
    }

    @Test func missingAttributes() {
        #expect(
            loadError(document("<state id=\"a\">\n  <onentry><raise/></onentry>\n</state>"))
                == .missingAttribute("event", element: "raise", line: 3))
        #expect(
            loadError(document("<state id=\"a\">\n  <onexit><cancel/></onexit>\n</state>"))
                == .missingAttribute("sendid", element: "cancel", line: 3))
        #expect(
            loadError(document("<state id=\"a\">\n  <onexit><send/></onexit>\n</state>"))
                == .missingAttribute("event", element: "send", line: 3))
        #expect(
            loadError(document("<state id=\"a\">\n  <onexit><send type=\"scxml\" target=\"#_internal\"/></onexit>\n</state>"))
                == .missingAttribute("event", element: "send", line: 3))
        let initial = document(
            "<state id=\"a\">\n  <initial>\n    <transition/>\n  </initial>\n  <state id=\"b\"/>\n</state>")
        #expect(loadError(initial) == .missingAttribute("target", element: "transition", line: 4))
    }

    @Test func structuralRules() throws {
        let both = document(
            "<state id=\"a\" initial=\"b\">\n  <initial><transition target=\"b\"/></initial>\n  <state id=\"b\"/>\n</state>"
        )
        #expect(loadError(both)?.element == "state")
        let twoInitials = document(
            "<state id=\"a\">\n  <initial><transition target=\"b\"/></initial>\n  <initial><transition target=\"b\"/></initial>\n  <state id=\"b\"/>\n</state>"
        )
        #expect(loadError(twoInitials)?.line == 4)
        let eventInInitial = document(
            "<state id=\"a\">\n  <initial><transition event=\"e\" target=\"b\"/></initial>\n  <state id=\"b\"/>\n</state>"
        )
        #expect(loadError(eventInInitial)?.element == "transition")
        let emptyInitial = document("<state id=\"a\">\n  <initial/>\n  <state id=\"b\"/>\n</state>")
        #expect(loadError(emptyInitial)?.element == "initial")
        let history = document(
            "<state id=\"a\">\n  <history id=\"h\">\n    <transition target=\"b\"/>\n    <transition target=\"b\"/>\n  </history>\n  <state id=\"b\"/>\n</state>"
        )
        #expect(loadError(history)?.line == 5)
    }

    @Test func unknownTargetNamesTheTransitionAndItsLine() throws {
        let xml = document("<state id=\"a\">\n  <transition event=\"t\" target=\"nowhere\"/>\n</state>")
        let error = try #require(loadError(xml))
        #expect(
            error
                == .invalidChart(
                    .unknownTarget("nowhere", from: "a", location: SourceLocation(line: 3, column: 3)),
                    element: "transition", line: 3))
        #expect(error.description.contains("<transition> at line 3"))
        #expect(error.description.contains("nowhere"))
    }

    @Test func aFileThatDoesNotCompileIsReadAgainToNameTheElement() throws {
        // `load(contentsOf:)` releases the file's bytes once their tree is read, and reads the
        // file again for the element an error points at.
        let xml = document("<state id=\"a\">\n  <transition event=\"t\" target=\"nowhere\"/>\n</state>")
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("reread-\(UUID().uuidString).scxml")
        try Data(xml.utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        #expect {
            try SCXMLDocument.load(contentsOf: url)
        } throws: { error in
            (error as? SCXMLError) == loadError(xml) && (error as? SCXMLError)?.element == "transition"
        }
        // Read again only if the file still has the loaded bytes: changed, it names no element.
        let fingerprint = DocumentFingerprint(Data(xml.utf8))
        #expect(try SCXMLDocument.treeAgain(url, as: fingerprint, limits: .default)?.elements[2].name == "transition")
        try Data(xml.replacingOccurrences(of: "nowhere", with: "elsewhere").utf8).write(to: url)
        #expect(try SCXMLDocument.treeAgain(url, as: fingerprint, limits: .default) == nil)
        try? FileManager.default.removeItem(at: url)
        #expect(try SCXMLDocument.treeAgain(url, as: fingerprint, limits: .default) == nil)
    }

    @Test func fingerprintsTellEveryByteAndTheSize() {
        let bytes = Array("<scxml version=\"1.0\"><state id=\"a\"/></scxml>\n".utf8)  // not a multiple of 8
        let original = DocumentFingerprint(Data(bytes))
        #expect(DocumentFingerprint(Data(bytes)) == original)
        for i in [0, 7, 8, bytes.count / 2, bytes.count - 1] {
            var changed = bytes
            changed[i] ^= 0x20
            #expect(DocumentFingerprint(Data(changed)) != original, "byte \(i)")
        }
        #expect(DocumentFingerprint(Data(bytes.dropLast())) != original)
        #expect(DocumentFingerprint(Data(bytes + [0])) != original)
    }

    @Test func aMultiLineStartTagIsReportedAtItsFirstLine() {
        let xml = document("<state id=\"a\">\n  <transition\n      event=\"t\"\n      target=\"nowhere\"/>\n</state>")
        #expect(loadError(xml)?.line == 3)
        let cond = document(
            "<state id=\"a\">\n  <transition event=\"t\"\n      cond=\"x\"\n      target=\"a\"/>\n</state>", rootAttributes: " datamodel=\"null\"")
        #expect(loadError(cond)?.line == 3)
    }

    @Test func otherChartErrorsCarryTheirLine() {
        let duplicate = document("<state id=\"a\"/>\n<state id=\"a\"/>")
        #expect(loadError(duplicate)?.line == 3)
        #expect(loadError(duplicate)?.element == "state")
        let badIn = document("<state id=\"a\">\n  <transition cond=\"In('ghost')\" target=\"a\"/>\n</state>")
        #expect(loadError(badIn)?.line == 3)
        let badInitial = document("<state id=\"a\" initial=\"b\">\n  <state id=\"c\"/>\n</state>\n<state id=\"b\"/>")
        #expect(loadError(badInitial)?.line == 2)
        guard
            case .invalidChart(.missingInitialState, _, _)? = loadError(
                "<scxml xmlns=\"http://www.w3.org/2005/07/scxml\"/>")
        else {
            Issue.record("an empty <scxml> loaded")
            return
        }
    }

    @Test func textWhereNoneIsAllowed() {
        #expect(
            loadError(document("<state id=\"a\">\n  hello\n</state>")) == .unexpectedText(element: "state", line: 3))
        #expect(loadError(document("<state id=\"a\"><![CDATA[x]]></state>"))?.element == "state")
    }
}
