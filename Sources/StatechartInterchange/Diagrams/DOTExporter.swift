import Statechart

/// Draws a compiled chart as a Graphviz `digraph` (DOT), for `dot -Tsvg`.
///
/// - Atomic states are rounded boxes, final states double circles, history pseudo-states the
///   small circles `H` (shallow) and `H*` (deep).
/// - A compound state is a cluster (a rounded box around its children) with a dot marking its
///   initial transition; a parallel state is a cluster whose regions are dashed clusters beside
///   each other. An arrow to or from a cluster ends at its border.
/// - Transitions are labelled `event [guard] / actions`. Eventless transitions read
///   `always …`, delayed transitions of the typed API `after 30s`, transitions declared internal
///   are dashed, and targetless transitions are listed inside their state under a line, as UML
///   writes internal activities. Chart-wide transitions (``AnyState`` at the top level) leave a
///   dashed `any state` box.
///
/// A flat chart gives the edges that swift-state-kit's `exportDOT()` gives: a `__start` point,
/// `"from" -> "to" [label="event"]`. The output is deterministic (the same chart always gives the
/// same bytes) and every id and label is escaped, so any state name works.
public enum DOTExporter {
    /// The `digraph`, ending with a newline.
    public static func export<Event, Context>(_ chart: Chart<Event, Context>) -> String {
        var writer = DOTWriter(DiagramChart(chart))
        return writer.write()
    }

    /// The same `digraph` with an `id` on every state's node or cluster (`s<index>`) and on every
    /// arrow (``DiagramChart/Arrow/key``), which `dot -Tsvg` copies onto the SVG groups it draws,
    /// so that the run page can find them again (``SVGDiagram/graphvizInput(_:)``).
    static func exportWithElementIDs(_ d: DiagramChart) -> String {
        var writer = DOTWriter(d)
        writer.writesElementIDs = true
        return writer.write()
    }

    /// The `digraph` of a typed machine with its attached children.
    ///
    /// - Throws: ``ChartError`` when the machine does not compile.
    public static func export<State, Event, Context>(
        _ machine: Machine<State, Event, Context>
    ) throws(ChartError) -> String {
        export(try TypedChart(machine).chart)
    }

    /// The `digraph` of a running machine's chart, its active states drawn bold and blue.
    public static func export<State, Event, Context>(_ machine: StateMachine<State, Event, Context>) -> String {
        let chart = machine.typed.chart
        let active = Set(machine.activeStateIDs.compactMap { chart.state(withID: $0).map { Int($0.index) } })
        var writer = DOTWriter(DiagramChart(chart, highlighted: active))
        return writer.write()
    }
}

/// Writes one `digraph`: every node inside its clusters first (document order), then every edge.
private struct DOTWriter {
    let d: DiagramChart
    /// The DOT node of each state (`nil` for states drawn as clusters and for the root).
    var nodeName: [String?]
    /// The cluster of each state drawn as one.
    var clusterName: [String?]
    /// The first node drawn inside each cluster (its initial marker, usually).
    var anchor: [String?]
    /// The last state node drawn inside each cluster, history states aside.
    var lastNode: [String?]
    /// The initial-marker node of each compound state (the root's is `__start`).
    var marker: [String?]
    /// The node chart-wide transitions leave, when there are any.
    var anyStateNode: String?
    var taken: Set<String>
    /// Whether nodes, clusters and edges carry an `id` attribute (for the run page).
    var writesElementIDs = false
    var out = ""

    init(_ d: DiagramChart) {
        self.d = d
        nodeName = Array(repeating: nil, count: d.count)
        clusterName = Array(repeating: nil, count: d.count)
        anchor = Array(repeating: nil, count: d.count)
        lastNode = Array(repeating: nil, count: d.count)
        marker = Array(repeating: nil, count: d.count)
        taken = Set(d.ids)
        // States drawn as nodes keep their id as node name when it can be written as a DOT
        // string as it is; the others get a generated name that is no state's id.
        var aliased: [Int] = []
        for i in 1..<max(d.count, 1) where !isCluster(i) {
            if Self.isPlain(d.ids[i]) { nodeName[i] = d.ids[i] } else { aliased.append(i) }
        }
        for i in aliased { nodeName[i] = unique("__state\(i)") }
        for i in 0..<d.count where d.initial[i] != nil && (i == 0 || d.kinds[i] == .compound) {
            marker[i] = unique(i == 0 ? "__start" : "__start." + (Self.isPlain(d.ids[i]) ? d.ids[i] : "\(i)"))
        }
        for i in 1..<max(d.count, 1) where isCluster(i) { clusterName[i] = "cluster_\(i)" }
        // A cluster's anchor is the first node drawn inside it: its initial marker, or the
        // anchor of its first child. Children have larger indices: go backwards.
        for i in stride(from: d.count - 1, through: 1, by: -1) where isCluster(i) {
            var first = marker[i]
            for c in d.children[i] where first == nil { first = nodeName[c] ?? anchor[c] }
            anchor[i] = first
            var last: String?
            for k in (i + 1)..<d.ends[i] where !d.kinds[k].isHistory && nodeName[k] != nil { last = nodeName[k] }
            lastNode[i] = last ?? first
        }
        if !d.transitions[0].isEmpty { anyStateNode = unique("*") }
    }

    /// Compound and parallel states with children are clusters (the root never is).
    func isCluster(_ i: Int) -> Bool {
        i > 0 && (d.kinds[i] == .compound || d.kinds[i] == .parallel) && !d.children[i].isEmpty
    }

    private mutating func unique(_ base: String) -> String {
        var name = base
        var n = 2
        while taken.contains(name) {
            name = "\(base)_\(n)"
            n += 1
        }
        taken.insert(name)
        return name
    }

    mutating func write() -> String {
        out += "digraph \(Self.quoted(d.name)) {\n"
        out += "    compound=true;\n"
        out += "    rankdir=LR;\n"
        out += "    fontname=\"Helvetica\";\n"
        out += "    node [shape=box, style=rounded, fontname=\"Helvetica\", fontsize=12];\n"
        out += "    edge [fontname=\"Helvetica\", fontsize=10];\n"
        if let start = marker[0] { line("\(Self.quoted(start)) [shape=point, width=0.15];", depth: 1) }
        if let any = anyStateNode {
            let activities = d.transitions[0].filter(\.isTargetless).map(\.activityLabel)
            line(
                "\(Self.quoted(any)) [\(label("any state", activities: activities)), style=\"rounded,dashed\"];",
                depth: 1)
        }
        writeStates()
        writeEdges()
        out += "}\n"
        return out
    }

    // MARK: - Nodes and clusters

    private enum Task {
        case open(Int, depth: Int)
        case close(depth: Int)
    }

    private mutating func writeStates() {
        // An explicit stack: the nesting depth comes from a document.
        var tasks: [Task] = d.children[0].reversed().map { .open($0, depth: 1) }
        while let task = tasks.popLast() {
            switch task {
            case .close(let depth):
                line("}", depth: depth)
            case .open(let s, let depth):
                guard isCluster(s) else {
                    writeNode(s, depth: depth)
                    continue
                }
                let isRegion = d.kinds[d.parents[s]] == .parallel
                line("subgraph \(Self.quoted(clusterName[s]!)) {", depth: depth)
                let activities = d.transitions[s].filter(\.isTargetless).map(\.activityLabel)
                line(label(d.labels[s], activities: activities) + ";", depth: depth + 1)
                if writesElementIDs { line("id=\"s\(s)\";", depth: depth + 1) }
                var style = isRegion ? "rounded,dashed" : "rounded"
                if d.highlighted.contains(s) { style += ",bold" }
                line("style=\(Self.quoted(style));", depth: depth + 1)
                if d.highlighted.contains(s) { line("color=blue;", depth: depth + 1) }
                if let m = marker[s] { line("\(Self.quoted(m)) [shape=point, width=0.15];", depth: depth + 1) }
                tasks.append(.close(depth: depth))
                for c in d.children[s].reversed() { tasks.append(.open(c, depth: depth + 1)) }
            }
        }
    }

    private mutating func writeNode(_ s: Int, depth: Int) {
        var attributes: [String] = []
        let activities = d.transitions[s].filter(\.isTargetless).map(\.activityLabel)
        switch d.kinds[s] {
        case .final:
            attributes.append("shape=doublecircle")
        case .shallowHistory, .deepHistory:
            attributes.append("shape=circle")
            attributes.append("width=0.3")
        default:
            break
        }
        if d.labels[s] != nodeName[s] || !activities.isEmpty {
            attributes.insert(label(d.labels[s], activities: activities), at: 0)
        }
        if d.highlighted.contains(s) {
            attributes.append(d.kinds[s] == .final ? "style=bold" : "style=\"rounded,bold\"")
            attributes.append("color=blue")
        }
        if writesElementIDs { attributes.append("id=\"s\(s)\"") }
        let list = attributes.isEmpty ? "" : " [" + attributes.joined(separator: ", ") + "]"
        line(Self.quoted(nodeName[s]!) + list + ";", depth: depth)
    }

    /// `label="name"`, or an HTML-like label with the activities listed under a line.
    private func label(_ name: String, activities: [String]) -> String {
        guard !activities.isEmpty else { return "label=" + Self.quoted(name) }
        var html = "<table border=\"0\" cellborder=\"0\" cellspacing=\"0\">"
        html += "<tr><td>" + Self.html(name) + "</td></tr><hr/>"
        for a in activities { html += "<tr><td align=\"left\"><font point-size=\"10\">" + Self.html(a) + "</font></td></tr>" }
        html += "</table>"
        return "label=<" + html + ">"
    }

    // MARK: - Edges

    private mutating func writeEdges() {
        for arrow in d.arrows {
            let s = arrow.source
            let target = arrow.target
            switch arrow.kind {
            case .initial, .historyDefault:
                // From the compound's marker, or from the history state itself.
                if let from = arrow.kind == .historyDefault ? nodeName[s] : marker[s] {
                    edge(tail: from, from: s, to: target, arrow, clipTail: false)
                }
            case .transition:
                // An arrow leaving a cluster forwards (to a later state) starts from its last
                // node, so that Graphviz ranks the target and the label after the cluster.
                let forward = target >= d.ends[s]
                let tail = s == 0 ? anyStateNode : isCluster(s) ? (forward ? lastNode[s] : anchor[s]) : nodeName[s]
                guard let tail else { continue }
                edge(tail: tail, from: s, to: target, arrow, clipTail: true)
            }
        }
    }

    /// One arrow. An arrow leaving a cluster starts at its border (`ltail`) unless it goes to
    /// one of the cluster's own states; an arrow entering a cluster ends at its border (`lhead`)
    /// unless it comes from inside.
    private mutating func edge(tail: String, from s: Int, to target: Int, _ arrow: DiagramChart.Arrow, clipTail: Bool) {
        let t = arrow.edge
        // An arrow entering a cluster backwards (from a later state) ends at its last node.
        let backward = clipTail && s >= d.ends[target]
        guard let head = isCluster(target) ? (backward ? lastNode[target] : anchor[target]) : nodeName[target] else {
            return
        }
        var attributes: [String] = []
        if !t.label.isEmpty { attributes.append("label=" + Self.quoted(t.label)) }
        if clipTail, isCluster(s), !d.isWithin(target, s) {
            attributes.append("ltail=" + Self.quoted(clusterName[s]!))
        }
        if isCluster(target), s == 0 || !d.isWithin(s, target) {
            attributes.append("lhead=" + Self.quoted(clusterName[target]!))
        }
        if t.isInternal { attributes.append("style=dashed") }
        if writesElementIDs { attributes.append("id=" + Self.quoted(arrow.key)) }
        let list = attributes.isEmpty ? "" : " [" + attributes.joined(separator: ", ") + "]"
        line(Self.quoted(tail) + " -> " + Self.quoted(head) + list + ";", depth: 1)
    }

    // MARK: - Text

    private mutating func line(_ text: String, depth: Int) {
        out += String(repeating: "    ", count: depth) + text + "\n"
    }

    /// Whether a node name can be written between quotes as it is: no quote, no backslash
    /// (DOT keeps `\\` as two characters in a name and cannot end a string with one), no control
    /// character.
    static func isPlain(_ id: String) -> Bool {
        !id.isEmpty && !id.unicodeScalars.contains { $0 == "\"" || $0 == "\\" || $0.value < 0x20 || $0.value == 0x7F }
    }

    /// A DOT double-quoted string for a label (`\` and `"` escaped, so that Graphviz's `\n`,
    /// `\l` and `\N` escapes cannot appear; control characters become spaces).
    static func quoted(_ text: String) -> String {
        var s = "\""
        for c in text.unicodeScalars {
            switch c {
            case "\\": s += "\\\\"
            case "\"": s += "\\\""
            case "\n": s += "\\n"
            default:
                if c.value < 0x20 || c.value == 0x7F { s += " " } else { s.unicodeScalars.append(c) }
            }
        }
        return s + "\""
    }

    /// Text for an HTML-like label.
    static func html(_ text: String) -> String {
        var s = ""
        for c in text.unicodeScalars {
            switch c {
            case "&": s += "&amp;"
            case "<": s += "&lt;"
            case ">": s += "&gt;"
            case "\"": s += "&quot;"
            default:
                if c.value < 0x20 || c.value == 0x7F { s += " " } else { s.unicodeScalars.append(c) }
            }
        }
        return s
    }
}
