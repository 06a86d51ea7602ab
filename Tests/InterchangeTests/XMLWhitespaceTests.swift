import Testing

@testable import StatechartInterchange

/// The loader's ASCII fast paths for white space and event descriptors (`XMLWhitespace`,
/// `SCXMLBuilder.isEventDescriptorToken`) against the `Character` definitions they stand for,
/// on every string of up to four characters over an alphabet of ASCII and non-ASCII white space,
/// combining marks, CR LF, dots and stars.
@Suite("XML white space fast paths")
struct XMLWhitespaceTests {
    static let alphabet: [String] = [
        " ", "\t", "\n", "\r", "\u{0B}", "\u{0C}", "\u{1F}", "\u{85}", "\u{A0}", "\u{2003}",
        "a", "Z", "_", ".", "*", "é", "\u{301}", "\r\n",
    ]

    static func strings(upTo length: Int) -> [String] {
        var all = [""]
        var level = [""]
        for _ in 0..<length {
            level = level.flatMap { prefix in alphabet.map { prefix + $0 } }
            all += level
        }
        return all
    }

    /// The rule as written before the fast path: `Character`s all the way.
    static func referenceIsEventDescriptorToken(_ token: String) -> Bool {
        if token == "*" { return true }
        var name = Substring(token)
        if name.hasSuffix(".*") { name = name.dropLast(2) } else if name.hasSuffix(".") { name = name.dropLast() }
        guard !name.isEmpty, !name.contains("*") else { return false }
        return !name.split(separator: ".", omittingEmptySubsequences: false).contains { $0.isEmpty }
    }

    @Test("R5, R76: blank, contains-space and split agree with Character.isWhitespace")
    func whitespaceMatchesCharacters() {
        var checked = 0
        for text in Self.strings(upTo: 4) {
            #expect(XMLWhitespace.isBlank(text) == !text.contains { !$0.isWhitespace }, "isBlank(\(text.debugDescription))")
            #expect(XMLWhitespace.containsSpace(text) == text.contains(where: \.isWhitespace), "containsSpace(\(text.debugDescription))")
            #expect(
                XMLWhitespace.split(text) == text.split(whereSeparator: \.isWhitespace).map(String.init),
                "split(\(text.debugDescription))")
            for scalar in text.unicodeScalars {
                #expect(XMLWhitespace.isSpace(scalar) == scalar.properties.isWhitespace)
            }
            checked += 1
        }
        #expect(checked == 1 + 18 + 18 * 18 + 18 * 18 * 18 + 18 * 18 * 18 * 18)
    }

    @Test("R5: event descriptor tokens, ASCII fast path against the Character rule")
    func eventDescriptorTokensMatchTheRule() {
        for token in Self.strings(upTo: 4) {
            #expect(
                SCXMLBuilder.isEventDescriptorToken(token) == Self.referenceIsEventDescriptorToken(token),
                "isEventDescriptorToken(\(token.debugDescription))")
        }
        #expect(SCXMLBuilder.isEventDescriptorToken("a.b.*"))
        #expect(!SCXMLBuilder.isEventDescriptorToken("a..b"))
        #expect(!SCXMLBuilder.isEventDescriptorToken("foo*"))
    }
}
