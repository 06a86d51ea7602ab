/// Code that runs around every external event an ``AsyncStateMachine`` processes
/// (swift-state-kit's middleware; rule R55).
///
/// Middleware runs in registration order, the first registered outermost. Each must call `next`
/// for the event to be processed; throwing rejects it with that error, and returning without
/// calling `next` rejects it too (``MachineError/transitionRejected(event:)``) — unlike
/// swift-state-kit, where the transition still committed. Nothing changes before the innermost
/// `next` runs, so a rejected event leaves the machine exactly as it was.
public protocol TransitionMiddleware<Event>: Sendable {
    /// The machine's event type.
    associatedtype Event: Hashable & Sendable
    /// Intercepts an event sent while the machine's active state ids are `configuration`.
    func intercept(event: Event, configuration: [String], next: @Sendable () async throws -> Void) async throws
}

/// Receives every step the interpreter takes: exits, transitions, entries, actions, raised,
/// sent and dropped events (rule R56).
///
/// To log through swift-log or `os.Logger` without the library depending on either, conform a
/// small type of your own:
/// ```swift
/// struct LoggingTracer: StatechartTracer {
///     let logger: Logger                       // swift-log or os.Logger
///     func record(_ step: TraceStep, machine: String) {
///         logger.debug("\(machine): \(step)")
///     }
/// }
/// ```
public protocol StatechartTracer: Sendable {
    /// Called for each step, in order, after the operation that produced it.
    func record(_ step: TraceStep, machine: String)
}

/// Prints each step to standard output: `[Statechart] order: exit pending`.
public struct ConsoleTracer: StatechartTracer {
    /// Creates the tracer.
    public init() {}
    /// Prints the step.
    public func record(_ step: TraceStep, machine: String) {
        print("[Statechart] \(machine): \(step)")
    }
}
