/// Writes elements of a loaded document back as SCXML markup: the source a content block keeps
/// (``Action/content(_:_:)``), which traces show and an export writes back. Attributes in name
/// order, two spaces of indentation per level, text escaped; iterative, like the rest of the loader.
enum SCXMLMarkup {
    /// The markup of the children of `parent`, one element per line at indentation 0.
    static func children(of parent: Int, in tree: XMLTree) -> String {
        tree.elements[parent].children.map { element($0, in: tree) }.joined(separator: "\n")
    }

    /// The markup of one element and everything inside it.
    static func element(_ root: Int, in tree: XMLTree) -> String {
        enum Task {
            case open(Int, depth: Int)
            case close(String, depth: Int)
        }
        var lines: [String] = []
        var tasks: [Task] = [.open(root, depth: 0)]
        while let task = tasks.popLast() {
            switch task {
            case .close(let name, let depth):
                lines.append(indent(depth) + "</\(name)>")
            case .open(let i, let depth):
                let e = tree.elements[i]
                var tag = indent(depth) + "<" + e.name
                for key in e.attributes.keys.sorted() {
                    tag += " \(key)=\"\(escape(e.attributes[key] ?? "", quote: true))\""
                }
                // Markup held as a value is written as it was read; it already is escaped XML.
                let text = e.markup.isEmpty ? escape(e.text.trimmingWhitespace(), quote: false) : e.markup
                if e.children.isEmpty && text.isEmpty {
                    lines.append(tag + "/>")
                } else if e.children.isEmpty {
                    lines.append(tag + ">" + text + "</\(e.name)>")
                } else {
                    lines.append(tag + ">")
                    if !text.isEmpty { lines.append(indent(depth + 1) + text) }
                    tasks.append(.close(e.name, depth: depth))
                    for c in e.children.reversed() { tasks.append(.open(c, depth: depth + 1)) }
                }
            }
        }
        return lines.joined(separator: "\n")
    }

    private static func indent(_ depth: Int) -> String { String(repeating: "  ", count: depth) }

    /// `text` escaped for an attribute value in double quotes (`quote`), or for character data.
    /// White space that a reader would normalize is written as a reference: in a value, line
    /// feeds, carriage returns and tabs (a raw one reads back as a space); in text, carriage
    /// returns (a raw one reads back as a line feed). Found by LoaderFuzz: a value with
    /// `&#10;` came back with a space after a round trip.
    static func escape(_ text: String, quote: Bool) -> String {
        if quote { return SCXMLText.escape(text) }
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for c in text.unicodeScalars {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\r": out += "&#13;"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }
}

extension String {
    /// The text without leading and trailing white space.
    func trimmingWhitespace() -> String {
        guard let first = firstIndex(where: { !$0.isWhitespace }), let last = lastIndex(where: { !$0.isWhitespace }) else {
            return ""
        }
        return String(self[first...last])
    }

    /// The text space-normalized, as XML's `normalize-space` does: no white space (space, tab,
    /// carriage return, line feed) at either end, and each run of it inside made one space.
    /// SCXML's ECMAScript data model reads inline content that is not JSON or XML this way (B.2.2).
    func normalizingSpace() -> String {
        var out = ""
        var pendingSpace = false
        for scalar in unicodeScalars {
            switch scalar {
            case " ", "\t", "\n", "\r":
                pendingSpace = !out.isEmpty
            default:
                if pendingSpace { out += " " }
                pendingSpace = false
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
