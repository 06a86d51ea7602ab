import Foundation
import Statechart
import StatechartTesting
import Testing

@Suite("ScenarioCheck")
struct ScenarioCheckTests {
    /// A spec of the repository (an SCXML chart with its scenario), read from `Specs/`.
    static func spec(_ path: String) throws -> Data {
        let root = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return try Data(contentsOf: root.appendingPathComponent("Specs/\(path).json"))
    }

    // MARK: - Swift twins of SCXML specs: one scenario checks both charts

    enum Halting: String, Hashable, Sendable { case a, end }
    enum HaltingEvent: String, Hashable, Sendable { case t, more }

    @Test("Specs/final-states/top-level-final-halts.json checks the Swift twin of its SCXML chart (R15)")
    func topLevelFinalHalts() throws {
        // <state id="a"><transition event="t" target="end"><raise event="more"/></transition></state>
        // <final id="end"/>
        let twin = Machine<Halting, HaltingEvent, Void>(initial: .a) {
            When(.a) { On(.t, to: .end) { $0.raise(.more) } }
            Final(.end)
        }
        let report = try ScenarioCheck.run(
            json: try Self.spec("final-states/top-level-final-halts"), machine: twin, context: (),
            name: "top-level-final-halts", event: { HaltingEvent(rawValue: $0) })
        #expect(report.passed)
        #expect(report.steps.count == 4)
    }

    enum Delayed: String, Hashable, Sendable { case a, b, c }
    enum DelayedEvent: String, Hashable, Sendable { case t, tick }

    @Test("Specs/time/delayed-send-fires-when-due.json: `after` advances the machine's virtual clock (R17)")
    func delayedSend() throws {
        // <state id="a"><transition event="t" target="b"><send event="tick" delay="100ms"/></transition></state>
        // <state id="b"><transition event="tick" target="c"/></state>  <state id="c"/>
        let twin = Machine<Delayed, DelayedEvent, Void>(initial: .a) {
            When(.a) { On(.t, to: .b) { $0.send(.tick, after: .milliseconds(100)) } }
            When(.b) { On(.tick, to: .c) }
            When(.c) {}
        }
        let machine = try StateMachine(twin, context: ())
        try ScenarioCheck.run(json: try Self.spec("time/delayed-send-fires-when-due"), machine: machine) {
            DelayedEvent(rawValue: $0)
        }
    }

    // MARK: - Nested charts: dotted ids

    static let orderScenario = """
        {"initialConfiguration": ["pending"],
         "events": [
            {"event": {"name": "confirm"}, "nextConfiguration": ["confirmed.authorizing"]},
            {"event": {"name": "ship"}, "nextConfiguration": ["confirmed.authorizing"]},
            {"after": 30000, "nextConfiguration": ["confirmed.declined"]},
            {"event": {"name": "cancel"}, "nextConfiguration": ["cancelled"]}
         ]}
        """

    @Test("Nested states are named by their dotted ids; an event nothing handles changes nothing (R18, R21, R53)")
    func nestedChart() throws {
        let report = try ScenarioCheck.run(
            json: Self.orderScenario, machine: try StateMachine(order, context: Order()),
            event: { name in name == "ship" ? .deliver : OrderEvent(rawValue: name) })
        #expect(report.passed)
        #expect(report.steps.map(\.actual) == [["pending"], ["confirmed.authorizing"], ["confirmed.authorizing"], ["confirmed.declined"], ["cancelled"]])
    }

    @Test("A scenario built in Swift runs the same way")
    func scenarioValue() throws {
        let scenario = ScenarioCheck.Scenario(
            initialConfiguration: ["pending"],
            events: [.init(event: "cancel", nextConfiguration: ["cancelled"])])
        let report = try ScenarioCheck.run(scenario, machine: order, context: Order()) { OrderEvent(rawValue: $0) }
        #expect(report.passed)
    }

    // MARK: - Failures

    @Test("A configuration that differs from the scenario's is an issue at the line of the call, naming the step")
    func catchesWrongConfiguration() throws {
        let json = """
            {"initialConfiguration": ["pending"],
             "events": [{"event": {"name": "confirm"}, "nextConfiguration": ["confirmed.authorized"]}]}
            """
        var report: ScenarioCheck.Report?
        let line = #line + 2
        try withKnownIssue {
            report = try ScenarioCheck.run(
                json: json, machine: try StateMachine(order, context: Order()), name: "order.json",
                event: { OrderEvent(rawValue: $0) })
        } matching: { issue in
            issue.sourceLocation?.line == line
                && issue.comments.map(\.rawValue).joined() == """
                    order.json: step 1 (event confirm): expected [confirmed.authorized], \
                    actual [confirmed.authorizing]
                    """
        }
        #expect(report?.failures.map(\.index) == [1])
    }

    @Test("An event name the mapping does not know fails its step")
    func catchesUnknownEvent() throws {
        let json = """
            {"initialConfiguration": ["pending"],
             "events": [{"event": {"name": "teleport"}, "nextConfiguration": ["pending"]}]}
            """
        try withKnownIssue {
            try ScenarioCheck.run(json: json, machine: order, context: Order()) { OrderEvent(rawValue: $0) }
        } matching: { issue in
            issue.comments.map(\.rawValue).joined().contains("no event of OrderEvent is named 'teleport'")
        }
    }

    @Test("JSON that is not a scenario throws, naming what is wrong")
    func rejectsInvalidJSON() throws {
        #expect(throws: ScenarioCheck.Failure.invalidJSON("missing key 'nextConfiguration' at .events[0]")) {
            try ScenarioCheck.run(
                json: #"{"initialConfiguration": [], "events": [{"event": {"name": "x"}}]}"#, machine: order,
                context: Order(), event: { OrderEvent(rawValue: $0) })
        }
    }
}
