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
/// - A compound state's initial transition is a dot with a short arrow into its initial state.
/// - Every other transition is an arrow per target, labelled `event [guard] / actions`: it leaves
///   its source and enters its target vertically and runs between them on a lane above the row
///   of states (arrows going right, self-loops, arrows between a compound state and its own
///   states) or below it (arrows going left), so that no arrow crosses a sibling and no two
///   labels overlap (``SVGLayout``). History defaults are unlabelled arrows; transitions declared
///   internal are dashed; targetless transitions are listed in their state's tooltip.
///
/// Every arrow is one `<g class="transition">` (`initial` for initial markers,
/// `transition default` for history defaults) after the states, carrying `data-source` and
/// `data-target` (the state ids), for a selectable transition `data-transition="S_K"` (the
/// index of its source state and its index among that state's transitions, as the trace's
/// `transition` lines count them), and holding a `<path class="arrow">` and, when labelled, a
/// `<text class="event">`. ``graphviz(_:svg:active:)`` gives the same hooks to a layout made by
/// Graphviz.
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
        return SVGWriter(layout: layout).write(active: active)
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

/// Writes the `<svg>` of an ``SVGLayout``: the states' nested groups, then the arrows.
struct SVGWriter {
    let layout: SVGLayout
    var d: DiagramChart { layout.d }

    func write(active: Set<String>) -> String {
        let e = SVGDiagram.escape
        let (x, y, width, height) = (layout.x, layout.y, layout.width, layout.height)
        let totalWidth = max(width.first ?? 0, 40)
        let totalHeight = max(height.first ?? 0, 20)
        var out = "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"statechart\" width=\"\(totalWidth)\" "
        out += "height=\"\(totalHeight)\" viewBox=\"0 0 \(totalWidth) \(totalHeight)\" "
        out += "font-family=\"sans-serif\" font-size=\"12\" role=\"img\" aria-label=\"\(e(d.name))\">\n"
        out += "<title>\(e(d.name))</title>\n"
        // Two arrowheads of a fixed size: grey, and blue for the arrows a run page marks `taken`.
        out += "<defs>"
        for (id, colour) in [("statechart-arrowhead", "#555555"), ("statechart-arrowhead-taken", "#1d4ed8")] {
            out += "<marker id=\"\(id)\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerUnits=\"userSpaceOnUse\" "
            out += "markerWidth=\"8\" markerHeight=\"8\" orient=\"auto\"><path d=\"M0,0 L10,5 L0,10 z\" "
            out += "fill=\"\(colour)\" stroke=\"none\"/></marker>"
        }
        out += "</defs>\n"
        var open: [Int] = []
        for i in 1..<max(d.count, 1) {
            while let top = open.last, !d.isWithin(i, top) {
                open.removeLast()
                out += String(repeating: "  ", count: open.count) + "</g>\n"
            }
            let indent = String(repeating: "  ", count: open.count)
            let id = d.ids[i]
            var classes = d.stateClasses(i)
            if active.contains(id) { classes += " active" }
            out += indent + "<g id=\"state-\(e(id))\" data-state=\"\(e(id))\" class=\"\(classes)\">"
            out += "<title>\(e(d.tooltip(i)))</title>"
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
                if layout.isContainer(i) {
                    out += "<text class=\"label\" x=\"\(sx + SVGLayout.padding)\" y=\"\(sy + 16)\" font-weight=\"bold\">"
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
        out += writeArrows()
        out += "</svg>\n"
        return out
    }

    /// The arrows: initial markers, then the routed arrows, each label beside its own line on a
    /// light backing.
    private func writeArrows() -> String {
        let e = SVGDiagram.escape
        var out = "<g class=\"transitions\" fill=\"none\" stroke=\"#555555\">\n"
        for arrow in layout.arrows where arrow.kind == .initial {
            let t = arrow.target
            let (tx, ty) = (layout.x[t], layout.y[t] + min(12, layout.height[t] / 2))
            out += "<g class=\"initial\" data-source=\"\(e(d.ids[arrow.source]))\" data-target=\"\(e(d.ids[t]))\">"
            out += "<circle cx=\"\(tx - 15)\" cy=\"\(ty)\" r=\"3.5\" fill=\"#555555\" stroke=\"none\"/>"
            out += "<path class=\"arrow\" d=\"M\(tx - 11),\(ty) H\(tx)\" marker-end=\"url(#statechart-arrowhead)\"/></g>\n"
        }
        for (r, route) in layout.routes.enumerated() {
            let arrow = layout.arrows[route.arrow]
            var classes = arrow.kind == .historyDefault ? "transition default" : "transition"
            if arrow.edge.isInternal { classes += " internal" }
            out += "<g id=\"transition-\(arrow.key)\" class=\"\(classes)\" data-source=\"\(e(d.ids[arrow.source]))\" "
            out += "data-target=\"\(e(d.ids[arrow.target]))\"" + Self.transitionAttribute(arrow) + ">"
            out += "<path class=\"arrow\" d=\"\(Self.path(layout.points(r)))\""
            if arrow.edge.isInternal { out += " stroke-dasharray=\"5 3\"" }
            out += " marker-end=\"url(#statechart-arrowhead)\"/>"
            let label = arrow.edge.label
            if !label.isEmpty {
                let box = layout.labelBox(route)
                out += "<rect class=\"event-backing\" x=\"\(box.x)\" y=\"\(box.y)\" width=\"\(box.width)\" "
                out += "height=\"\(box.height)\" rx=\"3\" fill=\"#ffffff\" fill-opacity=\"0.85\" stroke=\"none\"/>"
                out += "<text class=\"event\" x=\"\(box.x + box.width / 2)\" y=\"\(box.y + 10)\" text-anchor=\"middle\" "
                out += "font-size=\"11\" "
                out += "fill=\"#1f2328\" stroke=\"none\">\(e(label))</text>"
            }
            out += "</g>\n"
        }
        return out + "</g>\n"
    }

    /// ` data-transition="S_K"` for a selectable transition's arrow, else nothing.
    static func transitionAttribute(_ arrow: DiagramChart.Arrow) -> String {
        arrow.transitionKey.map { " data-transition=\"\($0)\"" } ?? ""
    }

    /// An SVG path through points, its corners rounded.
    static func path(_ points: [(x: Int, y: Int)]) -> String {
        guard let first = points.first else { return "" }
        var out = "M\(first.x),\(first.y)"
        for k in 1..<points.count {
            let p = points[k]
            guard k + 1 < points.count else {
                out += " L\(p.x),\(p.y)"
                break
            }
            let (a, b) = (points[k - 1], points[k + 1])
            let r = min(6, Self.length(a, p) / 2, Self.length(p, b) / 2)
            let before = Self.towards(p, a, r)
            let after = Self.towards(p, b, r)
            out += " L\(before.x),\(before.y) Q\(p.x),\(p.y) \(after.x),\(after.y)"
        }
        return out
    }

    private static func length(_ a: (x: Int, y: Int), _ b: (x: Int, y: Int)) -> Int {
        abs(a.x - b.x) + abs(a.y - b.y)
    }

    /// The point `r` from `p` towards `q` (the segments are horizontal or vertical).
    private static func towards(_ p: (x: Int, y: Int), _ q: (x: Int, y: Int), _ r: Int) -> (x: Int, y: Int) {
        (p.x + r * (q.x - p.x).signum(), p.y + r * (q.y - p.y).signum())
    }
}
