import Foundation
import Statechart

/// One SCXML-namespace element of a document, as read. Elements of other namespaces (and
/// everything inside them) are dropped while reading.
struct XMLElementNode: Sendable {
    /// The local name (`state`, `transition`…).
    var name: String
    /// What the name is in SCXML, `nil` for a name SCXML does not have.
    var kind: SCXMLElementKind?
    /// Attributes in no namespace (or explicitly in the SCXML namespace), by local name.
    var attributes: XMLAttributes
    /// Where the start tag begins.
    var location: SourceLocation
    /// The parent's index, -1 for the root.
    var parent: Int
    /// Child element indices in document order.
    var children: [Int] = []
    /// The text inside an element that takes text (``SCXMLSchema/textElements``: `<script>`,
    /// `<data>`, `<assign>`, `<content>`), as written; empty for the others, which refuse text.
    var text = ""
    /// The elements written inside an element that holds markup (``SCXMLSchema/markupElements``:
    /// `<content>`, `<assign>`, `<data>`), as XML text with their namespaces declared: an SCXML
    /// document to invoke, or an XML value. Never part of ``XMLTree/elements``.
    var markup = ""
}

/// A document as a flat array of elements in document order (pre-order: a parent precedes its
/// children), so that nothing downstream needs to recurse to the depth of the document.
struct XMLTree: Sendable {
    var elements: [XMLElementNode]
}

/// Reads a document into an ``XMLTree`` with ``XMLScanner``, the loader's own XML reader.
///
/// Before reading, the bytes are checked for what the reader does not take: a `<!DOCTYPE>` is
/// refused, so no entity is ever declared and none is resolved; UTF-16 and UTF-32 are refused;
/// and an encoding declaration may only name UTF-8 or one of a few single-byte encodings
/// (``acceptedEncodings``), whose documents are turned into UTF-8 first. The document must start
/// with `<` (after white space), so UTF-7 or EBCDIC, in which `<!DOCTYPE` would be other bytes,
/// are refused too.
///
/// The ``SCXMLLimits`` are checked as the document is read: the size before reading, the nesting
/// depth and the numbers of elements and states at each start tag, so reading stops at the first
/// element over a limit.
enum XMLTreeReader {
    static func read(_ data: Data, limits: SCXMLLimits = .default) throws(SCXMLError) -> XMLTree {
        if data.count > limits.maximumFileSize {
            throw .limitExceeded(.fileSize, limit: limits.maximumFileSize, element: nil, line: nil)
        }
        let result = data.withUnsafeBytes { raw in
            Result { () throws(SCXMLError) in try read(raw.bindMemory(to: UInt8.self), limits: limits) }
        }
        return try result.get()
    }

    static func read(_ bytes: UnsafeBufferPointer<UInt8>, limits: SCXMLLimits) throws(SCXMLError) -> XMLTree {
        try checkEncoding(bytes)
        let encoding = try checkProlog(bytes)
        if let utf8 = try XMLEncodings.utf8(of: bytes, declaredEncoding: encoding) {
            return try utf8.withUnsafeBufferPointer { (utf8) throws(SCXMLError) in try build(utf8, limits: limits) }
        }
        return try build(bytes, limits: limits)
    }

    private static func build(_ bytes: UnsafeBufferPointer<UInt8>, limits: SCXMLLimits) throws(SCXMLError) -> XMLTree {
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

    /// Walks the prolog (XML declaration, comments, processing instructions, white space) up to
    /// the root element and refuses a document type declaration. Returns the encoding the XML
    /// declaration names, upper-cased, if it names one.
    private static func checkProlog(_ bytes: UnsafeBufferPointer<UInt8>) throws(SCXMLError) -> String? {
        var i = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        var encoding: String?
        func matches(_ s: StaticString, at k: Int) -> Bool {
            let n = s.utf8CodeUnitCount
            guard k + n <= bytes.count else { return false }
            return s.withUTF8Buffer { u in (0..<n).allSatisfy { bytes[k + $0] == u[$0] } }
        }
        func skip(past terminator: StaticString, from k: Int) -> Int {
            var j = k
            while j < bytes.count && !matches(terminator, at: j) { j += 1 }
            return j + terminator.utf8CodeUnitCount
        }
        while i < bytes.count {
            let b = bytes[i]
            if b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D {
                i += 1
            } else if matches("<?", at: i) {
                let end = skip(past: "?>", from: i + 2)
                if matches("<?xml", at: i), i + 5 < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[i + 5]) {
                    encoding = try checkDeclaredEncoding(
                        UnsafeBufferPointer(rebasing: bytes[(i + 5)..<min(end, bytes.count)]), line: line(ofOffset: i, in: bytes))
                }
                i = end
            } else if matches("<!--", at: i) {
                i = skip(past: "-->", from: i + 4)
            } else if matches("<!", at: i) {
                throw .documentTypeDeclaration(line: line(ofOffset: i, in: bytes))
            } else if b == UInt8(ascii: "<") {
                return encoding
            } else {
                // Not markup: either text before the root or an encoding whose `<` is another byte.
                throw .malformedXML("expected '<'", line: line(ofOffset: i, in: bytes))
            }
        }
        return encoding
    }

    /// The encodings a document may declare: UTF-8 and single-byte encodings that are
    /// ASCII-compatible, so that the byte-level prolog check above sees a `<!DOCTYPE` in any of
    /// them. (While the loader read documents with libxml2, every one of them also had to map
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
