import Foundation
import Statechart
import StatechartECMAScript
import Testing

@testable import StatechartInterchange

/// The data model of a document that names none, the data of error events, and scenarios whose
/// charts raise execution errors (rule R82).
@Suite("SCXML data model defaults")
struct DataModelDefaultTests {
    static func run(_ body: String, root: String = "") throws -> [String] {
        var session = SCXMLSession(
            chart: try SCXMLDocument.load(string: "<scxml xmlns=\"http://www.w3.org/2005/07/scxml\" version=\"1.0\"\(root)>\n\(body)\n</scxml>"))
        try? session.start()
        return session.root.activeAtomicIDs
    }

    @Test("R82: without a datamodel attribute, a document that uses data runs under ECMAScript")
    func inferredECMAScript() throws {
        let body = """
            <datamodel><data id="x" expr="2"/></datamodel>
            <state id="s"><transition cond="x * 2 === 4" target="pass"/><transition target="fail"/></state>
            <final id="pass"/><final id="fail"/>
            """
        #expect(try Self.run(body) == ["pass"])
        // Said explicitly, the null data model still refuses the same document, by element and line.
        #expect(throws: SCXMLError.unsupportedElement(
            "datamodel", line: 2, reason: SCXMLSchema.nullDataModelRefusals["datamodel"] ?? "")) {
            _ = try Self.run(body, root: " datamodel=\"null\"")
        }
    }

    @Test("R82: without a datamodel attribute, a document with In() conditions only stays under the null one")
    func inferredNull() throws {
        let xml = """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0">
              <state id="s"><transition cond="In('s')" target="t"/></state><state id="t"/>
            </scxml>
            """
        let chart = try SCXMLDocument.load(string: xml)
        var instance = ChartInstance(chart: chart, context: SCXMLContext())
        try instance.start()
        #expect(instance.activeAtomicIDs == ["t"])
        #expect(instance.context.data == ECMAScriptDataModel())  // no session was ever made
    }

    @Test("R82: error.execution carries {tagname, line, column, reason} as _event.data")
    func errorEventData() throws {
        let body = """
            <state id="s">
              <onentry><log expr="nothing.here"/></onentry>
              <transition event="error.execution"
                cond="_event.data.tagname === 'log' &amp;&amp; _event.data.line === 3 &amp;&amp; _event.data.reason.indexOf('nothing') >= 0"
                target="pass"/>
              <transition event="*" target="fail"/>
            </state>
            <final id="pass"/><final id="fail"/>
            """
        #expect(try Self.run(body, root: " datamodel=\"ecmascript\"") == ["pass"])
    }

    @Test("R82: a scenario step passes with the execution errors it raised, and lists them")
    func scenarioExecutionErrors() throws {
        let chart = try SCXMLDocument.load(
            string: """
                <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="ecmascript">
                  <state id="s"><transition event="go" target="t"><assign location="x" expr="1"/></transition></state>
                  <state id="t"/>
                </scxml>
                """)
        let scenario = try JSONDecoder().decode(
            Scenario.self,
            from: Data(#"{"initialConfiguration": ["s"], "events": [{"event": {"name": "go"}, "nextConfiguration": ["t"]}]}"#.utf8))
        let result = ScenarioRunner.run(scenario, on: chart)
        #expect(result.passed)
        #expect(result.steps[1].executionErrors.count == 1)
        #expect(result.steps[1].executionErrors.first?.contains("<assign> at line 2") == true)
    }
}
