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
    var attributes: [String: String]
    /// Where the start tag begins.
    var location: SourceLocation
    /// The parent's index, -1 for the root.
    var parent: Int
    /// Child element indices in document order.
    var children: [Int] = []
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
/// before parsing, so no entity is ever declared, and external entities are never resolved.
enum XMLTreeReader {
    static func read(_ data: Data) throws(SCXMLError) -> XMLTree {
        let lines = LineIndex(data)
        try checkEncoding(data)
        try checkProlog(lines: lines)
        let parser = XMLParser(data: data)
        parser.shouldProcessNamespaces = true
        parser.shouldReportNamespacePrefixes = true
        parser.shouldResolveExternalEntities = false
        let delegate = TreeBuildingDelegate(lines: lines)
        parser.delegate = delegate
        let ok = parser.parse()
        if let error = delegate.error { throw error }
        if let error = parser.parserError {
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
                i = skip(past: "?>", from: i + 2)
            } else if matches("<!--", at: i) {
                i = skip(past: "-->", from: i + 4)
            } else if matches("<!", at: i) {
                throw .documentTypeDeclaration(line: lines.line(ofOffset: i))
            } else {
                return
            }
        }
    }

    static func describe(_ error: any Error) -> String {
        let code = (error as NSError).code
        switch XMLParser.ErrorCode(rawValue: code) {
        case .prematureDocumentEndError?: return "unexpected end of document (an element is not closed?)"
        case .tagNameMismatchError?: return "a closing tag does not match its opening tag"
        case .undeclaredEntityError?, .entityReferenceMissingSemiError?, .entityRefAtEOFError?,
            .parsedEntityRefNoNameError?, .unparsedEntityError?, .entityIsExternalError?:
            return "entity references other than the predefined ones are not allowed"
        case .ltRequiredError?: return "expected '<'"
        case .gtRequiredError?: return "expected '>'"
        case .attributeNotStartedError?, .attributeNotFinishedError?,
            .attributeRedefinedError?, .lessThanSymbolInAttributeError?:
            return "invalid attribute syntax (code \(code))"
        case .emptyDocumentError?, .documentStartError?: return "no root element"
        case .notWellBalancedError?: return "the document is not well-balanced (content after the root element?)"
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
    var error: SCXMLError?
    var cursor = LineIndex.Cursor()

    init(lines: LineIndex) { self.lines = lines }

    private func fail(_ parser: XMLParser, _ e: SCXMLError) {
        if error == nil { error = e }
        parser.abortParsing()
    }

    func parser(_ parser: XMLParser, didStartMappingPrefix prefix: String, toURI namespaceURI: String) {
        prefixes[prefix, default: []].append(namespaceURI)
    }

    func parser(_ parser: XMLParser, didEndMappingPrefix prefix: String) {
        _ = prefixes[prefix]?.popLast()
    }

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
        qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]
    ) {
        guard error == nil else { return }
        if foreignDepth > 0 {
            foreignDepth += 1
            return
        }
        let namespace = namespaceURI ?? ""
        let location = lines.tagStart(
            qName: qName ?? elementName, line: parser.lineNumber, column: parser.columnNumber, cursor: &cursor)
        if !rootSeen {
            rootSeen = true
            guard elementName == "scxml", namespace == SCXMLNamespace.uri || namespace.isEmpty else {
                return fail(parser, .notSCXML(root: qName ?? elementName, namespace: namespace, line: location.line))
            }
            scxmlNamespace = namespace
        } else if stack.isEmpty {
            return fail(parser, .malformedXML("content after the root element", line: location.line))
        } else if namespace != scxmlNamespace {
            foreignDepth = 1
            return
        }
        var attributes: [String: String] = [:]
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
        guard let open = stack.popLast(), elements[open].name == elementName else {
            return fail(parser, .malformedXML("unexpected closing tag </\(elementName)>", line: parser.lineNumber))
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        checkText(parser, string)
    }

    func parser(_ parser: XMLParser, foundCDATA cdata: Data) {
        checkText(parser, String(decoding: cdata, as: UTF8.self))
    }

    private func checkText(_ parser: XMLParser, _ text: String) {
        guard error == nil, foreignDepth == 0 else { return }
        guard text.contains(where: { !$0.isWhitespace }) else { return }
        guard let open = stack.last else {
            return fail(parser, .malformedXML("text outside the root element", line: parser.lineNumber))
        }
        // The parser reports text where it ends: count back the line breaks after its first character.
        let start = text.firstIndex { !$0.isWhitespace } ?? text.startIndex
        let breaks = text[start...].reduce(0) { $1.isNewline ? $0 + 1 : $0 }
        fail(parser, .unexpectedText(element: elements[open].name, line: max(parser.lineNumber - breaks, 1)))
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
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
