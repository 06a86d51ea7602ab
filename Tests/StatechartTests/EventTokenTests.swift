@testable import Statechart
import Testing

/// SCXML event tokens are normalized from their bytes where that decides as comparing
/// `Character`s would (issue 16, SCXML loading): the result must be the `Character`s' result on
/// every token, Unicode marks that join the character before them included.
@Suite("Event tokens: normalized from bytes as from Characters")
struct EventTokenTests {
    /// The normalization as first written, over `Character`s.
    func reference(_ tokens: [String]) -> [String]? {
        var result: [String] = []
        for token in tokens {
            var t = Substring(token)
            if t == "*" { return nil }
            if t.hasSuffix(".*") { t = t.dropLast(2) } else if t.hasSuffix(".") { t = t.dropLast() }
            if !t.isEmpty { result.append(String(t)) }
        }
        return result
    }

    func normalized(_ tokens: [String]) -> [String]? {
        switch EventMatcher<String>.normalizedNames(tokens) {
        case .any: return nil
        case .names(let names): return names
        default: Issue.record("normalizedNames made neither .any nor .names"); return []
        }
    }

    @Test("R5: every token of up to four characters over ASCII, dots, stars and joining marks (a combining accent, a prepended Arabic sign, a zero-width joiner, CR LF)")
    func bytesDecideAsCharactersDo() {
        let alphabet = ["a", ".", "*", "\u{301}", "\u{600}", "é", "\r", "\n", "\u{200D}", "😀"]
        var tokens: [String] = [""]
        var all: [String] = []
        for _ in 0..<4 {
            tokens = tokens.flatMap { t in alphabet.map { t + $0 } }
            all += tokens
        }
        var mismatches: [String] = []
        for token in all where normalized([token]) != reference([token]) {
            mismatches.append(token.unicodeScalars.map { String($0.value, radix: 16) }.joined(separator: " "))
        }
        #expect(mismatches.isEmpty, "tokens normalized differently: \(mismatches.prefix(10))")
        #expect(normalized(["a.*", "b.", "c", ".*"]) == ["a", "b", "c"])
        #expect(normalized(["a", "*"]) == nil)
        #expect(all.count == 11_110)
    }

    @Test("R5: lists keep their order whether the plain names come first, last or alone (a list of plain names is kept as it is)")
    func listsKeepTheirOrder() {
        let lists: [[String]] = [
            [], ["a"], ["a", "b"], ["a", "b.*", "c"], ["a", "b", "c."], ["a.", "b", "c"], ["a", "b", "*"], ["a", ".", "b"],
            ["a", "b\u{301}.*", "c"], ["x.y", "x.y.*", "x."],
        ]
        for list in lists { #expect(normalized(list) == reference(list), "\(list)") }
    }
}
