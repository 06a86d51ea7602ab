import Statechart
import StatechartECMAScript
import Testing

@testable import StatechartInterchange

/// Loads an ECMAScript chart and starts it.
private func started(_ body: String) throws -> ChartInstance<SCXMLEvent, SCXMLContext> {
    let chart = try SCXMLDocument.load(string: document(body, rootAttributes: " datamodel=\"ecmascript\""))
    var instance = ChartInstance(chart: chart, context: SCXMLContext())
    try instance.start()
    return instance
}

/// `_event` is bound only before what may read it (a guard like `count < 2` cannot), and whatever
/// reads it sees the event being processed: the binding is skipped, never stale (R82).
@Suite("_event is bound when something may read it, and is always the event being processed (R82)")
struct EventBindingTests {
    @Test("R82: content after a condition that does not read _event sees the new event, not the one bound before")
    func skippedBindingIsNeverStale() throws {
        var instance = try started(
            """
            <datamodel><data id="count" expr="0"/><data id="seen" expr="0"/></datamodel>
            <state id="s">
              <transition event="first" cond="_event.data.v == 1"><assign location="count" expr="count + 1"/></transition>
              <transition event="second" cond="count &lt; 5"><assign location="seen" expr="_event.data.v"/></transition>
              <transition event="third" cond="count &lt; 5"/>
            </state>
            """)
        // `first` binds _event (its condition reads it); `second`'s condition does not, its content does.
        #expect(try instance.send(SCXMLEvent("first", data: ["v": 1])))
        #expect(try instance.send(SCXMLEvent("second", data: ["v": 2])))
        #expect(try instance.context.value(of: "seen", as: Int.self) == 2)
        // Nothing reads `third`'s _event; the next reader still sees its own event.
        #expect(try instance.send(SCXMLEvent("third", data: ["v": 3])))
        #expect(try instance.send(SCXMLEvent("second", data: ["v": 4])))
        #expect(try instance.context.value(of: "seen", as: Int.self) == 4)
    }

    @Test("R82: an operator that calls a script's valueOf, which reads _event, sees the event being processed")
    func valueOfSeesTheEvent() throws {
        var instance = try started(
            """
            <datamodel><data id="limit" expr="({ valueOf: function () { return _event.data.v; } })"/></datamodel>
            <state id="s">
              <transition event="go" cond="2 &lt; limit" target="done"/>
            </state>
            <final id="done"/>
            """)
        #expect(try !instance.send(SCXMLEvent("go", data: ["v": 1])))
        #expect(try instance.send(SCXMLEvent("go", data: ["v": 3])))
        #expect(instance.activeAtomicIDs == ["done"])
    }

    @Test("R82, R81: canHandle evaluates a condition on its own event, not on the one the machine last bound")
    func canHandleBindsItsOwnEvent() throws {
        var instance = try started(
            """
            <state id="s"><transition event="go" cond="_event.data.ok" target="s"/></state>
            """)
        #expect(try instance.send(SCXMLEvent("go", data: ["ok": true])))
        #expect(!instance.canHandle(SCXMLEvent("go", data: ["ok": false])))
        #expect(instance.canHandle(SCXMLEvent("go", data: ["ok": true])))
        // The machine's own binding is untouched by the speculation.
        #expect(try !instance.send(SCXMLEvent("go", data: ["ok": false])))
    }

    @Test("R82: every guard and block that reads _event in one event sees it, across internal events")
    func internalEventsAreBoundToo() throws {
        var instance = try started(
            """
            <datamodel><data id="log" expr="''"/></datamodel>
            <state id="s">
              <transition event="go" cond="count0()"><raise event="inner"/><assign location="log" expr="log + _event.name"/></transition>
              <transition event="inner" cond="_event.name == 'inner'"><assign location="log" expr="log + ',' + _event.name"/></transition>
            </state>
            <script>function count0() { return true; }</script>
            """)
        #expect(try instance.send("go"))
        #expect(try instance.context.value(of: "log", as: String.self) == "go,inner")
    }
}
