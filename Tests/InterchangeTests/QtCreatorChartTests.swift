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

    // MARK: - Round trip of foreign content (§6: "the exporter keeps it on a round trip")

    /// The lines of the Qt chart that belong to Qt's namespace, trimmed: each must come back byte for byte.
    static var qtFragments: [String] {
        qtChart.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { $0.hasPrefix("<qt:") }
    }

    @Test("export keeps qt:editorinfo elements and qt: attributes on the elements they were on")
    func foreignContentRoundTrips() throws {
        let loaded = try SCXMLDocument.loadDocument(string: Self.qtChart)
        let foreign = loaded.foreignContent
        #expect(foreign[.root].attributes.map(\.text) == [#"qt:editorversion="4.8.0""#])
        #expect(foreign[.root].namespaceDeclarations == [.init(prefix: "qt", uri: "http://www.qt.io/2015/02/scxml-ext")])
        #expect(foreign[.state("offen")].attributes.map(\.text) == [##"qt:color="#ff0000""##])
        #expect(foreign[.transition(state: "geschlossen", index: 0)].elements.map(\.text) == [#"<qt:editorinfo endTargetFactors="35.67;52.71"/>"#])
        #expect(foreign[.state("weit")].isEmpty)

        let exported = SCXMLExporter.export(loaded.chart, foreignContent: foreign)
        let lines = exported.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(Self.qtFragments.count == 5)
        for fragment in Self.qtFragments { #expect(lines.contains(fragment), "\(fragment) is missing") }
        #expect(exported.contains(#"xmlns:qt="http://www.qt.io/2015/02/scxml-ext" qt:editorversion="4.8.0">"#))
        #expect(exported.contains(##"<state id="offen" qt:color="#ff0000">"##))
        // Each fragment is still inside its element: the transition's stays between its tags.
        #expect(
            exported.contains(
                """
                    <transition event="öffnen" target="offen.angelehnt">
                      <qt:editorinfo endTargetFactors="35.67;52.71"/>
                    </transition>
                """))

        let reloaded = try SCXMLDocument.loadDocument(string: exported)
        #expect(reloaded.foreignContent == foreign)
        #expect(ChartShape(reloaded.chart) == ChartShape(loaded.chart))
        #expect(SCXMLExporter.export(reloaded.chart, foreignContent: reloaded.foreignContent) == exported)
        let inputs = ["öffnen", "aufstoßen", "schließen", "öffnen"]
        #expect(try configurations(reloaded.chart, inputs) == configurations(loaded.chart, inputs))
    }

    @Test("foreign content on every kind of element, and the namespace declarations it needs")
    func foreignContentEverywhere() throws {
        let xml = """
            <sc:scxml xmlns:sc="http://www.w3.org/2005/07/scxml" xmlns:e="urn:editor" version="1.0" e:a='single "quoted"'>
              <sc:state id="s" xmlns:f="urn:f" f:x="1">
                <meta kind="no namespace"/>
                <sc:initial e:i="1"><e:note>initial</e:note><sc:transition target="p"/></sc:initial>
                <sc:onentry e:n="0"><sc:raise event="r" e:k="v"/><e:x/></sc:onentry>
                <sc:parallel id="p">
                  <f:geometry><f:rect w="1"/><!-- a comment --><![CDATA[<not an element>]]></f:geometry>
                  <sc:state id="r1"><sc:history id="h" type="deep"><sc:transition target="r1a"><e:d/></sc:transition></sc:history><sc:state id="r1a"/></sc:state>
                  <sc:state id="r2"/>
                </sc:parallel>
                <sc:transition event="go" target="done" e:t="t"><sc:log label="l" e:l="l"/></sc:transition>
              </sc:state>
              <sc:final id="done"><g:x xmlns:g="urn:g"/></sc:final>
            </sc:scxml>
            """
        let loaded = try SCXMLDocument.loadDocument(string: xml)
        let f = loaded.foreignContent
        #expect(f[.root].attributes.map(\.text) == [#"e:a='single "quoted"'"#])
        #expect(f[.state("s")].namespaceDeclarations == [.init(prefix: "f", uri: "urn:f")])
        #expect(f[.state("s")].attributes.map(\.text) == [#"f:x="1""#])
        #expect(f[.state("s")].elements == [.init(text: #"<meta kind="no namespace"/>"#, namespaces: [.init(prefix: "", uri: "")])])
        #expect(f[.initial(of: "s")].attributes.map(\.text) == [#"e:i="1""#])
        #expect(f[.initial(of: "s")].elements.map(\.text) == ["<e:note>initial</e:note>"])
        #expect(f[.onEntry(state: "s", index: 0)].elements.map(\.text) == ["<e:x/>"])
        #expect(f[.action(in: .onEntry(state: "s", index: 0), index: 0)].attributes.map(\.text) == [#"e:k="v""#])
        #expect(
            f[.state("p")].elements
                == [
                    .init(
                        text: #"<f:geometry><f:rect w="1"/><!-- a comment --><![CDATA[<not an element>]]></f:geometry>"#,
                        namespaces: [.init(prefix: "f", uri: "urn:f")])
                ])
        #expect(f[.defaultTransition(of: "h")].elements.map(\.text) == ["<e:d/>"])
        #expect(f[.transition(state: "s", index: 0)].attributes.map(\.text) == [#"e:t="t""#])
        #expect(f[.action(in: .transition(state: "s", index: 0), index: 0)].attributes.map(\.text) == [#"e:l="l""#])
        #expect(f[.state("done")].elements.map(\.text) == [#"<g:x xmlns:g="urn:g"/>"#])

        let exported = SCXMLExporter.export(loaded.chart, foreignContent: f)
        // The element in no namespace undeclares the exported default namespace (SCXML's).
        #expect(exported.contains(#"<meta xmlns="" kind="no namespace"/>"#))
        // `<initial>` stays an element (not an `initial` attribute) so that its content has a place.
        #expect(exported.contains(#"<initial e:i="1">"#))
        // A fragment whose prefix an ancestor state declares needs no declaration of its own.
        #expect(exported.contains(#"<f:geometry><f:rect w="1"/>"#))
        let reloaded = try SCXMLDocument.loadDocument(string: exported)
        // The same content, but for the declaration that the element in no namespace now carries.
        var expected = f
        expected[.state("s")].elements = [.init(text: #"<meta xmlns="" kind="no namespace"/>"#)]
        #expect(reloaded.foreignContent == expected)
        #expect(ChartShape(reloaded.chart) == ChartShape(loaded.chart))
        #expect(SCXMLExporter.export(reloaded.chart, foreignContent: reloaded.foreignContent) == exported)
    }

    @Test("a chart without foreign content exports as before")
    func noForeignContent() throws {
        let xml = document(#"<state id="a"><transition event="t" target="b"/></state><state id="b"/>"#)
        let loaded = try SCXMLDocument.loadDocument(string: xml)
        #expect(loaded.foreignContent.isEmpty)
        #expect(SCXMLExporter.export(loaded.chart, foreignContent: loaded.foreignContent) == SCXMLExporter.export(loaded.chart))
    }

    @Test("statechart export FILE --format scxml keeps the Qt Creator annotations")
    func exportCommandKeepsForeignContent() throws {
        let cli = CommandLineTests()
        let dir = try cli.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("door.scxml")
        try Self.qtChart.write(to: file, atomically: true, encoding: .utf8)
        let r = try cli.run(["export", file.path, "--format", "scxml"])
        #expect(r.status == 0, "\(r.stderr)")
        let loaded = try SCXMLDocument.loadDocument(string: Self.qtChart)
        #expect(r.stdout == SCXMLExporter.export(loaded.chart, foreignContent: loaded.foreignContent))
        for fragment in Self.qtFragments { #expect(r.stdout.contains(fragment)) }
        let exported = dir.appendingPathComponent("exported.scxml")
        try r.stdout.write(to: exported, atomically: true, encoding: .utf8)
        let again = try cli.run(["export", exported.path])
        #expect(again.stdout == r.stdout, "export is not a fixed point")
    }
}
