/// A name of up to 16 bytes packed into two words, so that a name read from the document is
/// compared with each of a few known names in two integer comparisons, without making a string.
///
/// The bytes are stored little-end first and the rest is zero. XML names hold no zero byte, so
/// two names of at most 16 bytes are equal exactly when their packings are; a longer name has no
/// packing (and is none of the known names, which are all shorter).
struct XMLPackedName: Equatable {
    var low: UInt64 = 0
    var high: UInt64 = 0

    /// The packing of `bytes`, `nil` when it is empty or longer than 16 bytes.
    @inline(__always)
    init?(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard !bytes.isEmpty, bytes.count <= 16 else { return nil }
        for k in 0..<bytes.count {
            if k < 8 {
                low |= UInt64(bytes[k]) << UInt64(8 * k)
            } else {
                high |= UInt64(bytes[k]) << UInt64(8 * (k - 8))
            }
        }
    }

    /// The packing of a known name (`nil` when it is empty or longer than 16 bytes).
    init?(_ name: String) {
        let bytes = Array(name.utf8)
        guard let packed = bytes.withUnsafeBufferPointer({ XMLPackedName($0) }) else { return nil }
        self = packed
    }

    /// The index in `table` of the name spelled by `bytes`, `nil` when it is none of them.
    @inline(__always)
    static func index(of bytes: UnsafeBufferPointer<UInt8>, in table: [XMLPackedName?]) -> Int? {
        guard let key = XMLPackedName(bytes) else { return nil }
        for k in table.indices where table[k] == key { return k }
        return nil
    }
}
