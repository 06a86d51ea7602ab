import Foundation
import Synchronization
import Statechart
import Testing

@testable import StatechartInterchange

/// `<invoke>` of SCXML sessions (rule R86): each test is a chart whose end state says what happened.
@Suite("SCXML <invoke>")
struct InvokeTests {
    /// A data model chart: `<scxml datamodel="ecmascript">` around `body`, starting in `s0`.
    static func chart(_ body: String, datamodel: String = "ecmascript") -> String {
        """
        <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="\(datamodel)" initial="s0">
        \(body)
          <final id="pass"/>
          <final id="fail"/>
        </scxml>
        """
    }

    /// Loads and starts a session (with `http`'s processor, if any), then applies `inputs` (`+1s`
    /// advances the clock, anything else is an event).
    static func run(
        _ xml: String, _ inputs: [String] = [], options: SCXMLLoadOptions = .init(), http: BasicHTTPEventProcessor? = nil
    ) throws -> SCXMLSession {
        var session = SCXMLSession(chart: try SCXMLDocument.load(string: xml, options: options), http: http)
        try? session.start()
        for input in inputs {
            if input.hasPrefix("+"), let d = SCXMLDocument.duration(fromDelay: String(input.dropFirst())) {
                try? session.advance(by: d)
            } else {
                _ = try? session.send(SCXMLEvent(input))
            }
        }
        return session
    }

    @Test("R86: an inline child starts when its state's macrostep ends; its end is done.invoke.<id> with its donedata")
    func doneInvokeCarriesDonedata() throws {
        let xml = Self.chart(
            """
              <datamodel><data id="result"/></datamodel>
              <state id="s0">
                <invoke id="child">
                  <content>
                    <scxml initial="end" version="1.0" datamodel="ecmascript">
                      <final id="end"><donedata><param name="answer" expr="42"/></donedata></final>
                    </scxml>
                  </content>
                </invoke>
                <transition event="done.invoke.child" cond="_event.data.answer === 42 &amp;&amp; _event.invokeid === 'child'" target="pass"/>
                <transition event="*" target="fail"/>
              </state>
            """)
        var session = try Self.run(xml)
        #expect(session.root.activeAtomicIDs == ["pass"])
        #expect(session.invocations.isEmpty)
        // The root's data, as Swift values, through the session.
        try session.context.setValue(["answer": 42], for: "result")
        #expect(try session.context.value(of: "result", as: [String: Int].self) == ["answer": 42])
    }

    @Test("R86: params and namelist replace the child's data of the same name; others are not declared")
    func passedValuesReplaceData() throws {
        let xml = Self.chart(
            """
              <datamodel><data id="n" expr="7"/></datamodel>
              <state id="s0">
                <invoke namelist="n">
                  <param name="p" expr="'given'"/>
                  <param name="q" expr="1"/>
                  <content>
                    <scxml initial="c" version="1.0" datamodel="ecmascript">
                      <datamodel><data id="n" expr="0"/><data id="p" expr="'default'"/></datamodel>
                      <state id="c">
                        <transition cond="n === 7 &amp;&amp; p === 'given' &amp;&amp; typeof q === 'undefined'" target="ok"/>
                        <transition target="ko"/>
                      </state>
                      <final id="ok"><donedata><content expr="'ok'"/></donedata></final>
                      <final id="ko"><donedata><content expr="'ko'"/></donedata></final>
                    </scxml>
                  </content>
                </invoke>
                <transition event="done.invoke" cond="_event.data === 'ok'" target="pass"/>
                <transition event="done.invoke" target="fail"/>
              </state>
            """)
        #expect(try Self.run(xml).root.activeAtomicIDs == ["pass"])
    }

    @Test("R86: events go both ways (#_parent, #_<invokeid>); <finalize> runs first; exiting the state cancels at once")
    func eventsBothWaysAndFinalize() throws {
        // The child says "ready" (x = 5) and answers a ping (n) with a pong (x = n + 1); the
        // invoking state's <finalize> copies each x into `seen`.
        let kid = """
            <invoke id="kid">
              <content>
                <scxml initial="wait" version="1.0" datamodel="ecmascript">
                  <state id="wait">
                    <onentry><send target="#_parent" event="ready"><param name="x" expr="5"/></send></onentry>
                    <transition event="ping" target="done">
                      <send target="#_parent" event="pong"><param name="x" expr="_event.data.n + 1"/></send>
                    </transition>
                  </state>
                  <final id="done"/>
                </scxml>
              </content>
              <finalize><assign location="seen" expr="_event.data.x"/></finalize>
            </invoke>
            """
        let xml = Self.chart(
            """
              <datamodel><data id="seen"/></datamodel>
              <state id="s0">
                \(kid)
                <transition event="ready" cond="seen === 5" target="s1">
                  <send target="#_kid" event="ping"><param name="n" expr="10"/></send>
                </transition>
                <transition event="*" target="fail"/>
              </state>
              <state id="s1">
                <transition event="error.communication" target="pass"/>
                <transition event="*" target="fail"/>
              </state>
            """)
        // Leaving s0 cancels the child before the transition's content runs: the ping has no
        // receiver (error.communication), and no pong ever arrives.
        let cancelled = try Self.run(xml)
        #expect(cancelled.root.activeAtomicIDs == ["pass"])
        #expect(cancelled.invocations.isEmpty)
        let inside = Self.chart(
            """
              <datamodel><data id="seen"/></datamodel>
              <state id="s0">
                \(kid)
                <transition event="ready" cond="seen === 5">
                  <send target="#_kid" event="ping"><param name="n" expr="10"/></send>
                </transition>
                <transition event="pong" cond="seen === 11 &amp;&amp; _event.invokeid === 'kid'" target="pass"/>
                <transition event="*" target="fail"/>
              </state>
            """)
        #expect(try Self.run(inside).root.activeAtomicIDs == ["pass"])
    }

    @Test("R86: leaving the invoking state cancels the child: its exit actions' and delayed sends' events are dropped")
    func cancellationDropsEvents() throws {
        let xml = Self.chart(
            """
              <state id="s0" initial="s01">
                <onentry><send event="timeout" delay="2s"/></onentry>
                <transition event="timeout" target="pass"/>
                <transition event="childToParent" target="fail"/>
                <transition event="done.invoke" target="fail"/>
                <state id="s01">
                  <onentry><send event="leave" delay="500ms"/></onentry>
                  <invoke>
                    <content>
                      <scxml initial="c" version="1.0" datamodel="ecmascript">
                        <state id="c">
                          <onentry><send target="#_parent" event="childToParent" delay="1s"/></onentry>
                          <onexit><send target="#_parent" event="childToParent"/></onexit>
                        </state>
                      </scxml>
                    </content>
                  </invoke>
                  <transition event="leave" target="s02"/>
                </state>
                <state id="s02"/>
              </state>
            """)
        var session = try Self.run(xml, ["+600ms"])
        #expect(session.root.activeAtomicIDs == ["s02"])
        #expect(session.invocations.isEmpty)
        try? session.advance(by: .seconds(2))
        #expect(session.root.activeAtomicIDs == ["pass"])
    }

    @Test("R86: one virtual clock: a child's delayed send to its parent arrives at its due time")
    func sharedClock() throws {
        let xml = Self.chart(
            """
              <state id="s0">
                <onentry><send event="late" delay="3s"/></onentry>
                <invoke>
                  <content>
                    <scxml initial="c" version="1.0" datamodel="ecmascript">
                      <state id="c"><onentry><send target="#_parent" event="tick" delay="2s"/></onentry></state>
                    </scxml>
                  </content>
                </invoke>
                <transition event="tick" target="s1"/>
                <transition event="late" target="fail"/>
              </state>
              <state id="s1"><transition event="late" target="pass"/></state>
            """)
        var session = try Self.run(xml, ["+1999ms"])
        #expect(session.root.activeAtomicIDs == ["s0"])
        #expect(session.nextDueTime == .seconds(2))
        try session.advance(by: .milliseconds(1))
        #expect(session.root.activeAtomicIDs == ["s1"])
        try session.advance(by: .seconds(1))
        #expect(session.root.activeAtomicIDs == ["pass"])
    }

    @Test("R86: autoforward sends every external event the parent takes to the child")
    func autoforward() throws {
        let xml = Self.chart(
            """
              <state id="s0">
                <invoke autoforward="true">
                  <content>
                    <scxml initial="c" version="1.0" datamodel="ecmascript">
                      <state id="c">
                        <transition event="hello" target="end"><send target="#_parent" event="heard"/></transition>
                      </state>
                      <final id="end"/>
                    </scxml>
                  </content>
                </invoke>
                <transition event="heard" target="pass"/>
              </state>
            """)
        #expect(try Self.run(xml, ["hello"]).root.activeAtomicIDs == ["pass"])
        #expect(try Self.run(xml.replacingOccurrences(of: "autoforward=\"true\"", with: ""), ["hello"]).root.activeAtomicIDs == ["s0"])
    }

    @Test("R86: idlocation receives the generated id stateid.N, which events from the child carry")
    func generatedIDs() throws {
        let xml = Self.chart(
            """
              <datamodel><data id="where"/></datamodel>
              <state id="s0">
                <invoke idlocation="where">
                  <content>
                    <scxml initial="c" version="1.0"><final id="c"><onentry><send target="#_parent" event="hi"/></onentry></final></scxml>
                  </content>
                </invoke>
                <transition event="hi" cond="_event.invokeid === where &amp;&amp; where.indexOf('s0.') === 0" target="pass"/>
                <transition event="*" target="fail"/>
              </state>
            """)
        #expect(try Self.run(xml).root.activeAtomicIDs == ["pass"])
    }

    @Test("R86: src and srcexpr load a document beside the chart; one that cannot be read raises error.execution")
    func sourceFiles() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("invoke-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try """
        <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="ecmascript" initial="c">
          <datamodel><data id="v" expr="0"/></datamodel>
          <final id="c"><donedata><param name="v" expr="v"/></donedata></final>
        </scxml>
        """.write(to: folder.appendingPathComponent("child.scxml"), atomically: true, encoding: .utf8)
        let options = SCXMLLoadOptions(baseURL: folder)
        let bySrc = Self.chart(
            """
              <state id="s0">
                <invoke src="file:child.scxml"><param name="v" expr="3"/></invoke>
                <transition event="done.invoke" cond="_event.data.v === 3" target="pass"/>
                <transition event="*" target="fail"/>
              </state>
            """)
        #expect(try Self.run(bySrc, options: options).root.activeAtomicIDs == ["pass"])
        let byExpr = bySrc.replacingOccurrences(of: "src=\"file:child.scxml\"", with: "srcexpr=\"'child' + '.scxml'\"")
        #expect(try Self.run(byExpr, options: options).root.activeAtomicIDs == ["pass"])
        let missing = Self.chart(
            """
              <state id="s0">
                <invoke src="file:absent.scxml"/>
                <transition event="error.execution" target="pass"/>
                <transition event="*" target="fail"/>
              </state>
            """)
        var session = SCXMLSession(chart: try SCXMLDocument.load(string: missing, options: options))
        #expect(throws: MachineError.self) { try session.start() }
        #expect(session.root.activeAtomicIDs == ["pass"])
    }

    @Test("R86: <content expr> starts the document an XML value holds; markup in <assign> is an XML value")
    func contentExpression() throws {
        let xml = Self.chart(
            """
              <datamodel><data id="doc" expr="1"/></datamodel>
              <state id="s0">
                <onentry><assign location="doc"><scxml version="1.0"><final/></scxml></assign></onentry>
                <invoke><content expr="doc"/></invoke>
                <transition event="done.invoke" target="pass"/>
                <transition event="*" target="fail"/>
              </state>
            """)
        #expect(try Self.run(xml).root.activeAtomicIDs == ["pass"])
    }

    @Test("R86: an unsupported type raises error.execution and starts nothing")
    func unsupportedType() throws {
        let xml = Self.chart(
            """
              <state id="s0">
                <invoke type="http://example.com/bpel"><content><scxml version="1.0"><final/></scxml></content></invoke>
                <transition event="error.execution" target="pass"/>
                <transition event="*" target="fail"/>
              </state>
            """)
        let session = try Self.run(xml)
        #expect(session.root.activeAtomicIDs == ["pass"])
        #expect(session.invocations.isEmpty)
    }

    @Test("R86: a chart that invokes itself stops at the depth limit with error.execution, never a crash")
    func selfInvocationIsBounded() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("invoke-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("again.scxml")
        try """
        <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" initial="s">
          <state id="s"><invoke src="file:again.scxml"/></state>
        </scxml>
        """.write(to: file, atomically: true, encoding: .utf8)
        var session = SCXMLSession(chart: try SCXMLDocument.load(contentsOf: file))
        session.maximumDepth = 8
        #expect(throws: MachineError.self) { try session.start() }
        #expect(session.invocations.count == 8)
    }

    @Test("R86: the null data model invokes too, and its children reach #_parent")
    func nullDataModel() throws {
        let xml = Self.chart(
            """
              <state id="s0">
                <invoke id="c">
                  <content>
                    <scxml version="1.0" initial="a"><final id="a"><onentry><send target="#_parent" event="up"/></onentry></final></scxml>
                  </content>
                </invoke>
                <transition event="up" target="s1"/>
              </state>
              <state id="s1"><transition event="done.invoke.c" target="pass"/></state>
            """, datamodel: "null")
        #expect(try Self.run(xml).root.activeAtomicIDs == ["pass"])
    }

    @Test("R86: a send to an invocation that does not run is error.communication")
    func unknownInvocationTarget() throws {
        let xml = Self.chart(
            """
              <state id="s0">
                <onentry><send target="#_nobody" event="x"/><raise event="later"/></onentry>
                <transition event="error.communication" target="pass"/>
                <transition event="*" target="fail"/>
              </state>
            """)
        #expect(try Self.run(xml).root.activeAtomicIDs == ["pass"])
    }

    @Test(
        "R86: malformed invocations are refused at load, by element and line",
        arguments: [
            ("<invoke/>", "invoke", 3),
            ("<invoke src=\"a.scxml\" srcexpr=\"b\"/>", "invoke", 3),
            ("<invoke id=\"a\" idlocation=\"b\" src=\"a.scxml\"/>", "invoke", 3),
            ("<invoke src=\"a.scxml\"><content><scxml version=\"1.0\"><final/></scxml></content></invoke>", "invoke", 3),
            ("<invoke><content><scxml version=\"1.0\"><bogus/></scxml></content></invoke>", "content", 3),
            ("<invoke autoforward=\"yes\" src=\"a.scxml\"/>", "invoke", 3),
        ])
    func malformed(_ invoke: String, _ element: String, _ line: Int) throws {
        let xml = "<scxml xmlns=\"http://www.w3.org/2005/07/scxml\" version=\"1.0\" datamodel=\"ecmascript\">\n<state id=\"s\">\n  \(invoke)\n</state>\n</scxml>"
        let error = try #require(loadError(xml))
        #expect(error.element == element)
        #expect(error.line == line)
    }

    @Test("R86: export writes every <invoke> back, and the exported chart runs the same")
    func exportKeepsInvoke() throws {
        let xml = Self.chart(
            """
              <state id="s0">
                <invoke id="child" autoforward="true">
                  <content><scxml version="1.0" datamodel="ecmascript" initial="e"><final id="e"/></scxml></content>
                  <finalize><log expr="'bye'"/></finalize>
                </invoke>
                <transition event="done.invoke.child" target="pass"/>
              </state>
            """)
        let exported = SCXMLExporter.export(try SCXMLDocument.load(string: xml))
        #expect(exported.contains("<invoke autoforward=\"true\" id=\"child\">"))
        #expect(exported.contains("<finalize>"))
        #expect(try Self.run(exported).root.activeAtomicIDs == ["pass"])
    }
}

/// The asynchronous runtime of SCXML sessions (rule R86).
@Suite("AsyncSCXMLSession")
struct AsyncSCXMLSessionTests {
    static let chart = InvokeTests.chart(
        """
          <state id="s0">
            <invoke id="worker">
              <content>
                <scxml initial="busy" version="1.0" datamodel="ecmascript">
                  <state id="busy">
                    <onentry><log label="child" expr="'working'"/><send target="#_parent" event="progress" delay="2s"/></onentry>
                    <transition event="stop" target="end"><log expr="'stopping'"/></transition>
                  </state>
                  <final id="end"/>
                </scxml>
              </content>
            </invoke>
            <state id="a"><transition event="progress" target="b"/></state>
            <state id="b"><transition event="finish"><send target="#_worker" event="stop"/></transition></state>
            <transition event="done.invoke.worker" target="pass"/>
          </state>
        """)

    @Test("R86: a ManualClock drives every session's delayed sends; events reach invoked sessions; logs are observed")
    func manualClock() async throws {
        let clock = ManualClock()
        let lines = LogLines()
        let session = try await AsyncSCXMLSession(chart: try SCXMLDocument.load(string: Self.chart), clock: clock)
        await session.onLog { lines.append($0) }
        #expect(await session.activeStateIDs == ["a"])
        #expect(await session.invocationIDs == ["worker"])
        await clock.advance(by: .milliseconds(1_999))
        #expect(await session.activeStateIDs == ["a"])
        await clock.advance(by: .milliseconds(1))
        #expect(await session.activeStateIDs == ["b"])
        try await session.send("finish")
        #expect(await session.activeStateIDs == ["pass"])
        #expect(await session.invocationIDs.isEmpty)
        #expect(await session.inspect { $0.now } == .seconds(2))
        // The child logged "working" when it started, before the handler was set.
        #expect(lines.all == ["[worker] stopping"])
        #expect(await session.backgroundFailures.isEmpty)
    }

    @Test("R86: on a real clock the timer wakes the session at the child's due time")
    func continuousClock() async throws {
        let fast = Self.chart.replacingOccurrences(of: "delay=\"2s\"", with: "delay=\"20ms\"")
        let session = try await AsyncSCXMLSession(chart: try SCXMLDocument.load(string: fast), clock: ContinuousClock())
        var waited = 0
        while await session.activeStateIDs != ["b"] && waited < 500 {
            try await Task.sleep(for: .milliseconds(10))
            waited += 1
        }
        #expect(await session.activeStateIDs == ["b"])
    }
}

/// Collects log lines from a `@Sendable` handler.
final class LogLines: Sendable {
    private let storage = Mutex<[String]>([])
    func append(_ line: String) { storage.withLock { $0.append(line) } }
    /// A copy in storage of its own, made under the lock (see `Recorder.values` in StatechartTests:
    /// a shared buffer read after the lock looks like a race to ThreadSanitizer).
    var all: [String] { storage.withLock { $0.map { $0 } } }
}

/// Snapshots of sessions with invocations (rule R86).
@Suite("SCXMLSessionSnapshot")
struct SCXMLSessionSnapshotTests {
    static let xml = InvokeTests.chart(
        """
          <datamodel><data id="total" expr="0"/></datamodel>
          <state id="s0">
            <invoke id="counter">
              <content>
                <scxml initial="c" version="1.0" datamodel="ecmascript">
                  <datamodel><data id="n" expr="0"/></datamodel>
                  <state id="c">
                    <transition event="add"><assign location="n" expr="n + _event.data"/></transition>
                    <transition event="flush" target="end"/>
                  </state>
                  <final id="end"><donedata><param name="n" expr="n"/></donedata></final>
                </scxml>
              </content>
              <finalize><assign location="total" expr="_event.data.n"/></finalize>
            </invoke>
            <transition event="add"><send target="#_counter" event="add"><content expr="_event.data"/></send></transition>
            <transition event="flush"><send target="#_counter" event="flush" delay="1s"/></transition>
            <transition event="done.invoke.counter" cond="total === 5" target="pass"/>
            <transition event="done.invoke.counter" target="fail"/>
          </state>
        """)

    @Test("R86: a session with a running invocation survives JSON and continues exactly as the original")
    func roundTrip() throws {
        let chart = try SCXMLDocument.load(string: Self.xml)
        var original = SCXMLSession(chart: chart)
        try original.start()
        try original.send(SCXMLEvent("add", data: 2))
        try original.send(SCXMLEvent("add", data: 3))
        try original.send("flush")  // a delayed send to the child, pending in the root's outbox
        let data = try JSONEncoder().encode(original.snapshot())
        var restored = try SCXMLSession(chart: chart, restoring: JSONDecoder().decode(SCXMLSessionSnapshot.self, from: data))
        #expect(restored.invocations.map(\.invokeID) == ["counter"])
        #expect(restored.nextDueTime == original.nextDueTime)
        for var session in [original, restored] {
            try session.advance(by: .seconds(1))
            #expect(session.root.activeAtomicIDs == ["pass"])
        }
        // Restoring runs nothing: no second child was started for the running invocation.
        try restored.send(SCXMLEvent("add", data: 1))
        #expect(restored.invocations.count == 1)
    }

    @Test("R86: a snapshot that does not fit is refused, by what does not fit")
    func refusals() throws {
        let chart = try SCXMLDocument.load(string: Self.xml)
        var session = SCXMLSession(chart: chart)
        try session.start()
        var snapshot = session.snapshot()
        snapshot.invocations[0].element = 999
        #expect(throws: MachineError.self) { _ = try SCXMLSession(chart: chart, restoring: snapshot) }
        snapshot = session.snapshot()
        snapshot.formatVersion = 7
        do {
            _ = try SCXMLSession(chart: chart, restoring: snapshot)
            Issue.record("restored a version 7 snapshot")
        } catch {
            #expect(error.description.contains("version 7"))
        }
    }
}
