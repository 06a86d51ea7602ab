/// A variable's name as scopes store it: its text and the text's hash, computed once.
///
/// An identifier in an expression is parsed once and looked up at every evaluation; hashing its
/// text each time was most of what reading a variable cost (a `String` hash runs SipHash over
/// its bytes). The parser makes a `Name` for every identifier, so a lookup only mixes the stored
/// hash with the dictionary's seed. Names the host passes (`declare("count", …)`) are hashed when
/// they are made, as before.
struct Name: Hashable, Sendable, CustomStringConvertible {
    let text: String
    /// `text.hashValue`: SipHash with this process's seed, so as well spread as a `String` key.
    let hashCode: Int

    init(_ text: String) {
        self.text = text
        hashCode = text.hashValue
    }

    var description: String { text }

    static func == (a: Name, b: Name) -> Bool { a.hashCode == b.hashCode && a.text == b.text }

    func hash(into hasher: inout Hasher) { hasher.combine(hashCode) }

    /// What `Dictionary` and `Set` use to place a key: the stored hash mixed with the table's
    /// seed (so that tables of different sizes do not order their keys alike), without SipHash.
    func _rawHashValue(seed: Int) -> Int {
        // The finalizer of MurmurHash3: every bit of the input moves every bit of the output.
        var x = UInt64(bitPattern: Int64(hashCode ^ seed))
        x = (x ^ (x >> 33)) &* 0xff51_afd7_ed55_8ccd
        x = (x ^ (x >> 33)) &* 0xc4ce_b9fe_1a85_ec53
        return Int(bitPattern: UInt(x ^ (x >> 33)))
    }
}
