/// One token of the script language, with the line it starts on.
struct Token: Sendable, Equatable {
    enum Kind: Sendable, Equatable {
        case identifier(String)
        case keyword(String)
        case number(Double)
        case string(String)
        case punctuator(String)
        /// A regular expression literal: its pattern and flags as written.
        case regExp(pattern: String, flags: String)
        /// A template literal: its texts (one more than its expressions) and the tokens of each
        /// `${…}`, each list ending with `.end`.
        indirect case template(strings: [String], expressions: [[Token]])
        /// Text the lexer could not read, from here to the end: the parser throws the error when it
        /// reaches this token, unless it reads a `/` before it again (``Lexer/tokenize(after:)``).
        case invalid(ScriptError)
        case end
    }

    var kind: Kind
    /// 1-based line within the source text.
    var line: Int
    /// Whether a line terminator came between this token and the one before it (automatic
    /// semicolon insertion and the restricted productions such as `return` depend on it).
    var newlineBefore: Bool
    /// Byte offsets of the token in the source (a function keeps its source text).
    var start: Int
    var end: Int
}

/// The words the subset reserves: they cannot name a variable, and a statement that starts with
/// one the subset does not implement is refused by name rather than misread.
let reservedWords: Set<String> = [
    "var", "let", "const", "function", "return", "if", "else", "for", "while", "do", "break", "continue",
    "true", "false", "null", "typeof", "in", "new", "delete", "void", "this", "throw", "try", "catch",
    "finally", "switch", "case", "default", "instanceof", "class", "extends", "super", "with", "yield",
    "import", "export", "debugger", "enum", "await",
]
