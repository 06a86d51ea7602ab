import Statechart

/// Builds an ``XMLTree`` from the tokens of an ``XMLScanner``: keeps the elements of the SCXML
/// namespace, skips foreign subtrees, keeps the text of the elements that take text and the
/// markup of those that hold markup, refuses text anywhere else, and checks the limits at each
/// start tag.
struct XMLTreeBuilder {
    private var scanner: XMLScanner
    private let limits: SCXMLLimits
    private var elements: [XMLElementNode] = []
    /// The attributes of every element, in document order, and where each element's begin: shared
    /// out to the elements once the document is read (``XMLAttributes/init(sharing:_:)``).
    private var attributes: [XMLAttributes.Pair] = []
    private var attributesStart: [Int] = []
    /// The text and markup of the elements that have any, by element index: gathered here, where
    /// appending to a string is in place, and boxed into the elements once the document is read
    /// (``XMLElementNode/content``).
    private var texts: [Int: String] = [:]
    private var markups: [Int: String] = [:]
    /// Open SCXML elements (indices into `elements`).
    private var stack: [Int] = []
    /// How deep inside a foreign element.
    private var foreignDepth = 0
    /// Inside an element that holds markup: how deep, and which element holds it.
    private var markupDepth = 0
    private var markupHolder = -1
    /// The namespace of the root: SCXML's, or none.
    private var scxmlNamespace = SCXMLNamespace.uri
    /// Elements started so far (every namespace), and state elements among them.
    private var elementCount = 0
    private var stateCount = 0
    /// The most elements this tree takes: the limit, or ``elementCap`` if that is lower.
    private let elementLimit: Int
    /// The most attributes the tree takes (they are shared in 32-bit bounds, ``XMLAttributes``):
    /// ``elementCap``, lower only in tests, which cannot write a document that big.
    private let attributeCap: Int
    /// The known element and attribute names, copied out of their globals once (see ``XMLNameTable``).
    private let elementNames = SCXMLElementKind.table
    private let attributeNames = SCXMLAttributeName.table
    /// The schema's masks by kind, copied once for the same reason.
    private let rules = SCXMLElementKind.rules

    init(scanner: XMLScanner, limits: SCXMLLimits, attributeCap: Int = elementCap) {
        self.scanner = scanner
        self.limits = limits
        self.elementLimit = min(limits.maximumElements, Self.elementCap)
        self.attributeCap = min(attributeCap, Self.elementCap)
        // Room for every element and attribute the document can have, from its `<` bytes that
        // begin no end tag and its `=` bytes (a start tag has one such `<`, an attribute one `=`;
        // comments, instructions and other `=` make it an upper bound). Grown as they were read,
        // the arrays were copied about twice over, and old and new buffers were alive together at
        // a large document's peak; counted with the end tags, the room was a third too large.
        // Counting is one vector pass (``XMLByteCount``).
        // The room is also capped by the document's size, at about what a real tree of that size
        // needs (an element takes some 20 bytes of a document, an attribute some 14): a comment
        // full of `<` and `=` would otherwise ask for gigabytes up front, which a system that
        // does not overcommit memory refuses.
        let counts = XMLByteCount.count(UInt8(ascii: "<"), UInt8(ascii: "="), firstThen: UInt8(ascii: "/"), in: scanner.bytes)
        let tags = counts.first - counts.firstThenThird
        let equals = counts.second
        let elementRoom = max(0, min(tags, limits.maximumElements, scanner.bytes.count / 16))
        elements.reserveCapacity(elementRoom)
        attributesStart.reserveCapacity(elementRoom)
        attributes.reserveCapacity(min(equals, 4 * elementRoom, scanner.bytes.count / 8))
    }

    mutating func build() throws(SCXMLError) -> XMLTree {
        while true {
            switch try scanner.next() {
            case .startTag: try start()
            case .endTag: end()
            case .text: try text(cdata: false)
            case .cdata: try text(cdata: true)
            case .end:
                guard !elements.isEmpty else { throw .emptyDocument }
                linkChildren()
                shareAttributes()
                boxContent()
                return XMLTree(elements: elements)
            }
        }
    }

    private mutating func start() throws(SCXMLError) {
        let namespace = scanner.namespace
        // An element in the SCXML namespace is always SCXML's; one in no namespace is when the
        // root is in none (a document that never declares the namespace). Everything else is
        // foreign. (If an element in the SCXML namespace inside a no-namespace document were
        // foreign, an export — which declares the namespace on the root — would turn it into
        // SCXML: found by LoaderFuzz.)
        // The root decides which of the two it is (no namespace, or SCXML's).
        let isSCXML = namespace == scxmlNamespace || namespace == SCXMLNamespace.uri || (elements.isEmpty && namespace.isEmpty)
        // The kind is found from the name's bytes: a string is made only for a name SCXML does not
        // have (the known ones are ASCII, so comparing bytes is comparing the strings).
        let kind = foreignDepth == 0 && markupDepth == 0 && isSCXML ? SCXMLElementKind.find(scanner.localNameBytes, in: elementNames) : nil
        let isState = rules.states.contains(kind)
        try checkLimits(isState: isState)
        if foreignDepth > 0 {
            foreignDepth += 1
            return
        }
        if markupDepth > 0 || (stack.last.map { rules.holdsMarkup.contains(elements[$0].kind) } ?? false) {
            startMarkup()
            return
        }
        let location = scanner.tagLocation()
        if elements.isEmpty {
            guard kind == .scxml, namespace == SCXMLNamespace.uri || namespace.isEmpty else {
                throw .notSCXML(root: scanner.qualifiedName, namespace: namespace, line: location.line)
            }
            scxmlNamespace = namespace
        } else if !isSCXML {
            foreignDepth = 1
            return
        }
        let first = attributes.count
        // By index, as the scanner reads them: iterating the array retained and released it.
        for k in scanner.attributes.indices where !scanner.attributes[k].isDeclaration {
            let a = scanner.attributes[k]
            // Prefixed attributes belong to their namespace: kept only if that is SCXML's.
            if a.colon >= 0 && scanner.namespace(of: a) != SCXMLNamespace.uri { continue }
            let start = a.colon < 0 ? a.nameStart : a.colon + 1
            let known = SCXMLAttributeName.find(UnsafeBufferPointer(rebasing: scanner.bytes[start..<a.nameEnd]), in: attributeNames)
            // Name and value made from the document's bytes (a plain value's bytes are its value,
            // ``XMLRawAttribute/isPlain``): a method of the scanner called here made a copy of the
            // whole scanner (216 bytes) for every attribute.
            let bytes = scanner.bytes
            let name = known.map { attributeNames.strings[Int($0.rawValue)] } ?? XMLScanner.string(bytes, start, a.nameEnd)
            let value = a.isPlain ? XMLScanner.string(bytes, a.valueStart, a.valueEnd) : scanner.value(of: a)
            XMLAttributes.set(name, known: known, to: value, in: &attributes, from: first)
        }
        // The attributes are shared in 32-bit bounds too (``XMLAttributes``): a document of more
        // than `Int32.max` of them (some 86 GB of memory) is refused, under the elements' limit,
        // naming the bound it passed.
        if attributes.count > attributeCap {
            throw .limitExceeded(.elements, limit: attributeCap, element: scanner.localName, line: scanner.tagLine)
        }
        let index = elements.count
        let parent = stack.last ?? -1
        attributesStart.append(first)
        elements.append(
            XMLElementNode(kind: kind, unknownName: kind == nil ? scanner.localName : nil, attributes: XMLAttributes(), location: location, parent: parent))
        stack.append(index)
    }

    /// Gives each element the list of its children, once the document is read: the lists of all
    /// elements are laid out in one array (each element's children counted first, to know where
    /// its list starts), and each element gets its part of it, where an array per element was an
    /// allocation each, grown several times as the children were read.
    private mutating func linkChildren() {
        var start = [Int](repeating: 0, count: elements.count + 1)
        for i in elements.indices where elements[i].parent >= 0 { start[elements[i].parent + 1] += 1 }
        for i in elements.indices { start[i + 1] += start[i] }
        var next = start
        // Element indices fit in 32 bits: ``checkLimits(isState:)`` refuses more elements.
        var all = [Int32](repeating: 0, count: start[elements.count])
        // In document order, so each list is in document order.
        for i in elements.indices where elements[i].parent >= 0 {
            all[next[elements[i].parent]] = Int32(i)
            next[elements[i].parent] += 1
        }
        let storage = XMLSharedArray(all)
        for i in elements.indices where start[i + 1] > start[i] { elements[i].children = XMLChildList(storage, start[i]..<start[i + 1]) }
    }

    /// Gives each element its attributes, as parts of the one array of them.
    private mutating func shareAttributes() {
        let storage = XMLSharedArray(attributes)
        attributes = []
        for i in elements.indices {
            let end = i + 1 < elements.count ? attributesStart[i + 1] : storage.elements.count
            if end > attributesStart[i] { elements[i].attributes = XMLAttributes(sharing: storage, attributesStart[i]..<end) }
        }
    }

    /// Gives the elements with text or markup their ``XMLElementExtras``. Only known kinds take
    /// text or markup (``SCXMLElementKind/Rules/takesText``, ``SCXMLElementKind/Rules/holdsMarkup``),
    /// so the unknown name carried over is empty today; it is carried so that no later rule can
    /// make an element lose the name it was read with to its text.
    private mutating func boxContent() {
        for index in Set(texts.keys).union(markups.keys) {
            elements[index].extras = XMLElementExtras(
                text: texts[index] ?? "", markup: markups[index] ?? "", unknownName: elements[index].extras?.unknownName ?? "")
        }
        texts = [:]
        markups = [:]
    }

    /// The most elements a tree holds, whatever the limits say: an element's parent and children
    /// are 32-bit indices (``XMLElementNode``). A document that big would need some 190 GB of
    /// memory for its tree.
    static let elementCap = Int(Int32.max)

    /// Checks the limits at a start tag; the depth counts the element itself (the root is 1).
    private mutating func checkLimits(isState: Bool) throws(SCXMLError) {
        elementCount += 1
        if isState { stateCount += 1 }
        let exceeded: (SCXMLLimit, Int)
        if scanner.depth > limits.maximumNestingDepth {
            exceeded = (.nestingDepth, limits.maximumNestingDepth)
        } else if elementCount > elementLimit {
            exceeded = (.elements, elementLimit)
        } else if stateCount > limits.maximumStates {
            exceeded = (.states, limits.maximumStates)
        } else {
            return
        }
        throw .limitExceeded(exceeded.0, limit: exceeded.1, element: scanner.localName, line: scanner.tagLine)
    }

    /// An element inside `<content>`, `<assign>` or `<data>`: kept as text, whatever its namespace.
    /// The outermost one declares the namespaces in scope, so the markup reads on its own.
    private mutating func startMarkup() {
        if markupDepth == 0 { markupHolder = stack[stack.count - 1] }
        let own = scanner.bindings[scanner.declarationsStart...]
        var declarations = own.map { ($0.prefix, $0.uri) }
        if markupDepth == 0 {
            let prefix = scanner.prefix
            if !declarations.contains(where: { $0.0 == prefix }), !scanner.namespace.isEmpty {
                declarations.append((prefix, scanner.namespace))
            }
            var inScope: [String: String] = [:]
            for binding in scanner.bindings where !binding.prefix.isEmpty && binding.prefix != "xml" {
                inScope[binding.prefix] = binding.uri
            }
            for (p, uri) in inScope.sorted(by: { $0.key < $1.key }) where !declarations.contains(where: { $0.0 == p }) {
                declarations.append((p, uri))
            }
        }
        markupDepth += 1
        var tag = "<" + scanner.qualifiedName
        for (prefix, uri) in declarations {
            tag += (prefix.isEmpty ? " xmlns" : " xmlns:" + prefix) + "=\"" + SCXMLMarkup.escape(uri, quote: true) + "\""
        }
        let attributes = scanner.attributes.filter { !$0.isDeclaration }.map { (scanner.name(of: $0), scanner.value(of: $0)) }
        for (name, value) in attributes.sorted(by: { $0.0 < $1.0 }) {
            tag += " \(name)=\"" + SCXMLMarkup.escape(value, quote: true) + "\""
        }
        markups[markupHolder, default: ""] += tag + ">"
    }

    private mutating func end() {
        if foreignDepth > 0 {
            foreignDepth -= 1
        } else if markupDepth > 0 {
            markupDepth -= 1
            markups[markupHolder, default: ""] += "</" + scanner.qualifiedName + ">"
        } else {
            stack.removeLast()
        }
    }

    /// The current text or CDATA section's content, decoded.
    private func content(cdata: Bool) -> String { cdata ? scanner.cdata : scanner.text }

    /// Text or CDATA inside the root. Where it goes is decided first, with one look at the open
    /// element, and the content is decoded only where it is kept or has to be checked.
    private mutating func text(cdata: Bool) throws(SCXMLError) {
        guard foreignDepth == 0 else { return }
        if markupDepth > 0 {
            markups[markupHolder, default: ""] += SCXMLMarkup.escape(content(cdata: cdata), quote: false)
            return
        }
        guard let open = stack.last else { return }
        if rules.takesText.contains(elements[open].kind) {
            texts[open, default: ""] += content(cdata: cdata)
            return
        }
        // Text that is only white space as written needs no decoding to be found blank.
        if !cdata && scanner.textIsPlainBlank { return }
        let text = content(cdata: cdata)
        guard !XMLWhitespace.isBlank(text) else { return }
        throw .unexpectedText(element: elements[open].name, line: scanner.textFirstVisibleLine)
    }
}
