/// An element's attributes by local name, as pairs searched in order.
///
/// An SCXML element has a handful of attributes, and the builder looks each of them up by name
/// several times; comparing a few short strings costs less than hashing the name at every
/// lookup, and a pair array is one allocation where a dictionary is a hash table per element
/// (a 1,000,000-state document has about three million elements). The order of the pairs is the
/// order they were set in, which means nothing: code that reports attributes sorts them.
///
/// Each pair also holds its name as an ``SCXMLAttributeName`` when SCXML has one by that name,
/// found from the bytes while reading: the builder's checks and lookups compare that byte
/// instead of strings.
///
/// The pairs are a part of one array: the reader puts the attributes of the whole document in
/// one array and gives each element its part of it (``init(sharing:_:)``), one allocation for the
/// document where an array per element was one each to make and to free; the part takes 16
/// bytes (``XMLTreePart``). Read-only: the reader sets the attributes in its array
/// (``set(_:known:to:in:from:)``) before it shares them.
struct XMLAttributes: Sendable {
    /// One attribute. A struct, not a tuple: an array of tuples is destroyed through the
    /// runtime's generic tuple witness, field by field, which cost a few hundred instructions per
    /// element when a document's attributes were freed.
    struct Pair: Sendable {
        var name: String
        var known: SCXMLAttributeName?
        var value: String
    }
    private let part: XMLTreePart<Pair>

    /// No attributes.
    init() { part = XMLTreePart() }

    /// The attributes `shared.elements[range]`.
    init(sharing shared: XMLSharedArray<Pair>, _ range: Range<Int>) { part = XMLTreePart(shared, range) }

    /// Sets the attribute `name` (known to SCXML as `known`) among the pairs `all[start...]`,
    /// replacing a value set there before under the same name: the reader, on the pairs of the
    /// element being read, before they are shared.
    static func set(_ name: String, known: SCXMLAttributeName?, to value: String, in all: inout [Pair], from start: Int) {
        for i in start..<all.count where all[i].known == known && all[i].name == name {
            all[i].value = value
            return
        }
        all.append(Pair(name: name, known: known, value: value))
    }

    /// The value of the attribute `name`.
    subscript(name: String) -> String? {
        part.withElements(else: nil) { pairs in
            for i in pairs.indices where pairs[i].name == name { return pairs[i].value }
            return nil
        }
    }

    /// The value of the attribute `name`: the same as the subscript by its string, by one byte.
    subscript(name: SCXMLAttributeName) -> String? {
        part.withElements(else: nil) { pairs in
            for i in pairs.indices where pairs[i].known == name { return pairs[i].value }
            return nil
        }
    }

    /// Whether every attribute has an SCXML name, and one of `mask` (``SCXMLAttributeName/bit``).
    func allKnown(in mask: UInt32) -> Bool {
        part.withElements(else: true) { pairs in
            for i in pairs.indices {
                guard let known = pairs[i].known, mask & known.bit != 0 else { return false }
            }
            return true
        }
    }

    /// Whether an attribute has an SCXML name of `mask`.
    func anyKnown(in mask: UInt32) -> Bool {
        part.withElements(else: false) { pairs in
            for i in pairs.indices {
                if let known = pairs[i].known, mask & known.bit != 0 { return true }
            }
            return false
        }
    }

    /// The attributes' names, in no particular order.
    var keys: [String] { part.withElements(else: []) { $0.map(\.name) } }

    /// The number of attributes.
    var count: Int { part.count }

    /// Whether there are none.
    var isEmpty: Bool { part.count == 0 }
}

/// The attribute names SCXML's elements have (``SCXMLSchema/allowedAttributes`` and
/// ``SCXMLSchema/expressionAttributes``), so that the reader names an attribute with one byte
/// found from its bytes and the builder tests it against masks by kind, without making or
/// comparing strings.
enum SCXMLAttributeName: UInt8, CaseIterable, Sendable {
    case initial, name, version, datamodel, binding, id, type, event, cond, target
    case eventexpr, targetexpr, delay, delayexpr, idlocation, typeexpr, namelist, sendid, sendidexpr
    case label, expr, array, item, index, location, src, srcexpr, autoforward

    /// The attribute's name.
    var name: String { Self.table.strings[Int(rawValue)] }

    /// The name `name` is, `nil` when SCXML has no attribute by that name.
    /// Found in ``table``, the one list of the names.
    init?(_ name: String) {
        guard let k = Self.table.index(of: name) else { return nil }
        self.init(rawValue: UInt8(k))
    }

    /// The name spelled by `bytes`, `nil` when SCXML has no attribute by that name.
    static func find(_ bytes: UnsafeBufferPointer<UInt8>) -> SCXMLAttributeName? {
        find(bytes, in: table)
    }

    /// The same, in a copy of ``table`` held by the caller. `bytes` are a name as the scanner
    /// reads it, with no zero byte (a packing ends at the first one).
    @inline(__always)
    static func find(_ bytes: UnsafeBufferPointer<UInt8>, in table: XMLNameTable) -> SCXMLAttributeName? {
        table.index(of: bytes).map { SCXMLAttributeName(rawValue: UInt8($0))! }
    }

    /// The names, in the order of their raw values (written out rather than found by reflection,
    /// as ``SCXMLElementKind/table`` says).
    static let table = XMLNameTable([
        "initial", "name", "version", "datamodel", "binding", "id", "type", "event", "cond", "target",
        "eventexpr", "targetexpr", "delay", "delayexpr", "idlocation", "typeexpr", "namelist", "sendid", "sendidexpr",
        "label", "expr", "array", "item", "index", "location", "src", "srcexpr", "autoforward",
    ])

    /// This name as one bit of a mask.
    @inline(__always)
    var bit: UInt32 { 1 << UInt32(rawValue) }

    /// The bits of `names` (names SCXML does not have are left out).
    static func mask(_ names: some Sequence<String>) -> UInt32 {
        names.reduce(0) { $0 | (SCXMLAttributeName($1)?.bit ?? 0) }
    }
}
