/// What a node of a chart is, as written in a ``ChartDefinition``.
///
/// Whether a plain state is *atomic* or *compound* follows from whether it has child states,
/// exactly as in SCXML's `<state>` element.
public enum StateKind: Hashable, Sendable {
    /// An SCXML `<state>`: atomic when it has no child states, compound otherwise.
    case state
    /// An SCXML `<parallel>`: every child state is an orthogonal region, all active together.
    case parallel
    /// An SCXML `<final>`: entering it completes its parent (or, at the top level, the machine).
    case final
    /// An SCXML `<history>` pseudo-state that remembers its parent's configuration.
    case history(HistoryKind)
}

/// How much of a compound state's configuration a history pseudo-state remembers.
public enum HistoryKind: String, Hashable, Sendable, Codable {
    /// Remembers the active immediate children of the parent (SCXML `type="shallow"`).
    case shallow
    /// Remembers the active atomic descendants of the parent (SCXML `type="deep"`).
    case deep
}

/// The resolved kind of a compiled state. `atomic` and `compound` are told apart here.
///
/// The two kinds that can be a leaf of the configuration come first, so that ``isAtomic`` is one
/// comparison: the selection walk asks it of every active state it passes (issue 16). The raw
/// values follow that order and are not a stored format: compare kinds, not their numbers.
public enum CompiledStateKind: UInt8, Hashable, Sendable {
    /// A state without child states.
    case atomic
    /// A final state.
    case final
    /// A state with child states, exactly one of which is active while it is.
    case compound
    /// A state whose child states (regions) are all active while it is.
    case parallel
    /// A shallow history pseudo-state.
    case shallowHistory
    /// A deep history pseudo-state.
    case deepHistory

    /// Whether a state of this kind can be a member of the active configuration's leaves.
    @inlinable public var isAtomic: Bool { rawValue <= CompiledStateKind.final.rawValue }
    /// Whether this is a history pseudo-state (never itself active).
    @inlinable public var isHistory: Bool { self == .shallowHistory || self == .deepHistory }
}

/// Whether a transition exits its source (external) or, for a compound source whose targets are
/// all its descendants, stays inside it (internal). SCXML `type`.
public enum TransitionKind: String, Hashable, Sendable, Codable {
    /// Exits and re-enters the source (SCXML's default).
    case external
    /// Does not exit the source when every target is a proper descendant of a compound source.
    case `internal`
}

/// Where a chart element came from in a source document, for diagnostics.
///
/// The line and the column are held in 32 bits each, clamped to `0...4_294_967_295` (a line past
/// that needs a document of more than 4 GB): a chart and its definition keep a location per state
/// and per transition, and two full words each made a large document's definition 8 % larger.
public struct SourceLocation: Hashable, Sendable, CustomStringConvertible {
    private var storedLine: UInt32
    private var storedColumn: UInt32

    /// 1-based line number.
    public var line: Int {
        get { Int(storedLine) }
        set { storedLine = UInt32(clamping: newValue) }
    }
    /// 1-based column number, or 0 when unknown.
    public var column: Int {
        get { Int(storedColumn) }
        set { storedColumn = UInt32(clamping: newValue) }
    }

    /// Creates a location.
    public init(line: Int, column: Int = 0) {
        storedLine = UInt32(clamping: line)
        storedColumn = UInt32(clamping: column)
    }

    /// `line L` or `line L, column C`.
    public var description: String { column > 0 ? "line \(line), column \(column)" : "line \(line)" }
}
