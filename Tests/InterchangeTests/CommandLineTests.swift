import Foundation
import Testing

/// End-to-end tests of the `statechart` executable, run as a separate process.
@Suite("statechart command")
struct CommandLineTests {
    struct Output {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// The built `statechart` binary, next to the test bundle.
    static var binary: URL? {
        var dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<3 {
            let candidate = dir.appendingPathComponent("statechart")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            dir = dir.deletingLastPathComponent()
        }
        return nil
    }

    func run(_ arguments: [String]) throws -> Output {
        let binary = try #require(Self.binary, "the statechart binary was not built next to the tests")
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Output(status: process.terminationStatus, stdout: String(decoding: o, as: UTF8.self), stderr: String(decoding: e, as: UTF8.self))
    }

    func temporaryDirectory() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("statechart-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    @Test("no arguments runs the built-in order example with its payment child")
    func builtInExample() throws {
        let r = try run([])
        #expect(r.status == 0)
        #expect(r.stdout.contains("confirm → [confirmed.authorizing]"))
        #expect(r.stdout.contains("capture → [shipped]"))
        #expect(r.stdout.contains("raise done.state.confirmed"))
    }

    @Test("test prints one line per failing scenario and ends with 'N passed, M failed'")
    func testCommand() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let chart = """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" initial="a">
              <state id="a"><transition event="t" target="b"/></state>
              <state id="b"/>
            </scxml>
            """
        try chart.write(to: dir.appendingPathComponent("good.scxml"), atomically: true, encoding: .utf8)
        try #"{"initialConfiguration":["a"],"events":[{"event":{"name":"t"},"nextConfiguration":["b"]}]}"#
            .write(to: dir.appendingPathComponent("good.json"), atomically: true, encoding: .utf8)
        try chart.write(to: dir.appendingPathComponent("bad.scxml"), atomically: true, encoding: .utf8)
        try #"{"initialConfiguration":["a"],"events":[{"event":{"name":"t"},"nextConfiguration":["a"]}]}"#
            .write(to: dir.appendingPathComponent("bad.json"), atomically: true, encoding: .utf8)
        try "<scxml".write(to: dir.appendingPathComponent("broken.scxml"), atomically: true, encoding: .utf8)
        try #"{"initialConfiguration":[],"events":[]}"#
            .write(to: dir.appendingPathComponent("broken.json"), atomically: true, encoding: .utf8)
        let r = try run(["test", dir.path])
        #expect(r.status == 1)
        #expect(r.stdout.hasSuffix("1 passed, 2 failed\n"))
        #expect(r.stdout.contains("bad"))
        #expect(r.stdout.contains("broken"))
    }

    static let scionRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/conformance/scion")

    @Test(
        "test passes all 87 SCION scenarios",
        .enabled(if: FileManager.default.fileExists(atPath: scionRoot.path), "../shared/conformance/scion is not beside the package"))
    func scion() throws {
        let r = try run(["test", Self.scionRoot.path])
        #expect(r.status == 0)
        #expect(r.stdout.hasSuffix("87 passed, 0 failed\n"))
    }

    @Test("run prints the configuration after start and after each event; errors go to stderr")
    func runCommand() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("c.scxml")
        try """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0">
              <state id="a"><transition event="t" target="b"/></state>
              <state id="b"/>
            </scxml>
            """.write(to: file, atomically: true, encoding: .utf8)
        let r = try run(["run", file.path, "t"])
        #expect(r.status == 0)
        #expect(r.stdout.contains("a"))
        #expect(r.stdout.contains("b"))
        let missing = try run(["run", dir.appendingPathComponent("nope.scxml").path])
        #expect(missing.status != 0)
        #expect(!missing.stderr.isEmpty)
        let usage = try run(["frobnicate"])
        #expect(usage.status != 0)
        #expect(usage.stderr.contains("unknown command"))
    }

    @Test("validate flags an eventless cycle as an error, warnings only with --strict, and load errors with their line")
    func validateCommand() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let loop = dir.appendingPathComponent("loop.scxml")
        try """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0">
              <state id="a"><transition event="go" target="b"/></state>
              <state id="b"><transition target="c"/></state>
              <state id="c"><transition target="b"/></state>
            </scxml>
            """.write(to: loop, atomically: true, encoding: .utf8)
        let r = try run(["validate", loop.path])
        #expect(r.status == 1)
        #expect(r.stdout.contains("error[eventless-cycle]"))
        let island = dir.appendingPathComponent("island.scxml")
        try """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0">
              <state id="a"><transition event="go" target="b"/></state>
              <final id="b"/>
              <state id="island"><transition event="x" target="a"/></state>
            </scxml>
            """.write(to: island, atomically: true, encoding: .utf8)
        let lenient = try run(["validate", island.path])
        #expect(lenient.status == 0)
        #expect(lenient.stdout.contains("warning[unreachable-state] line 4"))
        #expect(try run(["validate", "--strict", island.path]).status == 1)
        let broken = dir.appendingPathComponent("broken.scxml")
        try "<scxml xmlns=\"http://www.w3.org/2005/07/scxml\">\n<state id=\"a\"><transition target=\"nowhere\"/></state>\n</scxml>"
            .write(to: broken, atomically: true, encoding: .utf8)
        let failed = try run(["validate", broken.path])
        #expect(failed.status == 1)
        #expect(failed.stdout.contains("invalid-chart") && failed.stdout.contains("line 2"))
    }

    @Test("paths writes scenarios that take every transition, and test runs them")
    func pathsCommand() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let chart = dir.appendingPathComponent("door.scxml")
        try """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0">
              <state id="closed"><transition event="open" target="opened"/><transition event="lock" target="locked"/></state>
              <state id="opened"><transition event="close" target="closed"/></state>
              <state id="locked"><transition event="unlock" target="closed"/></state>
            </scxml>
            """.write(to: chart, atomically: true, encoding: .utf8)
        let out = dir.appendingPathComponent("paths")
        let r = try run(["paths", chart.path, "--out", out.path])
        #expect(r.status == 0)
        #expect(r.stdout.contains("4 of 4 transitions taken"))
        let t = try run(["test", out.path])
        #expect(t.status == 0)
        #expect(t.stdout.hasSuffix(" passed, 0 failed\n"))
    }

    @Test("R93: run serves the chart over Basic HTTP (a send to its own location arrives); --no-http runs without")
    func runServesHTTP() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let chart = dir.appendingPathComponent("http.scxml")
        try """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="ecmascript" initial="s0">
              <state id="s0">
                <onentry>
                  <send event="ping" type="basichttp" targetexpr="_ioprocessors.basichttp.location"/>
                  <send event="timeout" delay="1s"/>
                </onentry>
                <transition event="ping" cond="_event.raw.search(/^POST /) === 0" target="pass"/>
                <transition event="error.execution" target="off"/>
                <transition event="*" target="fail"/>
              </state>
              <final id="pass"/>
              <final id="off"/>
              <final id="fail"/>
            </scxml>
            """.write(to: chart, atomically: true, encoding: .utf8)
        let served = try run(["run", chart.path, "+2s"])
        #expect(served.status == 0)
        #expect(served.stdout.contains("start → pass (final)"))
        let without = try run(["run", chart.path, "--no-http", "+2s"])
        #expect(without.stdout.contains("start → off (final)"))
    }
}
