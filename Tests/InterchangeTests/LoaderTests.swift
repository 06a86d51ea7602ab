import Foundation
import Statechart
import Testing

@testable import StatechartInterchange

@Suite("SCXML loader")
struct LoaderTests {
    @Test func structureKindsAndInitialStates() throws {
        let xml = document(
            """
            <state id="top" initial="b">
              <history id="h" type="deep"><transition target="a"/></history>
              <state id="a"/>
              <state id="b"><state id="b1"/><final id="bf"/></state>
            </state>
            <parallel id="p"><state id="r1"/><state id="r2"/></parallel>
            <final id="done"/>
            """, rootAttributes: " name=\"kinds\" datamodel=\"ecmascript\" initial=\"p\"")
        let chart = try SCXMLDocument.load(string: xml)
        #expect(chart.name == "kinds")
        let kinds = chart.ids.indices.dropFirst().map { chart.kind(of: ChartStateID(Int32($0))) }
        #expect(chart.ids == ["", "top", "h", "a", "b", "b1", "bf", "p", "r1", "r2", "done"])
        #expect(
            kinds == [
                .compound, .deepHistory, .atomic, .compound, .atomic, .final, .parallel, .atomic, .atomic, .final,
            ])
        #expect(try configurations(chart, []) == [["r1", "r2"]])
        let top = try #require(chart.state(withID: "top"))
        #expect(chart.initialTransition(of: top)?.targets == [try #require(chart.state(withID: "b"))])
    }

    @Test func statesWithoutIDGetStableGeneratedIDs() throws {
        let xml = document("<state>\n  <state id=\"_state2\"/>\n  <final/>\n</state>\n<parallel><state/></parallel>")
        let a = try SCXMLDocument.load(string: xml)
        let b = try SCXMLDocument.load(string: xml)
        #expect(a.ids == b.ids)
        #expect(a.ids == ["", "_state1", "_state2", "_final3", "_parallel4", "_state5"])
        let clash = document("<state/>\n<state id=\"_state1\"/>")
        #expect(try SCXMLDocument.load(string: clash).ids == ["", "_state1_", "_state1"])
    }

    @Test func initialElementActionsRunAfterEntry() throws {
        let xml = document(
            """
            <state id="s">
              <onentry><log label="entry"/></onentry>
              <initial><transition target="s2"><log label="initial"/><raise event="go"/></transition></initial>
              <state id="s1"/>
              <state id="s2"><transition event="go" target="s1"/></state>
            </state>
            """)
        let chart = try SCXMLDocument.load(string: xml)
        var instance = ChartInstance(chart: chart, context: SCXMLContext())
        instance.isTracing = true
        try instance.start()
        #expect(instance.activeAtomicIDs == ["s1"])
        let logs = instance.trace.compactMap { step -> String? in
            if case .log(let m) = step { return m }
            return nil
        }
        #expect(logs == ["entry", "initial"])
    }

    @Test func transitionsKeepEventsTargetsTypeAndDocumentOrder() throws {
        let xml = document(
            """
            <state id="s">
              <transition event="a.* b. c" target="x y" type="internal"/>
              <transition event="*" cond="In('x')"/>
              <transition target="x"/>
              <parallel id="p"><state id="x"/><state id="y"/></parallel>
            </state>
            """)
        let chart = try SCXMLDocument.load(string: xml)
        let s = try #require(chart.state(withID: "s"))
        let ts = chart.transitions(of: s)
        #expect(ts.count == 3)
        #expect(ts[0].events == .names(["a", "b", "c"]))
        #expect(ts[0].targets.map { chart.id(of: $0) } == ["x", "y"])
        #expect(ts[0].kind == .internal)
        #expect(ts[0].location == SourceLocation(line: 3, column: 3))
        #expect(ts[1].events == .any)
        #expect(ts[1].guardCondition == .inState(try #require(chart.state(withID: "x"))))
        #expect(ts[1].targets.isEmpty)
        #expect(ts[2].events == nil)
        #expect(ts.map(\.ordinal) == [0, 1, 2])
    }

    /// The builder reads each distinct `event` and `cond` text once and shares the result
    /// (`SCXMLTextCache`): each transition must still get its own text's list and guard, an
    /// error must name the first transition that writes a bad text, and texts that differ only
    /// by canonical equivalence are read apart.
    @Test func repeatedEventListsAndConditionsAreReadOncePerText() throws {
        let xml = document(
            """
            <state id="s">
              <transition event="go" cond="In('x')" target="x"/>
              <transition event="go stop" cond="In('y')" target="y"/>
              <transition event="go" cond="In('y')" target="y"/>
              <transition event="go" cond="In('x')" target="x"/>
              <transition event="caf\u{E9}" target="x"/>
              <transition event="cafe\u{301}" target="y"/>
              <parallel id="p"><state id="x"/><state id="y"/></parallel>
            </state>
            """)
        let chart = try SCXMLDocument.load(string: xml)
        let s = try #require(chart.state(withID: "s"))
        let x = try #require(chart.state(withID: "x")), y = try #require(chart.state(withID: "y"))
        let ts = chart.transitions(of: s)
        #expect(ts.map(\.events) == [
            .names(["go"]), .names(["go", "stop"]), .names(["go"]), .names(["go"]),
            .names(["caf\u{E9}"]), .names(["cafe\u{301}"]),
        ])
        #expect(ts.prefix(4).map(\.guardCondition) == [.inState(x), .inState(y), .inState(y), .inState(x)])
        #expect(ts.map { $0.targets.map { chart.id(of: $0) } } == [["x"], ["y"], ["y"], ["x"], ["x"], ["y"]])
        // The two spellings of "café" are two event names: each list keeps its own scalars.
        let spellings = ts.suffix(2).map { t -> [Unicode.Scalar] in
            guard case .names(let names) = t.events else { return [] }
            return names.flatMap { Array($0.unicodeScalars) }
        }
        #expect(spellings == [Array("caf\u{E9}".unicodeScalars), Array("cafe\u{301}".unicodeScalars)])

        // A bad list is reported where it is first written, and only a good list is kept.
        let bad = document(
            """
            <state id="s">
              <transition event="go" target="s"/>
              <transition event="a..b" target="s"/>
              <transition event="a..b" target="s"/>
            </state>
            """)
        #expect {
            try SCXMLDocument.load(string: bad)
        } throws: { error in
            guard case SCXMLError.invalidAttributeValue(let value, let attribute, _, let line, _) = error else { return false }
            return value == "a..b" && attribute == "event" && line == 4
        }
    }

    @Test func executableContentBecomesActions() throws {
        let xml = document(
            """
            <state id="s">
              <onentry>
                <raise event="r"/>
                <send event="ext"/>
                <send event="later" delay="1.5s" id="timer"/>
                <send event="int" target="#_internal"/>
                <send event="intLater" target="#_internal" delay="10ms" type="http://www.w3.org/TR/scxml/#SCXMLEventProcessor"/>
                <cancel sendid="timer"/>
                <log label="hello"/>
                <log/>
              </onentry>
              <onentry/>
              <onexit><log label="bye"/></onexit>
            </state>
            """)
        let chart = try SCXMLDocument.load(string: xml)
        let s = try #require(chart.state(withID: "s"))
        #expect(
            chart.entryActions(of: s) == [
                [
                    .raise("r"), .send("ext", delay: .zero, id: nil),
                    .send("later", delay: .milliseconds(1500), id: "timer"),
                    .raise("int"), .send("intLater", delay: .milliseconds(10), id: nil), .cancel(id: "timer"),
                    .log(label: "hello", message: nil), .log(label: "", message: nil),
                ],
                [],
            ])
        #expect(chart.exitActions(of: s) == [[.log(label: "bye", message: nil)]])
    }

    @Test func sendQueuesExternallyRaiseInternally() throws {
        // The internal event is seen before the external one although it was queued second.
        let xml = document(
            """
            <state id="a">
              <onentry><send event="ext"/><raise event="int"/></onentry>
              <transition event="int" target="b"/>
              <transition event="ext" target="wrong"/>
            </state>
            <state id="b"><transition event="ext" target="c"/></state>
            <state id="c"/>
            <state id="wrong"/>
            """)
        #expect(try configurations(SCXMLDocument.load(string: xml), []) == [["c"]])
    }

    @Test func delayedSendsAndCancel() throws {
        let xml = document(
            """
            <state id="a">
              <onentry><send event="slow" delay="2s" id="t1"/><send event="fast" delay=".5s"/></onentry>
              <transition event="fast" target="b"/>
              <transition event="slow" target="never"/>
            </state>
            <state id="b">
              <onentry><cancel sendid="t1"/></onentry>
              <transition event="slow" target="never"/>
            </state>
            <state id="never"/>
            """)
        let chart = try SCXMLDocument.load(string: xml)
        #expect(try configurations(chart, ["+499ms", "+1ms", "+10s"]) == [["a"], ["a"], ["b"], ["b"]])
    }

    @Test func topLevelFinalHaltsAndIsReportedAlone() throws {
        let xml = document("<state id=\"a\"><transition event=\"t\" target=\"end\"/></state>\n<final id=\"end\"/>")
        #expect(try configurations(SCXMLDocument.load(string: xml), ["t"]) == [["a"], ["end"]])
    }

    @Test func builderItemsStaySmall() {
        // Issue 16, "Memory": one item per element of the document, all alive at the loader's peak.
        #expect(MemoryLayout<SCXMLBuilder.Item>.stride <= 40)
        // And one declared transition per `<transition>`, beside the tree at the same peak: 104
        // bytes while a transition held its dynamic targets and asynchronous guard in place.
        #expect(MemoryLayout<TransitionDefinition<SCXMLEvent, SCXMLContext>>.stride <= 80)
    }

    @Test("a builder that holds the only tree releases its elements once checked, when nothing reads them again")
    func checkedTreeIsReleased() throws {
        let null = document(
            "<state id=\"a\"><onentry><log label=\"in\"/><raise event=\"go\"/></onentry>"
                + "<transition event=\"go\" cond=\"In('a')\" target=\"b\"/></state><final id=\"b\"/>")
        let ecmascript = document("<datamodel><data id=\"x\" expr=\"1\"/></datamodel><state id=\"a\"><transition cond=\"x == 1\" target=\"b\"/></state><final id=\"b\"/>")
        let invoking = document("<state id=\"a\"><invoke type=\"scxml\"><content><scxml xmlns=\"http://www.w3.org/2005/07/scxml\"><final id=\"f\"/></scxml></content></invoke></state>")
        func built(_ xml: String, releasing: Bool) throws -> (SCXMLBuilder, ChartDefinition<SCXMLEvent, SCXMLContext>) {
            var builder = SCXMLBuilder(tree: try XMLTreeReader.read(Data(xml.utf8)), options: .init(), releasesCheckedTree: releasing)
            let definition = try builder.build(defaultName: "t")
            return (builder, definition)
        }
        for xml in [null, ecmascript, invoking] {
            let (kept, keptDefinition) = try built(xml, releasing: false)
            let (released, releasedDefinition) = try built(xml, releasing: true)
            #expect(!kept.tree.elements.isEmpty)
            // Released only under the null data model without <invoke>; the links outlive the tree.
            #expect(released.tree.elements.isEmpty == (xml == null))
            #expect(released.links.count == kept.links.count && released.links.count == kept.tree.elements.count)
            // The chart is the same either way, with its states and transitions where they are written.
            let keptChart: SCXMLChart = try Chart(keptDefinition)
            let releasedChart: SCXMLChart = try Chart(releasedDefinition)
            #expect(SCXMLExporter.export(keptChart) == SCXMLExporter.export(releasedChart))
            // Each state and transition where its element is, as the tree that was kept says.
            let elements = kept.tree.elements
            for kind in [SCXMLElementKind.state, .final] {
                for e in elements where e.kind == kind {
                    guard let id = e.attributes["id"], let state = releasedChart.state(withID: id) else { continue }
                    #expect(releasedChart.location(of: state) == e.location)
                }
            }
            let transitionElements = elements.filter { $0.kind == .transition }
            let transitions = releasedChart.transitions(of: releasedChart.state(withID: "a")!)
            #expect(transitions.map(\.location) == transitionElements.map(\.location))
        }
        // And the released document runs as written.
        #expect(try configurations(SCXMLDocument.load(string: null), []) == [["b"]])
    }

    @Test("the links of a released tree find each element's parent, position and children as the tree had them")
    func elementLinksMatchTheTree() throws {
        let documents = [
            document(
                "<state id=\"a\" initial=\"a2\">\n  <onentry><log label=\"x\"/><send event=\"e\"><param name=\"p\" expr=\"1\"/></send></onentry>\n"
                    + "  <state id=\"a1\"/><state id=\"a2\"><transition event=\"go\" target=\"b\"><raise event=\"r\"/><log label=\"y\"/></transition></state>\n"
                    + "  <onexit/><transition event=\"t\"/>\n</state>\n<parallel id=\"p\"><state id=\"p1\"/><state id=\"p2\"><initial><transition target=\"p2a\"/></initial><state id=\"p2a\"/></state></parallel>\n<final id=\"b\"/>",
                rootAttributes: " datamodel=\"ecmascript\""),
            // A chain deeper than the runs of siblings, then siblings after the deepest one.
            document((0..<30).map { "<state id=\"s\($0)\">" }.joined() + "<final id=\"leaf\"/>"
                + (0..<30).map { "<onexit><log label=\"\($0)\"/></onexit></state>" }.joined()),
        ]
        for xml in documents {
            let tree = try XMLTreeReader.read(Data(xml.utf8))
            let links = SCXMLElementLinks(tree.elements)
            #expect(links.count == tree.elements.count)
            for i in tree.elements.indices {
                #expect(links.parent(of: i) == tree.elements[i].parent)
                #expect(links.location(of: i) == tree.elements[i].location)
                var children: [Int] = []
                links.forEachChild(of: i) { children.append($0) }
                #expect(children == Array(tree.elements[i].children), "children of element \(i)")
                #expect(links.hasChildren(i) == !tree.elements[i].children.isEmpty)
            }
        }
    }

    @Test func loadingFromAFileUsesItsNameAndReportsMissingFiles() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("loader-\(UUID().uuidString).scxml")
        try Data(document("<state id=\"a\"/>").utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(try SCXMLDocument.load(contentsOf: url).name == url.deletingPathExtension().lastPathComponent)
        let missing = url.appendingPathExtension("missing")
        #expect {
            try SCXMLDocument.load(contentsOf: missing)
        } throws: { error in
            guard case .unreadable = error as? SCXMLError else { return false }
            return true
        }
    }
}
