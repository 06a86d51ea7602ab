/// Reads an XML value's markup into its DOM tree (``XMLNode``).
///
/// The markup is what the SCXML loader kept of a `<data>` or `<content>` (well-formed, its
/// namespaces declared) or an XML file a `<data src>` named; a host may also hand an XML value
/// made elsewhere, so the reader checks what it reads: elements, attributes, text, the five
/// predefined entities and character references, CDATA sections; comments and processing
/// instructions are skipped. Anything else — a tag left open, a mismatched end tag, an unknown
/// entity, a document type declaration — makes the value no DOM (`nil`): its DOM members are then
/// `undefined`, and the value is still its markup. Iterative: nesting depth costs no stack.
struct XMLNodeReader {
    private let bytes: [UInt8]
    private var position = 0

    private init(_ source: String) { bytes = Array(source.utf8) }

    /// The document of `source`, or `nil` when it is not well-formed or has no element.
    static func document(_ source: String) -> XMLNode? {
        var reader = XMLNodeReader(source)
        guard let document = reader.read() else { return nil }
        document.source = source
        return document
    }

    private mutating func read() -> XMLNode? {
        let document = XMLNode(kind: .document)
        var open: [XMLNode] = [document]
        while position < bytes.count {
            let current = open[open.count - 1]
            if bytes[position] != UInt8(ascii: "<") {
                guard let text = characters() else { return nil }
                append(XMLNode(kind: .text, text: text), to: current)
            } else if starts(with: "<!--") {
                guard skip(past: "-->") else { return nil }
            } else if starts(with: "<![CDATA[") {
                position += 9
                let start = position
                guard skip(past: "]]>") else { return nil }
                append(XMLNode(kind: .text, text: String(decoding: bytes[start..<position - 3], as: UTF8.self)), to: current)
            } else if starts(with: "<?") {
                guard skip(past: "?>") else { return nil }
            } else if starts(with: "</") {
                position += 2
                guard open.count > 1, let name = name(), name == current.name else { return nil }
                skipSpace()
                guard expect(">") else { return nil }
                open.removeLast()
            } else {
                // A start tag; `<!DOCTYPE` and other declarations are not read.
                position += 1
                guard position < bytes.count, bytes[position] != UInt8(ascii: "!"), let element = startTag() else { return nil }
                append(element.node, to: current)
                if !element.closed { open.append(element.node) }
            }
        }
        // Every element closed, at least one, and no text but white space beside them.
        guard open.count == 1, document.children.contains(where: { $0.kind == .element }),
            document.children.allSatisfy({ $0.kind == .element || $0.text.allSatisfy(\.isXMLSpace) })
        else { return nil }
        document.children.removeAll { $0.kind == .text }
        return document
    }

    private func append(_ node: XMLNode, to parent: XMLNode) {
        node.parent = parent
        parent.children.append(node)
    }

    /// A start tag after its `<`: the element and whether it closed itself (`/>`).
    private mutating func startTag() -> (node: XMLNode, closed: Bool)? {
        guard let name = name() else { return nil }
        let element = XMLNode(kind: .element, name: name)
        while true {
            let hadSpace = skipSpace()
            if expect("/") { return expect(">") ? (element, true) : nil }
            if expect(">") { return (element, false) }
            guard hadSpace, let attribute = self.name() else { return nil }
            skipSpace()
            guard expect("=") else { return nil }
            skipSpace()
            guard position < bytes.count else { return nil }
            let quote = bytes[position]
            guard quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else { return nil }
            position += 1
            guard let value = characters(until: quote), expect(quote == UInt8(ascii: "\"") ? "\"" : "'"),
                element.attribute(attribute) == nil
            else { return nil }
            element.attributes.append((attribute, value))
        }
    }

    /// Character data up to the next `<` (or `quote`), references resolved; as XML reads them,
    /// line ends are line feeds, and in an attribute value (`quote`) raw white space is a space.
    private mutating func characters(until quote: UInt8? = nil) -> String? {
        var out: [UInt8] = []
        while position < bytes.count {
            let b = bytes[position]
            if b == UInt8(ascii: "<") { if quote == nil { break } else { return nil } }
            if b == quote { break }
            position += 1
            if b == 0x0D {
                // CR LF and a lone CR are one line feed.
                if position < bytes.count, bytes[position] == 0x0A { position += 1 }
                out.append(quote == nil ? 0x0A : 0x20)
                continue
            }
            if quote != nil, b == 0x0A || b == 0x09 {
                out.append(0x20)
                continue
            }
            guard b == UInt8(ascii: "&") else {
                out.append(b)
                continue
            }
            guard let end = bytes[position...].firstIndex(of: UInt8(ascii: ";")), end - position <= 10 else { return nil }
            let reference = String(decoding: bytes[position..<end], as: UTF8.self)
            position = end + 1
            let scalar: Unicode.Scalar?
            switch reference {
            case "lt": scalar = "<"
            case "gt": scalar = ">"
            case "amp": scalar = "&"
            case "quot": scalar = "\""
            case "apos": scalar = "'"
            default:
                if reference.hasPrefix("#x") {
                    scalar = UInt32(reference.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init)
                } else if reference.hasPrefix("#") {
                    scalar = UInt32(reference.dropFirst(), radix: 10).flatMap(Unicode.Scalar.init)
                } else {
                    scalar = nil
                }
            }
            guard let scalar else { return nil }
            out.append(contentsOf: String(scalar).utf8)
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// A name: the bytes up to white space or one of `/ > = < ' "`.
    private mutating func name() -> String? {
        let start = position
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: "/"), UInt8(ascii: ">"), UInt8(ascii: "="), UInt8(ascii: "<"),
                UInt8(ascii: "'"), UInt8(ascii: "\""):
                return position > start ? String(decoding: bytes[start..<position], as: UTF8.self) : nil
            default:
                position += 1
            }
        }
        return nil
    }

    @discardableResult
    private mutating func skipSpace() -> Bool {
        let start = position
        while position < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[position]) { position += 1 }
        return position > start
    }

    private func starts(with text: StaticString) -> Bool {
        let t = UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)
        return bytes.count - position >= t.count && bytes[position..<position + t.count].elementsEqual(t)
    }

    private mutating func expect(_ text: StaticString) -> Bool {
        guard starts(with: text) else { return false }
        position += text.utf8CodeUnitCount
        return true
    }

    /// Moves past the next `end`; `false` when there is none.
    private mutating func skip(past end: StaticString) -> Bool {
        while position < bytes.count {
            if expect(end) { return true }
            position += 1
        }
        return false
    }
}

extension Character {
    /// XML's white space: space, tab, carriage return, line feed.
    fileprivate var isXMLSpace: Bool { self == " " || self == "\t" || self == "\n" || self == "\r" || self == "\r\n" }
}
