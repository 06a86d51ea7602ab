/// One step of a machine's run, as recorded by its trace.
///
/// The trace is the exact order of what the interpreter did: the conformance Specs, the CLI's
/// `--trace` and the test store all read it.
public enum TraceStep: Hashable, Sendable, CustomStringConvertible {
    /// A macrostep began processing this event (its name); `external` tells which queue it came from.
    case event(String, external: Bool)
    /// A state was exited (after its exit actions ran).
    case exited(String)
    /// A transition's actions are about to run: its source and its index among the source's transitions.
    case transition(source: String, ordinal: Int, targets: [String])
    /// A state was entered (before its entry actions ran).
    case entered(String)
    /// An action ran (its label).
    case action(String)
    /// An event was put on the internal queue.
    case raised(String)
    /// An event was put on the external queue (with its delay, zero when none).
    case sent(String, delay: Duration)
    /// An event enabled no transition and was dropped.
    case dropped(String)
    /// A `<log>` line or `scope.log(_:)` message.
    case log(String)
    /// An action or guard threw; the message names it.
    case error(String)
    /// The machine reached a top-level final state and stopped.
    case halted(String)

    /// A compact one-line rendering.
    public var description: String {
        switch self {
        case .event(let e, let external): return (external ? "event " : "internal event ") + e
        case .exited(let s): return "exit \(s)"
        case .transition(let s, let o, let t):
            return "transition \(s)[\(o)]" + (t.isEmpty ? "" : " → \(t.joined(separator: " "))")
        case .entered(let s): return "enter \(s)"
        case .action(let a): return "action \(a)"
        case .raised(let e): return "raise \(e)"
        case .sent(let e, let d): return d == .zero ? "send \(e)" : "send \(e) after \(d)"
        case .dropped(let e): return "drop \(e)"
        case .log(let m): return "log \(m)"
        case .error(let m): return "error \(m)"
        case .halted(let s): return "halt in \(s)"
        }
    }
}
