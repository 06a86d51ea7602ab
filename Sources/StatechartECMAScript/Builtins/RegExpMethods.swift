/// `RegExp` objects and the string methods that take one: `exec`, `test`, `match`, `search`,
/// `replace`, `replaceAll` and `split`, with ECMAScript's rules for `lastIndex` and the `g` and
/// `y` flags. Positions are UTF-16 code units, as everywhere in the subset.

/// A `RegExp` object's compiled pattern and its `lastIndex` (kept out of the object's own
/// properties: in ECMAScript it is not enumerable, so `JSON.stringify(/a/)` is `{}`).
final class RegExpState {
    let program: RegExpProgram
    var lastIndex: Double

    init(_ program: RegExpProgram, lastIndex: Double = 0) {
        self.program = program
        self.lastIndex = lastIndex
    }
}

/// One match: the capture registers (two per group, -1 where a group did not take part).
struct RegExpMatch {
    let registers: [Int32]
    var start: Int { Int(registers[0]) }
    var end: Int { Int(registers[1]) }

    /// Group `k`'s text, or `undefined` when it did not take part.
    func group(_ k: Int, in input: [UInt16]) -> ScriptValue {
        let s = registers[2 * k]
        let e = registers[2 * k + 1]
        guard s >= 0, e >= s else { return .undefined }
        return .string(String(decoding: input[Int(s)..<Int(e)], as: UTF16.self))
    }
}

let regExpMethods: [String: BuiltinMethod] = [
    "exec": { (i, this, a) throws(ScriptError) in
        let state = try regExpState(this, "exec")
        let input = Array(try i.toStringValue(a[argument: 0], line: 0).utf16)
        guard let match = try i.regExpExec(state, input) else { return .null }
        return try i.matchArray(match, state.program, input)
    },
    "test": { (i, this, a) throws(ScriptError) in
        let state = try regExpState(this, "test")
        let input = Array(try i.toStringValue(a[argument: 0], line: 0).utf16)
        return .boolean(try i.regExpExec(state, input) != nil)
    },
    "toString": { (_, this, _) throws(ScriptError) in
        let state = try regExpState(this, "toString")
        return .string("/\(state.program.source)/\(state.program.flags.text)")
    },
]

private func regExpState(_ this: ScriptValue, _ method: String) throws(ScriptError) -> RegExpState {
    guard case .object(let o) = this, case .regexp(let state) = o.storage else {
        throw ScriptError(.type, "RegExp.prototype.\(method) called on something that is not a RegExp")
    }
    return state
}

extension Interpreter {
    /// A new `RegExp` object for a compiled pattern (a literal makes one at every evaluation).
    func makeRegExp(_ program: RegExpProgram, line: Int) throws(ScriptError) -> ScriptValue {
        try charge(64 + 8 * program.instructions.count, line: line)
        return .object(track(ScriptObject(.regexp(RegExpState(program)))))
    }

    /// `RegExp(pattern, flags)` and `new RegExp(…)`: a pattern that is a `RegExp` is copied
    /// (with new flags when they are given); called without `new` on a `RegExp` and no flags,
    /// the same object.
    func constructRegExp(_ a: [ScriptValue], isNew: Bool, line: Int) throws(ScriptError) -> ScriptValue {
        let pattern = a[argument: 0]
        let flags = a[argument: 1]
        if case .object(let o) = pattern, case .regexp(let state) = o.storage {
            if !isNew && flags == .undefined { return pattern }
            let text = flags == .undefined ? state.program.flags.text : try toStringValue(flags, line: line)
            return try makeRegExp(try compileRegExp(state.program.source, flags: text, line: line), line: line)
        }
        let source = pattern == .undefined ? "" : try toStringValue(pattern, line: line)
        let text = flags == .undefined ? "" : try toStringValue(flags, line: line)
        return try makeRegExp(try compileRegExp(source, flags: text, line: line), line: line)
    }

    func compileRegExp(_ pattern: String, flags: String, line: Int) throws(ScriptError) -> RegExpProgram {
        try RegExpProgram(pattern: pattern, flags: flags, maximumNesting: limits.maximumNesting, line: line)
    }

    /// ECMAScript's `RegExpBuiltinExec`: from `lastIndex` under `g` or `y` (which it then
    /// moves past the match, or back to 0 when there is none), else from the start; `y` matches
    /// only there.
    func regExpExec(_ state: RegExpState, _ input: [UInt16]) throws(ScriptError) -> RegExpMatch? {
        let flags = state.program.flags
        let usesLastIndex = flags.global || flags.sticky
        var start = 0
        if usesLastIndex {
            let n = state.lastIndex.isNaN ? 0 : state.lastIndex.rounded(.towardZero)
            guard n <= Double(input.count) else {
                state.lastIndex = 0
                return nil
            }
            start = clampedInt(n, 0...input.count)
        }
        let found = try firstMatch(state.program, input, from: start, anchored: flags.sticky)
        if usesLastIndex { state.lastIndex = found.map { Double($0.end) } ?? 0 }
        return found
    }

    /// The first match at `from` or after (only at `from` when `anchored`), with the steps it
    /// took counted against the evaluation's budget: one step for every
    /// ``regExpInstructionsPerStep`` instructions the matcher runs (an instruction is a compare
    /// and a branch, a small part of what the interpreter does in a step).
    func firstMatch(_ program: RegExpProgram, _ input: [UInt16], from: Int, anchored: Bool) throws(ScriptError) -> RegExpMatch? {
        try matching(program, input) { (matcher) throws(ScriptError) in try matcher.firstMatch(from: from, anchored: anchored) }
    }

    /// Runs `body` with one matcher of `program` over `input` — however many matches it asks
    /// for — and counts the instructions it ran against the evaluation's step budget.
    func matching<T>(
        _ program: RegExpProgram, _ input: [UInt16], _ body: (inout RegExpMatcher) throws(ScriptError) -> T
    ) throws(ScriptError) -> T {
        let available = Swift.max(0, limits.maximumSteps - steps)
        let budget = available.multipliedReportingOverflow(by: regExpInstructionsPerStep)
        let start = budget.overflow ? Int.max : budget.partialValue
        var matcher = RegExpMatcher(program, input: input, budget: start)
        defer { steps += (start - matcher.budget + regExpInstructionsPerStep - 1) / regExpInstructionsPerStep }
        return try body(&matcher)
    }

    /// `exec`'s array: the match and each group (`undefined` where one did not take part), with
    /// `index`, `input` and `groups` (an object of the named groups, or `undefined`).
    func matchArray(_ match: RegExpMatch, _ program: RegExpProgram, _ input: [UInt16]) throws(ScriptError) -> ScriptValue {
        var parts: [ScriptValue] = []
        for k in 0...program.groupCount { parts.append(match.group(k, in: input)) }
        let array = try makeArray(parts, line: 0)
        guard case .object(let o) = array else { return array }
        o.set("index", .number(Double(match.start)))
        o.set("input", .string(String(decoding: input, as: UTF16.self)))
        o.set("groups", try namedGroups(match, program, input))
        return array
    }

    private func namedGroups(_ match: RegExpMatch, _ program: RegExpProgram, _ input: [UInt16]) throws(ScriptError) -> ScriptValue {
        guard !program.groupNames.isEmpty else { return .undefined }
        let groups = try makeObject(line: 0)
        for g in program.groupNames { groups.set(g.name, match.group(g.group, in: input)) }
        return .object(groups)
    }

    /// What `match`, `search` and `split` use for an argument that is not a `RegExp`: one made
    /// from its string (`undefined` is the empty pattern), as ECMAScript does.
    func regExpArgument(_ value: ScriptValue, flags: String = "") throws(ScriptError) -> RegExpState {
        if case .object(let o) = value, case .regexp(let state) = o.storage { return state }
        let source = value == .undefined ? "" : try toStringValue(value, line: 0)
        return RegExpState(try compileRegExp(source, flags: flags, line: 0))
    }

    /// Every match from the start, as `match` and `replace` with the `g` flag take them: an
    /// empty match moves on by one character (a code unit, or a code point under `u`). Resets
    /// `lastIndex` to 0, as they do.
    func allMatches(_ state: RegExpState, _ input: [UInt16]) throws(ScriptError) -> [RegExpMatch] {
        let anchored = state.program.flags.sticky
        let matches = try matching(state.program, input) { (matcher) throws(ScriptError) -> [RegExpMatch] in
            var matches: [RegExpMatch] = []
            var start = 0
            while start <= input.count, let m = try matcher.firstMatch(from: start, anchored: anchored) {
                matches.append(m)
                try charge(16, line: 0)
                start = m.end == m.start ? matcher.nextIndex(after: m.end) : m.end
            }
            return matches
        }
        state.lastIndex = 0
        return matches
    }

    /// `String.prototype.match`.
    func stringMatch(_ string: String, _ pattern: ScriptValue) throws(ScriptError) -> ScriptValue {
        let state = try regExpArgument(pattern)
        let input = Array(string.utf16)
        guard state.program.flags.global else {
            guard let m = try regExpExec(state, input) else { return .null }
            return try matchArray(m, state.program, input)
        }
        let matches = try allMatches(state, input)
        if matches.isEmpty { return .null }
        return try makeArray(matches.map { $0.group(0, in: input) }, line: 0)
    }

    /// `String.prototype.search`: the first match's position from the start, whatever
    /// `lastIndex` and `g` say (and `lastIndex` left as it was), or -1.
    func stringSearch(_ string: String, _ pattern: ScriptValue) throws(ScriptError) -> ScriptValue {
        let state = try regExpArgument(pattern)
        let m = try firstMatch(state.program, Array(string.utf16), from: 0, anchored: state.program.flags.sticky)
        return .number(Double(m?.start ?? -1))
    }

    /// `replace` and `replaceAll` with a `RegExp`: every match under `g`, else the first
    /// (`replaceAll` needs `g`: a `TypeError` without it). A function replacement receives the
    /// match, the groups, the position, the string and (with named groups) their object.
    func regExpReplace(_ u: [UInt16], _ state: RegExpState, _ replacement: ScriptValue, all: Bool) throws(ScriptError) -> ScriptValue {
        if all && !state.program.flags.global {
            throw ScriptError(.type, "replaceAll with a regular expression needs the g flag")
        }
        let matches: [RegExpMatch]
        if state.program.flags.global {
            matches = try allMatches(state, u)
        } else {
            matches = try regExpExec(state, u).map { [$0] } ?? []
        }
        let string = ScriptValue.string(String(decoding: u, as: UTF16.self))
        let template = replacement.isCallableObject ? nil : Array(try toStringValue(replacement, line: 0).utf16)
        var out: [UInt16] = []
        var last = 0
        for m in matches {
            out.append(contentsOf: u[last..<m.start])
            var groups: [ScriptValue] = []
            for k in 0...state.program.groupCount { groups.append(m.group(k, in: u)) }
            let named = try namedGroups(m, state.program, u)
            if let template {
                out.append(contentsOf: try substitution(template, groups: groups, named: named, in: u, at: m.start, end: m.end))
            } else if case .object(let f) = replacement {
                var arguments = groups
                arguments.append(.number(Double(m.start)))
                arguments.append(string)
                if named != .undefined { arguments.append(named) }
                let r = try call(f, this: .undefined, arguments, line: 0)
                out.append(contentsOf: try toStringValue(r, line: 0).utf16)
            }
            last = m.end
            try charge(2 * out.count, line: 0)
        }
        out.append(contentsOf: u[last...])
        return .string(String(decoding: out, as: UTF16.self))
    }

    /// ECMAScript's `GetSubstitution`: `$$`, `$&`, `` $` ``, `$'`, `$1`…`$99` and `$<name>` in a
    /// replacement string; anything else stays as written.
    func substitution(
        _ template: [UInt16], groups: [ScriptValue], named: ScriptValue, in u: [UInt16], at start: Int, end: Int
    ) throws(ScriptError) -> [UInt16] {
        var out: [UInt16] = []
        var k = 0
        let groupCount = groups.count - 1
        func text(_ v: ScriptValue) -> [UInt16] {
            if case .string(let s) = v { return Array(s.utf16) }
            return []
        }
        while k < template.count {
            let c = template[k]
            guard c == 0x24, k + 1 < template.count else {
                out.append(c)
                k += 1
                continue
            }
            let next = template[k + 1]
            switch next {
            case 0x24: out.append(0x24); k += 2
            case 0x26: out.append(contentsOf: u[start..<end]); k += 2
            case 0x60: out.append(contentsOf: u[0..<start]); k += 2
            case 0x27: out.append(contentsOf: u[end...]); k += 2
            case 0x30...0x39:
                let one = Int(next - 0x30)
                if k + 2 < template.count, isRegExpDigit(UInt32(template[k + 2])), one * 10 + Int(template[k + 2] - 0x30) <= groupCount,
                    one * 10 + Int(template[k + 2] - 0x30) >= 1
                {
                    out.append(contentsOf: text(groups[one * 10 + Int(template[k + 2] - 0x30)]))
                    k += 3
                } else if one >= 1 && one <= groupCount {
                    out.append(contentsOf: text(groups[one]))
                    k += 2
                } else {
                    out.append(c)
                    k += 1
                }
            case 0x3C where named != .undefined:
                guard let close = template[(k + 2)...].firstIndex(of: 0x3E) else {
                    out.append(c)
                    k += 1
                    continue
                }
                let name = String(decoding: template[(k + 2)..<close], as: UTF16.self)
                out.append(contentsOf: text(try property(of: named, name, line: 0)))
                k = close + 1
            default:
                out.append(c)
                k += 1
            }
        }
        return out
    }

    /// `split` with a `RegExp` (ECMAScript's `@@split`): the parts between matches, each match's
    /// groups spliced in after the part before it; a match that is empty, or at the very end,
    /// splits nothing there.
    func regExpSplit(_ s: String, _ state: RegExpState, limit: Int) throws(ScriptError) -> ScriptValue {
        let u = Array(s.utf16)
        if limit == 0 { return try makeArray([], line: 0) }
        let groupCount = state.program.groupCount
        let parts = try matching(state.program, u) { (matcher) throws(ScriptError) -> [ScriptValue] in
            if u.isEmpty { return try matcher.firstMatch(from: 0, anchored: true) == nil ? [.string(s)] : [] }
            var parts: [ScriptValue] = []
            var p = 0
            var q = 0
            while q < u.count {
                guard let m = try matcher.firstMatch(from: q, anchored: true), m.end != p, m.end <= u.count else {
                    q = matcher.nextIndex(after: q)
                    continue
                }
                parts.append(.string(String(decoding: u[p..<q], as: UTF16.self)))
                if parts.count == limit { return parts }
                p = m.end
                for k in stride(from: 1, through: groupCount, by: 1) {
                    parts.append(m.group(k, in: u))
                    if parts.count == limit { return parts }
                }
                q = p
            }
            parts.append(.string(String(decoding: u[p...], as: UTF16.self)))
            return parts
        }
        try charge(16 * parts.count + s.utf8.count, line: 0)
        return try makeArray(parts, line: 0)
    }

}

/// How many instructions of a regular expression's matcher count as one step of the evaluation's
/// budget (``ScriptLimits/maximumSteps``).
let regExpInstructionsPerStep = 16

extension ScriptValue {
    /// Whether the value is a function object.
    var isCallableObject: Bool {
        if case .object(let o) = self { return o.isCallable }
        return false
    }
}
