/// An element's attributes by local name, as pairs searched in order.
///
/// An SCXML element has a handful of attributes, and the builder looks each of them up by name
/// several times; comparing a few short strings costs less than hashing the name at every
/// lookup, and a pair array is one allocation where a dictionary is a hash table per element
/// (a 1,000,000-state document has about three million elements). The order of the pairs is the
/// order they were set in, which means nothing: code that reports attributes sorts them.
struct XMLAttributes: Sendable {
    private var pairs: [(name: String, value: String)] = []

    /// No attributes, with room for `capacity`.
    init(capacity: Int = 0) { pairs.reserveCapacity(capacity) }

    /// The value of the attribute `name`; setting replaces it, `nil` removes it.
    subscript(name: String) -> String? {
        get {
            for pair in pairs where pair.name == name { return pair.value }
            return nil
        }
        set {
            if let i = pairs.firstIndex(where: { $0.name == name }) {
                if let newValue { pairs[i].value = newValue } else { pairs.remove(at: i) }
            } else if let newValue {
                pairs.append((name, newValue))
            }
        }
    }

    /// The attributes' names, in no particular order.
    var keys: LazyMapSequence<[(name: String, value: String)], String> { pairs.lazy.map(\.name) }

    /// The number of attributes.
    var count: Int { pairs.count }

    /// Whether there are none.
    var isEmpty: Bool { pairs.isEmpty }
}
