import Statechart

/// Collects the content of other namespaces of a document that ``XMLTreeReader`` has already
/// read (so it is well-formed, has no DTD and is within the limits): for every SCXML element, its
/// foreign attributes and namespace declarations as written, and its foreign child elements as
/// slices of the source, with the bindings of the prefixes they use but do not declare.
///
/// It reads the document again with ``XMLScanner``, the reader the tree was built with, so tags,
/// comments, CDATA sections and namespaces are read one way only; no tag scanner of its own can
/// disagree with it. It decides which elements are SCXML's as ``XMLTreeBuilder`` does, so the
/// n-th SCXML element it meets is the tree's n-th element; a mismatch, which would be a bug,
/// gives no foreign content rather than content on the wrong elements.
struct ForeignContentReader {
    private var scanner: XMLScanner
    private var scxmlNamespace = ""
    /// Per SCXML element in document order: its local name and foreign markup.
    private var found: [(name: String, markup: SCXMLForeignMarkup)] = []
    /// Indices into `found` of the open SCXML elements.
    private var open: [Int] = []
    /// The foreign subtree being read: the offset of its `<`, its depth, where its root's own
    /// namespace bindings start in the scanner's (those before are declared outside it), and the
    /// outside bindings it uses.
    private var fragment: (start: Int, depth: Int, base: Int, uses: [SCXMLNamespaceBinding])?
    /// How deep inside markup held as a value (``XMLElementNode/markup``), which the tree does not list.
    private var markupDepth = 0

    private init(bytes: UnsafeBufferPointer<UInt8>) {
        scanner = XMLScanner(bytes)
    }

    /// The foreign content of `bytes` (the document as UTF-8, as ``XMLTreeReader/withUTF8(_:limits:_:)``
    /// hands it out), whose SCXML elements are `tree`'s and became `paths`.
    static func read(_ bytes: UnsafeBufferPointer<UInt8>, tree: XMLTree, paths: [SCXMLElementPath?]) -> SCXMLForeignContent {
        var reader = ForeignContentReader(bytes: bytes)
        // The document was read without an error before; should the scanner find one now, there is
        // no foreign content rather than a failed load.
        guard (try? reader.scan()) != nil, reader.found.count == tree.elements.count,
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

    private mutating func scan() throws(SCXMLError) {
        while true {
            switch try scanner.next() {
            case .startTag: startTag()
            case .endTag: endTag()
            case .text, .cdata: continue
            case .end: return
            }
        }
    }

    private mutating func startTag() {
        if markupDepth > 0 {
            markupDepth += 1
        } else if fragment == nil, let parent = open.last, SCXMLSchema.markupElements.contains(found[parent].name) {
            markupDepth = 1
        } else if fragment != nil {
            fragment?.depth += 1
            noteUses()
        } else if scanner.depth == 1 || scanner.namespace == scxmlNamespace || scanner.namespace == SCXMLNamespace.uri {
            // As XMLTreeBuilder decides: the SCXML namespace is always SCXML's; no namespace is
            // when the root is in none.
            if scanner.depth == 1 { scxmlNamespace = scanner.namespace }
            found.append((scanner.localName, scxmlMarkup()))
            open.append(found.count - 1)
        } else {
            fragment = (scanner.tagOffset, 1, scanner.declarationsStart, [])
            noteUses()
        }
    }

    /// The foreign attributes and declarations of the current start tag, an SCXML element's.
    private func scxmlMarkup() -> SCXMLForeignMarkup {
        var markup = SCXMLForeignMarkup()
        for a in scanner.attributes where a.colon >= 0 {
            if a.isDeclaration {
                let uri = scanner.value(of: a)
                if uri != scxmlNamespace && uri != SCXMLNamespace.uri {
                    markup.namespaceDeclarations.append(SCXMLNamespaceBinding(prefix: scanner.localName(of: a), uri: uri))
                }
                continue
            }
            let uri = scanner.namespace(of: a)
            guard uri != SCXMLNamespace.uri else { continue }
            // As written: name, white space, `=` and the quoted value, up to the closing quote.
            markup.attributes.append(
                SCXMLForeignAttribute(
                    text: scanner.string(a.nameStart, a.valueEnd + 1),
                    namespace: SCXMLNamespaceBinding(prefix: scanner.string(a.nameStart, a.colon), uri: uri)))
        }
        return markup
    }

    /// Records the outside bindings that the current start tag, in the fragment, uses.
    private mutating func noteUses() {
        guard let base = fragment?.base else { return }
        var prefixes = [scanner.prefix]
        for a in scanner.attributes where !a.isDeclaration && a.colon >= 0 {
            prefixes.append(scanner.string(a.nameStart, a.colon))
        }
        for prefix in prefixes where prefix != "xml" {
            let (uri, index) = binding(of: prefix)
            guard index < base else { continue }
            let used = SCXMLNamespaceBinding(prefix: prefix, uri: uri)
            if fragment?.uses.contains(used) == false { fragment?.uses.append(used) }
        }
    }

    /// The innermost binding of `prefix` in scope, and its index in the scanner's bindings; for an
    /// undeclared default namespace, no namespace at -1 (outside every fragment).
    private func binding(of prefix: String) -> (uri: String, index: Int) {
        let bindings = scanner.bindings
        var k = bindings.count - 1
        while k >= 0 {
            if bindings[k].prefix == prefix { return (bindings[k].uri, k) }
            k -= 1
        }
        return ("", -1)
    }

    private mutating func endTag() {
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
            // The scanner is past the end tag (or past the `/>` of an empty-element tag).
            found[parent].markup.elements.append(
                SCXMLForeignElement(text: scanner.string(f.start, scanner.pos), namespaces: f.uses))
        } else {
            _ = open.popLast()
        }
    }
}

extension SCXMLBuilder {
    /// What each element of the tree became, as an ``SCXMLElementPath`` (after ``build(defaultName:)``).
    func elementPaths() -> [SCXMLElementPath?] {
        let elements = tree.elements
        var paths: [SCXMLElementPath?] = Array(repeating: nil, count: elements.count)
        func stateID(_ index: Int) -> String? {
            if case .state(let id, _, _) = items[index] { return id }
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
            case .state(let id, _, _):
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
