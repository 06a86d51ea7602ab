import Statechart
import Testing

/// Runs a conformance scenario — the SCION format of `shared/conformance` and `Specs/` — against
/// a chart built in Swift, so that one scenario checks an SCXML chart and its Swift twin.
///
/// ```swift
/// @Test func orderFollowsItsSpec() throws {
///     try ScenarioCheck.run(
///         json: try Data(contentsOf: specURL),
///         machine: try StateMachine(order, context: Order()),
///         event: { name in OrderEvent(rawValue: name) })
/// }
/// ```
///
/// The scenario names states by their ids in the typed chart — dotted paths for nested states,
/// such as `"confirmed.authorizing"` — and events by name; `event` maps each name to a value of
/// the chart's `Event` type. The run follows the scenario format: the machine starts at virtual
/// time 0; each step advances the clock by `after` milliseconds (firing the delayed sends that fall
/// due), sends its event if it has one, and runs until idle. After the start and after each step
/// the set of active atomic state ids is compared with the expected one (a machine halted in a
/// top-level final state reports that state alone). As in SCXML, an event that nothing handles
/// changes nothing, and an event sent to a halted machine is ignored.
///
/// Each check that fails records an issue (Swift Testing's `Issue.record`) at the line of the call.
public enum ScenarioCheck {
    /// A scenario: the configuration expected after start, then steps.
    public struct Scenario: Hashable, Sendable, Decodable {
        /// The ids of the active atomic states expected once the machine has started.
        public var initialConfiguration: [String]
        /// The steps, in order.
        public var events: [Step]

        /// One step: an optional clock advance, an optional event, and the configuration after them.
        public struct Step: Hashable, Sendable, Decodable {
            /// The event to send, if any.
            public var event: EventName?
            /// Milliseconds to advance the virtual clock before the event.
            public var after: Double?
            /// The ids of the active atomic states expected after the step.
            public var nextConfiguration: [String]

            /// Creates a step.
            public init(event: String? = nil, after: Double? = nil, nextConfiguration: [String]) {
                self.event = event.map(EventName.init)
                self.after = after
                self.nextConfiguration = nextConfiguration
            }
        }

        /// The event of a step, as the JSON writes it: `{"name": "confirm"}`.
        public struct EventName: Hashable, Sendable, Decodable {
            /// The event's name.
            public var name: String

            /// Creates an event name.
            public init(name: String) { self.name = name }
        }

        /// Creates a scenario.
        public init(initialConfiguration: [String], events: [Step]) {
            self.initialConfiguration = initialConfiguration
            self.events = events
        }
    }

    /// The outcome of one check: the initial configuration, or one step.
    public struct StepResult: Hashable, Sendable, CustomStringConvertible {
        /// 0 for the initial configuration, then 1, 2, … for the steps.
        public var index: Int
        /// The event name of the step, if any.
        public var event: String?
        /// The milliseconds the clock was advanced before the event, if any.
        public var after: Double?
        /// The expected active atomic state ids, sorted.
        public var expected: [String]
        /// The active atomic state ids after the step, sorted.
        public var actual: [String]
        /// What went wrong besides the configuration: a machine error, an event name the mapping refused.
        public var error: String?

        /// Whether the configuration matched (as sets) and nothing went wrong.
        public var passed: Bool { error == nil && expected == actual }

        /// `initial configuration` or `step N (after X ms, event E)`, then both configurations.
        public var description: String {
            var what = "initial configuration"
            if index > 0 {
                var parts: [String] = []
                if let after { parts.append("after \(after) ms") }
                if let event { parts.append("event \(event)") }
                what = "step \(index)" + (parts.isEmpty ? "" : " (\(parts.joined(separator: ", ")))")
            }
            what += ": expected [\(expected.joined(separator: ", "))], actual [\(actual.joined(separator: ", "))]"
            if let error { what += "; \(error)" }
            return what
        }
    }

    /// The outcome of a scenario: the initial check, then one result per step.
    public struct Report: Hashable, Sendable {
        /// The checks, in order.
        public var steps: [StepResult]
        /// Whether every check passed.
        public var passed: Bool { steps.allSatisfy(\.passed) }
        /// The checks that failed.
        public var failures: [StepResult] { steps.filter { !$0.passed } }
    }

    /// Runs a scenario on a machine that has just started, recording an issue for each failed check.
    ///
    /// - Parameters:
    ///   - scenario: The scenario.
    ///   - machine: The machine, as created (its current configuration is checked as the initial one).
    ///   - name: Names the scenario in the issues.
    ///   - event: Maps an event name of the scenario to the chart's event; `nil` fails the step.
    ///   - fileID: The file of the call, where issues are recorded (leave the default).
    ///   - filePath: The path of that file (leave the default).
    ///   - line: The line of the call (leave the default).
    ///   - column: The column of the call (leave the default).
    /// - Returns: What each check found.
    @discardableResult
    public static func run<State, Event, Context>(
        _ scenario: Scenario,
        machine: StateMachine<State, Event, Context>,
        name: String = "scenario",
        event: (String) -> Event?,
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
    ) -> Report {
        let location = Testing.SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        var machine = machine
        machine.options.throwsOnUnhandledEvent = false  // SCXML: an unhandled event changes nothing (R18)
        var results = [
            StepResult(
                index: 0, event: nil, after: nil, expected: sorted(scenario.initialConfiguration),
                actual: sorted(machine.activeStateIDs), error: nil)
        ]
        for (k, step) in scenario.events.enumerated() {
            var error: String?
            do {
                if let after = step.after, after > 0 { try machine.advance(by: .milliseconds(after)) }
                if let eventName = step.event?.name {
                    if let value = event(eventName) {
                        if !machine.isFinished { try machine.send(value) }
                    } else {
                        error = "no event of \(Event.self) is named '\(eventName)'"
                    }
                }
            } catch let e {
                error = "\(e)"
            }
            results.append(
                StepResult(
                    index: k + 1, event: step.event?.name, after: step.after, expected: sorted(step.nextConfiguration),
                    actual: sorted(machine.activeStateIDs), error: error))
        }
        for failure in results where !failure.passed {
            Issue.record(Comment(rawValue: "\(name): \(failure)"), sourceLocation: location)
        }
        return Report(steps: results)
    }

    /// Starts a machine and runs a scenario on it, recording an issue for each failed check.
    ///
    /// - Throws: ``Failure/machine(_:)`` when the machine cannot start.
    @discardableResult
    public static func run<State, Event, Context>(
        _ scenario: Scenario,
        machine: Machine<State, Event, Context>,
        context: Context,
        name: String = "scenario",
        event: (String) -> Event?,
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
    ) throws(Failure) -> Report {
        let running: StateMachine<State, Event, Context>
        do {
            running = try StateMachine(machine, context: context)
        } catch {
            throw .machine(error)
        }
        return run(
            scenario, machine: running, name: name, event: event,
            fileID: fileID, filePath: filePath, line: line, column: column)
    }

    private static func sorted(_ ids: [String]) -> [String] { Array(Set(ids)).sorted() }
}
