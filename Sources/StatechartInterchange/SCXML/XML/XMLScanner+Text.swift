import Statechart

// Character data, references, comments, processing instructions and the XML declaration.
extension XMLScanner {
    mutating func scanText() throws(SCXMLError) {
        let start = pos
        var i = pos
        var visibleLine = 0
        var reference = false
        var carriageReturn = false
        while i < count {
            let b = bytes[i]
            if b == UInt8(ascii: "<") { break }
            if b >= 0x80 {
                guard let (_, length) = XMLCharacters.multiByteScalar(at: i, in: bytes) else {
                    throw malformed("bytes that are not UTF-8, or a character that XML does not allow")
                }
                if visibleLine == 0 { visibleLine = line }
                i += length
                continue
            }
            if b > 0x20 {
                if visibleLine == 0 { visibleLine = line }
                if b == UInt8(ascii: "&") {
                    reference = true
                    i = try checkReference(at: i)
                    continue
                }
                if b == UInt8(ascii: ">"), i - start >= 2, bytes[i - 1] == UInt8(ascii: "]"), bytes[i - 2] == UInt8(ascii: "]") {
                    throw malformed("']]>' is not allowed in text")
                }
            } else if b == 0x0A {
                newline(at: i)
            } else if b == 0x0D {
                carriageReturn = true
            } else if b != 0x20 && b != 0x09 {
                throw malformed("a character that XML does not allow")
            }
            i += 1
        }
        textStart = start
        textEnd = i
        textFirstVisibleLine = visibleLine
        textHasReference = reference
        textHasCarriageReturn = carriageReturn
        pos = i
    }

    mutating func scanCDATA() throws(SCXMLError) {
        var i = pos + 9
        let start = i
        var visibleLine = 0
        var carriageReturn = false
        while true {
            guard i < count else { throw malformed("a CDATA section is not closed") }
            let b = bytes[i]
            if b == UInt8(ascii: "]"), matches("]]>", at: i) { break }
            if b == 0x0D { carriageReturn = true }
            if visibleLine == 0, !XMLCharacters.isSpace(b) { visibleLine = line }
            i += try checkCharacter(at: i)
        }
        textStart = start
        textEnd = i
        textFirstVisibleLine = visibleLine
        textHasReference = false
        textHasCarriageReturn = carriageReturn
        pos = i + 3
    }

    /// Checks the reference at `i` (an `&`): a character reference to an XML character or one
    /// of the five predefined entities. Returns the offset after its `;`.
    func checkReference(at i: Int) throws(SCXMLError) -> Int {
        let (value, end) = reference(at: i)
        if value != nil { return end }
        switch end {
        case -1: throw malformed("a '&' that does not start a reference (write &amp;)")
        case 0: throw malformed("an invalid character reference")
        default: throw malformed("entity references other than the predefined ones are not allowed")
        }
    }

    /// The scalar the reference at `i` stands for and the offset after it; `nil` with -1 when
    /// `&` starts no reference, 0 for a bad character reference, 1 for an unknown entity.
    @inline(__always)
    func reference(at i: Int) -> (value: UInt32?, end: Int) {
        var j = i + 1
        if j < count, bytes[j] == UInt8(ascii: "#") {
            j += 1
            let hex = j < count && bytes[j] == UInt8(ascii: "x")
            if hex { j += 1 }
            var value: UInt32 = 0
            var digits = 0
            while j < count {
                let b = bytes[j]
                let d: UInt32
                switch b {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt32(b - UInt8(ascii: "0"))
                case UInt8(ascii: "a")...UInt8(ascii: "f") where hex: d = UInt32(b - UInt8(ascii: "a") + 10)
                case UInt8(ascii: "A")...UInt8(ascii: "F") where hex: d = UInt32(b - UInt8(ascii: "A") + 10)
                default: d = 99
                }
                if d == 99 { break }
                if value <= 0x10FFFF { value = value * (hex ? 16 : 10) + d }
                digits += 1
                j += 1
            }
            guard digits > 0, j < count, bytes[j] == UInt8(ascii: ";"), XMLCharacters.isChar(value) else { return (nil, 0) }
            return (value, j + 1)
        }
        var k = j
        while k < count, k - j < 5, (bytes[k] >= UInt8(ascii: "a") && bytes[k] <= UInt8(ascii: "z")) { k += 1 }
        if k < count, bytes[k] == UInt8(ascii: ";") {
            switch k - j {
            case 2 where bytes[j] == UInt8(ascii: "l") && bytes[j + 1] == UInt8(ascii: "t"): return (0x3C, k + 1)
            case 2 where bytes[j] == UInt8(ascii: "g") && bytes[j + 1] == UInt8(ascii: "t"): return (0x3E, k + 1)
            case 3 where matches("amp", at: j): return (0x26, k + 1)
            case 4 where matches("apos", at: j): return (0x27, k + 1)
            case 4 where matches("quot", at: j): return (0x22, k + 1)
            default: break
            }
        }
        // Not a predefined entity: a name followed by ';' is an undeclared entity, anything else no reference.
        var end = j
        while end < count, end - j < 1024, let (c, n) = XMLCharacters.scalar(at: end, in: bytes),
            end == j ? XMLCharacters.isNameStart(c) : XMLCharacters.isNameChar(c)
        {
            end += n
        }
        return (nil, end > j && end < count && bytes[end] == UInt8(ascii: ";") ? 1 : -1)
    }

    /// The text of `start..<end` with references replaced (when `references`), line ends
    /// normalized to line feeds, and in an attribute value each white space character a space.
    /// Every reference in it was checked while scanning. The result is never longer than the
    /// bytes it comes from.
    // Out of line: inlined into its callers (``value(of:)`` above all), its closure's copy of the
    // scanner (216 bytes) was made for every attribute, plain or not (issue 16, "SCXML").
    @inline(never)
    func decode(_ start: Int, _ end: Int, attribute: Bool, references: Bool) -> String {
        String(unsafeUninitializedCapacity: end - start) { out in
            var n = 0
            var i = start
            while i < end {
                let b = bytes[i]
                switch b {
                case UInt8(ascii: "&") where references:
                    let (value, after) = reference(at: i)
                    let v = value ?? 0xFFFD
                    if v < 0x80 {
                        out[n] = UInt8(v)
                        n += 1
                    } else {
                        for unit in UTF8.encode(Unicode.Scalar(v) ?? "\u{FFFD}")! {
                            out[n] = unit
                            n += 1
                        }
                    }
                    i = max(after, i + 1)
                    continue
                case 0x0D:
                    out[n] = attribute ? 0x20 : 0x0A
                    n += 1
                    i += i + 1 < end && bytes[i + 1] == 0x0A ? 2 : 1
                    continue
                case 0x0A where attribute, 0x09 where attribute:
                    out[n] = 0x20
                default:
                    out[n] = b
                }
                n += 1
                i += 1
            }
            return n
        }
    }

    mutating func skipComment() throws(SCXMLError) {
        let startLine = line
        var i = pos + 4
        while true {
            guard i < count else { throw .malformedXML("a comment is not closed", line: startLine) }
            if bytes[i] == UInt8(ascii: "-"), i + 1 < count, bytes[i + 1] == UInt8(ascii: "-") {
                guard i + 2 < count, bytes[i + 2] == UInt8(ascii: ">") else { throw malformed("'--' inside a comment") }
                pos = i + 3
                return
            }
            i += try checkCharacter(at: i)
        }
    }

    /// A processing instruction, or the XML declaration at the very start.
    mutating func skipProcessingInstruction() throws(SCXMLError) {
        let startLine = line
        let start = pos
        var i = pos + 2
        let (end, _) = try scanName(from: i, qualified: false, what: "a processing instruction's target after '<?'")
        let isXML =
            end - i == 3 && bytes[i] | 0x20 == UInt8(ascii: "x") && bytes[i + 1] | 0x20 == UInt8(ascii: "m")
            && bytes[i + 2] | 0x20 == UInt8(ascii: "l")
        if isXML {
            guard start == documentStart, matches("xml", at: i) else {
                throw malformed("an XML declaration is only allowed at the start of the document")
            }
            try scanDeclaration(from: end)
            return
        }
        i = end
        if matches("?>", at: i) {
            pos = i + 2
            return
        }
        guard i < count, XMLCharacters.isSpace(bytes[i]) else { throw malformed("expected white space after a processing instruction's target") }
        while true {
            guard i < count else { throw .malformedXML("a processing instruction is not closed", line: startLine) }
            if bytes[i] == UInt8(ascii: "?"), matches("?>", at: i) {
                pos = i + 2
                return
            }
            i += try checkCharacter(at: i)
        }
    }

    /// `<?xml version="1.x" encoding="…" standalone="yes|no"?>`, from after `<?xml`: the version
    /// first, then the others in this order, each optional. The encoding was read (and accepted)
    /// before the document was decoded; here only its form is checked.
    mutating func scanDeclaration(from start: Int) throws(SCXMLError) {
        let names: [StaticString] = ["version", "encoding", "standalone"]
        var i = start
        var next = 0
        while true {
            let hadSpace = skipSpace(&i)
            if next > 0, matches("?>", at: i) {
                pos = i + 2
                return
            }
            guard hadSpace, let k = (next..<3).first(where: { matches(names[$0], at: i) }), next > 0 || k == 0 else {
                return try badDeclaration()
            }
            i += names[k].utf8CodeUnitCount
            skipSpace(&i)
            guard i < count, bytes[i] == UInt8(ascii: "=") else { return try badDeclaration() }
            i += 1
            skipSpace(&i)
            guard i < count, bytes[i] == UInt8(ascii: "\"") || bytes[i] == UInt8(ascii: "'") else { return try badDeclaration() }
            let quote = bytes[i]
            let valueStart = i + 1
            i = valueStart
            while i < count, bytes[i] != quote, bytes[i] != UInt8(ascii: "<"), bytes[i] != UInt8(ascii: ">") { i += 1 }
            guard i < count, bytes[i] == quote, i > valueStart else { return try badDeclaration() }
            let valid: Bool
            switch k {
            case 0:
                valid =
                    i - valueStart > 2 && matches("1.", at: valueStart)
                    && (valueStart + 2..<i).allSatisfy { bytes[$0] >= UInt8(ascii: "0") && bytes[$0] <= UInt8(ascii: "9") }
            case 2:
                let length = i - valueStart
                valid = (length == 3 && matches("yes", at: valueStart)) || (length == 2 && matches("no", at: valueStart))
            default:
                valid = true
            }
            guard valid else { return try badDeclaration() }
            i += 1
            next = k + 1
        }
    }

    func badDeclaration() throws(SCXMLError) {
        throw malformed("invalid XML declaration (<?xml version=\"1.0\" encoding=\"…\"?>)")
    }
}
