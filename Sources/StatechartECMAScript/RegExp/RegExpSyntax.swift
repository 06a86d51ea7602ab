/// A regular expression's pattern as a tree (ECMAScript's `Pattern` grammar). Without the `u`
/// flag, with the web-compatibility rules of its Annex B: a `{` that starts no quantifier, a lone
/// `]` or `}`, `\8`, and an escape of any other character stand for themselves. With it, those are
/// errors, a character is a code point, and `\u{…}` and `\p{…}` are read.
indirect enum RegExpNode: Sendable {
    case empty
    case character(UInt32)
    /// `.`: any character but a line terminator (any at all under the `s` flag).
    case anyCharacter
    case set(RegExpCharacterSet)
    case sequence([RegExpNode])
    case alternation([RegExpNode])
    /// A group; `capture` is its number (1-based) when it captures.
    case group(RegExpNode, capture: Int?)
    /// `(?=…)` or `(?!…)`.
    case lookahead(RegExpNode, negated: Bool)
    /// `(?<=…)` or `(?<!…)`: the body is matched backwards, ending where the assertion stands.
    case lookbehind(RegExpNode, negated: Bool)
    /// A quantified atom; its capturing groups are numbered `groups` (cleared at every repetition).
    case repetition(RegExpNode, min: Int, max: Int?, greedy: Bool, groups: Range<Int>)
    case lineStart
    case lineEnd
    case wordBoundary(negated: Bool)
    case backReference(Int)
}

/// Reads a pattern's source into a ``RegExpNode``. Every problem is a `SyntaxError` naming it;
/// group nesting is bounded by the interpreter's nesting limit, so no pattern overflows the stack.
struct RegExpParser {
    /// The pattern's characters: UTF-16 code units, or code points under the `u` flag.
    private let units: [UInt32]
    private let unicode: Bool
    private var position = 0
    private let maximumNesting: Int
    private var depth = 0
    /// Capturing groups in the whole pattern (a back reference may come before its group).
    private let groupTotal: Int
    /// Whether the pattern has a named group (only then is `\k` a reference, without `u`).
    private let hasNamedGroups: Bool
    private(set) var groupCount = 0
    private(set) var groupNames: [(name: String, group: Int)] = []

    init(_ source: String, maximumNesting: Int, unicode: Bool) {
        units = unicode ? source.unicodeScalars.map(\.value) : source.utf16.map(UInt32.init)
        self.unicode = unicode
        self.maximumNesting = maximumNesting
        groupTotal = RegExpParser.countGroups(units, unicode: unicode)
        hasNamedGroups = !RegExpParser.names(units, unicode: unicode).isEmpty
    }

    mutating func parse() throws(ScriptError) -> RegExpNode {
        let node = try disjunction()
        if position < units.count {
            // Only a `)` stops a disjunction early.
            throw error("unmatched ')'")
        }
        return node
    }

    private func error(_ message: String) -> ScriptError {
        ScriptError(.syntax, "invalid regular expression: \(message)")
    }

    private var current: UInt32? { position < units.count ? units[position] : nil }

    private mutating func eat(_ c: Unicode.Scalar) -> Bool {
        guard let u = current, u == c.value else { return false }
        position += 1
        return true
    }

    private mutating func disjunction() throws(ScriptError) -> RegExpNode {
        var alternatives = [try alternative()]
        while eat("|") { alternatives.append(try alternative()) }
        return alternatives.count == 1 ? alternatives[0] : .alternation(alternatives)
    }

    private mutating func alternative() throws(ScriptError) -> RegExpNode {
        var terms: [RegExpNode] = []
        while let c = current, c != 0x7C /* | */, c != 0x29 /* ) */ {
            terms.append(try term())
        }
        switch terms.count {
        case 0: return .empty
        case 1: return terms[0]
        default: return .sequence(terms)
        }
    }

    private mutating func term() throws(ScriptError) -> RegExpNode {
        let groupsBefore = groupCount
        guard let c = current else { return .empty }
        let atom: RegExpNode
        position += 1
        switch c {
        case 0x5E: return .lineStart  // ^
        case 0x24: return .lineEnd  // $
        case 0x5C:  // \
            if eat("b") { return .wordBoundary(negated: false) }
            if eat("B") { return .wordBoundary(negated: true) }
            atom = try atomEscape()
        case 0x28:  // (
            atom = try group()
            // Annex B lets a lookahead be quantified (without `u`), never a lookbehind: a
            // quantifier after one is a term of its own ("nothing to repeat").
            if case .lookbehind = atom { return atom }
            if case .lookahead = atom, unicode { return atom }
        case 0x2E: atom = .anyCharacter  // .
        case 0x5B: atom = .set(try characterClass())  // [
        case 0x2A, 0x2B, 0x3F:  // * + ?
            throw error("nothing to repeat before '\(Character(Unicode.Scalar(c)!))'")
        case 0x7B:  // {
            position -= 1
            if quantifierBounds() != nil { throw error("nothing to repeat before '{'") }
            position += 1
            if unicode { throw error("lone '{' (write \\{ under the u flag)") }
            atom = .character(c)
        case 0x7D where unicode, 0x5D where unicode:  // } ]
            throw error("lone '\(Character(Unicode.Scalar(c)!))' (escape it under the u flag)")
        default:
            atom = .character(c)
        }
        return try quantified(atom, groups: groupsBefore..<groupCount)
    }

    /// The quantifier after an atom, if any.
    private mutating func quantified(_ atom: RegExpNode, groups: Range<Int>) throws(ScriptError) -> RegExpNode {
        var bounds: (Int, Int?)
        if eat("*") {
            bounds = (0, nil)
        } else if eat("+") {
            bounds = (1, nil)
        } else if eat("?") {
            bounds = (0, 1)
        } else if let b = quantifierBounds() {
            bounds = b
        } else {
            return atom
        }
        if let max = bounds.1, max < bounds.0 { throw error("numbers out of order in {} quantifier") }
        let greedy = !eat("?")
        // `^`, `$`, `\b` and `\B` return before a quantifier is read, so one after them is a
        // term of its own: "nothing to repeat". A lookahead may be quantified (Annex B).
        return .repetition(atom, min: bounds.0, max: bounds.1, greedy: greedy, groups: groups.lowerBound + 1..<groups.upperBound + 1)
    }

    /// `{n}`, `{n,}` or `{n,m}` at the position (consumed), or `nil` (nothing consumed).
    private mutating func quantifierBounds() -> (Int, Int?)? {
        let start = position
        guard eat("{") else { return nil }
        guard let min = digits() else {
            position = start
            return nil
        }
        var max: Int? = min
        if eat(",") { max = digits() }
        guard eat("}") else {
            position = start
            return nil
        }
        return (min, max)
    }

    /// Decimal digits, saturating (a count beyond any input is as good as infinite).
    private mutating func digits() -> Int? {
        var value = 0
        var any = false
        while let c = current, isRegExpDigit(c) {
            value = Swift.min(value * 10 + Int(c - 0x30), Int(Int32.max))
            position += 1
            any = true
        }
        return any ? value : nil
    }

    private mutating func group() throws(ScriptError) -> RegExpNode {
        depth += 1
        defer { depth -= 1 }
        if depth > maximumNesting { throw ScriptError(.nesting, "regular expression groups nested deeper than \(maximumNesting) levels") }
        var capture: Int?
        var lookahead: Bool?
        var lookbehind: Bool?
        if eat("?") {
            if eat(":") {
            } else if eat("=") {
                lookahead = false
            } else if eat("!") {
                lookahead = true
            } else if eat("<") {
                if eat("=") {
                    lookbehind = false
                } else if eat("!") {
                    lookbehind = true
                } else {
                    let name = try groupName()
                    groupCount += 1
                    capture = groupCount
                    if groupNames.contains(where: { $0.name == name }) { throw error("duplicate group name '\(name)'") }
                    groupNames.append((name, groupCount))
                }
            } else {
                throw error("invalid group")
            }
        } else {
            groupCount += 1
            capture = groupCount
        }
        let body = try disjunction()
        guard eat(")") else { throw error("unterminated group") }
        if let negated = lookahead { return .lookahead(body, negated: negated) }
        if let negated = lookbehind { return .lookbehind(body, negated: negated) }
        return .group(body, capture: capture)
    }

    /// The name of `(?<name>…)` or `\k<name>`, after its `<`, through its `>`.
    private mutating func groupName() throws(ScriptError) -> String {
        let start = position
        while let c = current, c != 0x3E {
            guard isRegExpWordCharacter(c) || c == 0x24 || c >= 0x80 else { throw error("invalid group name") }
            position += 1
        }
        guard position > start, eat(">") else { throw error("invalid group name") }
        return RegExpParser.text(units[start..<position - 1], unicode: unicode)
    }

    /// After a `\` outside a class.
    private mutating func atomEscape() throws(ScriptError) -> RegExpNode {
        guard let c = current else { throw error("\\ at end of pattern") }
        if c >= 0x31 && c <= 0x39 {
            // A back reference when the number names a group of the pattern; else (Annex B) an
            // octal escape, or the digit itself for 8 and 9.
            let start = position
            let n = digits() ?? 0
            if n <= groupTotal { return .backReference(n) }
            if unicode { throw error("\\\(n) refers to no group") }
            position = start
        }
        if c == 0x6B /* k */, hasNamedGroups || unicode {
            position += 1
            guard eat("<") else { throw error("invalid named reference") }
            let name = try groupName()
            guard let group = RegExpParser.namedGroupNumber(units, unicode: unicode, name) else { throw error("no group named '\(name)'") }
            return .backReference(group)
        }
        switch try characterEscape(inClass: false) {
        case .character(let u): return .character(u)
        case .escape(let e): return .set(RegExpCharacterSet(escapes: [e]))
        }
    }

    private enum Escape {
        case character(UInt32)
        case escape(RegExpClassEscape)
    }

    /// After a `\` (its letter not yet read), the character or class it stands for.
    private mutating func characterEscape(inClass: Bool) throws(ScriptError) -> Escape {
        guard let c = current else { throw error("\\ at end of pattern") }
        position += 1
        switch c {
        case 0x64: return .escape(.digit)  // d
        case 0x44: return .escape(.notDigit)
        case 0x77: return .escape(.word)  // w
        case 0x57: return .escape(.notWord)
        case 0x73: return .escape(.space)  // s
        case 0x53: return .escape(.notSpace)
        case 0x6E: return .character(0x0A)  // n
        case 0x72: return .character(0x0D)  // r
        case 0x74: return .character(0x09)  // t
        case 0x76: return .character(0x0B)  // v
        case 0x66: return .character(0x0C)  // f
        case 0x62 where inClass: return .character(0x08)  // [\b] is a backspace
        case 0x63:  // cX
            if let l = current, (l | 0x20) >= 0x61 && (l | 0x20) <= 0x7A {
                position += 1
                return .character(l % 32)
            }
            if unicode { throw error("\\c must be followed by a letter") }
            position -= 1
            return .character(0x5C)  // Annex B: `\c` not followed by a letter is a backslash
        case 0x78:  // xHH
            if let v = hex(count: 2) { return .character(v) }
            if unicode { throw error("\\x must be followed by two hexadecimal digits") }
            return .character(c)
        case 0x75:  // uHHHH, and under `u` a surrogate pair of two, or u{H…}
            if let v = hex(count: 4) {
                if unicode, v >= 0xD800 && v <= 0xDBFF, let low = trailingSurrogateEscape() {
                    return .character(0x10000 + ((v - 0xD800) << 10) + (low - 0xDC00))
                }
                return .character(v)
            }
            if unicode { return .character(try codePointEscape()) }
            return .character(c)  // Annex B: `\u{4}` is four `u`s
        case 0x70 where unicode, 0x50 where unicode:  // p{…}, P{…}
            return .escape(.property(try propertyEscape(), negated: c == 0x50))
        case 0x30 where unicode:
            if let d = current, isRegExpDigit(d) { throw error("invalid decimal escape \\0\(Character(Unicode.Scalar(d)!))") }
            return .character(0)
        case 0x30...0x39 where unicode:
            throw error("invalid escape \\\(Character(Unicode.Scalar(c)!)) (octal escapes are not allowed under the u flag)")
        case 0x30...0x37:  // octal (Annex B), \0 alone is NUL
            var value = Int(c - 0x30)
            var count = 1
            while count < 3, let d = current, d >= 0x30 && d <= 0x37, value * 8 + Int(d - 0x30) <= 0o377 {
                value = value * 8 + Int(d - 0x30)
                position += 1
                count += 1
            }
            return .character(UInt32(value))
        default:
            // An identity escape: `\.`, `\/`, `\8`… Under `u` only of a character the pattern
            // syntax uses, and `-` in a class.
            if unicode && !isRegExpSyntaxCharacter(c) && !(inClass && c == 0x2D) {
                throw error("invalid escape \\\(Character(Unicode.Scalar(c) ?? "?"))")
            }
            return .character(c)
        }
    }

    /// Under `u`, after `\uHHHH` of a leading surrogate: the trailing surrogate of a second
    /// `\uHHHH` (consumed), or `nil` (nothing consumed).
    private mutating func trailingSurrogateEscape() -> UInt32? {
        let start = position
        guard eat("\\"), eat("u"), let low = hex(count: 4), low >= 0xDC00 && low <= 0xDFFF else {
            position = start
            return nil
        }
        return low
    }

    /// Under `u`, after `\u`: `{H…}`, a code point up to U+10FFFF.
    private mutating func codePointEscape() throws(ScriptError) -> UInt32 {
        guard eat("{") else { throw error("\\u must be followed by four hexadecimal digits or {…}") }
        var value: UInt32 = 0
        var any = false
        while let u = current, let d = hexDigit(u) {
            value = value * 16 + d
            guard value <= 0x10FFFF else { throw error("\\u{…} beyond U+10FFFF") }
            position += 1
            any = true
        }
        guard any, eat("}") else { throw error("invalid \\u{…} escape") }
        return value
    }

    /// Under `u`, after `\p` or `\P`: `{name}` or `{name=value}`.
    private mutating func propertyEscape() throws(ScriptError) -> RegExpUnicodeProperty {
        guard eat("{") else { throw error("\\p must be followed by {…}") }
        let start = position
        while let u = current, u != 0x7D { position += 1 }
        guard position > start, eat("}") else { throw error("invalid \\p{…} escape") }
        return try RegExpUnicodeProperty(RegExpParser.text(units[start..<position - 1], unicode: true))
    }

    private func hexDigit(_ u: UInt32) -> UInt32? {
        switch u {
        case 0x30...0x39: return u - 0x30
        case 0x41...0x46: return u - 0x41 + 10
        case 0x61...0x66: return u - 0x61 + 10
        default: return nil
        }
    }

    private mutating func hex(count: Int) -> UInt32? {
        guard position + count <= units.count else { return nil }
        var value: UInt32 = 0
        for k in 0..<count {
            guard let d = hexDigit(units[position + k]) else { return nil }
            value = value * 16 + d
        }
        position += count
        return value
    }

    /// After a `[`, through its `]`.
    private mutating func characterClass() throws(ScriptError) -> RegExpCharacterSet {
        var set = RegExpCharacterSet()
        if eat("^") { set.negated = true }
        while true {
            guard let c = current else { throw error("unterminated character class") }
            if c == 0x5D {
                position += 1
                return set
            }
            let low = try classAtom()
            if current == 0x2D, position + 1 < units.count, units[position + 1] != 0x5D {
                position += 1
                let high = try classAtom()
                switch (low, high) {
                case (.character(let a), .character(let b)):
                    guard a <= b else { throw error("range out of order in character class") }
                    set.ranges.append(a...b)
                default:
                    // Annex B: a range with a class escape at either end is its parts and a '-'.
                    if unicode { throw error("a class escape cannot bound a range in a character class") }
                    for part in [low, .character(0x2D), high] { add(part, to: &set) }
                }
            } else {
                add(low, to: &set)
            }
        }
    }

    private func add(_ e: Escape, to set: inout RegExpCharacterSet) {
        switch e {
        case .character(let u): set.ranges.append(u...u)
        case .escape(let x): set.escapes.append(x)
        }
    }

    private mutating func classAtom() throws(ScriptError) -> Escape {
        guard let c = current else { throw error("unterminated character class") }
        position += 1
        guard c == 0x5C else { return .character(c) }
        return try characterEscape(inClass: true)
    }

    // MARK: - Scans of the whole pattern

    /// The capturing groups of a pattern: every `(` outside a class that is not escaped and not
    /// `(?:`, `(?=`, `(?!` (a named group `(?<name>` counts).
    static func countGroups(_ units: [UInt32], unicode: Bool) -> Int {
        var count = 0
        forEachGroup(units, unicode: unicode) { _ in count += 1 }
        return count
    }

    static func names(_ units: [UInt32], unicode: Bool) -> [String] {
        var names: [String] = []
        forEachGroup(units, unicode: unicode) { name in if let name { names.append(name) } }
        return names
    }

    static func namedGroupNumber(_ units: [UInt32], unicode: Bool, _ name: String) -> Int? {
        var number = 0
        var found: Int?
        forEachGroup(units, unicode: unicode) { n in
            number += 1
            if found == nil, n == name { found = number }
        }
        return found
    }

    /// Calls `body` for every capturing group in order, with its name when it has one.
    private static func forEachGroup(_ units: [UInt32], unicode: Bool, _ body: (String?) -> Void) {
        var i = 0
        var inClass = false
        while i < units.count {
            let c = units[i]
            if c == 0x5C {
                i += 2
                continue
            }
            if inClass {
                if c == 0x5D { inClass = false }
            } else if c == 0x5B {
                inClass = true
            } else if c == 0x28 {
                if i + 1 < units.count, units[i + 1] == 0x3F {
                    if i + 2 < units.count, units[i + 2] == 0x3C, i + 3 < units.count, units[i + 3] != 0x3D, units[i + 3] != 0x21 {
                        var end = i + 3
                        while end < units.count && units[end] != 0x3E { end += 1 }
                        body(text(units[(i + 3)..<end], unicode: unicode))
                    }
                } else {
                    body(nil)
                }
            }
            i += 1
        }
    }

    /// A part of the pattern as a string: its code units, or its code points under `u`.
    static func text(_ units: ArraySlice<UInt32>, unicode: Bool) -> String {
        if unicode {
            var out = String.UnicodeScalarView()
            for u in units { if let scalar = Unicode.Scalar(u) { out.append(scalar) } }
            return String(out)
        }
        return String(decoding: units.map { UInt16(truncatingIfNeeded: $0) }, as: UTF16.self)
    }
}

/// ECMAScript's SyntaxCharacter, and `/`: what an identity escape may escape under the `u` flag.
func isRegExpSyntaxCharacter(_ c: UInt32) -> Bool {
    switch c {
    case 0x5E, 0x24, 0x5C, 0x2E, 0x2A, 0x2B, 0x3F, 0x28, 0x29, 0x5B, 0x5D, 0x7B, 0x7D, 0x7C, 0x2F: return true
    default: return false
    }
}
