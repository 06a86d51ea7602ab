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
        let node: XMLNode
        let document: XMLNode
        switch o.storage {
        case .xml(let text):
            guard domMemberNames.contains(name), let read = XMLNodeReader.document(text) else { return nil }
            try charge(2 * text.utf8.count, line: line)
            o.storage = .xmlNode(read, document: read)
            (node, document) = (read, read)
        case .xmlNode(let n, let d):
            (node, document) = (n, d)
        default:
            return nil
        }
        func object(_ n: XMLNode?) throws(ScriptError) -> ScriptValue {
            guard let n else { return .null }
            return try nodeObject(n, of: document, line: line)
        }
        func list(_ nodes: [XMLNode]) throws(ScriptError) -> ScriptValue {
            try nodeList(nodes, of: document, line: line)
        }
        switch name {
        case "nodeType": return .number(node.kind == .element ? 1 : node.kind == .text ? 3 : 9)
        case "nodeName":
            return .string(node.kind == .element ? node.name : node.kind == .text ? "#text" : "#document")
        case "tagName": return node.kind == .element ? .string(node.name) : .undefined
        case "localName":
            guard node.kind == .element else { return .null }
            return .string(node.name.split(separator: ":", maxSplits: 1).last.map(String.init) ?? node.name)
        case "prefix":
            guard node.kind == .element, let colon = node.name.firstIndex(of: ":") else { return .null }
            return .string(String(node.name[..<colon]))
        case "nodeValue", "data": return node.kind == .text ? .string(node.text) : .null
        case "textContent": return node.kind == .document ? .null : .string(node.textContent)
        case "parentNode": return try object(node.parent)
        case "ownerDocument": return node.kind == .document ? .null : try object(document)
        case "documentElement": return node.kind == .document ? try object(node.elementChildren.first) : .undefined
        case "childNodes": return try list(node.children)
        case "children": return try list(node.elementChildren)
        case "childElementCount": return .number(Double(node.elementChildren.count))
        case "firstChild": return try object(node.children.first)
        case "lastChild": return try object(node.children.last)
        case "firstElementChild": return try object(node.elementChildren.first)
        case "lastElementChild": return try object(node.elementChildren.last)
        case "nextSibling": return try object(node.sibling(after: true, elementsOnly: false))
        case "previousSibling": return try object(node.sibling(after: false, elementsOnly: false))
        case "nextElementSibling": return try object(node.sibling(after: true, elementsOnly: true))
        case "previousElementSibling": return try object(node.sibling(after: false, elementsOnly: true))
        default: return domMethods[name] == nil ? nil : method(domMethods, name, receiver: receiver)
        }
    }
}

extension Interpreter {
    /// A script object of `node`, holding `document`, charged to the memory budget like any object.
    func nodeObject(_ node: XMLNode, of document: XMLNode, line: Int) throws(ScriptError) -> ScriptValue {
        try charge(64, line: line)
        return .object(track(ScriptObject(.xmlNode(node, document: document))))
    }

    /// An array of script objects of `nodes` (`childNodes`, `getElementsByTagName`), charged at
    /// once before any is made: objects charged one by one are not yet reachable when the budget
    /// is measured again, so their charges would not add up.
    func nodeList(_ nodes: [XMLNode], of document: XMLNode, line: Int) throws(ScriptError) -> ScriptValue {
        try charge(64 * nodes.count, line: line)
        var objects: [ScriptValue] = []
        objects.reserveCapacity(nodes.count)
        for n in nodes { objects.append(.object(track(ScriptObject(.xmlNode(n, document: document))))) }
        return try makeArray(objects, line: line)
    }
}

/// Every member ``Interpreter/domMember(of:_:receiver:line:)`` answers: an XML value's tree is
/// read only when one of them is asked for.
let domMemberNames = Set([
    "nodeType", "nodeName", "tagName", "localName", "prefix", "nodeValue", "data", "textContent", "parentNode",
    "ownerDocument", "documentElement", "childNodes", "children", "childElementCount", "firstChild", "lastChild",
    "firstElementChild", "lastElementChild", "nextSibling", "previousSibling", "nextElementSibling",
    "previousElementSibling",
]).union(domMethods.keys)

/// The node a DOM method was called on.
private func node(_ this: ScriptValue, _ method: String) throws(ScriptError) -> XMLNode {
    guard case .object(let o) = this, case .xmlNode(let node, _) = o.storage else {
        throw ScriptError(.type, "\(method) called on something that is not an XML node")
    }
    return node
}

/// The document of the node a DOM method was called on.
private func document(_ this: ScriptValue) -> XMLNode? {
    guard case .object(let o) = this, case .xmlNode(_, let document) = o.storage else { return nil }
    return document
}

/// Methods of XML nodes.
let domMethods: [String: BuiltinMethod] = [
    "getElementsByTagName": { (i, this, a) throws(ScriptError) in
        let n = try node(this, "getElementsByTagName")
        let name = try i.toStringValue(a[argument: 0], line: 0)
        guard let document = document(this) else { return .undefined }
        return try i.nodeList(n.descendants(named: name), of: document, line: 0)
    },
    "getAttribute": { (i, this, a) throws(ScriptError) in
        let n = try node(this, "getAttribute")
        return try n.attribute(i.toStringValue(a[argument: 0], line: 0)).map(ScriptValue.string) ?? .null
    },
    "hasAttribute": { (i, this, a) throws(ScriptError) in
        let n = try node(this, "hasAttribute")
        return .boolean(try n.attribute(i.toStringValue(a[argument: 0], line: 0)) != nil)
    },
    "getAttributeNames": { (i, this, _) throws(ScriptError) in
        try i.makeArray(try node(this, "getAttributeNames").attributes.map { .string($0.name) }, line: 0)
    },
    "hasChildNodes": { (_, this, _) throws(ScriptError) in
        .boolean(!(try node(this, "hasChildNodes").children.isEmpty))
    },
]
