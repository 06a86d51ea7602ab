/// Runs a ``RegExpProgram`` against UTF-16 input: a backtracking matcher, as ECMAScript's
/// semantics are backtracking ones (back references, lazy quantifiers, lookahead and lookbehind).
///
/// Why no recursion: a quantifier over a long input backtracks through as many choices as it
/// has characters; they are kept on a stack in the heap, with an undo log of the registers, so
/// a million-character input cannot overflow the native stack. Only an assertion recurses, as
/// deep as groups nest in the pattern (bounded when it is parsed).
///
/// Why a budget: a pattern such as `(a+)+b` takes exponential time on `aaaa…c`. Every
/// instruction run counts against the evaluation's step budget, so a catastrophic pattern ends
/// in a `StepBudgetExceeded` error instead of hanging the machine.
///
/// Positions are always UTF-16 code units. Under the `u` flag every instruction that consumes
/// input takes a surrogate pair as one character, and a match starts only at a character's start.
struct RegExpMatcher {
    let program: RegExpProgram
    let input: [UInt16]
    private let unicode: Bool
    /// Steps left before the budget is exceeded.
    var budget: Int
    private var registers: [Int32]

    init(_ program: RegExpProgram, input: [UInt16], budget: Int) {
        self.program = program
        self.input = input
        self.budget = budget
        unicode = program.flags.unicode
        registers = Array(repeating: -1, count: program.registerCount)
    }

    /// The capture registers of a match starting exactly at `start` (two per group, the whole
    /// match's first; -1 for a group that did not take part), or `nil`.
    mutating func match(at start: Int) throws(ScriptError) -> [Int32]? {
        for k in registers.indices { registers[k] = -1 }
        guard try run(from: 0, at: Int32(start)) else { return nil }
        return Array(registers[0..<(2 * (program.groupCount + 1))])
    }

    /// The first match at `from` or after it (only at `from` when `anchored`). Under `u`, a
    /// `from` inside a surrogate pair stands for the pair, as ECMAScript reads `lastIndex`.
    mutating func firstMatch(from: Int, anchored: Bool) throws(ScriptError) -> RegExpMatch? {
        var start = from
        if unicode, start > 0, start < input.count, isTrailingSurrogate(input[start]), isLeadingSurrogate(input[start - 1]) {
            start -= 1
        }
        while start <= input.count {
            if let registers = try match(at: start) { return RegExpMatch(registers: registers) }
            if anchored { break }
            start = nextIndex(after: start)
        }
        return nil
    }

    /// ECMAScript's `AdvanceStringIndex`: the position after the character at `index` — past a
    /// whole surrogate pair under `u`, else one code unit on.
    func nextIndex(after index: Int) -> Int {
        guard unicode, index + 1 < input.count, isLeadingSurrogate(input[index]), isTrailingSurrogate(input[index + 1]) else {
            return index + 1
        }
        return index + 2
    }

    /// The character at `position` (before the end) and its length in code units.
    @inline(__always)
    private func character(at position: Int32) -> (value: UInt32, width: Int32) {
        let u = input[Int(position)]
        if unicode, isLeadingSurrogate(u), Int(position) + 1 < input.count, isTrailingSurrogate(input[Int(position) + 1]) {
            return (regExpCodePoint(u, input[Int(position) + 1]), 2)
        }
        return (UInt32(u), 1)
    }

    /// The character that ends at `position` (after the start) and its length in code units.
    @inline(__always)
    private func character(before position: Int32) -> (value: UInt32, width: Int32) {
        let u = input[Int(position) - 1]
        if unicode, isTrailingSurrogate(u), position >= 2, isLeadingSurrogate(input[Int(position) - 2]) {
            return (regExpCodePoint(input[Int(position) - 2], u), 2)
        }
        return (UInt32(u), 1)
    }

    /// A character's canonical form under the `i` flag (``regExpFold(_:)`` with `u`).
    @inline(__always)
    private func canonical(_ c: UInt32) -> UInt32 {
        unicode ? regExpFold(c) : regExpCanonical(c)
    }

    /// Runs from instruction `pc` at `position` until a `match` (true) or every choice failed
    /// (false, with the registers as they were).
    private mutating func run(from startPC: Int32, at startPosition: Int32) throws(ScriptError) -> Bool {
        // A choice to come back to (`pc >= 0`), or a register to restore (`pc < 0`: register
        // `-pc - 1` takes `value`).
        var stack: [(pc: Int32, value: Int32)] = []
        var pc = Int(startPC)
        var position = startPosition
        let code = program.instructions
        let count = Int32(input.count)
        let ignoreCase = program.flags.ignoreCase
        while true {
            budget -= 1
            if budget < 0 { throw ScriptError(.stepBudget, "the regular expression took more steps than the evaluation's budget") }
            var failed = false
            switch code[pc] {
            case .character(let c):
                if position < count, case let (value, width) = character(at: position), (ignoreCase ? canonical(value) : value) == c {
                    position += width
                    pc += 1
                } else {
                    failed = true
                }
            case .anyButLineTerminator:
                if position < count, case let (value, width) = character(at: position), !isRegExpLineTerminator(value) {
                    position += width
                    pc += 1
                } else {
                    failed = true
                }
            case .anyCharacter:
                if position < count {
                    position += character(at: position).width
                    pc += 1
                } else {
                    failed = true
                }
            case .set(let s):
                if position < count, case let (value, width) = character(at: position),
                    program.sets[Int(s)].matches(value, ignoreCase: ignoreCase, unicode: unicode)
                {
                    position += width
                    pc += 1
                } else {
                    failed = true
                }
            case .characterBefore(let c):
                if position > 0, case let (value, width) = character(before: position), (ignoreCase ? canonical(value) : value) == c {
                    position -= width
                    pc += 1
                } else {
                    failed = true
                }
            case .anyButLineTerminatorBefore:
                if position > 0, case let (value, width) = character(before: position), !isRegExpLineTerminator(value) {
                    position -= width
                    pc += 1
                } else {
                    failed = true
                }
            case .anyCharacterBefore:
                if position > 0 {
                    position -= character(before: position).width
                    pc += 1
                } else {
                    failed = true
                }
            case .setBefore(let s):
                if position > 0, case let (value, width) = character(before: position),
                    program.sets[Int(s)].matches(value, ignoreCase: ignoreCase, unicode: unicode)
                {
                    position -= width
                    pc += 1
                } else {
                    failed = true
                }
            case .split(let first, let second):
                stack.append((second, position))
                pc = Int(first)
            case .jump(let target):
                pc = Int(target)
            case .save(let r):
                set(r, position, &stack)
                pc += 1
            case .clear(let from, let to):
                for r in from..<to where registers[Int(r)] != -1 { set(r, -1, &stack) }
                pc += 1
            case .lineStart:
                if position == 0 || (program.flags.multiline && isRegExpLineTerminator(UInt32(input[Int(position) - 1]))) {
                    pc += 1
                } else {
                    failed = true
                }
            case .lineEnd:
                if position == count || (program.flags.multiline && isRegExpLineTerminator(UInt32(input[Int(position)]))) {
                    pc += 1
                } else {
                    failed = true
                }
            case .wordBoundary(let negated):
                let folds = unicode && ignoreCase
                let before = position > 0 && isRegExpWordCharacter(UInt32(input[Int(position) - 1]), unicodeIgnoreCase: folds)
                let after = position < count && isRegExpWordCharacter(UInt32(input[Int(position)]), unicodeIgnoreCase: folds)
                if (before != after) != negated { pc += 1 } else { failed = true }
            case .backReference(let k):
                if let end = backReference(Int(k), at: position) {
                    position = end
                    pc += 1
                } else {
                    failed = true
                }
            case .backReferenceBefore(let k):
                if let start = backReference(Int(k), before: position) {
                    position = start
                    pc += 1
                } else {
                    failed = true
                }
            case .assertion(let end, let negated):
                // Atomic, as ECMAScript's: once it matched, its choices are gone; where its body
                // ended does not move the position. A positive one keeps its groups (their old values logged, to be restored on failure
                // later); a negative one leaves none.
                let before = registers
                let matched = try run(from: Int32(pc + 1), at: position)
                if matched == negated {
                    if matched { registers = before }
                    failed = true
                } else {
                    if matched {
                        for r in registers.indices where registers[r] != before[r] {
                            stack.append((-Int32(r) - 1, before[r]))
                        }
                    }
                    pc = Int(end)
                }
            case .resetCount(let r):
                set(r, 0, &stack)
                pc += 1
            case .countedBranch(let r, let min, let max, let greedy, let exit):
                let done = registers[Int(r)]
                if done < min {
                    pc += 1
                } else if max >= 0 && done >= max {
                    pc = Int(exit)
                } else if greedy {
                    stack.append((exit, position))
                    pc += 1
                } else {
                    stack.append((Int32(pc + 1), position))
                    pc = Int(exit)
                }
            case .incrementCount(let r):
                set(r, registers[Int(r)] + 1, &stack)
                pc += 1
            case .loopStart(let r):
                set(r, position, &stack)
                pc += 1
            case .loopCheck(let r, let countRegister, let min):
                let minimumMet = countRegister < 0 || registers[Int(countRegister)] >= min
                if minimumMet && position == registers[Int(r)] { failed = true } else { pc += 1 }
            case .match:
                return true
            }
            guard failed else { continue }
            // Back to the last choice, undoing the register writes made since.
            var resumed = false
            while let top = stack.popLast() {
                if top.pc < 0 {
                    registers[Int(-top.pc - 1)] = top.value
                } else {
                    pc = Int(top.pc)
                    position = top.value
                    resumed = true
                    break
                }
            }
            if !resumed { return false }
        }
    }

    /// Writes a register, logging its old value.
    @inline(__always)
    private mutating func set(_ r: Int32, _ value: Int32, _ stack: inout [(pc: Int32, value: Int32)]) {
        stack.append((-r - 1, registers[Int(r)]))
        registers[Int(r)] = value
    }

    /// Where a back reference to group `k` ends when it matches at `position`: a group that did
    /// not take part matches the empty string.
    private func backReference(_ k: Int, at position: Int32) -> Int32? {
        guard let length = groupLength(k) else { return position }
        guard position + length <= Int32(input.count), groupText(k, equalsInputAt: position) else { return nil }
        return position + length
    }

    /// Where a back reference to group `k` starts when it matches the text that ends at
    /// `position` (matching backwards, in a lookbehind).
    private func backReference(_ k: Int, before position: Int32) -> Int32? {
        guard let length = groupLength(k) else { return position }
        guard position - length >= 0, groupText(k, equalsInputAt: position - length) else { return nil }
        return position - length
    }

    /// The length of group `k`'s text, or `nil` when it did not take part.
    private func groupLength(_ k: Int) -> Int32? {
        let start = registers[2 * k]
        let end = registers[2 * k + 1]
        guard start >= 0, end >= start else { return nil }
        return end - start
    }

    /// Whether group `k`'s text (which took part) equals the input's at `position`, under the
    /// `i` flag by canonical forms (of code points under `u`: a case pair never crosses planes,
    /// so the two texts are as long in code units).
    private func groupText(_ k: Int, equalsInputAt position: Int32) -> Bool {
        let start = registers[2 * k]
        let length = registers[2 * k + 1] - start
        guard program.flags.ignoreCase else { return input[Int(start)..<Int(start + length)] == input[Int(position)..<Int(position + length)] }
        var offset: Int32 = 0
        while offset < length {
            let a = character(at: start + offset)
            let b = character(at: position + offset)
            if a.width != b.width || canonical(a.value) != canonical(b.value) { return false }
            offset += a.width
        }
        return true
    }
}

func isLeadingSurrogate(_ u: UInt16) -> Bool { u & 0xFC00 == 0xD800 }
func isTrailingSurrogate(_ u: UInt16) -> Bool { u & 0xFC00 == 0xDC00 }

/// The code point of a surrogate pair.
func regExpCodePoint(_ leading: UInt16, _ trailing: UInt16) -> UInt32 {
    0x10000 + ((UInt32(leading) - 0xD800) << 10) + (UInt32(trailing) - 0xDC00)
}
