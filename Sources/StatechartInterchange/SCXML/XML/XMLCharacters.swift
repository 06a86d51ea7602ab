/// The character classes of XML 1.0 (fifth edition) that the reader checks, over UTF-8 bytes.
enum XMLCharacters {
    /// Decodes the scalar at `i` in `bytes`, which must be well-formed UTF-8 for an XML `Char`
    /// (no overlong forms, surrogates, U+FFFE or U+FFFF, nothing over U+10FFFF). Returns the
    /// scalar and its length in bytes, or `nil` for anything else. `i` must be in bounds.
    @inline(__always)
    static func scalar(at i: Int, in bytes: UnsafeBufferPointer<UInt8>) -> (value: UInt32, length: Int)? {
        let b0 = bytes[i]
        if b0 < 0x80 {
            return isChar(UInt32(b0)) ? (UInt32(b0), 1) : nil
        }
        return multiByteScalar(at: i, in: bytes)
    }

    /// ``scalar(at:in:)`` for a lead byte of 0x80 or more.
    static func multiByteScalar(at i: Int, in bytes: UnsafeBufferPointer<UInt8>) -> (value: UInt32, length: Int)? {
        let b0 = bytes[i]
        let length: Int
        var value: UInt32
        switch b0 {
        case 0xC2...0xDF:
            length = 2
            value = UInt32(b0 & 0x1F)
        case 0xE0...0xEF:
            length = 3
            value = UInt32(b0 & 0x0F)
        case 0xF0...0xF4:
            length = 4
            value = UInt32(b0 & 0x07)
        default:
            return nil
        }
        guard i + length <= bytes.count else { return nil }
        for k in 1..<length {
            let b = bytes[i + k]
            guard b & 0xC0 == 0x80 else { return nil }
            value = value << 6 | UInt32(b & 0x3F)
        }
        // Overlong forms decode below their length's range; surrogates and U+FFFE/U+FFFF are not Chars.
        switch length {
        case 3 where value < 0x800: return nil
        case 4 where value < 0x10000 || value > 0x10FFFF: return nil
        default: break
        }
        return isChar(value) ? (value, length) : nil
    }

    /// XML's `Char`: tab, line feed, carriage return and U+0020 to U+10FFFF less the surrogates,
    /// U+FFFE and U+FFFF.
    @inline(__always)
    static func isChar(_ c: UInt32) -> Bool {
        if c < 0x20 { return c == 0x09 || c == 0x0A || c == 0x0D }
        return c <= 0xD7FF || (c >= 0xE000 && c <= 0xFFFD) || (c >= 0x10000 && c <= 0x10FFFF)
    }

    /// XML's `NameStartChar`, the colon included (namespaces are checked apart).
    @inline(__always)
    static func isNameStart(_ c: UInt32) -> Bool {
        if c < 0x80 { return isASCIINameStart(UInt8(c)) }
        switch c {
        case 0xC0...0xD6, 0xD8...0xF6, 0xF8...0x2FF, 0x370...0x37D, 0x37F...0x1FFF, 0x200C...0x200D,
            0x2070...0x218F, 0x2C00...0x2FEF, 0x3001...0xD7FF, 0xF900...0xFDCF, 0xFDF0...0xFFFD,
            0x10000...0xEFFFF:
            return true
        default:
            return false
        }
    }

    /// XML's `NameChar`.
    @inline(__always)
    static func isNameChar(_ c: UInt32) -> Bool {
        if c < 0x80 { return c == 0x3A || isASCIINameCharOtherThanColon(UInt8(c)) }
        return isNameStart(c) || c == 0xB7 || (c >= 0x300 && c <= 0x36F) || c == 0x203F || c == 0x2040
    }

    /// XML's `NameChar` for a byte below 0x80 other than `:` (letters, digits, `_`, `-` and
    /// `.`), looked up in two 64-bit masks, one per half of ASCII; `false` for `:` and for any
    /// byte of 0x80 or more. A name's bytes are checked with it in one lookup each, where the
    /// general check compared each against eight ranges (issue 16, "SCXML"). The one definition
    /// of the ASCII name characters: ``isNameChar(_:)`` reads it too.
    @inline(__always)
    static func isASCIINameCharOtherThanColon(_ b: UInt8) -> Bool {
        let mask: UInt64 = b < 64 ? 0x03FF_6000_0000_0000 : 0x07FF_FFFE_87FF_FFFE
        return b < 0x80 && (mask &>> UInt64(b)) & 1 != 0
    }

    /// XML's `NameStartChar` for an ASCII byte (below 0x80): letters, `_` and `:`, looked up as
    /// ``isASCIINameCharOtherThanColon(_:)`` looks its bytes up; ``isNameStart(_:)`` reads it too.
    @inline(__always)
    static func isASCIINameStart(_ b: UInt8) -> Bool {
        let mask: UInt64 = b < 64 ? 0x0400_0000_0000_0000 : 0x07FF_FFFE_87FF_FFFE
        return (mask &>> UInt64(b)) & 1 != 0
    }

    /// Whether a byte of an attribute value is printable ASCII that means nothing there: not a
    /// control character, not a quote of either kind, `<` or `&`, and below 0x80. One compare
    /// and a mask lookup, where the loop over a value compared each byte six times.
    @inline(__always)
    static func isPlainValueByte(_ b: UInt8) -> Bool {
        let mask: UInt64 = b < 64 ? 0xEFFF_FF3B_0000_0000 : 0xFFFF_FFFF_FFFF_FFFF
        return b < 0x80 && (mask &>> UInt64(b)) & 1 != 0
    }

    /// XML's white space: space, tab, line feed, carriage return.
    @inline(__always)
    static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x0A || b == 0x09 || b == 0x0D }
}
