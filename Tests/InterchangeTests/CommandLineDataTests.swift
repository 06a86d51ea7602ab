import Foundation
import Testing

/// `statechart run` on charts with data: `<log>` output and execution errors.
@Suite("statechart run with data")
struct CommandLineDataTests {
    @Test("R82: run prints <log> lines and reports error.execution beside its step, then goes on")
    func logAndExecutionErrors() throws {
        let cli = CommandLineTests()
        let dir = try cli.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("data.scxml")
        try """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="ecmascript">
              <datamodel><data id="count" expr="1"/></datamodel>
              <state id="a">
                <onentry><log label="count" expr="count + 1"/></onentry>
                <transition event="t" target="b"><assign location="missing" expr="1"/></transition>
              </state>
              <state id="b">
                <transition event="error.execution" target="c"/>
              </state>
              <final id="c"><onentry><log label="Outcome" expr="'pass'"/></onentry></final>
            </scxml>
            """.write(to: file, atomically: true, encoding: .utf8)
        let r = try cli.run(["run", file.path, "t"])
        #expect(r.status == 0)
        #expect(r.stdout.contains("log: count: 2"))
        #expect(r.stdout.contains("t → c (final) (error.execution:"))
        #expect(r.stdout.contains("'missing' is not declared"))
        #expect(r.stdout.contains("log: Outcome: pass"))
    }

    @Test("R82: _event is declared and undefined before the first event (W3C 319); `.*` is the wildcard (W3C 311)")
    func unboundEventAndDotStar() throws {
        let cli = CommandLineTests()
        let dir = try cli.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("unbound.scxml")
        try """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="ecmascript">
              <state id="a">
                <onentry><if cond="typeof _event === 'undefined'"><raise event="unbound"/></if></onentry>
                <transition event="unbound" target="b"/>
              </state>
              <state id="b"><transition event=".*" cond="_event.name == 'go'" target="pass"/></state>
              <final id="pass"/>
            </scxml>
            """.write(to: file, atomically: true, encoding: .utf8)
        let r = try cli.run(["run", file.path, "go"])
        #expect(r.stdout.contains("start → b"))
        #expect(r.stdout.contains("go → pass (final)"))
    }

    @Test("R83: run sends NAME=JSON as an event with data; text that is not JSON is a usage error")
    func eventWithData() throws {
        let cli = CommandLineTests()
        let dir = try cli.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("payload.scxml")
        try """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="ecmascript">
              <state id="a"><transition event="go" cond="_event.data.x === 1" target="pass"/></state>
              <final id="pass"/>
            </scxml>
            """.write(to: file, atomically: true, encoding: .utf8)
        let r = try cli.run(["run", file.path, "go={\"x\": 1}"])
        #expect(r.stdout.contains("→ pass (final)"))
        let bad = try cli.run(["run", file.path, "go={x"])
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("NAME=JSON"))
    }

    @Test("R85: validate reports expressions and scripts that do not parse, with their lines; the chart still loads and runs")
    func validateExpressions() throws {
        let cli = CommandLineTests()
        let dir = try cli.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("bad.scxml")
        try """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="ecmascript">
              <datamodel><data id="x" expr="1"/></datamodel>
              <state id="a">
                <onentry><assign location="1 + x" expr="2"/></onentry>
                <transition event="go" cond="return" target="b"/>
                <transition event="error.execution" target="b"/>
              </state>
              <final id="b"><onentry><script>var = ;</script></onentry></final>
            </scxml>
            """.write(to: file, atomically: true, encoding: .utf8)
        let r = try cli.run(["validate", file.path])
        #expect(r.status == 1)
        #expect(r.stdout.contains("error[invalid-expression] line 4"))
        #expect(r.stdout.contains("<assign location=\"1 + x\">: not a location"))
        #expect(r.stdout.contains("error[invalid-expression] line 5"))
        #expect(r.stdout.contains("<transition cond=\"return\">"))
        #expect(r.stdout.contains("error[invalid-expression] line 8"))
        let run = try cli.run(["run", file.path])
        #expect(run.stdout.contains("start → b (final)"))
    }
}
