import Foundation
import Statechart
import StatechartInterchange
import Testing

/// The SCXML twins of the four documented examples (`Specs/examples/`; their Swift versions are in
/// `Tests/ConformanceTests`), checked the way a user would check their own chart (issue 7 §2, §3):
/// `statechart validate --strict` is silent, and the scenarios `statechart paths` writes pass
/// through `statechart test` and enter every state the chart can reach.
@Suite("The documented examples as SCXML")
struct ExampleChartsTests {
    /// An example and what exploring it gives (the figures quoted in Docs/Testing.md).
    struct Example: Sendable, CustomTestStringConvertible {
        var name: String
        /// States of the chart (the root and history pseudo-states aside), all reachable.
        var states: Int
        /// Configurations `PathExplorer` reaches (history values and pending sends included).
        var configurations: Int
        /// Transitions, all taken by the covering paths.
        var transitions: Int
        /// Scenarios `statechart paths` writes (covering paths).
        var paths: Int
        var testDescription: String { name }
    }

    static let examples = [
        Example(name: "order", states: 10, configurations: 7, transitions: 10, paths: 5),
        Example(name: "sync", states: 6, configurations: 5, transitions: 6, paths: 2),
        Example(name: "app-launcher", states: 6, configurations: 6, transitions: 8, paths: 3),
        Example(name: "user-login", states: 12, configurations: 71, transitions: 22, paths: 15),
    ]

    static let directory = SpecFiles.directory.appendingPathComponent("examples")

    static func file(_ example: Example) -> URL { directory.appendingPathComponent(example.name + ".scxml") }

    @Test("statechart validate --strict exits 0 with no diagnostics", arguments: examples)
    func validatesStrictly(_ example: Example) throws {
        let r = try CommandLineTests().run(["validate", "--strict", Self.file(example).path])
        #expect(r.status == 0)
        #expect(r.stdout == "0 errors, 0 warnings\n")
        #expect(try SCXMLDocument.load(contentsOf: Self.file(example)).validate().isEmpty)
    }

    @Test("statechart paths writes scenarios that statechart test passes, entering every reachable state", arguments: examples)
    func generatedPaths(_ example: Example) throws {
        let cli = CommandLineTests()
        let dir = try cli.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let paths = try cli.run(["paths", Self.file(example).path, "--out", dir.path])
        #expect(paths.status == 0, "\(paths.stderr)")
        #expect(
            paths.stdout.hasPrefix(
                "\(example.configurations) configurations reached; \(example.transitions) of \(example.transitions) transitions taken; \(example.paths) scenarios written"
            ), "\(paths.stdout)")
        let scenarios = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".json") }.sorted()
        #expect(scenarios.count == example.paths)
        let test = try cli.run(["test", dir.path])
        #expect(test.status == 0)
        #expect(test.stdout.hasSuffix("\(example.paths) passed, 0 failed\n"), "\(test.stdout)")

        // The states the scenarios enter, from the engine's trace while replaying them.
        let chart = try SCXMLDocument.load(contentsOf: Self.file(example))
        var entered: Set<String> = []
        for name in scenarios {
            let scenario = try Scenario.load(contentsOf: dir.appendingPathComponent(name))
            var instance = ChartInstance(chart: chart, context: SCXMLContext())
            instance.isTracing = true
            try instance.start()
            for step in scenario.events {
                if let after = step.after { try instance.advance(by: .milliseconds(after)) }
                if let event = step.event { _ = try instance.send(SCXMLEvent(event.name)) }
            }
            for case .entered(let id) in instance.trace { entered.insert(id) }
        }
        // The states the library says are reachable: every state validate() does not call unreachable…
        let unreachable = Set(chart.validate().filter { $0.code == .unreachableState }.flatMap(\.states))
        let states = Set(
            chart.ids.indices.dropFirst().map { ChartStateID(Int32($0)) }.filter { !chart.kind(of: $0).isHistory }
                .map { chart.id(of: $0) })
        let reachable = states.subtracting(unreachable)
        #expect(states.count == example.states)
        #expect(reachable == states)
        let histories = Set(chart.ids.indices.filter { chart.kind(of: ChartStateID(Int32($0))).isHistory }.map { chart.ids[$0] })
        #expect(entered.subtracting(histories) == reachable, "missing: \(reachable.subtracting(entered).sorted())")
        // …and every atomic state of every configuration PathExplorer reaches.
        var start = ChartInstance(chart: chart, context: SCXMLContext())
        try start.start()
        let explored = PathExplorer.explore(from: start, alphabet: chart.descriptorEventNames().map { SCXMLEvent($0) })
        #expect(explored.shortestPaths.count == example.configurations)
        let atomic = Set(explored.shortestPaths.flatMap { [$0.initial] + $0.configurations }.joined())
        #expect(atomic.isSubset(of: entered))
    }
}
