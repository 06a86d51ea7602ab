import Foundation
import Statechart
import StatechartInterchange
import Testing

/// Charts saved by other tools load unchanged (issue 7 §6): Qt Creator's SCXML editor writes
/// `qt:editorinfo` elements and `qt:` attributes, `name` and `binding`, states without an id,
/// dotted ids and non-ASCII event names.
@Suite("Charts from other tools")
struct QtCreatorChartTests {
    static let qtChart = """
        <?xml version="1.0" encoding="UTF-8"?>
        <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" binding="early" \
        xmlns:qt="http://www.qt.io/2015/02/scxml-ext" name="Tür" qt:editorversion="4.8.0" initial="geschlossen">
            <qt:editorinfo initialGeometry="97.45;-72.33;-20;-20;40;40"/>
            <state id="geschlossen">
                <qt:editorinfo scenegeometry="97.45;24.55;37.45;-25.45;120;100" geometry="97.45;24.55;-60;-50;120;100"/>
                <transition type="external" event="öffnen" target="offen.angelehnt">
                    <qt:editorinfo endTargetFactors="35.67;52.71"/>
                </transition>
            </state>
            <state id="offen" qt:color="#ff0000">
                <qt:editorinfo scenegeometry="315.93;24.55;255.93;-25.45;120;100" geometry="315.93;24.55;-60;-50;120;100"/>
                <state id="offen.angelehnt">
                    <transition event="aufstoßen" target="weit"/>
                </state>
                <state>
                    <qt:editorinfo geometry="0;0;-60;-50;120;100"/>
                </state>
                <state id="weit"/>
                <transition type="external" event="schließen" target="geschlossen"/>
            </state>
        </scxml>
        """

    @Test("a chart written the way Qt Creator writes one loads and runs")
    func qtChartRuns() throws {
        let chart = try SCXMLDocument.load(string: Self.qtChart)
        var m = ChartInstance(chart: chart, context: SCXMLContext())
        try m.start()
        #expect(m.activeAtomicIDs == ["geschlossen"])
        #expect(try m.send("öffnen"))
        #expect(m.activeAtomicIDs == ["offen.angelehnt"])
        #expect(try m.send("aufstoßen"))
        #expect(m.activeAtomicIDs == ["weit"])
        #expect(try m.send("schließen"))
        #expect(m.activeAtomicIDs == ["geschlossen"])
    }

    @Test("an anonymous state gets a generated id that is stable across loads")
    func anonymousStateID() throws {
        let first = try SCXMLDocument.load(string: Self.qtChart)
        let second = try SCXMLDocument.load(string: Self.qtChart)
        let anonymous = first.ids.filter { !$0.isEmpty && !["geschlossen", "offen", "offen.angelehnt", "weit"].contains($0) }
        #expect(anonymous.count == 1)
        #expect(first.ids == second.ids)
    }

    @Test("a misspelt element of the SCXML namespace is an error naming it and its line")
    func misspeltElement() throws {
        let broken = Self.qtChart.replacingOccurrences(of: "<transition event=\"aufstoßen\" target=\"weit\"/>", with: "<trasition event=\"aufstoßen\" target=\"weit\"/>")
        do {
            _ = try SCXMLDocument.load(string: broken)
            Issue.record("expected an error")
        } catch {
            #expect(error.description.contains("trasition"))
            #expect(error.description.contains("line 13"))
        }
    }
}
