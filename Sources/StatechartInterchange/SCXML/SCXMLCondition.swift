import Statechart

/// A `cond` expression of the null data model, parsed.
///
/// The grammar: `In('id')` (or `In("id")`), `true`, `false`, prefix `!` / `not`, infix `&&` / `and`
/// and `||` / `or` (`!` binds tightest, then `&&`, then `||`; both binary operators are
/// left-associative), and parentheses. Parsing is iterative (an operator-precedence parser with
/// explicit stacks), and the nesting of the result is bounded by ``maximumDepth``.
indirect enum SCXMLCondition: Hashable, Sendable {
    /// `In('id')`.
    case inState(String)
    /// `!x`.
    case not(SCXMLCondition)
    /// `a && b && …`; `true` is the empty conjunction.
    case all([SCXMLCondition])
    /// `a || b || …`; `false` is the empty disjunction.
    case any([SCXMLCondition])

    /// The deepest nesting of operators accepted (the engine evaluates guards recursively).
    static let maximumDepth = 64

    /// Parses an expression; `nil` when it is not one of this grammar.
    static func parse(_ text: String) -> SCXMLCondition? {
        if let id = soleInState(text) { return .inState(id) }
        guard let tokens = tokenize(text), !tokens.isEmpty else { return nil }
        var operands: [(expr: SCXMLCondition, depth: Int)] = []
        var operators: [Token] = []
        var expectOperand = true

        func apply(_ op: Token) -> Bool {
            switch op {
            case .not:
                guard let x = operands.popLast() else { return false }
                operands.append((.not(x.expr), x.depth + 1))
            case .and, .or:
                guard let b = operands.popLast(), let a = operands.popLast() else { return false }
                var items: [SCXMLCondition] = []
                for x in [a.expr, b.expr] {
                    switch (op, x) {
                    case (.and, .all(let xs)) where !xs.isEmpty: items.append(contentsOf: xs)
                    case (.or, .any(let xs)) where !xs.isEmpty: items.append(contentsOf: xs)
                    default: items.append(x)
                    }
                }
                let depth = max(a.depth, b.depth) + 1
                operands.append((op == .and ? .all(items) : .any(items), depth))
            default:
                return false
            }
            return operands.last.map { $0.depth <= maximumDepth } ?? false
        }

        for token in tokens {
            switch token {
            case .atom(let x):
                guard expectOperand else { return nil }
                operands.append((x, 1))
                expectOperand = false
            case .not, .open:
                guard expectOperand else { return nil }
                operators.append(token)
            case .close:
                guard !expectOperand else { return nil }
                while let top = operators.last, top != .open {
                    operators.removeLast()
                    guard apply(top) else { return nil }
                }
                guard operators.popLast() == .open else { return nil }
            case .and, .or:
                guard !expectOperand else { return nil }
                while let top = operators.last, top != .open, top.precedence >= token.precedence {
                    operators.removeLast()
                    guard apply(top) else { return nil }
                }
                operators.append(token)
                expectOperand = true
            }
        }
        guard !expectOperand else { return nil }
        while let top = operators.popLast() {
            guard top != .open, apply(top) else { return nil }
        }
        guard operands.count == 1 else { return nil }
        return operands[0].expr
    }

    /// The id of a condition that is one ASCII `In('id')` and nothing else, the most common one,
    /// read without tokens; `nil` for anything else, which ``parse(_:)`` reads in full.
    private static func soleInState(_ text: String) -> String? {
        text.utf8.withContiguousStorageIfAvailable { b -> String? in
            var i = 0
            func skipSpace() { while i < b.count && XMLWhitespace.isASCIISpace(b[i]) { i += 1 } }
            func take(_ c: UInt8) -> Bool {
                guard i < b.count, b[i] == c else { return false }
                i += 1
                return true
            }
            skipSpace()
            guard take(UInt8(ascii: "I")), take(UInt8(ascii: "n")) else { return nil }
            skipSpace()
            guard take(UInt8(ascii: "(")) else { return nil }
            skipSpace()
            guard i < b.count, b[i] == UInt8(ascii: "'") || b[i] == UInt8(ascii: "\"") else { return nil }
            let quote = b[i]
            i += 1
            let start = i
            while i < b.count, b[i] != quote {
                guard b[i] < 0x80, !XMLWhitespace.isASCIISpace(b[i]) else { return nil }
                i += 1
            }
            guard i > start, i < b.count else { return nil }
            let id = String(decoding: UnsafeBufferPointer(rebasing: b[start..<i]), as: UTF8.self)
            i += 1
            skipSpace()
            guard take(UInt8(ascii: ")")) else { return nil }
            skipSpace()
            return i == b.count ? id : nil
        } ?? nil
    }

    /// The engine's guard for this condition.
    var guardCondition: Guard<SCXMLEvent, SCXMLContext> {
        switch self {
        case .inState(let id): return .inState(id)
        case .not(let x): return .not(x.guardCondition)
        case .all(let xs): return .all(xs.map(\.guardCondition))
        case .any(let xs): return .any(xs.map(\.guardCondition))
        }
    }

    private enum Token: Equatable {
        case atom(SCXMLCondition)
        case not, and, or, open, close

        var precedence: Int {
            switch self {
            case .not: return 3
            case .and: return 2
            case .or: return 1
            default: return 0
            }
        }
    }

    private static func tokenize(_ text: String) -> [Token]? {
        let s = Array(text.unicodeScalars)
        var tokens: [Token] = []
        var i = 0
        func skipSpace() { while i < s.count && XMLWhitespace.isSpace(s[i]) { i += 1 } }
        // ASCII letters (the ASCII scalars with the Alphabetic property), digits and `_`.
        func isWordChar(_ c: Unicode.Scalar) -> Bool {
            c == "_" || ("a"..."z").contains(c) || ("A"..."Z").contains(c) || ("0"..."9").contains(c)
        }
        while true {
            skipSpace()
            guard i < s.count else { break }
            let c = s[i]
            switch c {
            case "(":
                tokens.append(.open)
                i += 1
            case ")":
                tokens.append(.close)
                i += 1
            case "!":
                if i + 1 < s.count && s[i + 1] == "=" { return nil }
                tokens.append(.not)
                i += 1
            case "&", "|":
                guard i + 1 < s.count, s[i + 1] == c else { return nil }
                tokens.append(c == "&" ? .and : .or)
                i += 2
            default:
                guard isWordChar(c) else { return nil }
                var word = ""
                while i < s.count && isWordChar(s[i]) {
                    word.unicodeScalars.append(s[i])
                    i += 1
                }
                switch word {
                case "and": tokens.append(.and)
                case "or": tokens.append(.or)
                case "not": tokens.append(.not)
                case "true": tokens.append(.atom(.all([])))
                case "false": tokens.append(.atom(.any([])))
                case "In":
                    skipSpace()
                    guard i < s.count, s[i] == "(" else { return nil }
                    i += 1
                    skipSpace()
                    guard i < s.count, s[i] == "'" || s[i] == "\"" else { return nil }
                    let quote = s[i]
                    i += 1
                    var id = ""
                    while i < s.count && s[i] != quote {
                        id.unicodeScalars.append(s[i])
                        i += 1
                    }
                    guard i < s.count, !id.isEmpty, !XMLWhitespace.containsSpace(id) else { return nil }
                    i += 1
                    skipSpace()
                    guard i < s.count, s[i] == ")" else { return nil }
                    i += 1
                    tokens.append(.atom(.inState(id)))
                default:
                    return nil
                }
            }
        }
        return tokens
    }
}
