/// Turns source text into tokens. Works on the UTF-8 bytes (every punctuator and keyword is ASCII);
/// identifiers and string contents may hold any Unicode text.
struct Lexer {
    let bytes: [UInt8]
    private var position = 0
    private var line = 1
    /// How deep template literals may nest inside each other's `${…}` (each level lexes its
    /// expression's tokens in a nested call): the interpreter's nesting limit.
    private let maximumNesting: Int
    private var templateDepth = 0

    init(_ source: String, maximumNesting: Int) {
        bytes = Array(source.utf8)
        self.maximumNesting = maximumNesting
    }

    /// A lexer that reads `bytes` from `position`, which is on `line`: the parser reads a `/` again
    /// from there when it stands where an expression starts (``regExpToken(newlineBefore:)``).
    init(bytes: [UInt8], position: Int, line: Int, maximumNesting: Int) {
        self.bytes = bytes
        self.position = position
        self.line = line
        self.maximumNesting = maximumNesting
    }

    /// All tokens, ending with `.end`; `after` is the token before the first, when the lexer
    /// starts inside a text.
    ///
    /// Text that cannot be read ends the list with an ``Token/Kind/invalid(_:)`` token carrying
    /// the error (and `.end`), instead of throwing it here: a `/` read as a division where the parser finds
    /// that an expression starts (`if (ok) /'/.test(s)`) is read again as a regular expression,
    /// and the tokens after it with it; only an error the parser reaches is one.
    mutating func tokenize(after previous: Token.Kind? = nil) -> [Token] {
        var tokens: [Token] = []
        while true {
            let newline = skipTrivia()
            let start = line
            guard position < bytes.count else {
                tokens.append(Token(kind: .end, line: start, newlineBefore: newline, start: position, end: position))
                return tokens
            }
            let offset = position
            do throws(ScriptError) {
                let kind = try token(after: tokens.last?.kind ?? previous)
                tokens.append(Token(kind: kind, line: start, newlineBefore: newline, start: offset, end: position))
            } catch {
                // `.end` still closes the list: the parser's look-ahead relies on it.
                tokens.append(Token(kind: .invalid(error), line: start, newlineBefore: newline, start: offset, end: bytes.count))
                tokens.append(Token(kind: .end, line: line, newlineBefore: false, start: bytes.count, end: bytes.count))
                return tokens
            }
        }
    }

    /// The token at the position (trivia skipped): a `/` starts a regular expression where the
    /// token before it lets an expression start (``startsRegExp(after:)``), else a division.
    private mutating func token(after previous: Token.Kind?) throws(ScriptError) -> Token.Kind {
        try bytes[position] == UInt8(ascii: "/") && startsRegExp(after: previous) ? regExp() : next()
    }

    /// The regular expression literal that starts at the lexer's position (a `/`), as a token,
    /// followed by the tokens after it: the parser's reading of a `/` it had been given as a
    /// division where an expression starts.
    mutating func regExpToken(newlineBefore: Bool) throws(ScriptError) -> [Token] {
        let start = line
        let offset = position
        let kind = try regExp()
        let token = Token(kind: kind, line: start, newlineBefore: newlineBefore, start: offset, end: position)
        return [token] + tokenize(after: kind)
    }

    /// Skips white space and comments; returns whether a line terminator was among them.
    private mutating func skipTrivia() -> Bool {
        var sawNewline = false
        while position < bytes.count {
            let b = bytes[position]
            if b == 0x0A {
                sawNewline = true
                line += 1
                position += 1
            } else if b == 0x20 || b == 0x09 || b == 0x0D || b == 0x0B || b == 0x0C {
                position += 1
            } else if b == 0xC2, position + 1 < bytes.count, bytes[position + 1] == 0xA0 {
                position += 2  // no-break space
            } else if b == UInt8(ascii: "/"), position + 1 < bytes.count, bytes[position + 1] == UInt8(ascii: "/") {
                while position < bytes.count && bytes[position] != 0x0A { position += 1 }
            } else if b == UInt8(ascii: "/"), position + 1 < bytes.count, bytes[position + 1] == UInt8(ascii: "*") {
                position += 2
                while position < bytes.count {
                    if bytes[position] == UInt8(ascii: "*"), position + 1 < bytes.count, bytes[position + 1] == UInt8(ascii: "/") {
                        position += 2
                        break
                    }
                    if bytes[position] == 0x0A {
                        sawNewline = true
                        line += 1
                    }
                    position += 1
                }
            } else {
                break
            }
        }
        return sawNewline
    }

    private mutating func next() throws(ScriptError) -> Token.Kind {
        let b = bytes[position]
        if isIdentifierStart(b) {
            let start = position
            while position < bytes.count && isIdentifierPart(bytes[position]) { position += 1 }
            let word = String(decoding: bytes[start..<position], as: UTF8.self)
            return reservedWords.contains(word) ? .keyword(word) : .identifier(word)
        }
        if isDigit(b) || (b == UInt8(ascii: ".") && position + 1 < bytes.count && isDigit(bytes[position + 1])) {
            return .number(try number())
        }
        if b == UInt8(ascii: "'") || b == UInt8(ascii: "\"") {
            return .string(try string(quote: b))
        }
        if b == UInt8(ascii: "`") {
            return try template()
        }
        if b == UInt8(ascii: "?"), position + 2 < bytes.count, bytes[position + 1] == UInt8(ascii: "."),
            isDigit(bytes[position + 2])
        {
            position += 1  // `a ?.5 : 1` is a conditional, not optional chaining
            return .punctuator("?")
        }
        for length in [4, 3, 2, 1] where position + length <= bytes.count {
            let candidate = String(decoding: bytes[position..<position + length], as: UTF8.self)
            if punctuators.contains(candidate) {
                position += length
                return .punctuator(candidate)
            }
        }
        let scalar = String(decoding: bytes[position...].prefix(4), as: UTF8.self).unicodeScalars.first.map(String.init) ?? "?"
        throw ScriptError(.syntax, "unexpected character '\(scalar)'", line: line)
    }

    /// Whether a `/` after `previous` starts a regular expression literal rather than a division:
    /// where an expression starts, that is after an operator, an opening bracket or a keyword
    /// other than a value (`return /a/`, `(/a/)`, `x = /a/`), not after a value (`a / b`,
    /// `f() / 2`, `a[0] / 2`). After `)` and `}` it is taken for a division (`(a + b) / 2`, an
    /// object literal's end); where the parser finds that an expression starts there instead
    /// (`if (ok) /a/.test(s)`, a statement after a block), it reads the `/` again.
    private func startsRegExp(after previous: Token.Kind?) -> Bool {
        switch previous {
        case nil: return true
        case .identifier?, .number?, .string?, .regExp?, .template?, .end?, .invalid?: return false
        case .keyword(let word)?: return !["this", "true", "false", "null", "super"].contains(word)
        case .punctuator(let p)?: return ![")", "]", "}", "++", "--"].contains(p)
        }
    }

    /// `/pattern/flags`: the pattern through the first `/` outside a class and not escaped, then
    /// the flags (checked when the pattern is compiled).
    private mutating func regExp() throws(ScriptError) -> Token.Kind {
        let startLine = line
        position += 1
        let start = position
        var inClass = false
        while true {
            guard position < bytes.count, bytes[position] != 0x0A, bytes[position] != 0x0D else {
                throw ScriptError(.syntax, "unterminated regular expression literal", line: startLine)
            }
            let b = bytes[position]
            if b == UInt8(ascii: "\\") {
                position += 1
                guard position < bytes.count, bytes[position] != 0x0A, bytes[position] != 0x0D else {
                    throw ScriptError(.syntax, "unterminated regular expression literal", line: startLine)
                }
            } else if b == UInt8(ascii: "[") {
                inClass = true
            } else if b == UInt8(ascii: "]") {
                inClass = false
            } else if b == UInt8(ascii: "/") && !inClass {
                break
            }
            position += 1
        }
        let pattern = String(decoding: bytes[start..<position], as: UTF8.self)
        position += 1
        let flagsStart = position
        while position < bytes.count && isIdentifierPart(bytes[position]) { position += 1 }
        return .regExp(pattern: pattern, flags: String(decoding: bytes[flagsStart..<position], as: UTF8.self))
    }

    private mutating func number() throws(ScriptError) -> Double {
        let start = position
        if bytes[position] == UInt8(ascii: "0"), position + 1 < bytes.count,
            bytes[position + 1] | 0x20 == UInt8(ascii: "x")
        {
            position += 2
            var value = 0.0
            var digits = 0
            while position < bytes.count, let d = hexValue(bytes[position]) {
                value = value * 16 + Double(d)
                digits += 1
                position += 1
            }
            if digits == 0 { throw ScriptError(.syntax, "a hexadecimal literal needs digits", line: line) }
            if position < bytes.count && isIdentifierPart(bytes[position]) {
                throw ScriptError(.syntax, "an identifier starts immediately after a number", line: line)
            }
            return value
        }
        while position < bytes.count && isDigit(bytes[position]) { position += 1 }
        if position < bytes.count && bytes[position] == UInt8(ascii: ".") {
            position += 1
            while position < bytes.count && isDigit(bytes[position]) { position += 1 }
        }
        if position < bytes.count && bytes[position] | 0x20 == UInt8(ascii: "e") {
            var p = position + 1
            if p < bytes.count && (bytes[p] == UInt8(ascii: "+") || bytes[p] == UInt8(ascii: "-")) { p += 1 }
            if p < bytes.count && isDigit(bytes[p]) {
                position = p
                while position < bytes.count && isDigit(bytes[position]) { position += 1 }
            } else {
                throw ScriptError(.syntax, "an exponent needs digits", line: line)
            }
        }
        if position < bytes.count && isIdentifierPart(bytes[position]) {
            throw ScriptError(.syntax, "an identifier starts immediately after a number", line: line)
        }
        let text = String(decoding: bytes[start..<position], as: UTF8.self)
        guard let value = Double(text.hasPrefix(".") ? "0" + text : text) else {
            throw ScriptError(.syntax, "malformed number '\(text)'", line: line)
        }
        return value
    }

    private mutating func string(quote: UInt8) throws(ScriptError) -> String {
        let startLine = line
        position += 1
        var out: [UInt8] = []
        while true {
            guard position < bytes.count else {
                throw ScriptError(.syntax, "unterminated string literal", line: startLine)
            }
            let b = bytes[position]
            position += 1
            if b == quote { break }
            if b == 0x0A { throw ScriptError(.syntax, "unterminated string literal", line: startLine) }
            guard b == UInt8(ascii: "\\") else {
                out.append(b)
                continue
            }
            guard position < bytes.count else { throw ScriptError(.syntax, "unterminated string literal", line: startLine) }
            try escapeSequence(into: &out)
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// After a `\\` in a string or template literal: the character its escape stands for, written
    /// to `out` (nothing for a line continuation).
    private mutating func escapeSequence(into out: inout [UInt8]) throws(ScriptError) {
        let e = bytes[position]
        position += 1
        switch e {
        case UInt8(ascii: "n"): out.append(0x0A)
        case UInt8(ascii: "t"): out.append(0x09)
        case UInt8(ascii: "r"): out.append(0x0D)
        case UInt8(ascii: "b"): out.append(0x08)
        case UInt8(ascii: "f"): out.append(0x0C)
        case UInt8(ascii: "v"): out.append(0x0B)
        case UInt8(ascii: "0") where position >= bytes.count || !isDigit(bytes[position]): out.append(0)
        case 0x0A: line += 1  // a line continuation
        case UInt8(ascii: "x"):
            let scalar = try hexScalar(count: 2)
            out.append(contentsOf: Array(String(Character(scalar)).utf8))
        case UInt8(ascii: "u"):
            let scalar = try unicodeEscape()
            out.append(contentsOf: Array(String(Character(scalar)).utf8))
        case 0x0D:  // a line continuation, CR LF or CR
            line += 1
            if position < bytes.count && bytes[position] == 0x0A { position += 1 }
        default: out.append(e)
        }
    }

    /// `` `text ${expression} text` ``: the template's texts (escapes read, line breaks kept, a
    /// CR LF or CR read as LF) and, for each `${…}`, the tokens of its expression.
    private mutating func template() throws(ScriptError) -> Token.Kind {
        let startLine = line
        templateDepth += 1
        defer { templateDepth -= 1 }
        if templateDepth > maximumNesting {
            throw ScriptError(.nesting, "template literals nest deeper than \(maximumNesting) levels", line: startLine)
        }
        position += 1
        var strings: [String] = []
        var expressions: [[Token]] = []
        var out: [UInt8] = []
        while true {
            guard position < bytes.count else { throw ScriptError(.syntax, "unterminated template literal", line: startLine) }
            let b = bytes[position]
            position += 1
            switch b {
            case UInt8(ascii: "`"):
                strings.append(String(decoding: out, as: UTF8.self))
                return .template(strings: strings, expressions: expressions)
            case UInt8(ascii: "$") where position < bytes.count && bytes[position] == UInt8(ascii: "{"):
                position += 1
                strings.append(String(decoding: out, as: UTF8.self))
                out = []
                expressions.append(try templateExpression(startLine: startLine))
            case UInt8(ascii: "\\"):
                guard position < bytes.count else { throw ScriptError(.syntax, "unterminated template literal", line: startLine) }
                try escapeSequence(into: &out)
            case 0x0D:
                if position < bytes.count && bytes[position] == 0x0A { position += 1 }
                line += 1
                out.append(0x0A)
            case 0x0A:
                line += 1
                out.append(b)
            default:
                out.append(b)
            }
        }
    }

    /// The tokens of a template's `${…}`, through its closing `}` (read, not among them), ending
    /// with `.end`. Braces inside it nest (an object literal, a function's body).
    private mutating func templateExpression(startLine: Int) throws(ScriptError) -> [Token] {
        var tokens: [Token] = []
        var depth = 0
        while true {
            let newline = skipTrivia()
            let start = line
            guard position < bytes.count else { throw ScriptError(.syntax, "unterminated template literal", line: startLine) }
            let offset = position
            if bytes[position] == UInt8(ascii: "}") && depth == 0 {
                position += 1
                tokens.append(Token(kind: .end, line: start, newlineBefore: newline, start: offset, end: offset))
                return tokens
            }
            let kind = try token(after: tokens.last?.kind)
            if kind == .punctuator("{") { depth += 1 }
            if kind == .punctuator("}") { depth -= 1 }
            tokens.append(Token(kind: kind, line: start, newlineBefore: newline, start: offset, end: position))
        }
    }

    private mutating func unicodeEscape() throws(ScriptError) -> Unicode.Scalar {
        if position < bytes.count && bytes[position] == UInt8(ascii: "{") {
            position += 1
            var value: UInt32 = 0
            var digits = 0
            while position < bytes.count, let d = hexValue(bytes[position]), digits < 8 {
                value = value * 16 + UInt32(d)
                digits += 1
                position += 1
            }
            guard digits > 0, position < bytes.count, bytes[position] == UInt8(ascii: "}"),
                let scalar = Unicode.Scalar(value)
            else { throw ScriptError(.syntax, "malformed \\u{…} escape", line: line) }
            position += 1
            return scalar
        }
        var high = try hexCode(count: 4)
        // A surrogate pair written as two escapes is one scalar.
        if (0xD800..<0xDC00).contains(high), position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"),
            bytes[position + 1] == UInt8(ascii: "u")
        {
            let saved = position
            position += 2
            let low = try hexCode(count: 4)
            if (0xDC00..<0xE000).contains(low) {
                high = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
            } else {
                position = saved
            }
        }
        return Unicode.Scalar(high) ?? "\u{FFFD}"
    }

    private mutating func hexScalar(count: Int) throws(ScriptError) -> Unicode.Scalar {
        Unicode.Scalar(try hexCode(count: count)) ?? "\u{FFFD}"
    }

    private mutating func hexCode(count: Int) throws(ScriptError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<count {
            guard position < bytes.count, let d = hexValue(bytes[position]) else {
                throw ScriptError(.syntax, "malformed escape sequence", line: line)
            }
            value = value * 16 + UInt32(d)
            position += 1
        }
        return value
    }
}

private let punctuators: Set<String> = [
    "{", "}", "(", ")", "[", "]", ".", ";", ",", "<", ">", "<=", ">=", "==", "!=", "===", "!==", "+", "-", "*", "/",
    "%", "**", "++", "--", "<<", ">>", ">>>", "&", "|", "^", "!", "~", "&&", "||", "??", "?", "?.", ":", "=", "+=",
    "-=", "*=", "/=", "%=", "**=", "<<=", ">>=", ">>>=", "&=", "|=", "^=", "&&=", "||=", "??=", "=>", "...",
]

private func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }

private func isIdentifierStart(_ b: UInt8) -> Bool {
    (b | 0x20 >= UInt8(ascii: "a") && b | 0x20 <= UInt8(ascii: "z")) || b == UInt8(ascii: "_") || b == UInt8(ascii: "$")
        || b >= 0x80
}

private func isIdentifierPart(_ b: UInt8) -> Bool { isIdentifierStart(b) || isDigit(b) }

private func hexValue(_ b: UInt8) -> Int? {
    switch b {
    case 0x30...0x39: return Int(b - 0x30)
    case 0x41...0x46: return Int(b - 0x41 + 10)
    case 0x61...0x66: return Int(b - 0x61 + 10)
    default: return nil
    }
}
