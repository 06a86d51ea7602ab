/// A name of up to 16 bytes packed into two words, so that a name read from the document is
/// compared with each of a few known names in two integer comparisons, without making a string.
///
/// The bytes are stored little-end first and the rest is zero. XML names hold no zero byte, so
/// two names of at most 16 bytes are equal exactly when their packings are; a longer name has no
/// packing (and is none of the known names, which are all shorter).
struct XMLPackedName: Equatable {
    var low: UInt64 = 0
    var high: UInt64 = 0

    /// No name: all zero, which no name's packing is.
    fileprivate init() {}

    /// The packing of `bytes`, `nil` when it is empty or longer than 16 bytes.
    ///
    /// Read a word (or half-word) at a time, the pieces overlapping where the length is not a
    /// multiple: an overlapping byte lands at its own place in both pieces, so or-ing them is
    /// exact. Byte by byte, packing was most of the cost of finding a name.
    @inline(__always)
    init?(_ bytes: UnsafeBufferPointer<UInt8>) {
        let count = bytes.count
        guard count > 0, count <= 16, let base = bytes.baseAddress else { return nil }
        let raw = UnsafeRawPointer(base)
        if count >= 8 {
            low = UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self))
            if count > 8 {
                // The last eight bytes, shifted so that byte 8 comes first.
                let tail = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self))
                high = tail >> UInt64(8 * (16 - count))
            }
        } else if count >= 4 {
            let head = UInt64(UInt32(littleEndian: raw.loadUnaligned(as: UInt32.self)))
            let tail = UInt64(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)))
            low = head | tail << UInt64(8 * (count - 4))
        } else {
            low = UInt64(bytes[0])
            if count > 1 { low |= UInt64(bytes[1]) << 8 }
            if count > 2 { low |= UInt64(bytes[2]) << 16 }
        }
    }

    /// The packing of a known name (`nil` when it is empty or longer than 16 bytes).
    init?(_ name: String) {
        let bytes = Array(name.utf8)
        guard let packed = bytes.withUnsafeBufferPointer({ XMLPackedName($0) }) else { return nil }
        self = packed
    }

}

/// A few known names, found from a name's bytes in constant time: the packing is hashed into a
/// table of 256 slots with a multiplier chosen, when the table is made, so that no two known names
/// share a slot. A name then costs its packing, one multiplication and one comparison, where
/// comparing it with each known name in turn cost a few hundred instructions.
///
/// The tree builder keeps its own copy of each table for a document: a table in a global
/// (`static let`) is reached through `swift_once` and retained at every use.
struct XMLNameTable: Sendable {
    private let names: [XMLPackedName]
    /// The names as strings, by index.
    let strings: [String]
    /// The index of the known name hashed to each slot, -1 for none.
    private let slots: [Int8]
    private let multiplier: UInt64

    /// A table of `names` (at most 64, none empty or longer than 16 bytes, all different).
    init(_ names: [String]) {
        let packed = names.map { XMLPackedName($0) ?? XMLPackedName() }
        precondition(packed.count <= 64 && !packed.contains(XMLPackedName()), "names the table cannot hold")
        // Odd multipliers from a fixed sequence: the first that separates the names is kept, so
        // the table is the same in every run. With four slots a name, some 28 names are separated
        // within a few tries; the bound only keeps a mistake in the names from looping.
        var candidate: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<100_000 {
            var slots = [Int8](repeating: -1, count: 256)
            var separated = true
            for (k, name) in packed.enumerated() {
                let slot = Self.slot(name, candidate)
                if slots[slot] >= 0 {
                    separated = false
                    break
                }
                slots[slot] = Int8(k)
            }
            if separated {
                self.names = packed
                self.strings = names
                self.slots = slots
                self.multiplier = candidate
                return
            }
            candidate = candidate &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407 | 1
        }
        preconditionFailure("no multiplier separates the names")
    }

    @inline(__always)
    private static func slot(_ name: XMLPackedName, _ multiplier: UInt64) -> Int {
        Int(truncatingIfNeeded: ((name.low ^ (name.high &* 0x2545_F491_4F6C_DD1D)) &* multiplier) >> 56)
    }

    /// The index of the name spelled by `bytes`, `nil` when it is none of the known names.
    @inline(__always)
    func index(of bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let key = XMLPackedName(bytes) else { return nil }
        let k = Int(slots[Self.slot(key, multiplier)])
        return k >= 0 && names[k] == key ? k : nil
    }

    /// The index of the name `name`, `nil` when it is none of the known names.
    func index(of name: String) -> Int? {
        // A packing ends at the first zero byte, so "state\u{0}" would pack as "state": no known
        // name holds one (a document cannot: XML refuses U+0000).
        var name = name
        guard !name.utf8.contains(0) else { return nil }
        return name.withUTF8 { index(of: $0) }
    }
}
