import Statechart

/// Draws a compiled chart as a self-contained SVG picture, without Graphviz.
///
/// The layout is a small deterministic box packing, not a graph layout:
///
/// - Atomic states are rounded rectangles with their label; final states have a double border;
///   history pseudo-states are small circles reading `H` (shallow) or `H*` (deep).
/// - A compound state is a rounded rectangle around its children, which are packed in rows
///   (a roughly square grid, in document order) under its label.
/// - A parallel state puts its regions side by side, each with a dashed border.
/// - Transitions are not drawn as arrows; each state's `<title>` (its tooltip) lists them.
///
/// Every state except the root is one `<g class="state KIND">` element carrying
/// `id="state-ID"` and `data-state="ID"`, with its children's groups nested inside it, so a
/// script or a style sheet can find a state by its id and mark it (the class `active`). Every id
/// and label is escaped, non-ASCII characters included (written as character references), so the
/// output is plain ASCII and any state name works. The same chart always gives the same bytes.
public enum SVGDiagram {
    /// The `<svg>` element of a chart, ending with a newline.
    ///
    /// - Parameters:
    ///   - chart: The compiled chart.
    ///   - active: Ids of states drawn active (their group gets the class `active`), for example
    ///     the ids of a running instance's ``ChartInstance/activeStates``.
    public static func svg<Event, Context>(_ chart: Chart<Event, Context>, active: Set<String> = []) -> String {
        let d = DiagramChart(chart)
        let layout = SVGLayout(d)
        return layout.write(active: active)
    }

    /// Escapes text for XML and HTML content and attribute values: `&`, `<`, `>`, `"` and `'`
    /// become entity references and every non-ASCII character a numeric character reference;
    /// control characters that XML cannot hold become U+FFFD.
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            case "\n", "\t": out.unicodeScalars.append(scalar)
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    out += "&#xFFFD;"
                } else if scalar.value < 0x80 {
                    out.unicodeScalars.append(scalar)
                } else {
                    out += "&#x" + String(scalar.value, radix: 16, uppercase: true) + ";"
                }
            }
        }
        return out
    }
}

/// Sizes and positions of every state, computed without recursion (the nesting comes from a
/// document): sizes from the last state to the first (children have larger indices than their
/// parent), positions from the first to the last.
struct SVGLayout {
    static let charWidth = 7
    static let atomicHeight = 36
    static let minAtomicWidth = 72
    static let historySize = 26
    static let header = 24
    static let padding = 10
    static let gap = 12

    let d: DiagramChart
    var width: [Int]
    var height: [Int]
    /// Position relative to the parent's top-left corner.
    var relX: [Int]
    var relY: [Int]
    /// Absolute position.
    var x: [Int]
    var y: [Int]

    init(_ d: DiagramChart) {
        self.d = d
        let n = d.count
        width = Array(repeating: 0, count: n)
        height = Array(repeating: 0, count: n)
        relX = Array(repeating: 0, count: n)
        relY = Array(repeating: 0, count: n)
        x = Array(repeating: 0, count: n)
        y = Array(repeating: 0, count: n)
        for i in stride(from: n - 1, through: 0, by: -1) { measure(i) }
        for i in 0..<n {
            let p = d.parents[i]
            x[i] = p < 0 ? 0 : x[p] + relX[i]
            y[i] = p < 0 ? 0 : y[p] + relY[i]
        }
    }

    static func textWidth(_ s: String) -> Int { s.count * charWidth }

    private func isContainer(_ i: Int) -> Bool { i == 0 || !d.children[i].isEmpty }

    private mutating func measure(_ i: Int) {
        let label = d.labels[i]
        switch d.kinds[i] {
        case .shallowHistory, .deepHistory:
            width[i] = Self.historySize
            height[i] = Self.historySize
            return
        default: break
        }
        let children = d.children[i]
        if children.isEmpty {
            width[i] = max(Self.minAtomicWidth, Self.textWidth(label) + 24)
            height[i] = Self.atomicHeight
            return
        }
        let top = i == 0 ? Self.padding : Self.header
        let minWidth = i == 0 ? 0 : Self.textWidth(label) + 2 * Self.padding
        if d.kinds[i] == .parallel {
            // Regions side by side, all as tall as the tallest.
            let tallest = children.map { height[$0] }.max() ?? 0
            var cx = Self.padding
            for c in children {
                relX[c] = cx
                relY[c] = top
                height[c] = tallest
                cx += width[c] + Self.gap
            }
            width[i] = max(minWidth, cx - Self.gap + Self.padding)
            height[i] = top + tallest + Self.padding
            return
        }
        // A roughly square grid, filled row by row in document order.
        var columns = 1
        while columns * columns < children.count { columns += 1 }
        var cy = top
        var widest = 0
        var row = 0
        while row * columns < children.count {
            let members = children[(row * columns)..<min(children.count, (row + 1) * columns)]
            var cx = Self.padding
            var rowHeight = 0
            for c in members {
                relX[c] = cx
                // History circles sit in the middle of a row's first line.
                relY[c] = cy
                cx += width[c] + Self.gap
                rowHeight = max(rowHeight, height[c])
            }
            widest = max(widest, cx - Self.gap)
            cy += rowHeight + Self.gap
            row += 1
        }
        width[i] = max(minWidth, widest + Self.padding)
        height[i] = cy - Self.gap + Self.padding
    }

    private func kindName(_ i: Int) -> String {
        if d.parents[i] >= 0, d.kinds[d.parents[i]] == .parallel { return "region " + kindWord(i) }
        return kindWord(i)
    }

    private func kindWord(_ i: Int) -> String {
        switch d.kinds[i] {
        case .atomic: return "atomic"
        case .compound: return "compound"
        case .parallel: return "parallel"
        case .final: return "final"
        case .shallowHistory: return "history shallow"
        case .deepHistory: return "history deep"
        }
    }

    /// The tooltip of a state: its id, then its transitions.
    private func title(_ i: Int) -> String {
        var lines = [d.ids[i]]
        for edge in d.transitions[i] {
            if edge.isTargetless {
                lines.append(edge.activityLabel)
            } else {
                let targets = edge.targets.map { d.ids[$0] }.joined(separator: " ")
                lines.append((edge.label.isEmpty ? "" : edge.label + " ") + "→ " + targets)
            }
        }
        if let initial = d.initial[i], !initial.targets.isEmpty {
            lines.append("initial → " + initial.targets.map { d.ids[$0] }.joined(separator: " "))
        }
        return lines.joined(separator: "\n")
    }

    func write(active: Set<String>) -> String {
        let e = SVGDiagram.escape
        let totalWidth = max(width.first ?? 0, 40)
        let totalHeight = max(height.first ?? 0, 20)
        var out = "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"statechart\" width=\"\(totalWidth)\" "
        out += "height=\"\(totalHeight)\" viewBox=\"0 0 \(totalWidth) \(totalHeight)\" "
        out += "font-family=\"sans-serif\" font-size=\"12\" role=\"img\" aria-label=\"\(e(d.name))\">\n"
        out += "<title>\(e(d.name))</title>\n"
        var open: [Int] = []
        for i in 1..<max(d.count, 1) {
            while let top = open.last, !d.isWithin(i, top) {
                open.removeLast()
                out += String(repeating: "  ", count: open.count) + "</g>\n"
            }
            let indent = String(repeating: "  ", count: open.count)
            let id = d.ids[i]
            var classes = "state " + kindName(i)
            if active.contains(id) { classes += " active" }
            out += indent + "<g id=\"state-\(e(id))\" data-state=\"\(e(id))\" class=\"\(classes)\">"
            out += "<title>\(e(title(i)))</title>"
            let (sx, sy, w, h) = (x[i], y[i], width[i], height[i])
            switch d.kinds[i] {
            case .shallowHistory, .deepHistory:
                let r = w / 2
                out += "<circle class=\"frame\" cx=\"\(sx + r)\" cy=\"\(sy + r)\" r=\"\(r)\" fill=\"#ffffff\" stroke=\"#555555\"/>"
                out += "<text x=\"\(sx + r)\" y=\"\(sy + r + 4)\" text-anchor=\"middle\">\(e(d.labels[i]))</text>"
            default:
                let dashed = d.parents[i] >= 0 && d.kinds[d.parents[i]] == .parallel
                out += "<rect class=\"frame\" x=\"\(sx)\" y=\"\(sy)\" width=\"\(w)\" height=\"\(h)\" rx=\"8\" ry=\"8\" "
                out += "fill=\"#ffffff\" stroke=\"#555555\"" + (dashed ? " stroke-dasharray=\"5 3\"" : "") + "/>"
                if d.kinds[i] == .final {
                    out += "<rect class=\"inner\" x=\"\(sx + 3)\" y=\"\(sy + 3)\" width=\"\(w - 6)\" height=\"\(h - 6)\" "
                    out += "rx=\"6\" ry=\"6\" fill=\"none\" stroke=\"#555555\"/>"
                }
                if isContainer(i) {
                    out += "<text class=\"label\" x=\"\(sx + Self.padding)\" y=\"\(sy + 16)\" font-weight=\"bold\">"
                    out += "\(e(d.labels[i]))</text>"
                } else {
                    out += "<text class=\"label\" x=\"\(sx + w / 2)\" y=\"\(sy + h / 2 + 4)\" text-anchor=\"middle\">"
                    out += "\(e(d.labels[i]))</text>"
                }
            }
            if d.children[i].isEmpty {
                out += "</g>\n"
            } else {
                out += "\n"
                open.append(i)
            }
        }
        while !open.isEmpty {
            open.removeLast()
            out += String(repeating: "  ", count: open.count) + "</g>\n"
        }
        out += "</svg>\n"
        return out
    }
}
