/// Why a running machine refused a request or reported a failure. Each case names what is involved.
public enum MachineError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The machine has not been started.
    case notStarted
    /// The machine reached a top-level final state; only `reset()` brings it back.
    case finished(finalState: String)
    /// No transition handles the event in the current configuration (the event was dropped).
    case eventNotHandled(event: String, configuration: [String])
    /// A requested transition is not a declared route from the current state, nor to a global state.
    case illegalTransition(from: String, to: String)
    /// The current state of that level is final: it cannot be left by a request.
    case finalState(String)
    /// A barrier denied the transition to this state.
    case transitionDenied(to: String)
    /// Barriers redirected in a cycle (or past the redirect limit); the states visited in order.
    case redirectCycle([String])
    /// A request or dynamic target named a state the chart does not have.
    case unknownState(String)
    /// The requested state is already active (only when `alreadyInState` errors are enabled).
    case alreadyInState(String)
    /// A state has no dynamic transition to run.
    case noDynamicTransition(String)
    /// A macrostep ran more microsteps than the limit: eventless transitions or raised events keep
    /// enabling each other. Lists the states and events of the last microsteps.
    case microstepLimitExceeded(limit: Int, states: [String], events: [String])
    /// Actions or guards threw during the run; each message names where. The macrostep completed
    /// and the chart saw an `error.execution` event for each.
    case executionFailed([String])
    /// A snapshot or restore request does not fit the chart.
    case invalidSnapshot(String)
    /// The machine's declaration is not a valid chart.
    case invalidChart(ChartError)
    /// Middleware refused the event (it threw, or did not call `next`); nothing changed.
    case transitionRejected(event: String)

    /// A one-line explanation.
    public var description: String {
        switch self {
        case .notStarted: return "the machine has not been started"
        case .finished(let f): return "the machine has finished in final state '\(f)'"
        case .eventNotHandled(let e, let c): return "no transition handles '\(e)' in [\(c.joined(separator: ", "))]"
        case .illegalTransition(let f, let t): return "no route from '\(f)' to '\(t)'"
        case .finalState(let s): return "'\(s)' is a final state and cannot be left"
        case .transitionDenied(let t): return "the barrier of '\(t)' denied the transition"
        case .redirectCycle(let p): return "barrier redirects form a cycle: \(p.joined(separator: " → "))"
        case .unknownState(let s): return "unknown state '\(s)'"
        case .alreadyInState(let s): return "already in state '\(s)'"
        case .noDynamicTransition(let s): return "'\(s)' has no dynamic transition"
        case .microstepLimitExceeded(let l, let s, let e):
            return "a macrostep exceeded \(l) microsteps; cycling through states [\(s.joined(separator: ", "))] and events [\(e.joined(separator: ", "))]"
        case .executionFailed(let m): return "actions failed: " + m.joined(separator: "; ")
        case .invalidSnapshot(let m): return "invalid snapshot: \(m)"
        case .invalidChart(let e): return "invalid chart: \(e)"
        case .transitionRejected(let e): return "middleware rejected '\(e)'"
        }
    }
}
