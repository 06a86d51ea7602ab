import Foundation
import Statechart
import Testing

@testable import StatechartInterchange

@Suite("SCION conformance (W3C SCXML 1.0 semantics)")
struct ConformanceTests {
    @Test(.enabled(if: Conformance.isAvailable, "SCION tests not found at ../shared/conformance/scion"))
    func allSCIONScenariosPass() {
        let cases = Conformance.cases
        #expect(cases.count == 87)
        var failures: [String] = []
        for c in cases {
            let result = c.run()
            if !result.passed {
                failures.append(
                    "\(c.name): " + (result.loadError ?? result.failures.map(\.description).joined(separator: "; ")))
            }
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    }

    @Test(.enabled(if: Conformance.isAvailable, "SCION tests not found at ../shared/conformance/scion"))
    func theSixLegacyVariantsAreIgnored() throws {
        // These json files also carry a `legacySemantics` object: only the top-level expectations count.
        let legacy = Conformance.cases.filter {
            (try? String(contentsOf: $0.scenario, encoding: .utf8))?.contains("legacySemantics") == true
        }
        #expect(legacy.count == 6)
        #expect(legacy.allSatisfy { $0.run().passed })
    }
}

@Suite("Scenario runner")
struct ScenarioRunnerTests {
    static let chart = document(
        """
        <state id="a">
          <transition event="t" target="b"><send event="tick" delay="100ms"/></transition>
        </state>
        <state id="b"><transition event="tick" target="c"/></state>
        <state id="c"><transition event="end" target="done"/></state>
        <final id="done"/>
        """)

    @Test func aPassingScenario() throws {
        let json = """
            {"initialConfiguration": ["a"], "events": [
              {"event": {"name": "t"}, "nextConfiguration": ["b"]},
              {"after": 99, "nextConfiguration": ["b"]},
              {"after": 1, "nextConfiguration": ["c"]},
              {"event": {"name": "end"}, "nextConfiguration": ["done"]},
              {"event": {"name": "ignored"}, "nextConfiguration": ["done"]}
            ], "legacySemantics": {"anything": true}}
            """
        let scenario = try Scenario.decode(Data(json.utf8))
        let result = ScenarioRunner.run(scenario, on: try SCXMLDocument.load(string: Self.chart))
        #expect(result.passed)
        #expect(result.steps.count == 6)
    }

    @Test func aFailingStepReportsExpectedAndActual() throws {
        let scenario = Scenario(
            initialConfiguration: ["a"],
            events: [
                .init(event: .init(name: "t"), nextConfiguration: ["c", "b"]),
                .init(after: 100, nextConfiguration: ["c"]),
            ])
        let result = ScenarioRunner.run(scenario, on: try SCXMLDocument.load(string: Self.chart), name: "demo")
        #expect(!result.passed)
        #expect(result.failures.count == 1)
        let failure = try #require(result.failures.first)
        #expect(failure.index == 1)
        #expect(failure.expected == ["b", "c"])
        #expect(failure.actual == ["b"])
        #expect(failure.description == "step 1 (event t): expected [b, c], actual [b]")
    }

    @Test func invalidScenariosAreTypedErrors() {
        #expect(throws: ScenarioError.self) { try Scenario.decode(Data("{\"events\": []}".utf8)) }
        #expect(throws: ScenarioError.self) { try Scenario.decode(Data("not json".utf8)) }
    }

    @Test func discoveryPairsChartsWithScenariosAndReportsLoadFailures() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("scenarios-\(UUID().uuidString)")
        let sub = dir.appendingPathComponent("sub")
        try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data(Self.chart.utf8).write(to: sub.appendingPathComponent("good.scxml"))
        try Data("{\"initialConfiguration\": [\"a\"], \"events\": []}".utf8).write(
            to: sub.appendingPathComponent("good.json"))
        try Data("<scxml".utf8).write(to: dir.appendingPathComponent("bad.scxml"))
        try Data("{\"initialConfiguration\": [], \"events\": []}".utf8).write(
            to: dir.appendingPathComponent("bad.json"))
        try Data(Self.chart.utf8).write(to: dir.appendingPathComponent("lonely.scxml"))
        let cases = try ScenarioDiscovery.cases(in: [dir])
        #expect(cases.map { $0.scxml.lastPathComponent } == ["bad.scxml", "good.scxml"])
        let results = cases.map { $0.run() }
        #expect(results.map(\.passed) == [false, true])
        #expect(results[0].loadError?.contains("malformed XML") == true)
        #expect(throws: ScenarioError.self) { try ScenarioDiscovery.cases(in: [dir.appendingPathComponent("nothing")]) }
    }
}
