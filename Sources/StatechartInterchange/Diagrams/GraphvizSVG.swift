import Foundation
import Statechart

/// Why `dot`'s output could not be used as a chart's diagram.
public struct GraphvizOutputError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong with the output.
    public var message: String

    /// An error with its message.
    public init(_ message: String) { self.message = message }

    /// The message.
    public var description: String { message }
}

extension SVGDiagram {
    /// The DOT text to lay a chart out with Graphviz (`dot -Tsvg`) for ``graphviz(_:svg:active:)``:
    /// ``DOTExporter``'s `digraph` with an `id` on every state and every arrow, which Graphviz
    /// copies onto the SVG groups it draws.
    public static func graphvizInput<Event, Context>(_ chart: Chart<Event, Context>) -> String {
        DOTExporter.exportWithElementIDs(DiagramChart(chart))
    }

    /// The chart's diagram from the SVG that `dot -Tsvg` made of ``graphvizInput(_:)``, with the
    /// same hooks as ``svg(_:active:)``: every state's group becomes
    /// `<g id="state-ID" data-state="ID" class="state KIND">` (its first shape of class `frame`,
    /// its name of class `label`, its tooltip the state's transitions) and every arrow's group
    /// `<g class="transition" data-source="ID" data-target="ID">` (its line of class `arrow`, its
    /// label of class `event`). Graphviz draws clusters beside, not around, the nodes inside
    /// them, so these groups are not nested. Non-ASCII characters become character references.
    ///
    /// - Parameters:
    ///   - chart: The chart `svg` was made from.
    ///   - svg: The output of `dot -Tsvg` for `graphvizInput(chart)`.
    ///   - active: Ids of states drawn active (their group gets the class `active`).
    /// - Throws: ``GraphvizOutputError`` when `svg` is not an SVG document, or lacks the group of
    ///   one of the chart's states (it was made from other DOT text).
    public static func graphviz<Event, Context>(
        _ chart: Chart<Event, Context>, svg: String, active: Set<String> = []
    ) throws(GraphvizOutputError) -> String {
        try GraphvizRewriter(d: DiagramChart(chart), active: active).rewrite(svg)
    }
}

/// Rewrites the groups of `dot -Tsvg` output that carry the ids of
/// ``DOTExporter/exportWithElementIDs(_:)``. Graphviz writes each node, cluster and edge as one
/// flat `<g id="…" class="…">…</g>` inside the graph's group, so a plain scan finds them.
struct GraphvizRewriter {
    let d: DiagramChart
    let active: Set<String>

    func rewrite(_ svg: String) throws(GraphvizOutputError) -> String {
        guard let open = svg.range(of: "<svg"), let tagEnd = svg[open.upperBound...].firstIndex(of: ">"),
            let close = svg.range(of: "</svg>", options: .backwards), close.lowerBound > tagEnd
        else { throw GraphvizOutputError("dot's output is not an SVG document") }
        let tag = svg[open.upperBound..<tagEnd]
        let e = SVGDiagram.escape
        var out = "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"statechart graphviz\""
        for name in ["width", "height", "viewBox"] {
            if let value = Self.attribute(name, in: tag) { out += " \(name)=\"\(value)\"" }
        }
        out += " role=\"img\" aria-label=\"\(e(d.name))\">\n<title>\(e(d.name))</title>"
        var body = Self.withoutComments(String(svg[svg.index(after: tagEnd)..<close.lowerBound]))
        var found = Set<Int>()
        body = rewriteGroups(body, found: &found)
        let missing = (1..<max(d.count, 1)).filter { !found.contains($0) }.map { d.ids[$0] }
        if !missing.isEmpty {
            throw GraphvizOutputError(
                "dot's output has no group for the state(s) \(missing.joined(separator: ", ")): "
                    + "was it made from SVGDiagram.graphvizInput of this chart?")
        }
        return Self.asciiOnly(out + body) + "</svg>\n"
    }

    /// Rewrites the groups of states and arrows; `found` collects the states seen.
    private func rewriteGroups(_ body: String, found: inout Set<Int>) -> String {
        var arrowsByKey: [String: DiagramChart.Arrow] = [:]
        for arrow in d.arrows { arrowsByKey[arrow.key] = arrow }
        let e = SVGDiagram.escape
        var out = ""
        var rest = body[...]
        let marker = "<g id=\""
        while let start = rest.range(of: marker) {
            out += rest[..<start.lowerBound]
            guard let idEnd = rest[start.upperBound...].firstIndex(of: "\""),
                let groupEnd = rest[idEnd...].range(of: "</g>"),
                let openEnd = rest[idEnd...].firstIndex(of: ">")
            else { break }
            let id = String(rest[start.upperBound..<idEnd])
            let content = rest[rest.index(after: openEnd)..<groupEnd.lowerBound]
            if let s = Self.stateIndex(id), s > 0, s < d.count {
                found.insert(s)
                var classes = d.stateClasses(s)
                if active.contains(d.ids[s]) { classes += " active" }
                out += "<g id=\"state-\(e(d.ids[s]))\" data-state=\"\(e(d.ids[s]))\" class=\"\(classes)\">"
                var inner = Self.replacingTitle(String(content), with: e(d.tooltip(s)))
                inner = Self.addingClass("frame", toFirstOf: ["<path", "<polygon", "<ellipse"], in: inner)
                inner = Self.addingClass("label", toFirstOf: ["<text"], in: inner)
                out += inner + "</g>"
            } else if let arrow = arrowsByKey[id] {
                var classes = arrow.kind == .initial ? "initial" : arrow.kind == .historyDefault ? "transition default" : "transition"
                if arrow.edge.isInternal { classes += " internal" }
                out += "<g id=\"transition-\(arrow.key)\" class=\"\(classes)\" data-source=\"\(e(d.ids[arrow.source]))\" "
                out += "data-target=\"\(e(d.ids[arrow.target]))\"" + SVGWriter.transitionAttribute(arrow) + ">"
                let title = d.ids[arrow.source] + " → " + d.ids[arrow.target]
                var inner = Self.replacingTitle(String(content), with: e(title))
                inner = Self.addingClass("arrow", toFirstOf: ["<path"], in: inner)
                inner = inner.replacingOccurrences(of: "<text ", with: "<text class=\"event\" ")
                out += inner + "</g>"
            } else {
                // The graph's own group, or a node of ours that is no state (an initial marker).
                out += rest[start.lowerBound...openEnd]
                rest = rest[rest.index(after: openEnd)...]
                continue
            }
            rest = rest[groupEnd.upperBound...]
        }
        return out + rest
    }

    /// `s<index>`: a state's group.
    private static func stateIndex(_ id: String) -> Int? {
        guard id.first == "s" else { return nil }
        return Int(id.dropFirst())
    }

    private static func attribute(_ name: String, in tag: Substring) -> String? {
        guard let start = tag.range(of: " " + name + "=\"") ?? tag.range(of: "\n" + name + "=\""),
            let end = tag[start.upperBound...].firstIndex(of: "\"")
        else { return nil }
        return String(tag[start.upperBound..<end])
    }

    private static func withoutComments(_ text: String) -> String {
        var out = ""
        var rest = text[...]
        while let start = rest.range(of: "<!--") {
            out += rest[..<start.lowerBound]
            guard let end = rest[start.upperBound...].range(of: "-->") else { return out }
            rest = rest[end.upperBound...]
            if rest.first == "\n" { rest = rest.dropFirst() }
        }
        return out + rest
    }

    private static func replacingTitle(_ content: String, with title: String) -> String {
        guard let start = content.range(of: "<title>"), let end = content.range(of: "</title>"),
            start.upperBound <= end.lowerBound
        else { return content }
        return content.replacingCharacters(in: start.upperBound..<end.lowerBound, with: title)
    }

    /// Adds `class="name"` to the first element opening with one of `tags`.
    private static func addingClass(_ name: String, toFirstOf tags: [String], in content: String) -> String {
        let first = tags.compactMap { content.range(of: $0 + " ") }.min { $0.lowerBound < $1.lowerBound }
        guard let first else { return content }
        return content.replacingCharacters(in: first, with: content[first] + "class=\"\(name)\" ")
    }

    /// Graphviz writes non-ASCII text as UTF-8: the page is plain ASCII.
    private static func asciiOnly(_ text: String) -> String {
        guard !text.utf8.allSatisfy({ $0 < 0x80 }) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            if scalar.value < 0x80 {
                out.unicodeScalars.append(scalar)
            } else {
                out += "&#x" + String(scalar.value, radix: 16, uppercase: true) + ";"
            }
        }
        return out
    }
}
