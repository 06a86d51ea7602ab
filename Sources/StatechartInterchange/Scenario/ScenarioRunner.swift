import Foundation
import Statechart

/// The outcome of one check of a scenario: the initial configuration, or one step.
public struct ScenarioStepResult: Hashable, Sendable {
    /// 0 for the initial configuration, then 1, 2, … for the steps.
    public var index: Int
    /// The event sent by the step, if any.
    public var event: String?
    /// The milliseconds the clock was advanced before the event, if any.
    public var after: Double?
    /// The expected active atomic state ids, sorted.
    public var expected: [String]
    /// The active atomic state ids after the step, sorted.
    public var actual: [String]
    /// A machine error reported during the step, if any: the step fails.
    public var error: String?
    /// The `error.execution` events the step raised (rule R82). They are part of an SCXML chart's
    /// run — the chart handles them like any event — so they do not fail the step.
    public var executionErrors: [String] = []

    /// Whether the configuration matched (as sets) and no error was reported.
    public var passed: Bool { error == nil && expected == actual }

    /// A one-line account: `initial configuration` or `step N (after X ms, event E)`, then the
    /// expected and actual configurations.
    public var description: String {
        var what: String
        if index == 0 {
            what = "initial configuration"
        } else {
            var parts: [String] = []
            if let after { parts.append("after \(after.formatted(decimals: 3)) ms") }
            if let event { parts.append("event \(event)") }
            what = "step \(index)" + (parts.isEmpty ? "" : " (\(parts.joined(separator: ", ")))")
        }
        what += ": expected [\(expected.joined(separator: ", "))], actual [\(actual.joined(separator: ", "))]"
        if let error { what += "; error: \(error)" }
        return what
    }
}

/// The outcome of running one scenario.
public struct ScenarioResult: Hashable, Sendable {
    /// The scenario's name (its chart's path, for files).
    public var name: String
    /// Why the chart or the scenario could not be loaded, if so (the scenario then fails).
    public var loadError: String?
    /// The initial configuration check, then one result per step.
    public var steps: [ScenarioStepResult]

    /// Whether everything loaded and every check passed.
    public var passed: Bool { loadError == nil && steps.allSatisfy(\.passed) }

    /// The checks that failed.
    public var failures: [ScenarioStepResult] { steps.filter { !$0.passed } }
}

/// Runs conformance scenarios against charts, on virtual time.
///
/// The machine starts at time 0 and runs until idle; then each step advances the clock by `after`
/// milliseconds (firing the delayed sends that fall due, in due order, each as an external
/// event), sends its event if it has one, and runs until idle. After the start and after each step
/// the set of active atomic state ids is compared with the expected one (a machine halted in a
/// top-level final state reports that state alone). An event sent to a halted machine is ignored.
public enum ScenarioRunner {
    /// Runs a scenario on a chart whose events are their names (a scenario event's data is not sent).
    public static func run<C>(
        _ scenario: Scenario, on chart: Chart<String, C>, context: C, name: String = "scenario"
    ) -> ScenarioResult {
        run(scenario, on: chart, context: context, name: name) { $0.name }
    }

    /// Runs a scenario on a chart, making each of its events with `event`.
    public static func run<E, C>(
        _ scenario: Scenario, on chart: Chart<E, C>, context: C, name: String = "scenario",
        event makeEvent: (Scenario.Event) -> E
    ) -> ScenarioResult {
        var instance = ChartInstance(chart: chart, context: context)
        return drive(scenario, &instance, name: name, event: makeEvent)
    }

    /// Runs a scenario on a machine: the checks of the start and of every step.
    private static func drive<M: ScenarioMachine>(
        _ scenario: Scenario, _ instance: inout M, name: String, event makeEvent: (Scenario.Event) -> M.Event
    ) -> ScenarioResult {
        var results: [ScenarioStepResult] = []
        var error: String?
        var executionErrors: [String] = []
        /// Runs one input; execution errors are noted, and do not stop the step (the run went on).
        func attempt(_ body: () throws(MachineError) -> Void) {
            do throws(MachineError) {
                try body()
            } catch .executionFailed(let messages) {
                executionErrors += messages
            } catch let e {
                if error == nil { error = e.description }
            }
        }
        attempt { () throws(MachineError) in try instance.start() }
        results.append(
            ScenarioStepResult(
                index: 0, event: nil, after: nil, expected: normalized(scenario.initialConfiguration),
                actual: normalized(instance.activeAtomicIDs), error: error, executionErrors: executionErrors))
        for (k, step) in scenario.events.enumerated() {
            error = nil
            executionErrors = []
            if let after = step.after, after > 0 {
                attempt { () throws(MachineError) in try instance.advance(by: .milliseconds(after)) }
            }
            if let event = step.event, instance.isRunning, error == nil {
                attempt { () throws(MachineError) in _ = try instance.send(makeEvent(event)) }
            }
            results.append(
                ScenarioStepResult(
                    index: k + 1, event: step.event?.name, after: step.after,
                    expected: normalized(step.nextConfiguration), actual: normalized(instance.activeAtomicIDs),
                    error: error, executionErrors: executionErrors))
        }
        return ScenarioResult(name: name, loadError: nil, steps: results)
    }

    /// Runs a scenario on a chart loaded from SCXML, with the sessions its `<invoke>`s start (rule R86).
    public static func run(_ scenario: Scenario, on chart: SCXMLChart, name: String = "scenario") -> ScenarioResult {
        var session = SCXMLSession(chart: chart)
        return drive(scenario, &session, name: name) { SCXMLEvent($0.name, data: $0.data ?? .undefined) }
    }

    /// Loads an SCXML file and its scenario and runs it; a load failure is a failed result.
    public static func run(scxml: URL, scenario: URL) -> ScenarioResult {
        let name = scxml.path
        do {
            let chart = try SCXMLDocument.load(contentsOf: scxml)
            do {
                return run(try Scenario.load(contentsOf: scenario), on: chart, name: name)
            } catch let e {
                return ScenarioResult(name: name, loadError: e.description, steps: [])
            }
        } catch let e {
            return ScenarioResult(name: name, loadError: e.description, steps: [])
        }
    }

    private static func normalized(_ ids: [String]) -> [String] { Array(Set(ids)).sorted() }
}

/// What a scenario drives: a chart instance, or an SCXML session with its invocations.
protocol ScenarioMachine {
    associatedtype Event
    var activeAtomicIDs: [String] { get }
    var isRunning: Bool { get }
    mutating func start() throws(MachineError)
    mutating func advance(by duration: Duration) throws(MachineError)
    mutating func send(_ event: Event) throws(MachineError) -> Bool
}

extension ChartInstance: ScenarioMachine {}

extension SCXMLSession: ScenarioMachine {
    var activeAtomicIDs: [String] { root.activeAtomicIDs }
}

extension Double {
    /// The number without a trailing `.0`, with at most `decimals` decimals.
    func formatted(decimals: Int) -> String {
        if self == rounded(), abs(self) < 1e15 { return String(Int64(self)) }
        var s = String(self)
        if let dot = s.firstIndex(of: "."), s.distance(from: dot, to: s.endIndex) > decimals + 1 {
            s = String(s[...s.index(dot, offsetBy: decimals)])
        }
        return s
    }
}
