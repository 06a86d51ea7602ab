import Statechart

/// The trace as the command prints it and the run page shows it: one line per step (rule R77).
///
/// An action declared without a name is traced with the placeholder label `action`, and
/// `action action` tells a reader nothing. Such an action is printed by what it belongs to: the
/// last structural step before it is the transition whose actions run, or the state whose entry
/// or exit actions run (the interpreter records a state's exit before its exit actions and its
/// entry before its entry actions, rule R8).
package enum TraceLines {
    /// The label the interpreter gives an action without a name.
    package static let unnamedLabel = "action"

    /// One line per step of `trace`.
    package static func lines(_ trace: [TraceStep]) -> [String] {
        var owner: String?
        return trace.map { step in
            switch step {
            case .transition(let source, let ordinal, let targets):
                let arrow = targets.isEmpty ? " (targetless)" : " → " + targets.joined(separator: " ")
                owner = "on transition \(source)[\(ordinal)]\(arrow)"
            case .entered(let state):
                owner = "on entry to \(state)"
            case .exited(let state):
                owner = "on exit from \(state)"
            case .event, .halted:
                owner = nil
            case .action(let label) where label == unnamedLabel:
                return "action (unnamed) " + (owner ?? "outside any transition or state")
            default:
                break
            }
            return step.description
        }
    }
}
