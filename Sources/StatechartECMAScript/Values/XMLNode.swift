/// A node of an XML value's read-only DOM: SCXML's ECMAScript data model makes XML data (a
/// `<data>` or `<content>` with child elements, a `<data src>` file of XML) a DOM object (SCXML
/// B.2.2; the optional W3C tests 557 and 561).
///
/// An XML value stays its markup (``ScriptObject/Storage/xml(_:)``) until a script reads a DOM
/// member of it; its tree is then read once and kept (``ScriptObject/Storage/xmlNode(_:document:)``).
/// Nodes never change once read (the DOM has no setters; only ``XMLNodeReader`` sets their
/// members), so copies of a session share them.
final class XMLNode {
    enum Kind {
        /// The value itself: its children are the markup's top-level nodes.
        case document
        case element
        /// Character data (text, references and CDATA sections).
        case text
    }

    let kind: Kind
    /// An element's qualified name as written (`book`, `x:book`); empty for the others.
    let name: String
    /// An element's attributes in document order (namespace declarations included).
    var attributes: [(name: String, value: String)] = []
    var children: [XMLNode] = []
    /// A text node's characters, references resolved.
    let text: String
    /// The node this one is a child of (`nil` for the document). Not retained (parents retain
    /// their children): valid while the tree's document lives, which every script object of a
    /// node holds (``ScriptObject/Storage/xmlNode(_:document:)``).
    unowned(unsafe) var parent: XMLNode?
    /// The document's markup, as the value held it.
    var source = ""

    init(kind: Kind, name: String = "", text: String = "") {
        self.kind = kind
        self.name = name
        self.text = text
    }

    // A tree a million levels deep would release each level inside the one above it, a native
    // stack frame each: the nodes this one alone holds are emptied one by one instead.
    deinit {
        var pending: [XMLNode] = []
        swap(&pending, &children)
        while var node = pending.popLast() {
            guard isKnownUniquelyReferenced(&node) else { continue }
            pending.append(contentsOf: node.children)
            node.children = []
        }
    }

    /// The element children, in document order.
    var elementChildren: [XMLNode] { children.filter { $0.kind == .element } }

    /// The node after this one (`after`) or before it among its parent's children — the next
    /// element only, with `elementsOnly` — or `nil`.
    func sibling(after: Bool, elementsOnly: Bool) -> XMLNode? {
        guard let siblings = parent?.children, var i = siblings.firstIndex(where: { $0 === self }) else { return nil }
        while true {
            i += after ? 1 : -1
            guard siblings.indices.contains(i) else { return nil }
            if !elementsOnly || siblings[i].kind == .element { return siblings[i] }
        }
    }

    /// The value of the attribute named `name`, or `nil`.
    func attribute(_ name: String) -> String? { attributes.first { $0.name == name }?.value }

    /// Every element below this node whose qualified name is `name` (`*`: every one), in document
    /// order, this node left out.
    func descendants(named name: String) -> [XMLNode] {
        var found: [XMLNode] = []
        var stack: [XMLNode] = children.reversed()
        while let node = stack.popLast() {
            guard node.kind == .element else { continue }
            if name == "*" || node.name == name { found.append(node) }
            stack.append(contentsOf: node.children.reversed())
        }
        return found
    }

    /// The text of every text node below this one, in document order (DOM's `textContent`).
    var textContent: String {
        if kind == .text { return text }
        var out = ""
        var stack: [XMLNode] = children.reversed()
        while let node = stack.popLast() {
            if node.kind == .text { out += node.text } else { stack.append(contentsOf: node.children.reversed()) }
        }
        return out
    }

    /// The node as XML text: the document's markup as held, an element with its content, a text
    /// node escaped.
    var markup: String {
        switch kind {
        case .document: return source
        case .text: return XMLNode.escaped(text, quote: false)
        case .element:
            var out = ""
            write(into: &out)
            return out
        }
    }

    private func write(into out: inout String) {
        // Iterative, as the reader is: a deep tree costs no stack.
        enum Step {
            case open(XMLNode)
            case close(String)
        }
        var stack: [Step] = [.open(self)]
        while let step = stack.popLast() {
            switch step {
            case .close(let name):
                out += "</" + name + ">"
            case .open(let node) where node.kind == .text:
                out += XMLNode.escaped(node.text, quote: false)
            case .open(let node):
                out += "<" + node.name
                for a in node.attributes { out += " " + a.name + "=\"" + XMLNode.escaped(a.value, quote: true) + "\"" }
                if node.children.isEmpty {
                    out += "/>"
                    continue
                }
                out += ">"
                stack.append(.close(node.name))
                for child in node.children.reversed() { stack.append(.open(child)) }
            }
        }
    }

    /// `text` escaped for character data, or for an attribute value in double quotes (`quote`).
    /// White space a reader would normalize is written as a reference (a raw tab or line feed in a
    /// value reads back as a space, a raw carriage return as a line feed), so that what is written
    /// reads back the same. The SCXML exporter escapes the same way; the interpreter depends on
    /// nothing of the loader, so it has its own.
    static func escaped(_ text: String, quote: Bool) -> String {
        var out = ""
        for c in text.unicodeScalars {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\r": out += "&#13;"
            case "\"" where quote: out += "&quot;"
            case "\n" where quote: out += "&#10;"
            case "\t" where quote: out += "&#9;"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }
}
