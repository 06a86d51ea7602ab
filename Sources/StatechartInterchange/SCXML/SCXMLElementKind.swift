/// The elements of SCXML 1.0, so that the reader and the builder look their properties up in
/// tables by kind instead of hashing names. The schema itself stays in ``SCXMLSchema``'s
/// dictionaries; the tables here are derived from them once.
enum SCXMLElementKind: UInt8, CaseIterable, Sendable {
    case scxml, state, parallel, final, history, initial, transition, onentry, onexit
    case `if`, elseif, `else`, foreach, raise, send, cancel, log, assign, script
    case datamodel, data, param, content, donedata, invoke, finalize

    /// The kind of an element of the SCXML namespace, `nil` for a name SCXML does not have.
    /// Found in ``table``, the one list of the names.
    init?(name: String) {
        guard let k = Self.table.index(of: name) else { return nil }
        self.init(rawValue: UInt8(k))
    }

    /// The element's name.
    var name: String { Self.table.strings[Int(rawValue)] }

    /// The kind whose name is spelled by `bytes`, `nil` for a name SCXML does not have: the reader
    /// finds it without making a string.
    static func find(_ bytes: UnsafeBufferPointer<UInt8>) -> SCXMLElementKind? {
        find(bytes, in: table)
    }

    /// The same, in a copy of ``table`` held by the caller. `bytes` are a name as the scanner
    /// reads it, with no zero byte (a packing ends at the first one).
    @inline(__always)
    static func find(_ bytes: UnsafeBufferPointer<UInt8>, in table: XMLNameTable) -> SCXMLElementKind? {
        table.index(of: bytes).map { SCXMLElementKind(rawValue: UInt8($0))! }
    }

    /// The names of the kinds, in the order of their raw values.
    static let table = XMLNameTable([
        "scxml", "state", "parallel", "final", "history", "initial", "transition", "onentry", "onexit",
        "if", "elseif", "else", "foreach", "raise", "send", "cancel", "log", "assign", "script",
        "datamodel", "data", "param", "content", "donedata", "invoke", "finalize",
    ])
    // Written out, not `allCases.map { "\($0)" }`: naming the 26 kinds by reflection cost 3.5
    // million instructions (the attribute names 1.2 million more) at the start of every process
    // that reads a document.
    // `XMLKnownNameTests` checks the list against the cases' names.

    /// This kind as one bit of a ``Mask``.
    @inline(__always)
    var bit: UInt32 { 1 << UInt32(rawValue) }

    /// A set of kinds as bits. Named `Mask`, not `Set`, so that inside this type `Set` still
    /// means `Swift.Set`.
    struct Mask: Sendable {
        var bits: UInt32
        init(_ names: some Sequence<String>) {
            bits = names.reduce(0) { $0 | (SCXMLElementKind(name: $1)?.bit ?? 0) }
        }
        @inline(__always)
        func contains(_ kind: SCXMLElementKind?) -> Bool { kind.map { bits & $0.bit != 0 } ?? false }
    }

    /// The attributes each kind may have (``SCXMLSchema/allowedAttributes``), those that are not
    /// expressions and those that are (``SCXMLSchema/expressionAttributes``): a few names each,
    /// compared one by one, which is cheaper than hashing.
    var plainAttributes: [String] { Self.plain[Int(rawValue)] }
    var expressionAttributes: [String] { Self.expressions[Int(rawValue)] }
    fileprivate static let plain: [[String]] = allCases.map {
        (SCXMLSchema.allowedAttributes[$0.name] ?? []).subtracting(SCXMLSchema.expressionAttributes).sorted()
    }
    fileprivate static let expressions: [[String]] = allCases.map {
        (SCXMLSchema.allowedAttributes[$0.name] ?? []).intersection(SCXMLSchema.expressionAttributes).sorted()
    }

    /// The schema's tables by kind (``Rules``), made once from ``SCXMLSchema``.
    static let rules = Rules()

    /// What the schema says of each kind, in arrays by raw value and in masks: one value, so that
    /// the reader and the builder copy it once for a document. Each use of a global (a
    /// `static let`) goes through `swift_once`; read for every element of a large document, those
    /// calls were about one per cent of loading it.
    struct Rules: Sendable {
        /// ``SCXMLSchema/stateElements``, ``SCXMLSchema/textElements`` and
        /// ``SCXMLSchema/markupElements`` as masks.
        let states = Mask(SCXMLSchema.stateElements)
        let takesText = Mask(SCXMLSchema.textElements)
        let holdsMarkup = Mask(SCXMLSchema.markupElements)
        /// ``SCXMLSchema/expressionAttributes`` as a mask of ``SCXMLAttributeName``s.
        let expressionAttributeNames = SCXMLAttributeName.mask(SCXMLSchema.expressionAttributes)
        private let children: [Mask] = allCases.map { Mask(SCXMLSchema.allowedChildren[$0.name] ?? []) }
        private let plainMasks: [UInt32] = SCXMLElementKind.plain.map { SCXMLAttributeName.mask($0) }
        private let expressionMasks: [UInt32] = SCXMLElementKind.expressions.map { SCXMLAttributeName.mask($0) }
        private let refusals: [String?] = allCases.map { SCXMLSchema.nullDataModelRefusals[$0.name] }
        private let unsupported: [String?] = allCases.map { SCXMLSchema.unsupportedElements[$0.name] }

        /// The children `kind` may have (``SCXMLSchema/allowedChildren``).
        func allowedChildren(of kind: SCXMLElementKind) -> Mask { children[Int(kind.rawValue)] }
        /// The attributes `kind` may have that are not expressions, as a mask.
        func plainAttributeMask(of kind: SCXMLElementKind) -> UInt32 { plainMasks[Int(kind.rawValue)] }
        /// The expression attributes `kind` may have, as a mask.
        func expressionAttributeMask(of kind: SCXMLElementKind) -> UInt32 { expressionMasks[Int(kind.rawValue)] }
        /// Why the null data model refuses `kind`, if it does.
        func nullDataModelRefusal(of kind: SCXMLElementKind) -> String? { refusals[Int(kind.rawValue)] }
        /// Why this loader refuses `kind` whatever the data model.
        func unsupportedReason(of kind: SCXMLElementKind) -> String? { unsupported[Int(kind.rawValue)] }
    }
}
