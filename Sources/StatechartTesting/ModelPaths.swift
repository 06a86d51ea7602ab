import Statechart
import Testing

/// Model-based paths from Swift tests: a chart's transition coverage in one line.
///
/// ```swift
/// @Test func everyTransitionIsReachable() throws {
///     try ModelPaths.checkCoverage(orderMachine, context: Order(), events: OrderEvent.allCases)
/// }
/// ```
public enum ModelPaths {
    /// Explores the machine from its start with every event of `events` in every configuration it
    /// reaches (and the passing of time to each pending delayed send), and records a test issue
    /// for every transition no path takes and when exploration stops at `limit`.
    ///
    /// - Returns: What exploration found: the shortest path to every configuration and a set of
    ///   paths that together take every transition reached (``PathExplorer/Result``).
    @discardableResult
    public static func checkCoverage<State, Event, Context>(
        _ machine: Machine<State, Event, Context>, context: Context, events: [Event], limit: Int = 10_000,
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
    ) throws -> PathExplorer<Event, Context>.Result {
        let location = Testing.SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        let running = try StateMachine(machine, context: context)
        let result = PathExplorer.explore(from: running.instance, alphabet: events, limit: limit)
        let missed = result.allTransitions.subtracting(result.coveredTransitions).sorted()
        if !missed.isEmpty {
            Issue.record("no path takes \(missed.joined(separator: ", "))", sourceLocation: location)
        }
        if result.reachedLimit {
            Issue.record("exploration stopped at the limit of \(limit) configurations", sourceLocation: location)
        }
        return result
    }
}
