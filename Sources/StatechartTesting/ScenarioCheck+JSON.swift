// JSON decoding is the only use of Foundation in StatechartTesting; the Statechart library itself
// stays Foundation-free. FoundationEssentials (where it exists) is the light part that has
// JSONDecoder.
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Statechart

extension ScenarioCheck {
    /// Why a scenario could not be run.
    public enum Failure: Error, Hashable, Sendable, CustomStringConvertible {
        /// The JSON is not a scenario: the reason names the key or value at fault.
        case invalidJSON(String)
        /// The machine could not be started.
        case machine(MachineError)

        /// A one-line explanation.
        public var description: String {
            switch self {
            case .invalidJSON(let reason): return "not a valid scenario: \(reason)"
            case .machine(let error): return "the machine could not start: \(error)"
            }
        }
    }

    /// Decodes a scenario from JSON (other keys, such as SCION's `legacySemantics`, are ignored).
    ///
    /// - Throws: ``Failure/invalidJSON(_:)``.
    public static func scenario(json: Data) throws(Failure) -> Scenario {
        do {
            return try JSONDecoder().decode(Scenario.self, from: json)
        } catch let error as DecodingError {
            throw .invalidJSON(describe(error))
        } catch {
            throw .invalidJSON("\(error)")
        }
    }

    /// Runs a scenario given as JSON on a machine that has just started, recording an issue for
    /// each failed check.
    ///
    /// - Parameters:
    ///   - json: The scenario, in the format of `shared/conformance` (UTF-8 JSON).
    ///   - machine: The machine, as created (its current configuration is checked as the initial one).
    ///   - name: Names the scenario in the issues (its file, say).
    ///   - event: Maps an event name of the scenario to the chart's event; `nil` fails the step.
    ///   - fileID: The file of the call, where issues are recorded (leave the default).
    ///   - filePath: The path of that file (leave the default).
    ///   - line: The line of the call (leave the default).
    ///   - column: The column of the call (leave the default).
    /// - Returns: What each check found.
    /// - Throws: ``Failure/invalidJSON(_:)`` when the JSON is not a scenario.
    @discardableResult
    public static func run<State, Event, Context>(
        json: Data,
        machine: StateMachine<State, Event, Context>,
        name: String = "scenario",
        event: (String) -> Event?,
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
    ) throws(Failure) -> Report {
        run(
            try scenario(json: json), machine: machine, name: name, event: event,
            fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// Runs a scenario given as a JSON string on a machine that has just started; see
    /// ``run(json:machine:name:event:fileID:filePath:line:column:)-(Data,_,_,_,_,_,_,_)``.
    ///
    /// - Throws: ``Failure/invalidJSON(_:)`` when the JSON is not a scenario.
    @discardableResult
    public static func run<State, Event, Context>(
        json: String,
        machine: StateMachine<State, Event, Context>,
        name: String = "scenario",
        event: (String) -> Event?,
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
    ) throws(Failure) -> Report {
        try run(
            json: Data(json.utf8), machine: machine, name: name, event: event,
            fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// Starts a machine and runs a scenario given as JSON on it, recording an issue for each
    /// failed check.
    ///
    /// - Throws: ``Failure/invalidJSON(_:)``, or ``Failure/machine(_:)`` when the machine cannot start.
    @discardableResult
    public static func run<State, Event, Context>(
        json: Data,
        machine: Machine<State, Event, Context>,
        context: Context,
        name: String = "scenario",
        event: (String) -> Event?,
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
    ) throws(Failure) -> Report {
        try run(
            try scenario(json: json), machine: machine, context: context, name: name, event: event,
            fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// Starts a machine and runs a scenario given as a JSON string on it; see
    /// ``run(json:machine:context:name:event:fileID:filePath:line:column:)-(Data,_,_,_,_,_,_,_,_)``.
    ///
    /// - Throws: ``Failure/invalidJSON(_:)``, or ``Failure/machine(_:)`` when the machine cannot start.
    @discardableResult
    public static func run<State, Event, Context>(
        json: String,
        machine: Machine<State, Event, Context>,
        context: Context,
        name: String = "scenario",
        event: (String) -> Event?,
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
    ) throws(Failure) -> Report {
        try run(
            json: Data(json.utf8), machine: machine, context: context, name: name, event: event,
            fileID: fileID, filePath: filePath, line: line, column: column)
    }

    private static func describe(_ error: DecodingError) -> String {
        func path(_ keys: [any CodingKey]) -> String {
            keys.isEmpty ? "the top level" : keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        }
        switch error {
        case .keyNotFound(let key, let context):
            return "missing key '\(key.stringValue)' at \(path(context.codingPath))"
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            return "\(context.debugDescription) at \(path(context.codingPath))"
        case .dataCorrupted(let context):
            return context.debugDescription
        @unknown default:
            return "\(error)"
        }
    }
}
