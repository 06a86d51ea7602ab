/// One finding of ``Chart/validate()``: what is wrong or suspicious, where, and how bad it is.
public struct ChartDiagnostic: Hashable, Sendable, CustomStringConvertible {
    /// How bad a finding is.
    public enum Severity: String, Hashable, Sendable, Comparable {
        /// The chart cannot behave as written (an eventless loop that never ends).
        case error
        /// The chart runs, but part of it can never matter, or it probably does not do what was meant.
        case warning

        /// Errors first.
        public static func < (a: Severity, b: Severity) -> Bool { a == .error && b == .warning }
    }

    /// What was found (stable identifiers, for filtering and tests).
    public enum Code: String, Hashable, Sendable, CaseIterable {
        /// A state that no sequence of events can enter.
        case unreachableState = "unreachable-state"
        /// A transition an earlier unguarded transition of the same state always takes first.
        case shadowedTransition = "shadowed-transition"
        /// An event the chart raises or sends that no transition handles.
        case unhandledEvent = "unhandled-event"
        /// Unguarded eventless transitions that lead back to where they started: a certain endless loop.
        case eventlessCycle = "eventless-cycle"
        /// A history state whose parent is never exited, so it never records anything.
        case historyNeverRecorded = "history-never-recorded"
        /// A parallel state with a single region.
        case singleRegionParallel = "single-region-parallel"
        /// Two transitions of one state with the same events, condition and targets.
        case duplicateTransition = "duplicate-transition"
        /// An atomic state that is not final and that no transition leaves.
        case terminalState = "terminal-state"
        /// A final state with outgoing transitions (reported by loaders; compiled charts cannot have one).
        case finalWithTransitions = "final-with-transitions"
        /// A typed machine's state that is only ever mentioned as a target, never declared (rule R65).
        case undeclaredState = "undeclared-state"
        /// The document could not be loaded at all.
        case invalidChart = "invalid-chart"
        /// An expression or script of the chart's data model that does not parse: the chart loads
        /// and raises `error.execution` each time it runs (reported by loaders, rule R85).
        case invalidExpression = "invalid-expression"
    }

    /// How bad it is.
    public var severity: Severity
    /// What it is.
    public var code: Code
    /// A sentence naming the states and transitions involved.
    public var message: String
    /// The ids of the states involved.
    public var states: [String]
    /// The transitions involved, as (source state id, index among its transitions).
    public var transitions: [TransitionReference]
    /// Where in the source document, when known.
    public var location: SourceLocation?

    /// A transition named by its source state and its index among that state's transitions.
    public struct TransitionReference: Hashable, Sendable, CustomStringConvertible {
        /// The id of the source state (the chart's name for chart-wide transitions).
        public var source: String
        /// The index among the source's transitions, in document order.
        public var ordinal: Int
        /// `source[ordinal]`.
        public var description: String { "\(source)[\(ordinal)]" }
    }

    /// Creates a diagnostic.
    public init(
        _ severity: Severity, _ code: Code, _ message: String, states: [String] = [],
        transitions: [TransitionReference] = [], location: SourceLocation? = nil
    ) {
        self.severity = severity
        self.code = code
        self.message = message
        self.states = states
        self.transitions = transitions
        self.location = location
    }

    /// `warning[terminal-state] line 4: 'done' …`.
    public var description: String {
        "\(severity.rawValue)[\(code.rawValue)]" + (location.map { " \($0)" } ?? "") + ": " + message
    }
}
