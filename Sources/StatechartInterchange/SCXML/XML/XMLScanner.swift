import Statechart

/// What ``XMLScanner/next()`` found; the details are in the scanner's fields until the next call.
enum XMLToken: Equatable {
    /// A start tag (an empty-element tag is a start tag followed by its end tag).
    case startTag
    /// An end tag, matching the start tag it closes.
    case endTag
    /// Character data inside the root element (references not yet replaced).
    case text
    /// A CDATA section's content.
    case cdata
    /// The end of a well-formed document.
    case end
}

/// A namespace binding in scope: `xmlns:prefix="uri"`, or `xmlns="uri"` with an empty prefix.
struct XMLNamespaceBinding {
    var prefix: String
    var uri: String
}

/// An attribute of the current start tag, as positions in the document.
struct XMLRawAttribute {
    /// The qualified name's bytes, and its colon (-1 when it has none).
    var nameStart: Int
    var nameEnd: Int
    var colon: Int
    /// The value's bytes, between the quotes.
    var valueStart: Int
    var valueEnd: Int
    /// Whether the bytes are the value: no reference, and no white space other than U+0020
    /// (which attribute-value normalization would replace).
    var isPlain: Bool
    /// Whether it declares a namespace (`xmlns` or `xmlns:p`).
    var isDeclaration: Bool
    /// The namespace of a prefixed attribute, once resolved: the index of its binding, or
    /// ``XMLScanner/noNamespace`` or ``XMLScanner/xmlNamespaceBinding``. An index keeps the
    /// struct free of references, so the attribute list is copied and cleared without
    /// reference counting.
    var namespaceBinding: Int32 = XMLScanner.noNamespace
}

/// A pull reader of XML 1.0 with namespaces over UTF-8 bytes: it checks that the document is
/// well-formed and namespace-well-formed as it goes, and hands out tags, text and CDATA one at a
/// time, with their lines. Comments and processing instructions are checked and skipped.
///
/// A document type declaration is refused wherever it is, so no entity but the five predefined
/// ones exists; character references are checked to be XML characters. Nothing recurses: open
/// elements are a stack of positions. The scanner owns no copy of the document: `bytes` must
/// outlive it.
struct XMLScanner {
    let bytes: UnsafeBufferPointer<UInt8>
    let count: Int
    /// The offset of the first byte after a byte order mark, where an XML declaration may be.
    let documentStart: Int
    var pos: Int
    /// The line at `pos`, and the offset where it starts.
    var line = 1
    var lineStart = 0

    // MARK: The current token

    /// The current tag's `<`, its line and the offset of that line's start.
    private(set) var tagOffset = 0
    private(set) var tagLine = 1
    private var tagLineStart = 0
    /// The current tag's qualified name, and its colon (-1 when it has none).
    private(set) var nameStart = 0
    private(set) var nameEnd = 0
    private(set) var nameColon = -1
    /// The current element's namespace (empty when it has none).
    private(set) var namespace = ""
    /// The current start tag's attributes, namespace declarations included.
    private(set) var attributes: [XMLRawAttribute] = []
    /// The namespace bindings in scope, innermost last.
    private(set) var bindings: [XMLNamespaceBinding] = []
    /// Where the current start tag's own declarations begin in ``bindings``.
    private(set) var declarationsStart = 0
    /// The current text or CDATA: its bytes, the line it starts on, the line of its first
    /// character that is not XML white space (0 when there is none), and what decoding it needs.
    var textStart = 0
    var textEnd = 0
    var textFirstVisibleLine = 0
    var textHasReference = false
    var textHasCarriageReturn = false

    // MARK: The document's state

    private struct OpenElement {
        var nameStart: Int
        var nameEnd: Int
        var colon: Int
        var line: Int
        var bindingsBase: Int
    }
    private var open: [OpenElement] = []
    /// The depth of open elements.
    var depth: Int { open.count }
    private(set) var rootSeen = false
    private var rootClosed = false
    /// An empty-element tag was just reported as a start tag; its end tag comes next.
    private var pendingEnd = false
    /// Where the last column was counted, so a long line is walked once.
    private var columnLineStart = -1
    private var columnOffset = 0
    private var columnValue = 1

    static let xmlNamespace = "http://www.w3.org/XML/1998/namespace"
    static let noNamespace: Int32 = -1
    static let xmlNamespaceBinding: Int32 = -2
    static let xmlnsNamespace = "http://www.w3.org/2000/xmlns/"

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        count = bytes.count
        let bom = count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF
        documentStart = bom ? 3 : 0
        pos = documentStart
        attributes.reserveCapacity(8)
        open.reserveCapacity(32)
    }

    // MARK: - Names and positions of the current token

    /// The current tag's qualified name.
    var qualifiedName: String { string(nameStart, nameEnd) }

    /// The current tag's local name (after its prefix).
    var localName: String { string(nameColon < 0 ? nameStart : nameColon + 1, nameEnd) }

    /// The bytes of the current tag's local name.
    var localNameBytes: UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: bytes[(nameColon < 0 ? nameStart : nameColon + 1)..<nameEnd])
    }

    /// The current tag's prefix, empty when it has none.
    var prefix: String { nameColon < 0 ? "" : string(nameStart, nameColon) }

    /// Where the current tag's `<` is: its line and its column in characters.
    mutating func tagLocation() -> SourceLocation {
        if columnLineStart != tagLineStart || columnOffset > tagOffset {
            columnLineStart = tagLineStart
            columnOffset = tagLineStart
            columnValue = 1
        }
        while columnOffset < tagOffset {
            if bytes[columnOffset] & 0xC0 != 0x80 { columnValue += 1 }
            columnOffset += 1
        }
        return SourceLocation(line: tagLine, column: columnValue)
    }

    /// The bytes `start..<end` as a string (they were checked to be UTF-8).
    @inline(__always)
    func string(_ start: Int, _ end: Int) -> String { Self.string(bytes, start, end) }

    /// The bytes `start..<end` of `bytes` as a string. Static, for a caller that holds the
    /// scanner in a property: a method call on it copied the whole scanner (216 bytes) first.
    @inline(__always)
    static func string(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
    }

    /// An attribute's qualified name.
    func name(of a: XMLRawAttribute) -> String { string(a.nameStart, a.nameEnd) }

    /// An attribute's local name.
    func localName(of a: XMLRawAttribute) -> String { string(a.colon < 0 ? a.nameStart : a.colon + 1, a.nameEnd) }

    /// An attribute's value, references replaced and white space normalized as XML says.
    func value(of a: XMLRawAttribute) -> String {
        a.isPlain ? string(a.valueStart, a.valueEnd) : decode(a.valueStart, a.valueEnd, attribute: true, references: true)
    }

    /// The current text with its references replaced and its line ends normalized.
    var text: String {
        if !textHasReference && !textHasCarriageReturn { return string(textStart, textEnd) }
        return decode(textStart, textEnd, attribute: false, references: true)
    }

    /// The current CDATA section's content, line ends normalized.
    var cdata: String {
        if !textHasCarriageReturn { return string(textStart, textEnd) }
        return decode(textStart, textEnd, attribute: false, references: false)
    }

    /// Whether the current text is only ASCII white space as written (a reference or a non-ASCII
    /// character leaves the question to the decoded text).
    var textIsPlainBlank: Bool { textFirstVisibleLine == 0 }

    // MARK: - Reading

    /// The next token. Throws the first well-formedness error, with its line.
    mutating func next() throws(SCXMLError) -> XMLToken {
        if pendingEnd {
            pendingEnd = false
            closeElement()
            return .endTag
        }
        while pos < count {
            guard bytes[pos] == UInt8(ascii: "<") else {
                if !open.isEmpty {
                    try scanText()
                    return .text
                }
                try skipSpaceOutsideRoot()
                continue
            }
            guard pos + 1 < count else { throw malformed("a '<' at the end of the document") }
            switch bytes[pos + 1] {
            case UInt8(ascii: "/"):
                try scanEndTag()
                return .endTag
            case UInt8(ascii: "!"):
                if matches("<!--", at: pos) {
                    try skipComment()
                } else if matches("<![CDATA[", at: pos) {
                    guard !open.isEmpty else { throw malformed(rootClosed ? "content after the root element" : "expected '<'") }
                    try scanCDATA()
                    return .cdata
                } else if matches("<!DOCTYPE", at: pos), !rootSeen {
                    throw .documentTypeDeclaration(line: line)
                } else {
                    throw malformed("invalid markup after '<!'")
                }
            case UInt8(ascii: "?"):
                try skipProcessingInstruction()
            default:
                if rootClosed { throw malformed("content after the root element") }
                try scanStartTag()
                return .startTag
            }
        }
        if let innermost = open.last {
            let name = string(innermost.nameStart, innermost.nameEnd)
            throw .malformedXML("<\(name)> (line \(innermost.line)) is not closed", line: line)
        }
        return .end
    }

    func malformed(_ message: String) -> SCXMLError { .malformedXML(message, line: line) }

    @inline(__always)
    func matches(_ s: StaticString, at k: Int) -> Bool {
        let n = s.utf8CodeUnitCount
        guard k + n <= count else { return false }
        return s.withUTF8Buffer { u in
            for j in 0..<n where bytes[k + j] != u[j] { return false }
            return true
        }
    }

    @inline(__always)
    mutating func newline(at i: Int) {
        line += 1
        lineStart = i + 1
    }

    /// Skips XML white space from `i`, counting lines; whether there was any.
    @inline(__always)
    @discardableResult
    mutating func skipSpace(_ i: inout Int) -> Bool {
        let start = i
        while i < count, XMLCharacters.isSpace(bytes[i]) {
            if bytes[i] == 0x0A { newline(at: i) }
            i += 1
        }
        return i > start
    }

    /// The character at `i` (which is in bounds) must be an XML character; returns its length.
    @inline(__always)
    mutating func checkCharacter(at i: Int) throws(SCXMLError) -> Int {
        let b = bytes[i]
        if b >= 0x20 && b < 0x80 { return 1 }
        if b == 0x0A {
            newline(at: i)
            return 1
        }
        guard let (_, length) = XMLCharacters.scalar(at: i, in: bytes) else {
            throw malformed(b < 0x80 ? "a character that XML does not allow" : "bytes that are not UTF-8, or a character that XML does not allow")
        }
        return length
    }

    /// Outside the root element only white space may appear between markup.
    private mutating func skipSpaceOutsideRoot() throws(SCXMLError) {
        var i = pos
        skipSpace(&i)
        if i < count && bytes[i] != UInt8(ascii: "<") {
            pos = i
            throw malformed(rootClosed ? "content after the root element" : "expected '<'")
        }
        pos = i
    }

    /// A name from `i`: the end of its bytes and the position of its first colon (-1 for none).
    /// Namespaces allow one colon, neither first nor last; `qualified` checks that.
    mutating func scanName(from start: Int, qualified: Bool, what: String) throws(SCXMLError) -> (end: Int, colon: Int) {
        guard start < count else { throw malformed("expected \(what)") }
        var i = start
        var colon = -1
        // The first character, a name start; then the others, most of them ASCII letters,
        // digits, `-`, `_` or `.` (one mask lookup each: ``XMLCharacters/isASCIINameCharOtherThanColon(_:)``).
        let first = bytes[start]
        if first < 0x80 {
            guard XMLCharacters.isASCIINameStart(first) else { throw malformed("expected \(what)") }
            if first == UInt8(ascii: ":") {
                if qualified { throw malformed("invalid qualified name (a name may hold one ':', not first)") }
                colon = start
            }
            i += 1
        } else {
            guard let (value, length) = XMLCharacters.multiByteScalar(at: i, in: bytes), XMLCharacters.isNameStart(value) else {
                throw malformed("expected \(what)")
            }
            i += length
        }
        while i < count {
            let b = bytes[i]
            if XMLCharacters.isASCIINameCharOtherThanColon(b) {
                i += 1
                continue
            }
            if b == UInt8(ascii: ":") {
                if qualified, colon >= 0 { throw malformed("invalid qualified name (a name may hold one ':', not first)") }
                colon = i
                i += 1
                continue
            }
            guard b >= 0x80, let (value, length) = XMLCharacters.multiByteScalar(at: i, in: bytes), XMLCharacters.isNameChar(value) else {
                break
            }
            i += length
        }
        guard i > start else { throw malformed("expected \(what)") }
        if qualified, colon == i - 1 { throw malformed("invalid qualified name (a name may not end with ':')") }
        return (i, colon)
    }

    // MARK: - Tags

    private mutating func scanStartTag() throws(SCXMLError) {
        tagOffset = pos
        tagLine = line
        tagLineStart = lineStart
        var i = pos + 1
        nameStart = i
        (nameEnd, nameColon) = try scanName(from: i, qualified: true, what: "an element name after '<'")
        i = nameEnd
        attributes.removeAll(keepingCapacity: true)
        var selfClosing = false
        while true {
            let hadSpace = skipSpace(&i)
            guard i < count else { throw malformed("unexpected end of document inside the tag <\(qualifiedName)>") }
            let b = bytes[i]
            if b == UInt8(ascii: ">") {
                i += 1
                break
            }
            if b == UInt8(ascii: "/") {
                guard i + 1 < count, bytes[i + 1] == UInt8(ascii: ">") else { throw malformed("expected '>' after '/'") }
                i += 2
                selfClosing = true
                break
            }
            guard hadSpace else { throw malformed("invalid attribute syntax: expected white space, '>' or '/>'") }
            try scanAttribute(&i)
        }
        pos = i
        try declareNamespaces()
        // An unprefixed name (almost every one) takes the default namespace here: the call of
        // ``resolve(prefixEnd:start:element:)`` copied the whole scanner (216 bytes) first.
        let binding = nameColon < 0 ? defaultNamespaceBinding : try resolve(prefixEnd: nameColon, start: nameStart, element: true)
        namespace = uri(ofBinding: binding)
        try resolveAttributes()
        open.append(
            OpenElement(nameStart: nameStart, nameEnd: nameEnd, colon: nameColon, line: tagLine, bindingsBase: declarationsStart))
        rootSeen = true
        pendingEnd = selfClosing
    }

    private mutating func scanAttribute(_ i: inout Int) throws(SCXMLError) {
        let start = i
        let (end, colon) = try scanName(from: i, qualified: true, what: "an attribute name")
        i = end
        skipSpace(&i)
        guard i < count, bytes[i] == UInt8(ascii: "=") else { throw malformed("invalid attribute syntax: expected '=' after an attribute name") }
        i += 1
        skipSpace(&i)
        guard i < count, bytes[i] == UInt8(ascii: "\"") || bytes[i] == UInt8(ascii: "'") else {
            throw malformed("invalid attribute syntax: an attribute value must be quoted")
        }
        let quote = bytes[i]
        i += 1
        let valueStart = i
        let valueLine = line
        var plain = true
        while true {
            // Most bytes of a value are printable ASCII with no meaning here; the others, and
            // either quote, go to the cases below.
            while i < count, XMLCharacters.isPlainValueByte(bytes[i]) { i += 1 }
            guard i < count else { throw .malformedXML("an attribute value is not closed", line: valueLine) }
            let b = bytes[i]
            if b == quote { break }
            switch b {
            case UInt8(ascii: "<"):
                throw malformed("a '<' in an attribute value (write &lt;)")
            case UInt8(ascii: "&"):
                plain = false
                i = try checkReference(at: i)
            case 0x0A:
                plain = false
                newline(at: i)
                i += 1
            case 0x09, 0x0D:
                plain = false
                i += 1
            default:
                i += try checkCharacter(at: i)
            }
        }
        let attribute = XMLRawAttribute(
            nameStart: start, nameEnd: end, colon: colon, valueStart: valueStart, valueEnd: i, isPlain: plain,
            isDeclaration: isDeclaration(start, end, colon))
        i += 1
        // By index: iterating the array itself retained and released it at every attribute.
        for k in attributes.indices where sameBytes(attributes[k].nameStart, attributes[k].nameEnd, start, end) {
            throw malformed("the attribute '\(string(start, end))' is repeated")
        }
        attributes.append(attribute)
    }

    @inline(__always)
    private func sameBytes(_ a: Int, _ aEnd: Int, _ b: Int, _ bEnd: Int) -> Bool {
        guard aEnd - a == bEnd - b else { return false }
        var k = 0
        while k < aEnd - a {
            if bytes[a + k] != bytes[b + k] { return false }
            k += 1
        }
        return true
    }

    // Inlined: called out of line, it took a copy of the whole scanner (216 bytes) per attribute.
    @inline(__always)
    private func isDeclaration(_ start: Int, _ end: Int, _ colon: Int) -> Bool {
        let prefixEnd = colon < 0 ? end : colon
        return prefixEnd - start == 5 && matches("xmlns", at: start)
    }

    /// Binds the current tag's namespace declarations, checked as Namespaces in XML 1.0 says.
    private mutating func declareNamespaces() throws(SCXMLError) {
        declarationsStart = bindings.count
        for k in attributes.indices where attributes[k].isDeclaration {
            let a = attributes[k]
            let prefix = a.colon < 0 ? "" : string(a.colon + 1, a.nameEnd)
            let uri = value(of: a)
            if prefix == "xmlns" { throw malformed("the prefix 'xmlns' cannot be declared") }
            if uri == Self.xmlnsNamespace { throw malformed("the namespace '\(uri)' cannot be declared") }
            if (prefix == "xml") != (uri == Self.xmlNamespace) {
                throw malformed("the prefix 'xml' is bound to '\(Self.xmlNamespace)' only, and no other prefix to it")
            }
            if !prefix.isEmpty && uri.isEmpty { throw malformed("the prefix '\(prefix)' cannot be bound to no namespace") }
            bindings.append(XMLNamespaceBinding(prefix: prefix, uri: uri))
        }
    }

    /// The namespace URI of a binding index that ``resolve(prefixEnd:start:element:)`` returned.
    func uri(ofBinding k: Int32) -> String {
        k >= 0 ? bindings[Int(k)].uri : k == Self.xmlNamespaceBinding ? Self.xmlNamespace : ""
    }

    /// The namespace of a prefixed attribute of the current start tag.
    func namespace(of a: XMLRawAttribute) -> String { uri(ofBinding: a.namespaceBinding) }

    /// The binding of the default namespace in scope (what an unprefixed element name is in), or
    /// ``noNamespace``.
    @inline(__always)
    private var defaultNamespaceBinding: Int32 {
        var k = bindings.count - 1
        while k >= 0 {
            if bindings[k].prefix.isEmpty { return bindings[k].uri.isEmpty ? Self.noNamespace : Int32(k) }
            k -= 1
        }
        return Self.noNamespace
    }

    /// The binding of a name whose prefix ends at `prefixEnd` (-1: no prefix).
    private func resolve(prefixEnd: Int, start: Int, element: Bool) throws(SCXMLError) -> Int32 {
        if prefixEnd < 0 { return element ? defaultNamespaceBinding : Self.noNamespace }
        let prefix = string(start, prefixEnd)
        var k = bindings.count - 1
        while k >= 0 {
            if bindings[k].prefix == prefix { return Int32(k) }
            k -= 1
        }
        if prefix == "xml" { return Self.xmlNamespaceBinding }
        if prefix == "xmlns" { throw malformed("the prefix 'xmlns' is reserved for declarations") }
        throw malformed("a namespace prefix is not declared ('\(string(start, prefixEnd))' needs xmlns:\(prefix)=\"…\")")
    }

    /// Resolves the prefixed attributes and refuses two with one expanded name.
    private mutating func resolveAttributes() throws(SCXMLError) {
        var prefixed = 0
        for k in attributes.indices where !attributes[k].isDeclaration && attributes[k].colon >= 0 {
            let a = attributes[k]
            attributes[k].namespaceBinding = try resolve(prefixEnd: a.colon, start: a.nameStart, element: false)
            prefixed += 1
        }
        guard prefixed > 1 else { return }
        for k in attributes.indices where !attributes[k].isDeclaration && attributes[k].colon >= 0 {
            for j in attributes.indices[(k + 1)...] where !attributes[j].isDeclaration && attributes[j].colon >= 0 {
                let a = attributes[k]
                let b = attributes[j]
                if namespace(of: a) == namespace(of: b), sameBytes(a.colon + 1, a.nameEnd, b.colon + 1, b.nameEnd) {
                    throw malformed("the attributes '\(name(of: a))' and '\(name(of: b))' are one name in one namespace")
                }
            }
        }
    }

    private mutating func scanEndTag() throws(SCXMLError) {
        tagOffset = pos
        tagLine = line
        tagLineStart = lineStart
        var i = pos + 2
        let (end, _) = try scanName(from: i, qualified: false, what: "an element name after '</'")
        let start = i
        i = end
        skipSpace(&i)
        guard i < count, bytes[i] == UInt8(ascii: ">") else { throw malformed("expected '>' to end </\(string(start, end))>") }
        guard let top = open.last else {
            throw malformed(rootClosed ? "content after the root element" : "a closing tag before the root element")
        }
        guard sameBytes(top.nameStart, top.nameEnd, start, end) else {
            throw malformed(
                "the closing tag </\(string(start, end))> does not match <\(string(top.nameStart, top.nameEnd))> (line \(top.line))")
        }
        pos = i + 1
        nameStart = top.nameStart
        nameEnd = top.nameEnd
        nameColon = top.colon
        closeElement()
    }

    private mutating func closeElement() {
        let top = open.removeLast()
        // Most elements declare no namespace: nothing to remove, and removing an empty range
        // still cost a generic `replaceSubrange` (some 60 instructions) at every end tag.
        if bindings.count > top.bindingsBase { bindings.removeSubrange(top.bindingsBase...) }
        if open.isEmpty { rootClosed = true }
    }
}
