/// Turns a document in one of the accepted single-byte encodings into UTF-8 before it is read,
/// so the reader only ever sees UTF-8. Line breaks keep their bytes, so lines and columns are
/// the same in both.
enum XMLEncodings {
    /// The document as UTF-8, or `nil` when it already is (no declared encoding, or UTF-8).
    /// A document declared US-ASCII may not hold a byte over 0x7F.
    static func utf8(of bytes: UnsafeBufferPointer<UInt8>, declaredEncoding: String?) throws(SCXMLError) -> [UInt8]? {
        switch declaredEncoding {
        case nil, "UTF-8", "UTF8":
            return nil
        case "US-ASCII", "ASCII":
            if let i = bytes.firstIndex(where: { $0 >= 0x80 }) {
                throw .malformedXML(
                    "the byte 0x\(String(bytes[i], radix: 16, uppercase: true)) in a document declared US-ASCII",
                    line: XMLTreeReader.line(ofOffset: i, in: bytes))
            }
            return nil
        case "ISO-8859-2":
            return transcode(bytes) { latin2[Int($0) - 0xA0] }
        case "ISO-8859-15":
            return transcode(bytes) { latin9[$0] ?? UInt32($0) }
        default:  // ISO-8859-1 and its other names
            return transcode(bytes) { UInt32($0) }
        }
    }

    /// Each byte under 0x80 as itself; each from 0xA0 up as `upper` maps it (0x80–0x9F are the
    /// C1 controls in all three encodings).
    private static func transcode(_ bytes: UnsafeBufferPointer<UInt8>, upper: (UInt8) -> UInt32) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + bytes.count / 8)
        for b in bytes {
            if b < 0x80 {
                out.append(b)
                continue
            }
            let scalar = Unicode.Scalar(b < 0xA0 ? UInt32(b) : upper(b)) ?? "\u{FFFD}"
            out.append(contentsOf: UTF8.encode(scalar)!)
        }
        return out
    }

    /// ISO-8859-2 from 0xA0 to 0xFF.
    private static let latin2: [UInt32] = [
        0xA0, 0x104, 0x2D8, 0x141, 0xA4, 0x13D, 0x15A, 0xA7, 0xA8, 0x160, 0x15E, 0x164, 0x179, 0xAD, 0x17D, 0x17B,
        0xB0, 0x105, 0x2DB, 0x142, 0xB4, 0x13E, 0x15B, 0x2C7, 0xB8, 0x161, 0x15F, 0x165, 0x17A, 0x2DD, 0x17E, 0x17C,
        0x154, 0xC1, 0xC2, 0x102, 0xC4, 0x139, 0x106, 0xC7, 0x10C, 0xC9, 0x118, 0xCB, 0x11A, 0xCD, 0xCE, 0x10E,
        0x110, 0x143, 0x147, 0xD3, 0xD4, 0x150, 0xD6, 0xD7, 0x158, 0x16E, 0xDA, 0x170, 0xDC, 0xDD, 0x162, 0xDF,
        0x155, 0xE1, 0xE2, 0x103, 0xE4, 0x13A, 0x107, 0xE7, 0x10D, 0xE9, 0x119, 0xEB, 0x11B, 0xED, 0xEE, 0x10F,
        0x111, 0x144, 0x148, 0xF3, 0xF4, 0x151, 0xF6, 0xF7, 0x159, 0x16F, 0xFA, 0x171, 0xFC, 0xFD, 0x163, 0x2D9,
    ]

    /// The bytes where ISO-8859-15 differs from ISO-8859-1.
    private static let latin9: [UInt8: UInt32] = [
        0xA4: 0x20AC, 0xA6: 0x160, 0xA8: 0x161, 0xB4: 0x17D, 0xB8: 0x17E, 0xBC: 0x152, 0xBD: 0x153, 0xBE: 0x178,
    ]
}
