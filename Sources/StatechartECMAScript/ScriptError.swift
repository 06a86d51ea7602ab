/// What went wrong while parsing or running a script. SCXML turns every one of these into an
/// `error.execution` event; the message names the construct and the line.
public struct ScriptError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of failure, after ECMAScript's error types where one applies.
    public enum Kind: String, Sendable, Equatable {
        /// The text is not valid in the subset's grammar (`SyntaxError`).
        case syntax = "SyntaxError"
        /// A name that is not declared was read or assigned (`ReferenceError`).
        case reference = "ReferenceError"
        /// An operation on a value of the wrong type, such as calling a number (`TypeError`).
        case type = "TypeError"
        /// A value out of range, such as an invalid array length (`RangeError`).
        case range = "RangeError"
        /// A construct of ECMAScript that the subset does not implement; refused by name.
        case unsupported = "UnsupportedError"
        /// The evaluation used up its step budget (an endless loop, for example).
        case stepBudget = "StepBudgetExceeded"
        /// The session used up its memory budget (a huge string or array, for example).
        case memoryBudget = "MemoryBudgetExceeded"
        /// Expressions or calls nested deeper than the nesting limit.
        case nesting = "NestingLimitExceeded"
        /// A value the script threw with `throw` and nobody caught.
        case thrown = "Uncaught"
        /// A value that cannot cross into the host as plain data (a function, a cycle).
        case conversion = "ConversionError"
    }

    /// The kind of failure.
    public var kind: Kind
    /// What happened, naming the construct.
    public var message: String
    /// The 1-based line within the script's source text, when known.
    public var line: Int?

    /// Makes an error.
    public init(_ kind: Kind, _ message: String, line: Int? = nil) {
        self.kind = kind
        self.message = message
        self.line = line
    }

    /// `"SyntaxError: … (line 3)"`.
    public var description: String {
        "\(kind.rawValue): \(message)" + (line.map { " (line \($0))" } ?? "")
    }
}
