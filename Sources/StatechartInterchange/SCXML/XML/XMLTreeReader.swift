import Foundation
import Statechart

/// One SCXML-namespace element of a document, as read. Elements of other namespaces (and
/// everything inside them) are dropped while reading.
struct XMLElementNode: Sendable {
    // The children and the attributes held in 16 bytes each, the location and the parent in 32
    // bits, and the one-byte kind last, after the 32-bit fields, so that it takes no word of its
    // own; the name is the kind's, and only an element SCXML does not know keeps its own, in its
    // box: an element takes 56 bytes (120 with the fields in the order of their meaning, 72 with
    // the name in place), and a 1,000,000-state document has some three and a half million of
    // them, all alive at the loader's peak (peak memory, issue 16).
    /// Attributes in no namespace (or explicitly in the SCXML namespace), by local name.
    var attributes: XMLAttributes
    /// Child element indices in document order: a part of one array of the children of every
    /// element (``XMLTreeBuilder``), so an element's list costs no allocation of its own.
    var children = XMLChildList()
    /// What few elements have: text, markup, or a name SCXML does not know. Boxed, so that the
    /// many elements that have none pay one word for them instead of three strings.
    var extras: XMLElementExtras?
    private let line: Int32
    private let column: Int32
    private let parentIndex: Int32
    /// What the name is in SCXML, `nil` for a name SCXML does not have.
    var kind: SCXMLElementKind?

    /// The local name (`state`, `transition`…): the kind's, or the one read for an element SCXML
    /// does not know.
    var name: String { Self.name(kind: kind, unknownName: extras?.unknownName) }

    /// The name of an element of `kind`, or `unknownName` for one SCXML has no kind for: the one
    /// rule behind ``name`` and the attribute reader's name for its errors.
    static func name(kind: SCXMLElementKind?, unknownName: String?) -> String { kind?.name ?? unknownName ?? "" }

    /// An element without children or content. A line or column past 2,147,483,647 is recorded
    /// as that; the parent is an element index, which the tree builder keeps below it.
    ///
    /// - Parameter unknownName: The name read, for an element whose `kind` is `nil` (the kind
    ///   names the others).
    init(kind: SCXMLElementKind?, unknownName: String?, attributes: XMLAttributes, location: SourceLocation, parent: Int) {
        self.kind = kind
        if kind == nil { extras = XMLElementExtras(text: "", markup: "", unknownName: unknownName ?? "") }
        self.attributes = attributes
        self.line = Int32(clamping: location.line)
        self.column = Int32(clamping: location.column)
        // An element index: the tree builder refuses a document of more elements than fit.
        self.parentIndex = Int32(parent)
    }

    /// Where the start tag begins.
    var location: SourceLocation { SourceLocation(line: Int(line), column: Int(column)) }
    /// The parent's index, -1 for the root.
    var parent: Int { Int(parentIndex) }

    /// The text inside an element that takes text (``SCXMLSchema/textElements``: `<script>`,
    /// `<data>`, `<assign>`, `<content>`), as written; empty for the others, which refuse text.
    var text: String { extras?.text ?? "" }
    /// The elements written inside an element that holds markup (``SCXMLSchema/markupElements``:
    /// `<content>`, `<assign>`, `<data>`), as XML text with their namespaces declared: an SCXML
    /// document to invoke, or an XML value. Never part of ``XMLTree/elements``.
    var markup: String { extras?.markup ?? "" }
}

/// The children of one element (``XMLElementNode/children``), as element indices: its part of
/// the one array of every element's children (``XMLTreePart``).
struct XMLChildList: RandomAccessCollection, Sendable {
    private let part: XMLTreePart<Int32>

    /// No children.
    init() { part = XMLTreePart() }

    /// The children `shared.elements[range]`.
    init(_ shared: XMLSharedArray<Int32>, _ range: Range<Int>) { part = XMLTreePart(shared, range) }

    /// 0: positions count from the element's first child.
    var startIndex: Int { 0 }
    /// The number of children.
    var endIndex: Int { part.count }

    /// The element index of the child at `position`.
    subscript(position: Int) -> Int {
        precondition(position >= 0 && position < endIndex, "child index out of range")
        return part.withElements(else: 0) { Int($0[position]) }
    }
}

/// What few elements of a document have (``XMLElementNode/extras``): text and markup, set once
/// the document has been read (the reader gathers them as it goes, ``XMLTreeBuilder``), and the
/// name of an element SCXML does not know, set when it is read (the builder refuses it by name).
final class XMLElementExtras: Sendable {
    let text: String
    let markup: String
    /// The element's name when it has no ``SCXMLElementKind``; empty otherwise.
    let unknownName: String

    init(text: String, markup: String, unknownName: String) {
        self.text = text
        self.markup = markup
        self.unknownName = unknownName
    }
}

/// A document as a flat array of elements in document order (pre-order: a parent precedes its
/// children), so that nothing downstream needs to recurse to the depth of the document.
struct XMLTree: Sendable {
    /// In document order. A builder that holds the only tree releases them all once checked,
    /// when nothing reads them again (``SCXMLBuilder``).
    var elements: [XMLElementNode]
}

/// Reads a document into an ``XMLTree`` with ``XMLScanner``, the loader's own XML reader.
///
/// Before reading, the bytes are checked for what the reader does not take: UTF-16 and UTF-32
/// are refused, and an encoding declaration may only name UTF-8 or one of a few single-byte
/// encodings (``acceptedEncodings``), whose documents are turned into UTF-8 first. The scanner
/// then refuses a `<!DOCTYPE>`, so no entity is ever declared and none is resolved, and anything
/// but white space and markup before the root, so UTF-7 or EBCDIC, in which `<!DOCTYPE` would
/// be other bytes, are refused too.
///
/// The ``SCXMLLimits`` are checked as the document is read: the size before reading, the nesting
/// depth and the numbers of elements and states at each start tag, so reading stops at the first
/// element over a limit.
enum XMLTreeReader {
    static func read(_ data: Data, limits: SCXMLLimits = .default) throws(SCXMLError) -> XMLTree {
        try withUTF8(data, limits: limits) { (utf8) throws(SCXMLError) in try tree(ofUTF8: utf8, limits: limits) }
    }

    /// Calls `body` with the document as UTF-8: the bytes themselves, or, for a document declared
    /// in another accepted encoding, their transcoding, which lives only during the call. The
    /// size, the encoding (UTF-16 and UTF-32 refused) and the declared encoding are checked first;
    /// the document itself is not read.
    static func withUTF8<Result>(
        _ data: Data, limits: SCXMLLimits, _ body: (UnsafeBufferPointer<UInt8>) throws(SCXMLError) -> Result
    ) throws(SCXMLError) -> Result {
        if data.count > limits.maximumFileSize {
            throw .limitExceeded(.fileSize, limit: limits.maximumFileSize, element: nil, line: nil)
        }
        let result = data.withUnsafeBytes { raw in
            Swift.Result { () throws(SCXMLError) in try withUTF8(raw.bindMemory(to: UInt8.self), body) }
        }
        return try result.get()
    }

    private static func withUTF8<Result>(
        _ bytes: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) throws(SCXMLError) -> Result
    ) throws(SCXMLError) -> Result {
        try checkEncoding(bytes)
        let encoding = try declaredEncoding(bytes)
        if let utf8 = try XMLEncodings.utf8(of: bytes, declaredEncoding: encoding) {
            return try utf8.withUnsafeBufferPointer { (utf8) throws(SCXMLError) in try body(utf8) }
        }
        return try body(bytes)
    }

    /// Reads a document that ``withUTF8(_:limits:_:)`` handed out.
    static func tree(ofUTF8 bytes: UnsafeBufferPointer<UInt8>, limits: SCXMLLimits) throws(SCXMLError) -> XMLTree {
        var builder = XMLTreeBuilder(scanner: XMLScanner(bytes), limits: limits)
        return try builder.build()
    }

    /// The line of byte `offset`, counted from 1.
    static func line(ofOffset offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var line = 1
        for i in 0..<min(offset, bytes.count) where bytes[i] == 0x0A { line += 1 }
        return line
    }

    /// Refuses UTF-16 and UTF-32 documents: every check here works on ASCII-compatible bytes.
    private static func checkEncoding(_ bytes: UnsafeBufferPointer<UInt8>) throws(SCXMLError) {
        let head = Array(bytes.prefix(4))
        if head.starts(with: [0xFE, 0xFF]) || head.starts(with: [0xFF, 0xFE]) {
            throw .unsupportedEncoding("the document starts with a UTF-16 byte order mark")
        }
        if head.contains(0) { throw .unsupportedEncoding("the document looks like UTF-16 or UTF-32") }
    }

    /// The encoding named by the XML declaration the document starts with (after a byte order
    /// mark), upper-cased; `nil` when there is no declaration there or it names none. This is all
    /// that must be read before the document is transcoded: the scanner, reading the UTF-8 result,
    /// checks the rest of the prolog (the declaration's form, a `<!DOCTYPE`, a declaration anywhere
    /// else, anything but white space and markup before the root) with the lines it reports.
    private static func declaredEncoding(_ bytes: UnsafeBufferPointer<UInt8>) throws(SCXMLError) -> String? {
        let start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        let open: [UInt8] = Array("<?xml".utf8)
        guard start + 5 < bytes.count, bytes[start..<(start + 5)].elementsEqual(open), XMLCharacters.isSpace(bytes[start + 5]) else {
            return nil
        }
        // The declaration's text runs to its `?>` (included), or to the end of the document.
        var end = start + 5
        while end + 1 < bytes.count, bytes[end] != UInt8(ascii: "?") || bytes[end + 1] != UInt8(ascii: ">") { end += 1 }
        let textEnd = end + 1 < bytes.count ? end + 2 : bytes.count
        return try checkDeclaredEncoding(UnsafeBufferPointer(rebasing: bytes[(start + 5)..<textEnd]), line: 1)
    }

    /// The encodings a document may declare: UTF-8 and single-byte encodings that are
    /// ASCII-compatible, so that the declaration reads the same in any of them before the
    /// document is transcoded. (While the loader read documents with libxml2, every one of them also had to map
    /// every byte: libxml2 2.9 crashed on a byte without a character in the declared encoding.)
    static let acceptedEncodings: Set<String> = [
        "UTF-8", "UTF8", "US-ASCII", "ASCII", "ISO-8859-1", "ISO8859-1", "ISO_8859-1", "LATIN1", "ISO-8859-2",
        "ISO-8859-15",
    ]

    /// Reads `encoding="…"` in the XML declaration (`text` follows `<?xml`) and refuses an encoding
    /// that is not one of ``acceptedEncodings``. Every `encoding=` in the declaration is checked,
    /// so that a malformed declaration cannot hide a second one from this check. Returns the
    /// last name found, upper-cased.
    private static func checkDeclaredEncoding(_ text: UnsafeBufferPointer<UInt8>, line: Int) throws(SCXMLError) -> String? {
        let declaration = String(decoding: text, as: UTF8.self)
        var searchFrom = declaration.startIndex
        var found: String?
        while let key = declaration.range(of: "encoding", range: searchFrom..<declaration.endIndex) {
            searchFrom = key.upperBound
            var rest = declaration[key.upperBound...].drop { $0.isWhitespace }
            guard rest.first == "=" else { continue }
            rest = rest.dropFirst().drop { $0.isWhitespace }
            guard let quote = rest.first, quote == "\"" || quote == "'" else { continue }
            let name = rest.dropFirst().prefix { $0 != quote }
            guard acceptedEncodings.contains(name.uppercased()) else {
                throw .unsupportedEncoding(
                    "the XML declaration at line \(line) names encoding '\(name.prefix(40))'; "
                        + "accepted: UTF-8, US-ASCII, ISO-8859-1, ISO-8859-2, ISO-8859-15")
            }
            found = name.uppercased()
        }
        return found
    }
}
