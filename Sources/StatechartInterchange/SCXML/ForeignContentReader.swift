import Foundation

/// Collects the content of other namespaces of a document that ``XMLTreeReader`` has already
/// read (so it is well-formed, has no DTD and is within the limits): for every SCXML element, its
/// foreign attributes and namespace declarations as written, and its foreign child elements as
/// byte slices of the source, with the bindings of the prefixes they use but do not declare.
///
/// It walks the bytes once, without recursion: comments, CDATA sections and processing
/// instructions are skipped, start and end tags are read attribute by attribute, and namespace
/// scopes are kept on a stack. The n-th SCXML element it meets is the tree's n-th element (both
/// are in document order and skip foreign subtrees); a mismatch, which would be a bug, gives no
/// foreign content rather than content on the wrong elements.
struct ForeignContentReader {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var i = 0
    /// Namespace declarations of each open element (the root's first).
    private var scopes: [[String: String]] = []
    private var scxmlNamespace = ""
    /// Per SCXML element in document order: its local name and foreign markup.
    private var found: [(name: String, markup: SCXMLForeignMarkup)] = []
    /// Indices into `found` of the open SCXML elements.
    private var open: [Int] = []
    /// The foreign subtree being read: where it starts, its depth, the scope level of its root,
    /// and the outside bindings it uses.
    private var fragment: (start: Int, depth: Int, base: Int, uses: [SCXMLNamespaceBinding])?
    /// How deep inside markup held as a value (``XMLElementNode/markup``), which the tree does not list.
    private var markupDepth = 0

    static let xmlNamespace = "http://www.w3.org/XML/1998/namespace"

    private init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// The foreign content of `bytes` (the document as UTF-8, as ``XMLTreeReader/withUTF8(_:limits:_:)``
    /// hands it out), whose SCXML elements are `tree`'s and became `paths`.
    static func read(_ bytes: UnsafeBufferPointer<UInt8>, tree: XMLTree, paths: [SCXMLElementPath?]) -> SCXMLForeignContent {
        var reader = ForeignContentReader(bytes: bytes)
        reader.scan()
        guard reader.found.count == tree.elements.count,
            zip(reader.found, tree.elements).allSatisfy({ $0.name == $1.name })
        else { return SCXMLForeignContent() }
        var content = SCXMLForeignContent()
        for (index, entry) in reader.found.enumerated() where !entry.markup.isEmpty {
            guard let path = paths[index] else { continue }
            content[path] = entry.markup
        }
        return content
    }

    // MARK: - Scanning

    private mutating func scan() {
        let count = bytes.count
        while i < count {
            guard bytes[i] == UInt8(ascii: "<") else {
                i += 1
                continue
            }
            // Each terminator is looked for after its opener: in `<!--->…-->` the first `-->`
            // overlaps the `<!--` and is not the comment's end (found by LoaderFuzz).
            if matches("<!--") {
                skip(past: "-->", after: 4)
            } else if matches("<![CDATA[") {
                skip(past: "]]>", after: 9)
            } else if matches("<?") {
                skip(past: "?>", after: 2)
            } else if matches("<!") {
                skip(past: ">", after: 2)
            } else if matches("</") {
                skip(past: ">", after: 2)
                endElement()
            } else {
                startTag()
            }
        }
    }

    private func matches(_ s: StaticString) -> Bool {
        let n = s.utf8CodeUnitCount
        guard i + n <= bytes.count else { return false }
        return s.withUTF8Buffer { u in (0..<n).allSatisfy { bytes[i + $0] == u[$0] } }
    }

    private mutating func skip(past terminator: StaticString, after opener: Int = 0) {
        i = min(i + opener, bytes.count)
        while i < bytes.count && !matches(terminator) { i += 1 }
        i = min(i + terminator.utf8CodeUnitCount, bytes.count)
    }

    private static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }

    /// One attribute of a start tag: its name and the byte ranges of the whole attribute and of its value.
    private struct RawAttribute {
        var name: String
        var whole: Range<Int>
        var value: Range<Int>
    }

    private mutating func startTag() {
        let start = i
        i += 1
        let nameStart = i
        while i < bytes.count, !Self.isSpace(bytes[i]), bytes[i] != UInt8(ascii: "/"), bytes[i] != UInt8(ascii: ">") {
            i += 1
        }
        let qName = decode(bytes[nameStart..<i])
        var attributes: [RawAttribute] = []
        var selfClosing = false
        while i < bytes.count {
            let b = bytes[i]
            if Self.isSpace(b) {
                i += 1
            } else if b == UInt8(ascii: ">") {
                i += 1
                break
            } else if b == UInt8(ascii: "/") {
                selfClosing = true
                i += 1
            } else {
                let attributeStart = i
                while i < bytes.count, bytes[i] != UInt8(ascii: "="), !Self.isSpace(bytes[i]) { i += 1 }
                let name = decode(bytes[attributeStart..<i])
                while i < bytes.count, bytes[i] != UInt8(ascii: "\""), bytes[i] != UInt8(ascii: "'") { i += 1 }
                guard i < bytes.count else { break }
                let quote = bytes[i]
                i += 1
                let valueStart = i
                while i < bytes.count, bytes[i] != quote { i += 1 }
                attributes.append(RawAttribute(name: name, whole: attributeStart..<(i + 1), value: valueStart..<i))
                i += 1
            }
        }
        var declarations: [String: String] = [:]
        for a in attributes {
            if a.name == "xmlns" {
                declarations[""] = Self.unescape(decode(bytes[a.value]))
            } else if a.name.hasPrefix("xmlns:") {
                declarations[String(a.name.dropFirst(6))] = Self.unescape(decode(bytes[a.value]))
            }
        }
        scopes.append(declarations)
        let (prefix, _) = Self.split(qName)
        let namespace = resolve(prefix)?.uri ?? ""
        if markupDepth > 0 {
            markupDepth += 1
        } else if fragment == nil, let parent = open.last, SCXMLSchema.markupElements.contains(found[parent].name) {
            markupDepth = 1
        } else if fragment != nil {
            fragment?.depth += 1
            noteUses(qName: qName, attributes: attributes)
        } else if scopes.count == 1 || namespace == scxmlNamespace || namespace == SCXMLNamespace.uri {
            // As XMLTreeReader decides: the SCXML namespace is always SCXML's; no namespace is
            // when the root is in none.
            if scopes.count == 1 { scxmlNamespace = namespace }
            found.append((Self.split(qName).local, scxmlMarkup(attributes)))
            open.append(found.count - 1)
        } else {
            fragment = (start, 1, scopes.count - 1, [])
            noteUses(qName: qName, attributes: attributes)
        }
        if selfClosing { endElement() }
    }

    /// The foreign attributes and declarations of an SCXML element.
    private func scxmlMarkup(_ attributes: [RawAttribute]) -> SCXMLForeignMarkup {
        var markup = SCXMLForeignMarkup()
        for a in attributes {
            if a.name == "xmlns" { continue }
            let (prefix, local) = Self.split(a.name)
            if prefix == "xmlns" {
                let uri = Self.unescape(decode(bytes[a.value]))
                if uri != scxmlNamespace && uri != SCXMLNamespace.uri {
                    markup.namespaceDeclarations.append(SCXMLNamespaceBinding(prefix: local, uri: uri))
                }
                continue
            }
            guard !prefix.isEmpty, let binding = resolve(prefix), binding.uri != SCXMLNamespace.uri else { continue }
            markup.attributes.append(
                SCXMLForeignAttribute(
                    text: decode(bytes[a.whole]), namespace: SCXMLNamespaceBinding(prefix: prefix, uri: binding.uri)))
        }
        return markup
    }

    /// Records the outside bindings that an element of the current fragment uses.
    private mutating func noteUses(qName: String, attributes: [RawAttribute]) {
        guard let base = fragment?.base else { return }
        var prefixes = [Self.split(qName).prefix]
        for a in attributes where a.name != "xmlns" {
            let prefix = Self.split(a.name).prefix
            if !prefix.isEmpty && prefix != "xmlns" { prefixes.append(prefix) }
        }
        for prefix in prefixes where prefix != "xml" {
            let binding = resolve(prefix)
            guard (binding?.level ?? -1) < base else { continue }
            let used = SCXMLNamespaceBinding(prefix: prefix, uri: binding?.uri ?? "")
            if fragment?.uses.contains(used) == false { fragment?.uses.append(used) }
        }
    }

    private mutating func endElement() {
        // More end tags than start tags would be a bug of this scanner (the reader checked the
        // document): it gives no foreign content, never a trap.
        guard !scopes.isEmpty else {
            found.removeAll()
            i = bytes.count
            return
        }
        scopes.removeLast()
        if markupDepth > 0 {
            markupDepth -= 1
            return
        }
        if let f = fragment {
            if f.depth > 1 {
                fragment?.depth -= 1
                return
            }
            fragment = nil
            guard let parent = open.last else { return }
            found[parent].markup.elements.append(
                SCXMLForeignElement(text: decode(bytes[f.start..<i]), namespaces: f.uses))
        } else if open.popLast() == nil {
            found.removeAll()
            i = bytes.count
        }
    }

    /// The binding of a prefix and the scope level that declares it (-1: not declared, or `xml`).
    private func resolve(_ prefix: String) -> (uri: String, level: Int)? {
        if prefix == "xml" { return (Self.xmlNamespace, -1) }
        for level in scopes.indices.reversed() {
            if let uri = scopes[level][prefix] { return (uri, level) }
        }
        return prefix.isEmpty ? ("", -1) : nil
    }

    private static func split(_ qName: String) -> (prefix: String, local: String) {
        guard let colon = qName.firstIndex(of: ":") else { return ("", qName) }
        return (String(qName[..<colon]), String(qName[qName.index(after: colon)...]))
    }

    /// Replaces the predefined entities and character references of an attribute value.
    static func unescape(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var out = ""
        var rest = Substring(text)
        while let amp = rest.firstIndex(of: "&") {
            out += rest[..<amp]
            guard let semi = rest[amp...].firstIndex(of: ";") else { break }
            let entity = rest[rest.index(after: amp)..<semi]
            switch entity {
            case "amp": out += "&"
            case "lt": out += "<"
            case "gt": out += ">"
            case "quot": out += "\""
            case "apos": out += "'"
            default:
                let number: UInt32? =
                    entity.hasPrefix("#x")
                    ? UInt32(entity.dropFirst(2), radix: 16) : entity.hasPrefix("#") ? UInt32(entity.dropFirst()) : nil
                if let number, let scalar = Unicode.Scalar(number) {
                    out.unicodeScalars.append(scalar)
                } else {
                    out += rest[amp...semi]
                }
            }
            rest = rest[rest.index(after: semi)...]
        }
        return out + rest
    }

    /// Slices of the document as text.
    private func decode(_ slice: Slice<UnsafeBufferPointer<UInt8>>) -> String { String(decoding: slice, as: UTF8.self) }
}

extension SCXMLBuilder {
    /// What each element of the tree became, as an ``SCXMLElementPath`` (after ``build(defaultName:)``).
    func elementPaths() -> [SCXMLElementPath?] {
        let elements = tree.elements
        var paths: [SCXMLElementPath?] = Array(repeating: nil, count: elements.count)
        func stateID(_ index: Int) -> String? {
            if case .state(_, let id, _) = items[index] { return id }
            return nil
        }
        // Positions among siblings, counted in one pass (elements are in document order).
        var childrenSeen = [Int](repeating: 0, count: elements.count)
        var namedSeen: [Int: [String: Int]] = [:]
        var positionOf = [Int](repeating: 0, count: elements.count)
        var siblingIndex = [Int](repeating: 0, count: elements.count)
        for index in elements.indices.dropFirst() {
            let parent = elements[index].parent
            siblingIndex[index] = childrenSeen[parent]
            childrenSeen[parent] += 1
            positionOf[index] = namedSeen[parent, default: [:]][elements[index].name, default: 0]
            namedSeen[parent, default: [:]][elements[index].name, default: 0] += 1
        }
        /// The position of `index` among its parent's children named like it.
        func position(_ index: Int) -> Int { positionOf[index] }
        for index in elements.indices {
            let e = elements[index]
            switch items[index] {
            case .root:
                paths[index] = .root
            case .state(_, let id, _):
                paths[index] = .state(id)
            case .transition:
                if case .initial = items[e.parent], let id = stateID(elements[e.parent].parent) {
                    paths[index] = .defaultTransition(of: id)
                } else if elements[e.parent].name == "history", let id = stateID(e.parent) {
                    paths[index] = .defaultTransition(of: id)
                } else if let id = stateID(e.parent) {
                    paths[index] = .transition(state: id, index: position(index))
                }
            case .initial:
                paths[index] = stateID(e.parent).map { .initial(of: $0) }
            case .onEntry:
                paths[index] = stateID(e.parent).map { .onEntry(state: $0, index: position(index)) }
            case .onExit:
                paths[index] = stateID(e.parent).map { .onExit(state: $0, index: position(index)) }
            case .action:
                paths[index] = paths[e.parent].map { .action(in: $0, index: siblingIndex[index]) }
            case .other:
                // Executable content of a data model chart, directly in a block; data elements have no path.
                if SCXMLSchema.executableContent.contains(e.name), ["onentry", "onexit", "transition"].contains(elements[e.parent].name) {
                    paths[index] = paths[e.parent].map { .action(in: $0, index: siblingIndex[index]) }
                }
            }
        }
        return paths
    }
}
