/// White space tests for attribute values, conditions and text, with an ASCII fast path.
///
/// The loader's rules are written with `Character.isWhitespace` (and, in conditions, the
/// scalar's `isWhitespace` property). Asking Unicode's property tables for every character was
/// the largest single cost of loading a large document (11 % of the samples at 6 MB). Almost
/// every value is ASCII, and for ASCII both properties hold for exactly tab, line feed, vertical
/// tab, form feed, carriage return and space; so ASCII text is tested byte by byte and anything
/// else goes through the `Character` definitions, which stay the rule. `XMLWhitespaceTests`
/// compares each function with its `Character` definition.
enum XMLWhitespace {
    /// Whether `byte` is an ASCII white space character (U+0009 to U+000D, U+0020).
    @inline(__always)
    static func isASCIISpace(_ byte: UInt8) -> Bool { byte == 0x20 || (byte >= 0x09 && byte <= 0x0D) }

    /// `scalar.properties.isWhitespace`, without the property table for ASCII.
    @inline(__always)
    static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCII ? isASCIISpace(UInt8(scalar.value)) : scalar.properties.isWhitespace
    }

    /// Whether `text` holds only white space characters (`true` when empty).
    static func isBlank(_ text: String) -> Bool {
        for byte in text.utf8 {
            // A non-ASCII byte: the rest is decided by the Character definition. An ASCII byte
            // that is not space starts a non-space Character (or continues one that begins with
            // a non-space scalar), so the answer is already known.
            if byte >= 0x80 { return !text.contains { !$0.isWhitespace } }
            if !isASCIISpace(byte) { return false }
        }
        return true
    }

    /// Whether `text` contains a white space character.
    static func containsSpace(_ text: String) -> Bool {
        // On the contiguous bytes when the string has them (see `split`): `nil` when not ASCII.
        let ascii = text.utf8.withContiguousStorageIfAvailable { bytes -> Bool? in
            bytes.contains { $0 >= 0x80 } ? nil : bytes.contains(where: isASCIISpace)
        }
        if let ascii, let ascii { return ascii }
        guard isASCII(text) else { return text.contains(where: \.isWhitespace) }
        return text.utf8.contains(where: isASCIISpace)
    }

    /// `text` split at white space, empty pieces omitted.
    static func split(_ text: String) -> [String] {
        // Most lists hold one name: that one is the text itself. The test reads the bytes in place
        // where the string has them contiguous (always, for a native string), which the UTF-8
        // view's iterator did at several times the cost.
        let isOneName =
            text.utf8.withContiguousStorageIfAvailable { bytes in
                !bytes.isEmpty && !bytes.contains { $0 >= 0x80 || isASCIISpace($0) }
            } ?? (!text.isEmpty && !text.utf8.contains { $0 >= 0x80 || isASCIISpace($0) })
        if isOneName { return [text] }
        guard isASCII(text) else { return text.split(whereSeparator: \.isWhitespace).map(String.init) }
        return text.utf8.split(whereSeparator: isASCIISpace).map { String(Substring($0)) }
    }

    @inline(__always)
    static func isASCII(_ text: String) -> Bool { text.utf8.allSatisfy { $0 < 0x80 } }
}
