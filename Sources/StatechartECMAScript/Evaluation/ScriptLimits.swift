/// The budgets that keep a script from a file harmless: every evaluation has a step budget, a
/// session has a memory budget, and nesting is bounded so that no document can overflow the
/// native stack. Exceeding one raises a ``ScriptError`` (SCXML: `error.execution`).
public struct ScriptLimits: Sendable, Equatable {
    /// Steps (expressions and statements evaluated) one evaluation may take. Default 1,000,000.
    public var maximumSteps: Int
    /// Approximate bytes the session's values may hold (strings, arrays, objects). Default 64 MiB.
    public var maximumMemory: Int
    /// How deeply the source may nest (parentheses, blocks, operators); refused at parse time.
    /// Default 200.
    public var maximumNesting: Int
    /// How deeply evaluation may nest, function calls included. Default 200.
    public var maximumCallDepth: Int
    /// How deeply values may nest where they are walked (`JSON`, conversion to plain data).
    /// Default 256.
    public var maximumDataNesting: Int

    /// The defaults.
    public init(
        maximumSteps: Int = 1_000_000, maximumMemory: Int = 64 << 20, maximumNesting: Int = 200,
        maximumCallDepth: Int = 200,
        maximumDataNesting: Int = 256
    ) {
        self.maximumSteps = maximumSteps
        self.maximumMemory = maximumMemory
        self.maximumNesting = maximumNesting
        self.maximumCallDepth = maximumCallDepth
        self.maximumDataNesting = maximumDataNesting
    }
}
