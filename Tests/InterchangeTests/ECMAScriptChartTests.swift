import Foundation
import Statechart
import StatechartECMAScript
import Testing

@testable import StatechartInterchange

/// Loads an ECMAScript chart, starts it and sends `events` (`+1s` advances time); execution errors
/// (which these charts provoke on purpose) do not stop the run. Returns the final instance.
private func run(_ body: String, root: String = "", events: [String] = []) throws -> ChartInstance<SCXMLEvent, SCXMLContext> {
    let chart = try SCXMLDocument.load(string: document(body, rootAttributes: " datamodel=\"ecmascript\"" + root))
    var instance = ChartInstance(chart: chart, context: SCXMLContext())
    do { try instance.start() } catch .executionFailed {}
    for event in events {
        do {
            if event.hasPrefix("+"), let d = SCXMLDocument.duration(fromDelay: String(event.dropFirst())) {
                try instance.advance(by: d)
            } else {
                try instance.send(SCXMLEvent(event))
            }
        } catch .executionFailed {}
    }
    return instance
}

@Suite("SCXML charts with the ECMAScript data model (R82)")
struct ECMAScriptChartTests {
    @Test("R82: <data> is bound when the machine starts; cond, <assign>, <foreach>, <if>/<elseif>/<else> and <script> read and write it")
    func dataConditionsAndContent() throws {
        let instance = try run(
            """
            <datamodel>
              <data id="count" expr="0"/>
              <data id="list">[1, 2, 3]</data>
              <data id="name">plain text</data>
              <data id="seen"/>
            </datamodel>
            <script>function double(x) { return 2 * x; }</script>
            <state id="s0">
              <onentry>
                <foreach array="list" item="x" index="i"><assign location="count" expr="count + double(x) + i"/></foreach>
                <if cond="count &lt; 10"><assign location="seen" expr="'small'"/>
                <elseif cond="count == 15"/><assign location="seen" expr="'fifteen'"/>
                <else/><assign location="seen" expr="'large'"/></if>
              </onentry>
              <transition event="go" cond="count == 15 &amp;&amp; seen == 'fifteen' &amp;&amp; name == 'plain text'" target="pass"/>
              <transition event="go" target="fail"/>
            </state>
            <final id="pass"/>
            <final id="fail"/>
            """, events: ["go"])
        #expect(instance.activeAtomicIDs == ["pass"])
        #expect(try instance.context.data.value(of: "x") == 3)
        #expect(try instance.context.data.value(of: "i") == 2)
    }

    @Test("R82: inline <data>, <assign> and <content> are their JSON value when they are JSON, else their text space-normalized, never an expression (SCXML B.2.2)")
    func inlineContentIsJSONOrSpaceNormalizedText() throws {
        let instance = try run(
            """
            <datamodel>
              <data id="foo" expr="42"/>
              <data id="list">[1, {"a": "x  y"}, true, null]</data>
              <data id="quoted">"  two  spaces  "</data>
              <data id="name">foo</data>
              <data id="sum">1 + 2</data>
              <data id="single">'text'</data>
              <data id="spaced">
                 this  is\t
                 a string
              </data>
              <data id="assigned"/>
              <data id="received"/>
            </datamodel>
            <state id="s0">
              <onentry>
                <assign location="assigned">
                  several
                   lines
                </assign>
                <send event="go"><content>  words   and\ttabs </content></send>
              </onentry>
              <transition event="go" target="s1"><assign location="received" expr="_event.data"/></transition>
            </state>
            <state id="s1"/>
            """)
        #expect(instance.activeAtomicIDs == ["s1"])
        func value(_ name: String) throws -> DataValue? { try instance.context.data.value(of: name) }
        #expect(try value("list") == [1, ["a": "x  y"], true, nil])
        #expect(try value("quoted") == "  two  spaces  ")
        #expect(try value("name") == "foo")
        #expect(try value("sum") == "1 + 2")
        #expect(try value("single") == "'text'")
        #expect(try value("spaced") == "this is a string")
        #expect(try value("assigned") == "several lines")
        #expect(try value("received") == "words and tabs")
    }

    @Test("R82, R83: XML in <data> and in a sent <content> is a DOM object to scripts (W3C 557, 561)")
    func xmlDataIsADOM() throws {
        let instance = try run(
            """
            <datamodel>
              <data id="shelf"><books xmlns=""><book title="title1"/><book title="title2"/></books></data>
              <data id="seen"/>
            </datamodel>
            <state id="s0">
              <onentry>
                <send event="books"><content><books xmlns=""><book title="sent"/></books></content></send>
              </onentry>
              <transition event="books" cond="shelf.getElementsByTagName('book')[0].getAttribute('title') == 'title1'" target="s1">
                <assign location="seen" expr="_event.data.getElementsByTagName('book')[0].getAttribute('title')"/>
              </transition>
            </state>
            <state id="s1"/>
            """)
        #expect(instance.activeAtomicIDs == ["s1"])
        #expect(try instance.context.data.value(of: "seen") == "sent")
    }

    @Test("R82: a <send> of another event processor needs no event attribute (SCXML 6.2): the document loads, and sending it is error.execution naming the processor")
    func sendOfAnotherProcessorWithoutEvent() throws {
        let instance = try run(
            """
            <datamodel><data id="reason"/></datamodel>
            <state id="s0">
              <onentry>
                <send type="http://example.com/#MessageQueueProcessor" target="queue://orders">
                  <param name="_scxmleventname" expr="'test'"/>
                </send>
              </onentry>
              <transition event="error.execution" cond="_event.data.reason.indexOf('MessageQueueProcessor') >= 0" target="s1"/>
            </state>
            <state id="s1">
              <onentry><send typeexpr="'scxml'"/></onentry>
              <transition event="error.execution" cond="_event.data.reason.indexOf('without an event name') >= 0" target="pass"/>
            </state>
            <final id="pass"/>
            """)
        #expect(instance.activeAtomicIDs == ["pass"])
    }

    @Test("R82, R14: a <data> that fails raises error.execution and stays undefined; the others are bound; failed content skips the rest of its block")
    func errorsAtBindingAndInContent() throws {
        let instance = try run(
            """
            <datamodel>
              <data id="a" expr="1"/>
              <data id="bad" expr="nope("/>
              <data id="b" expr="a + 1"/>
            </datamodel>
            <state id="s0">
              <onentry>
                <assign location="a" expr="10"/>
                <assign location="undeclared.member" expr="1"/>
                <assign location="a" expr="20"/>
              </onentry>
              <transition event="error.execution" cond="typeof bad === 'undefined' &amp;&amp; b === 2" target="s1"/>
            </state>
            <state id="s1">
              <transition event="error.execution" cond="a === 10" target="pass"/>
            </state>
            <final id="pass"/>
            """)
        #expect(instance.activeAtomicIDs == ["pass"])
    }

    @Test("R82: binding late binds a state's <data> on its first entry, not before")
    func lateBinding() throws {
        let instance = try run(
            """
            <state id="s0">
              <transition cond="typeof v === 'undefined'" target="s1"/>
              <transition target="fail"/>
            </state>
            <state id="s1">
              <datamodel><data id="v" expr="42"/></datamodel>
              <transition cond="v === 42" target="pass"/>
              <transition target="fail"/>
            </state>
            <final id="pass"/>
            <final id="fail"/>
            """, root: " binding=\"late\"")
        #expect(instance.activeAtomicIDs == ["pass"])
    }

    @Test("R82: _sessionid, _name and _ioprocessors are bound and read-only; _event names the event being processed")
    func systemVariables() throws {
        let instance = try run(
            """
            <state id="s0">
              <onentry><assign location="_sessionid" expr="'mine'"/></onentry>
              <transition event="error.execution" cond="_event.name == 'error.execution' &amp;&amp; _event.type == 'platform'" target="s1"/>
            </state>
            <state id="s1">
              <transition event="go" cond="_name == 'chart' &amp;&amp; _sessionid != 'mine' &amp;&amp; _event.name == 'go' &amp;&amp; _ioprocessors['http://www.w3.org/TR/scxml/#SCXMLEventProcessor'].location == '#_scxml_' + _sessionid" target="pass"/>
              <transition event="go" target="fail"/>
            </state>
            <final id="pass"/>
            <final id="fail"/>
            """, root: " name=\"chart\"", events: ["go"])
        #expect(instance.activeAtomicIDs == ["pass"])
    }

    @Test("R82: <send> evaluates eventexpr, delayexpr and idlocation; an unsupported type is error.execution, an unreachable target error.communication")
    func send() throws {
        let instance = try run(
            """
            <datamodel><data id="name" expr="'tick'"/><data id="d" expr="'2s'"/><data id="sid"/></datamodel>
            <state id="s0">
              <onentry>
                <send eventexpr="name + 'ed'" delayexpr="d" idlocation="sid"/>
                <send event="never" type="http://example.com/unknown"/>
              </onentry>
              <transition event="error.execution" target="s1"/>
            </state>
            <state id="s1">
              <onentry><send event="up" target="#_parent"/></onentry>
              <transition event="error.communication" target="s2"/>
            </state>
            <state id="s2">
              <transition event="ticked" cond="sid === 'send.1'" target="pass"/>
              <transition event="*" target="fail"/>
            </state>
            <final id="pass"/>
            <final id="fail"/>
            """, events: ["+1s", "+1s"])
        #expect(instance.activeAtomicIDs == ["pass"])
    }

    @Test("R82: under the null data model, <if> takes In() conditions (W3C 409, 411)")
    func nullDataModelIf() throws {
        let chart = try SCXMLDocument.load(
            string: document(
                """
                <state id="s0">
                  <onentry><if cond="In('s0') &amp;&amp; !In('s1')"><raise event="yes"/><else/><raise event="no"/></if></onentry>
                  <transition event="yes" target="pass"/>
                  <transition event="no" target="fail"/>
                </state>
                <state id="s1"/>
                <final id="pass"/>
                <final id="fail"/>
                """))
        #expect(try configurations(chart, []).last == ["pass"])
    }

    @Test("R82: an export keeps the data model: every <data>, <script>, expression and element survives a round trip")
    func exportRoundTrip() throws {
        let xml = document(
            """
            <datamodel><data id="count" expr="0"/></datamodel>
            <script>var step = 2;</script>
            <state id="s0">
              <onentry><assign location="count" expr="count + step"/><log label="count" expr="count"/></onentry>
              <transition event="go" cond="count &gt; 1" target="pass"/>
            </state>
            <final id="pass"/>
            """, rootAttributes: " datamodel=\"ecmascript\"")
        let exported = SCXMLExporter.export(try SCXMLDocument.load(string: xml))
        #expect(exported.contains("datamodel=\"ecmascript\""))
        #expect(exported.contains("<data expr=\"0\" id=\"count\"/>"))
        #expect(exported.contains("<assign expr=\"count + step\" location=\"count\"/>"))
        #expect(exported.contains("cond=\"count &gt; 1\""))
        let reloaded = try SCXMLDocument.load(string: exported)
        var instance = ChartInstance(chart: reloaded, context: SCXMLContext())
        try instance.start()
        try instance.send("go")
        #expect(instance.activeAtomicIDs == ["pass"])
        #expect(SCXMLExporter.export(reloaded) == exported)
    }

    @Test("R83: events carry data: <param> and namelist make an object, <content> a value, <donedata> the done event's data; _event shows type, sendid and origin")
    func eventData() throws {
        let instance = try run(
            """
            <datamodel><data id="v" expr="7"/><data id="got"/></datamodel>
            <state id="s0">
              <onentry>
                <send event="withParams" namelist="v"><param name="p" expr="v + 1"/></send>
                <raise event="raised"/>
              </onentry>
              <transition event="raised" cond="_event.type == 'internal'" target="s1"/>
            </state>
            <state id="s1">
              <transition event="withParams" cond="_event.data.v === 7 &amp;&amp; _event.data.p === 8 &amp;&amp; _event.type == 'external' &amp;&amp; _event.origin == '#_scxml_' + _sessionid" target="s2">
                <send event="withContent" id="mine"><content>[1, 2]</content></send>
              </transition>
            </state>
            <state id="s2">
              <transition event="withContent" cond="_event.data[1] === 2 &amp;&amp; _event.sendid == 'mine'" target="c"/>
            </state>
            <state id="c">
              <state id="c1"><transition target="c2"/></state>
              <final id="c2"><donedata><param name="answer" expr="42"/></donedata></final>
              <transition event="done.state.c" cond="_event.data.answer === 42 &amp;&amp; _event.type == 'platform'" target="pass"/>
            </state>
            <final id="pass"/>
            """)
        #expect(instance.activeAtomicIDs == ["pass"])
    }

    @Test("R83: the error event of a failed <send> carries its sendid (W3C 332); an event sent from outside carries its data")
    func sendErrorsAndOutsideData() throws {
        let instance = try run(
            """
            <datamodel><data id="id"/></datamodel>
            <state id="s0">
              <onentry><send event="x" target="nowhere" idlocation="id"/></onentry>
              <transition event="error.execution" cond="_event.sendid === id &amp;&amp; id !== undefined" target="s1"/>
            </state>
            <state id="s1">
              <transition event="go" cond="_event.data.x === 1" target="pass"/>
            </state>
            <final id="pass"/>
            """)
        var running = instance
        try running.send(SCXMLEvent("go", data: ["x": 1]))
        #expect(running.activeAtomicIDs == ["pass"])
    }
}
