/// The read-only DOM of XML values (SCXML B.2.2): `var1.getElementsByTagName('book')[0].getAttribute('title')`.
///
/// A node read twice is two objects (`x.firstChild === x.firstChild` is false); the nodes are the
/// same tree. Nothing changes a tree: setters and methods such as `setAttribute` are not there
/// (calling one is a `TypeError`, as for any missing method).
extension Interpreter {
    /// The DOM member `name` of an XML value or node, or `nil` when `name` is none or the value's
    /// markup is not well-formed (``XMLNodeReader``). An XML value's tree is read the first time
    /// a DOM member is asked for, and kept.
    func domMember(of o: ScriptObject, _ name: String, receiver: ScriptValue, line: Int) throws(ScriptError) -> ScriptValue? {
        if let read = domProperties[name] {
            guard let place = try domPlace(of: o, line: line) else { return nil }
            return try read(DOMReading(interpreter: self, node: place.node, document: place.document, line: line))
        }
        guard domMethods[name] != nil, try domPlace(of: o, line: line) != nil else { return nil }
        return method(domMethods, name, receiver: receiver)
    }

    /// The node `o` is and its document, its tree read first when `o` is still markup; `nil` for
    /// markup that is not well-formed, and for any other object.
    private func domPlace(of o: ScriptObject, line: Int) throws(ScriptError) -> (node: XMLNode, document: XMLNode)? {
        switch o.storage {
        case .xml(let text):
            guard let read = XMLNodeReader.document(text) else { return nil }
            try charge(2 * text.utf8.count, line: line)
            o.storage = .xmlNode(read, document: read)
            return (read, read)
        case .xmlNode(let node, let document):
            return (node, document)
        default:
            return nil
        }
    }

    /// Script objects of `nodes` (for `childNodes`, `getElementsByTagName`, one for `firstChild`),
    /// each holding `document`. Charged at once before any object is made: objects
    /// charged one by one are not yet reachable when the budget is measured again, so their
    /// charges would not add up.
    func nodeObjects(_ nodes: [XMLNode], of document: XMLNode, line: Int) throws(ScriptError) -> [ScriptValue] {
        try charge(64 * nodes.count, line: line)
        return nodes.map { .object(track(ScriptObject(.xmlNode($0, document: document)))) }
    }
}

/// What a DOM property reads: the node, its document, and the interpreter that makes objects.
struct DOMReading {
    let interpreter: Interpreter
    let node: XMLNode
    let document: XMLNode
    let line: Int

    /// The script object of `n`, or `null`.
    func object(_ n: XMLNode?) throws(ScriptError) -> ScriptValue {
        guard let n else { return .null }
        return try interpreter.nodeObjects([n], of: document, line: line)[0]
    }

    /// An array of the script objects of `nodes`.
    func list(_ nodes: [XMLNode]) throws(ScriptError) -> ScriptValue {
        try interpreter.makeArray(interpreter.nodeObjects(nodes, of: document, line: line), line: line)
    }
}

/// The DOM's properties, by name: the one place they are listed (an XML value's tree is read only
/// when one of them, or of ``domMethods``, is asked for).
let domProperties: [String: @Sendable (DOMReading) throws(ScriptError) -> ScriptValue] = [
    "nodeType": { r in .number(r.node.kind == .element ? 1 : r.node.kind == .text ? 3 : 9) },
    "nodeName": { r in .string(r.node.kind == .element ? r.node.name : r.node.kind == .text ? "#text" : "#document") },
    "tagName": { r in r.node.kind == .element ? .string(r.node.name) : .undefined },
    "localName": { r in
        guard r.node.kind == .element else { return .null }
        return .string(r.node.name.split(separator: ":", maxSplits: 1).last.map(String.init) ?? r.node.name)
    },
    "prefix": { r in
        guard r.node.kind == .element, let colon = r.node.name.firstIndex(of: ":") else { return .null }
        return .string(String(r.node.name[..<colon]))
    },
    "nodeValue": { r in r.node.kind == .text ? .string(r.node.text) : .null },
    "data": { r in r.node.kind == .text ? .string(r.node.text) : .null },
    "textContent": { r in r.node.kind == .document ? .null : .string(r.node.textContent) },
    "parentNode": { r throws(ScriptError) in try r.object(r.node.parent) },
    "ownerDocument": { r throws(ScriptError) in r.node.kind == .document ? .null : try r.object(r.document) },
    "documentElement": { r throws(ScriptError) in
        r.node.kind == .document ? try r.object(r.node.elementChildren.first) : .undefined
    },
    "childNodes": { r throws(ScriptError) in try r.list(r.node.children) },
    "children": { r throws(ScriptError) in try r.list(r.node.elementChildren) },
    "childElementCount": { r in .number(Double(r.node.elementChildren.count)) },
    "firstChild": { r throws(ScriptError) in try r.object(r.node.children.first) },
    "lastChild": { r throws(ScriptError) in try r.object(r.node.children.last) },
    "firstElementChild": { r throws(ScriptError) in try r.object(r.node.elementChildren.first) },
    "lastElementChild": { r throws(ScriptError) in try r.object(r.node.elementChildren.last) },
    "nextSibling": { r throws(ScriptError) in try r.object(r.node.sibling(after: true, elementsOnly: false)) },
    "previousSibling": { r throws(ScriptError) in try r.object(r.node.sibling(after: false, elementsOnly: false)) },
    "nextElementSibling": { r throws(ScriptError) in try r.object(r.node.sibling(after: true, elementsOnly: true)) },
    "previousElementSibling": { r throws(ScriptError) in try r.object(r.node.sibling(after: false, elementsOnly: true)) },
]

/// The node a DOM method was called on, and its document.
private func node(_ this: ScriptValue, _ method: String) throws(ScriptError) -> (node: XMLNode, document: XMLNode) {
    guard case .object(let o) = this, case .xmlNode(let node, let document) = o.storage else {
        throw ScriptError(.type, "\(method) called on something that is not an XML node")
    }
    return (node, document)
}

/// Methods of XML nodes.
let domMethods: [String: BuiltinMethod] = [
    "getElementsByTagName": { (i, this, a) throws(ScriptError) in
        let n = try node(this, "getElementsByTagName")
        let name = try i.toStringValue(a[argument: 0], line: 0)
        return try i.makeArray(i.nodeObjects(n.node.descendants(named: name), of: n.document, line: 0), line: 0)
    },
    "getAttribute": { (i, this, a) throws(ScriptError) in
        let n = try node(this, "getAttribute").node
        return try n.attribute(i.toStringValue(a[argument: 0], line: 0)).map(ScriptValue.string) ?? .null
    },
    "hasAttribute": { (i, this, a) throws(ScriptError) in
        let n = try node(this, "hasAttribute").node
        return .boolean(try n.attribute(i.toStringValue(a[argument: 0], line: 0)) != nil)
    },
    "getAttributeNames": { (i, this, _) throws(ScriptError) in
        try i.makeArray(try node(this, "getAttributeNames").node.attributes.map { .string($0.name) }, line: 0)
    },
    "hasChildNodes": { (_, this, _) throws(ScriptError) in
        .boolean(!(try node(this, "hasChildNodes").node.children.isEmpty))
    },
]
