import Statechart

/// Values made from attribute texts, kept by text: a document writes the same few event lists and
/// conditions on thousands of transitions, and each distinct text is read, checked and made into
/// its value once.
///
/// Keyed with a ``StateIDTable``, the type a chart resolves its ids with (a hash of the text's
/// bytes, eight at a time), rather than a `Dictionary`, whose SipHash of every text cost more than
/// reading a short list anew. Texts match by their Unicode scalars, as ids do: two texts equal only under canonical
/// equivalence are two keys, each read on its own (to the same value).
struct SCXMLTextCache<Value> {
    private var keys = StateIDTable()
    private var values: [Value] = []

    /// An empty cache.
    init() {}

    /// The value kept for `text`, `nil` when there is none.
    subscript(text: String) -> Value? {
        keys[text].map { values[Int($0)] }
    }

    /// Keeps `value` for `text`, replacing a value kept for it before. Past `Int32.max` texts
    /// (a document of tens of gigabytes read without limits) nothing more is kept: the table's
    /// indices are 32-bit, and a text not found is read again by the caller.
    mutating func insert(_ value: Value, for text: String) {
        guard keys.count < Int(Int32.max) else { return }
        if let existing = keys.append(text, indexed: true) {
            values[Int(existing)] = value
        } else {
            values.append(value)
        }
    }
}

extension SCXMLTextCache: Sendable where Value: Sendable {}
