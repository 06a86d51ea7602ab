/// Why a chart definition cannot be compiled. Each case names the states involved and, for
/// charts loaded from a document, where they were declared.
public enum ChartError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Two states share an id.
    case duplicateStateID(String, first: SourceLocation?, second: SourceLocation?)
    /// A transition, `initial` attribute or history default names a state that does not exist.
    case unknownTarget(String, from: String, location: SourceLocation?)
    /// A state has an empty id.
    case emptyStateID(parent: String, location: SourceLocation?)
    /// A history pseudo-state is not the child of a compound or parallel state.
    case historyOutsideCompound(String, location: SourceLocation?)
    /// A compound state (or the chart) has no child state to start in.
    case missingInitialState(String, location: SourceLocation?)
    /// An initial target (or history default) is not a proper descendant of the state it belongs to.
    case invalidInitialTarget(String, of: String, location: SourceLocation?)
    /// A state of this kind cannot have children, an initial, or transitions of this sort.
    case invalidStructure(String, reason: String, location: SourceLocation?)
    /// History states whose default entries lead back to themselves through history states only
    /// (the states of the cycle, first repeated last): entering one would never end.
    case historyDefaultCycle([String], location: SourceLocation?)
    /// A child machine is attached inside itself.
    case attachCycle([String])
    /// Two typed states resolve to the same target and the reference is ambiguous.
    case ambiguousTarget(String, candidates: [String])

    /// A one-line explanation naming the states and locations involved.
    public var description: String {
        func at(_ l: SourceLocation?) -> String { l.map { " (\($0))" } ?? "" }
        switch self {
        case .duplicateStateID(let id, let a, let b):
            return "duplicate state id '\(id)'\(at(b))" + (a.map { ", first declared at \($0)" } ?? "")
        case .unknownTarget(let t, let from, let l):
            return "unknown target '\(t)' in '\(from)'\(at(l))"
        case .emptyStateID(let p, let l):
            return "a state in '\(p)' has an empty id\(at(l))"
        case .historyOutsideCompound(let id, let l):
            return "history state '\(id)' must be the child of a compound or parallel state\(at(l))"
        case .missingInitialState(let id, let l):
            return "'\(id)' has no child state to start in\(at(l))"
        case .invalidInitialTarget(let t, let of, let l):
            return "initial target '\(t)' is not a proper descendant of '\(of)'\(at(l))"
        case .invalidStructure(let id, let reason, let l):
            return "'\(id)': \(reason)\(at(l))"
        case .historyDefaultCycle(let cycle, let l):
            return "history default entry leads back to itself: \(cycle.joined(separator: " → "))\(at(l))"
        case .attachCycle(let path):
            return "attach cycle: \(path.joined(separator: " → "))"
        case .ambiguousTarget(let t, let c):
            return "target \(t) is ambiguous: it matches \(c.joined(separator: ", "))"
        }
    }
}
