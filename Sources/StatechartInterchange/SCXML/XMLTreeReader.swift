import Foundation
import Statechart

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// One SCXML-namespace element of a document, as read. Elements of other namespaces (and
/// everything inside them) are dropped while reading.
struct XMLElementNode: Sendable {
    /// The local name (`state`, `transition`…).
    var name: String
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

/// Reads a document with `XMLParser` into an ``XMLTree``.
///
/// `XMLParser` returns `true` on some malformed input (mismatched or unclosed tags, trailing
/// content, an empty document), so the reader relies on its own checks: the first reported parse
/// error, the balance of open and close tags, and the presence of a root. A `<!DOCTYPE>` is refused
/// before parsing, so no entity is ever declared, and external entities are never resolved. That
/// check reads bytes, so the document must be in an ASCII-compatible encoding and start with `<`
/// (after white space), and an encoding declaration may only name UTF-8 or one of a few
/// single-byte encodings (``acceptedEncodings``): UTF-7, UTF-16 or EBCDIC, in which `<!DOCTYPE`
/// would be other bytes, are refused, and so are encodings with unmapped bytes, on which libxml2
/// crashes.
///
/// The ``SCXMLLimits`` are checked as the document is read: the size before parsing, the nesting
/// depth and the numbers of elements and states at each start tag, so parsing stops at the first
/// element over a limit.
enum XMLTreeReader {
    static func read(_ data: Data, limits: SCXMLLimits = .default) throws(SCXMLError) -> XMLTree {
        if data.count > limits.maximumFileSize {
            throw .limitExceeded(.fileSize, limit: limits.maximumFileSize, element: nil, line: nil)
        }
        let lines = LineIndex(data)
        try checkEncoding(data)
        try checkProlog(lines: lines)
        try checkProcessingInstructions(lines: lines)
        let parser = XMLParser(data: data)
        parser.shouldProcessNamespaces = true
        parser.shouldReportNamespacePrefixes = true
        parser.shouldResolveExternalEntities = false
        let delegate = TreeBuildingDelegate(lines: lines, limits: limits)
        parser.delegate = delegate
        var ok = parser.parse()
        if let error = delegate.error { throw error }
        if let end = delegate.lateInternalError {
            // libxml2 (without XML_PARSE_HUGE, which XMLParser does not set) stops documents over
            // 10 MB with an internal error once the root is closed, before reading what follows:
            // check that rest here — only white space, comments and processing instructions.
            guard try checkEpilog(lines: lines, rootEnd: end) else {
                throw .malformedXML(
                    describe(NSError(domain: XMLParser.errorDomain, code: internalErrorCode)), line: end.line)
            }
            ok = true
        } else if let error = parser.parserError {
            throw .malformedXML(describe(error), line: max(parser.lineNumber, 1))
        }
        guard delegate.rootSeen else { throw .emptyDocument }
        if let open = delegate.stack.last {
            let name = open >= 0 ? delegate.elements[open].name : "element"
            throw .malformedXML("<\(name)> is not closed", line: max(parser.lineNumber, 1))
        }
        if !ok { throw .malformedXML("the parser stopped", line: max(parser.lineNumber, 1)) }
        return XMLTree(elements: delegate.elements)
    }

    /// Checks the bytes after the root's end tag, which ends just before `rootEnd` (the parser's
    /// line and column there): white space, comments and processing instructions only. Returns
    /// `false` when that position does not follow a `>` (it cannot be trusted).
    private static func checkEpilog(lines: LineIndex, rootEnd: (line: Int, column: Int)) throws(SCXMLError) -> Bool {
        let bytes = lines.bytes
        guard rootEnd.line >= 1, rootEnd.line <= lines.starts.count, rootEnd.column >= 1 else { return false }
        var i = lines.starts[rootEnd.line - 1]
        var column = 1
        while i < bytes.count && column < rootEnd.column {
            i += 1
            while i < bytes.count && bytes[i] & 0xC0 == 0x80 { i += 1 }
            column += 1
        }
        guard column == rootEnd.column, i > 0, i <= bytes.count, bytes[i - 1] == UInt8(ascii: ">") else { return false }
        func matches(_ s: StaticString, at k: Int) -> Bool {
            let n = s.utf8CodeUnitCount
            guard k + n <= bytes.count else { return false }
            return s.withUTF8Buffer { u in (0..<n).allSatisfy { bytes[k + $0] == u[$0] } }
        }
        func end(of terminator: StaticString, from k: Int) throws(SCXMLError) -> Int {
            var j = k
            while j < bytes.count && !matches(terminator, at: j) { j += 1 }
            guard j < bytes.count else {
                throw .malformedXML("unterminated markup after the root element", line: lines.line(ofOffset: k))
            }
            return j + terminator.utf8CodeUnitCount
        }
        while i < bytes.count {
            let b = bytes[i]
            if b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D {
                i += 1
            } else if matches("<!--", at: i) {
                i = try end(of: "-->", from: i + 4)
            } else if matches("<?", at: i) {
                i = try end(of: "?>", from: i + 2)
            } else {
                throw .malformedXML("content after the root element", line: lines.line(ofOffset: i))
            }
        }
        return true
    }

    /// Refuses UTF-16 and UTF-32 documents: every check here works on ASCII-compatible bytes.
    private static func checkEncoding(_ data: Data) throws(SCXMLError) {
        let head = Array(data.prefix(4))
        if head.starts(with: [0xFE, 0xFF]) || head.starts(with: [0xFF, 0xFE]) {
            throw .unsupportedEncoding("the document starts with a UTF-16 byte order mark")
        }
        if head.contains(0) { throw .unsupportedEncoding("the document looks like UTF-16 or UTF-32") }
    }

    /// Walks the prolog (XML declaration, comments, processing instructions, white space) up to
    /// the root element and refuses a document type declaration.
    private static func checkProlog(lines: LineIndex) throws(SCXMLError) {
        let bytes = lines.bytes
        var i = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
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
                    try checkDeclaredEncoding(bytes[(i + 5)..<min(end, bytes.count)], line: lines.line(ofOffset: i))
                }
                i = end
            } else if matches("<!--", at: i) {
                i = skip(past: "-->", from: i + 4)
            } else if matches("<!", at: i) {
                throw .documentTypeDeclaration(line: lines.line(ofOffset: i))
            } else if b == UInt8(ascii: "<") {
                return
            } else {
                // Not markup: either text before the root or an encoding whose `<` is another byte.
                throw .malformedXML("expected '<'", line: lines.line(ofOffset: i))
            }
        }
    }

    /// Refuses a processing instruction without data (`<?target?>`): libxml2 reports its data as
    /// a null pointer, on which FoundationXML's callback (swift-corelibs-foundation) crashes
    /// (`strlen(NULL)`), whether or not the delegate implements it. Comments and CDATA sections are
    /// skipped; anything else that starts with `<?` is a processing instruction.
    private static func checkProcessingInstructions(lines: LineIndex) throws(SCXMLError) {
        let bytes = lines.bytes
        let count = bytes.count
        func matches(_ s: StaticString, at k: Int) -> Bool {
            let n = s.utf8CodeUnitCount
            guard k + n <= count else { return false }
            return s.withUTF8Buffer { u in (0..<n).allSatisfy { bytes[k + $0] == u[$0] } }
        }
        /// The index just past `terminator` at or after `k`, or `count` when it never comes.
        func skip(past terminator: StaticString, from k: Int) -> Int {
            let first = terminator.withUTF8Buffer { $0[0] }
            var j = k
            while j < count {
                if bytes[j] == first && matches(terminator, at: j) { return j + terminator.utf8CodeUnitCount }
                j += 1
            }
            return count
        }
        var i = 0
        while i < count {
            guard bytes[i] == UInt8(ascii: "<"), i + 1 < count else {
                i += 1
                continue
            }
            if bytes[i + 1] == UInt8(ascii: "?") {
                var j = i + 2
                while j < count, ![0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: "?")].contains(bytes[j]) { j += 1 }
                if j < count, bytes[j] == UInt8(ascii: "?") {
                    let target = String(decoding: bytes[(i + 2)..<j].prefix(40), as: UTF8.self)
                    throw .malformedXML(
                        "a processing instruction without data (<?\(target)?>) is not supported",
                        line: lines.line(ofOffset: i))
                }
                i = skip(past: "?>", from: j)
            } else if matches("<!--", at: i) {
                i = skip(past: "-->", from: i + 4)
            } else if matches("<![CDATA[", at: i) {
                i = skip(past: "]]>", from: i + 9)
            } else {
                i += 1
            }
        }
    }

    /// The encodings a document may declare. Each is ASCII-compatible, so that the byte-level
    /// prolog check above sees a `<!DOCTYPE` in any of them, and maps every byte, because
    /// libxml2 2.9 crashes (a null pointer in `xmlParseChunk`) when a byte has no character in
    /// the declared encoding — found by fuzzing with ISO-8859-8, and seen with ISO-8859-3, -6,
    /// -7, -11 and windows-1250, -1252, -1253. Every byte of each listed encoding was tried.
    static let acceptedEncodings: Set<String> = [
        "UTF-8", "UTF8", "US-ASCII", "ASCII", "ISO-8859-1", "ISO8859-1", "ISO_8859-1", "LATIN1", "ISO-8859-2",
        "ISO-8859-15",
    ]

    /// Reads `encoding="…"` in the XML declaration (`text` follows `<?xml`) and refuses an encoding
    /// that is not one of ``acceptedEncodings``. Every `encoding=` in the declaration is checked,
    /// so that a malformed declaration cannot hide a second one from this check.
    private static func checkDeclaredEncoding(_ text: ArraySlice<UInt8>, line: Int) throws(SCXMLError) {
        let declaration = String(decoding: text, as: UTF8.self)
        var searchFrom = declaration.startIndex
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
        }
    }

    /// libxml2's `XML_ERR_INTERNAL_ERROR`.
    static let internalErrorCode = 1

    /// A message for a parse error. `XMLParser` reports libxml2's error numbers (`xmlParserErrors`),
    /// which are read here as numbers: on Linux `XMLParser.ErrorCode` counts its cases from 0, so
    /// its raw values are one less than the numbers it reports.
    static func describe(_ error: any Error) -> String {
        let code = (error as NSError).code
        switch code {
        case 1: return "the parser stopped on an internal error (code 1)"
        case 3, 4: return "no root element"
        case 5: return "content after the root element"
        case 9: return "a character that XML does not allow"
        case 6, 7, 8, 10: return "an invalid character reference"
        case 14...17, 22, 23, 26, 27, 28, 29, 30:
            return "entity references other than the predefined ones are not allowed"
        case 31, 32, 79, 81: return "unsupported or invalid encoding (code \(code))"
        case 38...42: return "invalid attribute syntax (code \(code))"
        case 45: return "a comment is not closed (or is longer than 10 MB)"
        case 63: return "a CDATA section is not closed"
        case 72: return "expected '<'"
        case 73: return "expected '>'"
        case 76: return "a closing tag does not match its opening tag"
        case 77: return "unexpected end of document (an element is not closed?)"
        case 85: return "the document is not well-balanced (content after the root element?)"
        // libxml2's namespace errors (XML_NS_ERR_*): a prefix without its `xmlns:prefix` declaration
        // leaves the element in no namespace, so it reads as no SCXML at all (rule R76).
        case 201: return "a namespace prefix is not declared (an element or attribute 'p:name' needs xmlns:p=\"…\")"
        case 200, 202...205: return "invalid namespace declaration or qualified name (code \(code))"
        default: return "XML parse error \(code)"
        }
    }
}

/// Line starts of a UTF-8 document, to turn byte offsets into lines and `XMLParser`'s position
/// (reported at the end of a start tag) into the position of the tag's `<`.
struct LineIndex: Sendable {
    let bytes: [UInt8]
    var starts: [Int] = [0]

    init(_ data: Data) {
        bytes = [UInt8](data)
        for (i, b) in bytes.enumerated() where b == 0x0A { starts.append(i + 1) }
    }

    func line(ofOffset offset: Int) -> Int {
        var lo = 0
        var hi = starts.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if starts[mid] <= offset { lo = mid } else { hi = mid - 1 }
        }
        return lo + 1
    }

    /// The start of the tag `<qName` that ends near `line`/`column` (as reported by the parser at
    /// the element's start callback). Falls back to the reported line when the bytes there do not
    /// look like that tag. `cursor` remembers the last position found, so that reading a long line
    /// element by element stays linear.
    func tagStart(qName: String, line: Int, column: Int, cursor: inout Cursor) -> SourceLocation {
        guard line >= 1, line <= starts.count, !bytes.isEmpty else { return SourceLocation(line: max(line, 1)) }
        // Column counts characters: walk that many UTF-8 scalars into the line.
        let target = max(column, 1)
        if cursor.line != line || cursor.column > target {
            cursor = Cursor(line: line, column: 0, offset: starts[line - 1])
        }
        while cursor.offset < bytes.count && cursor.column < target {
            cursor.offset += 1
            while cursor.offset < bytes.count && bytes[cursor.offset] & 0xC0 == 0x80 { cursor.offset += 1 }
            cursor.column += 1
        }
        var offset = min(cursor.offset, bytes.count - 1)
        while offset >= 0 && bytes[offset] != UInt8(ascii: "<") { offset -= 1 }
        let name = Array(qName.utf8)
        guard offset >= 0, offset + 1 + name.count <= bytes.count,
            Array(bytes[(offset + 1)..<(offset + 1 + name.count)]) == name
        else { return SourceLocation(line: line) }
        let startLine = self.line(ofOffset: offset)
        // The column of the `<`: counted back from the cursor when on its line, from the line start otherwise.
        var col: Int
        var k: Int
        if startLine == line, offset <= cursor.offset {
            col = cursor.column + 1
            k = cursor.offset
            while k > offset {
                k -= 1
                if bytes[k] & 0xC0 != 0x80 { col -= 1 }
            }
        } else {
            col = 1
            k = starts[startLine - 1]
            while k < offset {
                if bytes[k] & 0xC0 != 0x80 { col += 1 }
                k += 1
            }
        }
        return SourceLocation(line: startLine, column: col)
    }

    /// A position within a line: `column` characters from its start, at byte `offset`.
    struct Cursor {
        var line = 0
        var column = 0
        var offset = 0
    }
}

/// The `XMLParser` delegate: keeps SCXML-namespace elements, skips foreign subtrees, records the
/// first error and stops.
private final class TreeBuildingDelegate: NSObject, XMLParserDelegate {
    let lines: LineIndex
    var elements: [XMLElementNode] = []
    /// Open SCXML elements (indices into `elements`).
    var stack: [Int] = []
    var foreignDepth = 0
    var rootSeen = false
    var scxmlNamespace = SCXMLNamespace.uri
    var prefixes: [String: [String]] = [:]
    /// Namespace declarations of the element about to start (written into captured markup).
    var pendingMappings: [(prefix: String, uri: String)] = []
    /// Inside an element that holds markup: how deep, and which element holds it.
    var markupDepth = 0
    var markupHolder = -1
    var error: SCXMLError?
    var cursor = LineIndex.Cursor()
    let limits: SCXMLLimits
    /// Elements started so far (every namespace), and state elements among them.
    var elementCount = 0
    var stateCount = 0
    /// Where the root element's end tag ends (line, column), once it has been read.
    var rootEnd: (line: Int, column: Int)?
    /// Set when libxml2 reported an internal error after the root was closed: the root's end.
    var lateInternalError: (line: Int, column: Int)?

    init(lines: LineIndex, limits: SCXMLLimits) {
        self.lines = lines
        self.limits = limits
    }

    /// Checks the limits at a start tag; `depth` counts the element itself (the root is 1).
    private func checkLimits(
        _ parser: XMLParser, name: String, depth: Int, isState: Bool, location: () -> SourceLocation
    ) -> Bool {
        elementCount += 1
        if isState { stateCount += 1 }
        let exceeded: (SCXMLLimit, Int)?
        if depth > limits.maximumNestingDepth {
            exceeded = (.nestingDepth, limits.maximumNestingDepth)
        } else if elementCount > limits.maximumElements {
            exceeded = (.elements, limits.maximumElements)
        } else if stateCount > limits.maximumStates {
            exceeded = (.states, limits.maximumStates)
        } else {
            exceeded = nil
        }
        guard let (limit, value) = exceeded else { return true }
        fail(parser, .limitExceeded(limit, limit: value, element: name, line: location().line))
        return false
    }

    private func fail(_ parser: XMLParser, _ e: SCXMLError) {
        if error == nil { error = e }
        parser.abortParsing()
    }

    func parser(_ parser: XMLParser, didStartMappingPrefix prefix: String, toURI namespaceURI: String) {
        prefixes[prefix, default: []].append(namespaceURI)
        pendingMappings.append((prefix, namespaceURI))
    }

    func parser(_ parser: XMLParser, didEndMappingPrefix prefix: String) {
        _ = prefixes[prefix]?.popLast()
    }

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
        qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]
    ) {
        guard error == nil else { return }
        let mappings = pendingMappings
        pendingMappings = []
        let namespace = namespaceURI ?? ""
        // An element in the SCXML namespace is always SCXML's; one in no namespace is when the
        // root is in none (a document that never declares the namespace). Everything else is
        // foreign. (If an element in the SCXML namespace inside a no-namespace document were
        // foreign, an export — which declares the namespace on the root — would turn it into
        // SCXML: found by LoaderFuzz.)
        let isSCXML = namespace == scxmlNamespace || namespace == SCXMLNamespace.uri
        let isState = foreignDepth == 0 && isSCXML && SCXMLSchema.stateElements.contains(elementName)
        var cachedLocation: SourceLocation?
        func tagLocation() -> SourceLocation {
            if let cachedLocation { return cachedLocation }
            let l = lines.tagStart(
                qName: qName ?? elementName, line: parser.lineNumber, column: parser.columnNumber, cursor: &cursor)
            cachedLocation = l
            return l
        }
        guard
            checkLimits(
                parser, name: elementName, depth: stack.count + foreignDepth + 1, isState: isState,
                location: tagLocation)
        else { return }
        if foreignDepth > 0 {
            foreignDepth += 1
            return
        }
        if markupDepth > 0 || (stack.last.map { SCXMLSchema.markupElements.contains(elements[$0].name) } ?? false) {
            // Markup inside <content>, <assign> or <data>: kept as text, whatever its namespace.
            if markupDepth == 0 { markupHolder = stack[stack.count - 1] }
            var declarations = mappings
            if markupDepth == 0 {
                // The captured root declares the namespaces in scope, so it reads on its own.
                let prefix = (qName ?? elementName).split(separator: ":", maxSplits: 1).dropLast().first.map(String.init) ?? ""
                if !declarations.contains(where: { $0.prefix == prefix }), !namespace.isEmpty {
                    declarations.append((prefix, namespace))
                }
                for (p, uris) in prefixes.sorted(by: { $0.key < $1.key }) where !p.isEmpty && p != "xml" {
                    if let uri = uris.last, !declarations.contains(where: { $0.prefix == p }) { declarations.append((p, uri)) }
                }
            }
            markupDepth += 1
            var tag = "<" + (qName ?? elementName)
            for d in declarations {
                tag += (d.prefix.isEmpty ? " xmlns" : " xmlns:" + d.prefix) + "=\"" + SCXMLMarkup.escape(d.uri, quote: true) + "\""
            }
            for key in attributeDict.keys.sorted() {
                tag += " \(key)=\"" + SCXMLMarkup.escape(attributeDict[key] ?? "", quote: true) + "\""
            }
            elements[markupHolder].markup += tag + ">"
            return
        }
        let location = tagLocation()
        if !rootSeen {
            rootSeen = true
            guard elementName == "scxml", namespace == SCXMLNamespace.uri || namespace.isEmpty else {
                return fail(parser, .notSCXML(root: qName ?? elementName, namespace: namespace, line: location.line))
            }
            scxmlNamespace = namespace
        } else if stack.isEmpty {
            return fail(parser, .malformedXML("content after the root element", line: location.line))
        } else if !isSCXML {
            foreignDepth = 1
            return
        }
        var attributes = XMLAttributes(capacity: attributeDict.count)
        for (key, value) in attributeDict {
            guard let colon = key.firstIndex(of: ":") else {
                attributes[key] = value
                continue
            }
            let prefix = String(key[..<colon])
            // Prefixed attributes belong to their namespace: kept only if that is SCXML's.
            if prefix != "xmlns", prefixes[prefix]?.last == SCXMLNamespace.uri {
                attributes[String(key[key.index(after: colon)...])] = value
            }
        }
        let index = elements.count
        let parent = stack.last ?? -1
        elements.append(XMLElementNode(name: elementName, attributes: attributes, location: location, parent: parent))
        if parent >= 0 { elements[parent].children.append(index) }
        stack.append(index)
    }

    func parser(
        _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?
    ) {
        guard error == nil else { return }
        if foreignDepth > 0 {
            foreignDepth -= 1
            return
        }
        if markupDepth > 0 {
            markupDepth -= 1
            elements[markupHolder].markup += "</" + (qName ?? elementName) + ">"
            return
        }
        guard let open = stack.popLast(), elements[open].name == elementName else {
            return fail(parser, .malformedXML("unexpected closing tag </\(elementName)>", line: parser.lineNumber))
        }
        if stack.isEmpty { rootEnd = (parser.lineNumber, parser.columnNumber) }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        checkText(parser, string)
    }

    func parser(_ parser: XMLParser, foundCDATA cdata: Data) {
        checkText(parser, String(decoding: cdata, as: UTF8.self))
    }

    private func checkText(_ parser: XMLParser, _ text: String) {
        guard error == nil, foreignDepth == 0 else { return }
        if markupDepth > 0 {
            elements[markupHolder].markup += SCXMLMarkup.escape(text, quote: false)
            return
        }
        if let open = stack.last, SCXMLSchema.textElements.contains(elements[open].name) {
            elements[open].text += text
            return
        }
        guard !XMLWhitespace.isBlank(text) else { return }
        guard let open = stack.last else {
            return fail(parser, .malformedXML("text outside the root element", line: parser.lineNumber))
        }
        // The parser reports text where it ends: count back the line breaks after its first character.
        let start = text.firstIndex { !$0.isWhitespace } ?? text.startIndex
        let breaks = text[start...].reduce(0) { $1.isNewline ? $0 + 1 : $0 }
        fail(parser, .unexpectedText(element: elements[open].name, line: max(parser.lineNumber - breaks, 1)))
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
        if error == nil, let rootEnd, (parseError as NSError).code == XMLTreeReader.internalErrorCode {
            // After the root: see `XMLTreeReader.read`, which checks the rest of the document itself.
            lateInternalError = rootEnd
            parser.abortParsing()
            return
        }
        fail(parser, .malformedXML(XMLTreeReader.describe(parseError), line: max(parser.lineNumber, 1)))
    }

    func parser(
        _ parser: XMLParser, foundInternalEntityDeclarationWithName name: String, value: String?
    ) {
        fail(parser, .documentTypeDeclaration(line: max(parser.lineNumber, 1)))
    }

    func parser(
        _ parser: XMLParser, foundExternalEntityDeclarationWithName name: String, publicID: String?, systemID: String?
    ) {
        fail(parser, .documentTypeDeclaration(line: max(parser.lineNumber, 1)))
    }

    /// Entities are never resolved: the parser then reports the reference as an error.
    func parser(_ parser: XMLParser, resolveExternalEntityName name: String, systemID: String?) -> Data? {
        nil
    }
}
