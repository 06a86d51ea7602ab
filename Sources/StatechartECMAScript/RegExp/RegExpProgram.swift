/// A regular expression compiled once: its source, its flags and the instructions the matcher
/// runs (RegExpMatcher.swift). Immutable, so every object a literal makes shares one.
///
/// Every quantified atom is written once, whatever its counts (a counted loop keeps its count
/// in a register), so a program is as long as its pattern: `(a{1000}){1000}` is a few
/// instructions, not a million.
final class RegExpProgram: Sendable {
    /// The pattern as written (`(?:)` for an empty one), with `/` and line terminators escaped.
    let source: String
    let flags: RegExpFlags
    /// Capturing groups, not counting the whole match.
    let groupCount: Int
    /// Named groups with their numbers, in the pattern's order.
    let groupNames: [RegExpGroupName]
    let instructions: [RegExpInstruction]
    let sets: [RegExpCharacterSet]
    /// Registers: two per group (the whole match's first), then one per loop position or count.
    let registerCount: Int

    /// Compiles `pattern` with `flags` (a string of `g`, `i`, `m`, `s`, `u`, `y`).
    ///
    /// - Parameter line: The script line the pattern is on, which every error names.
    /// - Throws: a `SyntaxError` naming what is wrong with the pattern or the flags; an
    ///   `UnsupportedError` for what the subset does not implement (the `v` and `d` flags,
    ///   `\p{Script=…}`); a `NestingLimitExceeded` for groups nested deeper than `maximumNesting`.
    init(pattern: String, flags text: String, maximumNesting: Int, line: Int? = nil) throws(ScriptError) {
        let flags: RegExpFlags
        var parser: RegExpParser
        var emitter: RegExpEmitter
        do {
            flags = try RegExpFlags(text)
            parser = RegExpParser(pattern, maximumNesting: maximumNesting, unicode: flags.unicode)
            let tree = try parser.parse()
            emitter = RegExpEmitter(flags: flags, registers: 2 * (parser.groupCount + 1))
            emitter.code.append(.save(0))
            try emitter.emit(tree)
        } catch {
            throw ScriptError(error.kind, error.message, line: line)
        }
        emitter.code.append(.save(1))
        emitter.code.append(.match)
        source = RegExpProgram.escapedSource(pattern)
        self.flags = flags
        groupCount = parser.groupCount
        groupNames = parser.groupNames.map { RegExpGroupName(name: $0.name, group: $0.group) }
        instructions = emitter.code
        sets = emitter.sets
        registerCount = emitter.registers
    }

    /// `source` as ECMAScript gives it: a `/` not already escaped and line terminators escaped,
    /// so that `/` + source + `/` reads back as the same pattern.
    static func escapedSource(_ pattern: String) -> String {
        if pattern.isEmpty { return "(?:)" }
        var out = ""
        var escaped = false
        var inClass = false
        for c in pattern {
            if escaped {
                out.append(c)
                escaped = false
                continue
            }
            switch c {
            case "\\": escaped = true; out.append(c)
            case "[": inClass = true; out.append(c)
            case "]": inClass = false; out.append(c)
            case "/" where !inClass: out += "\\/"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\u{2028}": out += "\\u2028"
            case "\u{2029}": out += "\\u2029"
            default: out.append(c)
            }
        }
        return out
    }
}

/// A named group of a pattern.
struct RegExpGroupName: Sendable {
    let name: String
    let group: Int
}

/// The flags the subset implements.
struct RegExpFlags: Sendable, Equatable {
    var global = false
    var ignoreCase = false
    var multiline = false
    var dotAll = false
    /// `u`: the pattern and the input are code points, not code units, and the pattern's syntax
    /// is strict (no Annex B readings; `\u{…}` and `\p{…}`).
    var unicode = false
    var sticky = false

    init(_ text: String) throws(ScriptError) {
        for c in text {
            let seen: Bool
            switch c {
            case "g": seen = global; global = true
            case "i": seen = ignoreCase; ignoreCase = true
            case "m": seen = multiline; multiline = true
            case "s": seen = dotAll; dotAll = true
            case "u": seen = unicode; unicode = true
            case "y": seen = sticky; sticky = true
            case "v", "d":
                throw ScriptError(.unsupported, "the regular expression flag '\(c)' is not supported (only g, i, m, s, u and y)")
            default:
                throw ScriptError(.syntax, "invalid regular expression flags '\(text)'")
            }
            if seen { throw ScriptError(.syntax, "invalid regular expression flags '\(text)': '\(c)' twice") }
        }
    }

    /// The flags in ECMAScript's order.
    var text: String {
        (global ? "g" : "") + (ignoreCase ? "i" : "") + (multiline ? "m" : "") + (dotAll ? "s" : "") + (unicode ? "u" : "")
            + (sticky ? "y" : "")
    }
}

/// One instruction of a compiled pattern. Targets are instruction indices; registers are indices
/// into the matcher's registers.
enum RegExpInstruction: Sendable {
    /// A character (its canonical form under the `i` flag): a code unit, or a code point under
    /// the `u` flag, when every instruction that consumes input reads a surrogate pair as one.
    case character(UInt32)
    case anyButLineTerminator
    case anyCharacter
    case set(Int32)
    /// The four above, matched against the code unit before the position, which then moves back
    /// over it: a lookbehind's body runs backwards.
    case characterBefore(UInt32)
    case anyButLineTerminatorBefore
    case anyCharacterBefore
    case setBefore(Int32)
    /// Goes on at the first target; on failure, at the second.
    case split(Int32, Int32)
    case jump(Int32)
    /// Records the position in a register.
    case save(Int32)
    /// Clears registers `from ..< to` (a quantified atom's groups, at every repetition).
    case clear(Int32, Int32)
    case lineStart
    case lineEnd
    case wordBoundary(negated: Bool)
    case backReference(Int32)
    /// A back reference matched against the text before the position (in a lookbehind).
    case backReferenceBefore(Int32)
    /// A lookahead or a lookbehind: its body follows, ending in `match`, written to run forwards
    /// or backwards from the position; the pattern goes on at `end`.
    case assertion(end: Int32, negated: Bool)
    /// A counted loop: sets its count register to 0.
    case resetCount(Int32)
    /// A counted loop's decision, before each repetition (whose body follows): below `min` it
    /// repeats; at `max` (if any) it leaves for `exit`; else it tries one, then the other.
    case countedBranch(count: Int32, min: Int32, max: Int32, greedy: Bool, exit: Int32)
    case incrementCount(Int32)
    /// Records where a repetition starts.
    case loopStart(Int32)
    /// Fails a repetition that matched nothing once the loop's minimum is met (ECMAScript's
    /// RepeatMatcher): `count` is -1 for a loop without one (`*`, `?`).
    case loopCheck(position: Int32, count: Int32, min: Int32)
    case match
}

/// Writes a pattern's tree as instructions.
struct RegExpEmitter {
    let flags: RegExpFlags
    var registers: Int
    var code: [RegExpInstruction] = []
    var sets: [RegExpCharacterSet] = []
    /// Whether the node being written matches backwards, inside a lookbehind (ECMAScript's
    /// direction -1): its terms are written last to first, each consuming the code unit before
    /// the position, and a capturing group records its end before its start.
    private var backward = false

    init(flags: RegExpFlags, registers: Int) {
        self.flags = flags
        self.registers = registers
    }

    private var here: Int32 { Int32(code.count) }

    private mutating func register() -> Int32 {
        registers += 1
        return Int32(registers - 1)
    }

    mutating func emit(_ node: RegExpNode) throws(ScriptError) {
        // Bounded by the pattern's length: each node is written once.
        switch node {
        case .empty: break
        case .character(let c):
            let unit = flags.ignoreCase ? (flags.unicode ? regExpFold(c) : regExpCanonical(c)) : c
            code.append(backward ? .characterBefore(unit) : .character(unit))
        case .anyCharacter:
            if backward {
                code.append(flags.dotAll ? .anyCharacterBefore : .anyButLineTerminatorBefore)
            } else {
                code.append(flags.dotAll ? .anyCharacter : .anyButLineTerminator)
            }
        case .set(let s):
            sets.append(s)
            code.append(backward ? .setBefore(Int32(sets.count - 1)) : .set(Int32(sets.count - 1)))
        case .sequence(let nodes):
            if backward {
                for n in nodes.reversed() { try emit(n) }
            } else {
                for n in nodes { try emit(n) }
            }
        case .alternation(let alternatives):
            var exits: [Int] = []
            for (k, alternative) in alternatives.enumerated() {
                if k == alternatives.count - 1 {
                    try emit(alternative)
                    break
                }
                let split = code.count
                code.append(.jump(0))
                try emit(alternative)
                exits.append(code.count)
                code.append(.jump(0))
                code[split] = .split(Int32(split + 1), here)
            }
            for e in exits { code[e] = .jump(here) }
        case .group(let body, let capture):
            // Matching backwards, the group's end is reached first.
            let (first, last) = backward ? (1, 0) : (0, 1)
            if let k = capture { code.append(.save(Int32(2 * k + first))) }
            try emit(body)
            if let k = capture { code.append(.save(Int32(2 * k + last))) }
        case .lookahead(let body, let negated):
            try assertion(body, negated: negated, backward: false)
        case .lookbehind(let body, let negated):
            try assertion(body, negated: negated, backward: true)
        case .lineStart: code.append(.lineStart)
        case .lineEnd: code.append(.lineEnd)
        case .wordBoundary(let negated): code.append(.wordBoundary(negated: negated))
        case .backReference(let k): code.append(backward ? .backReferenceBefore(Int32(k)) : .backReference(Int32(k)))
        case .repetition(let atom, let min, let max, let greedy, let groups):
            try repetition(atom, min: min, max: max, greedy: greedy, groups: groups)
        }
    }

    /// A lookahead (`backward` false) or a lookbehind: its body, in its own direction, between
    /// the assertion and a `match`. A lookahead inside a lookbehind runs forwards again.
    private mutating func assertion(_ body: RegExpNode, negated: Bool, backward direction: Bool) throws(ScriptError) {
        let start = code.count
        code.append(.match)
        let outer = backward
        backward = direction
        try emit(body)
        backward = outer
        code.append(.match)
        code[start] = .assertion(end: here, negated: negated)
    }

    private mutating func repetition(_ atom: RegExpNode, min: Int, max: Int?, greedy: Bool, groups: Range<Int>) throws(ScriptError) {
        if let max, max == 0 { return }  // `a{0}` matches the empty string
        let clear = groups.isEmpty ? nil : RegExpInstruction.clear(Int32(2 * groups.lowerBound), Int32(2 * groups.upperBound))
        let position = register()
        if min == 0 && (max == nil || max == 1) {
            // `*`, `?` and their lazy forms: a split before the atom.
            let branch = code.count
            code.append(.jump(0))
            code.append(.loopStart(position))
            if let clear { code.append(clear) }
            try emit(atom)
            code.append(.loopCheck(position: position, count: -1, min: 0))
            if max == nil { code.append(.jump(Int32(branch))) }
            code[branch] = greedy ? .split(Int32(branch + 1), here) : .split(here, Int32(branch + 1))
            return
        }
        let count = register()
        code.append(.resetCount(count))
        let branch = code.count
        code.append(.jump(0))
        code.append(.loopStart(position))
        if let clear { code.append(clear) }
        try emit(atom)
        code.append(.loopCheck(position: position, count: count, min: Int32(min)))
        code.append(.incrementCount(count))
        code.append(.jump(Int32(branch)))
        code[branch] = .countedBranch(count: count, min: Int32(min), max: Int32(max ?? -1), greedy: greedy, exit: here)
    }
}
