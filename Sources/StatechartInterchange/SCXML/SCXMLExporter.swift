import Statechart

/// Writes a compiled chart as an SCXML document (null data model).
///
/// States, history, initial states, transitions (events, `In` conditions, targets, `type`) and the
/// built-in actions are written exactly, so that loading the output with ``SCXMLDocument`` gives a
/// chart with the same structure and behaviour. A state's `initial` is written only when it is not
/// its first child state; history defaults are always written.
///
/// What SCXML's null data model cannot say is marked rather than silently changed: a Swift
/// predicate guard is written as the call `_predicate()` inside `cond` (a reload then fails with
/// ``SCXMLError/unsupportedExpression(_:attribute:element:line:)``, as it should), a
/// predicate event descriptor as the event `_unexportable.predicate` (which no event matches), and
/// Swift closure actions, dynamic targets, chart-wide transitions and initial actions of the chart
/// itself as XML comments.
public enum SCXMLExporter {
    /// The document, ending with a newline.
    public static func export<Event, Context>(_ chart: Chart<Event, Context>) -> String {
        var writer = Writer(chart: chart)
        writer.write()
        return writer.out
    }
}

private struct Writer<Event: Hashable & Sendable, Context> {
    let chart: Chart<Event, Context>
    var out = ""

    enum Task {
        case open(ChartStateID, depth: Int)
        case close(String, depth: Int)
    }

    init(chart: Chart<Event, Context>) { self.chart = chart }

    mutating func write() {
        let root = chart.root
        out += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        var attributes = [("xmlns", "http://www.w3.org/2005/07/scxml"), ("version", "1.0"), ("datamodel", "null")]
        attributes.append(("name", chart.name))
        var notes: [String] = []
        if let initial = chart.initialTransition(of: root) {
            if initial.targets != defaultInitial(of: root) { attributes.append(("initial", ids(initial.targets))) }
            if !initial.actions.isEmpty { notes.append("the chart's initial actions are not exported") }
        }
        let rootTransitions = chart.transitions(of: root)
        if !rootTransitions.isEmpty {
            notes.append(
                "\(rootTransitions.count) chart-wide transition(s) are not exported: <scxml> has no transitions")
        }
        out += "<scxml" + attributeText(attributes) + ">\n"
        for note in notes { comment(note, depth: 1) }
        var tasks: [Task] = chart.children(of: root).reversed().map { .open($0, depth: 1) }
        while let task = tasks.popLast() {
            switch task {
            case .close(let name, let depth):
                line("</\(name)>", depth: depth)
            case .open(let s, let depth):
                if let name = writeState(s, depth: depth) {
                    tasks.append(.close(name, depth: depth))
                    for c in chart.children(of: s).reversed() { tasks.append(.open(c, depth: depth + 1)) }
                }
            }
        }
        out += "</scxml>\n"
    }

    /// Writes a state's start tag and everything but its child states; returns the element name
    /// to close, or `nil` when the element was written self-closing.
    private mutating func writeState(_ s: ChartStateID, depth: Int) -> String? {
        var attributes = [("id", chart.id(of: s))]
        let name: String
        var initialElement: ChartTransitionInfo?
        var historyDefault: ChartTransitionInfo?
        switch chart.kind(of: s) {
        case .atomic: name = "state"
        case .compound:
            name = "state"
            if let initial = chart.initialTransition(of: s) {
                if !initial.actions.isEmpty {
                    initialElement = initial
                } else if initial.targets != defaultInitial(of: s) {
                    attributes.append(("initial", ids(initial.targets)))
                }
            }
        case .parallel: name = "parallel"
        case .final: name = "final"
        case .shallowHistory, .deepHistory:
            name = "history"
            attributes.append(("type", chart.kind(of: s) == .deepHistory ? "deep" : "shallow"))
            historyDefault = chart.initialTransition(of: s)
        }
        let entry = chart.entryActions(of: s)
        let exit = chart.exitActions(of: s)
        let transitions = chart.transitions(of: s)
        let hasContent =
            !entry.isEmpty || !exit.isEmpty || initialElement != nil || historyDefault != nil || !transitions.isEmpty
            || !chart.children(of: s).isEmpty
        guard hasContent else {
            line("<\(name)" + attributeText(attributes) + "/>", depth: depth)
            return nil
        }
        line("<\(name)" + attributeText(attributes) + ">", depth: depth)
        for block in entry { writeBlock("onentry", block, depth: depth + 1) }
        for block in exit { writeBlock("onexit", block, depth: depth + 1) }
        if let initialElement {
            line("<initial>", depth: depth + 1)
            writeTransition(initialElement, pseudo: true, depth: depth + 2)
            line("</initial>", depth: depth + 1)
        }
        if let historyDefault { writeTransition(historyDefault, pseudo: true, depth: depth + 1) }
        for t in transitions { writeTransition(t, pseudo: false, depth: depth + 1) }
        return name
    }

    private mutating func writeBlock(_ name: String, _ actions: [ChartActionInfo], depth: Int) {
        if actions.isEmpty {
            line("<\(name)/>", depth: depth)
            return
        }
        line("<\(name)>", depth: depth)
        for a in actions { writeAction(a, depth: depth + 1) }
        line("</\(name)>", depth: depth)
    }

    private mutating func writeTransition(_ t: ChartTransitionInfo, pseudo: Bool, depth: Int) {
        var attributes: [(String, String)] = []
        if !pseudo, let events = t.events {
            switch events {
            case .any: attributes.append(("event", "*"))
            case .names(let tokens):
                if tokens.isEmpty {
                    comment("an event descriptor without tokens: no event matches it", depth: depth)
                    attributes.append(("event", "_unexportable.empty"))
                } else {
                    attributes.append(("event", tokens.joined(separator: " ")))
                }
            case .event(let name): attributes.append(("event", name))
            case .done(let state): attributes.append(("event", "done.state." + chart.id(of: state)))
            case .error: attributes.append(("event", "error"))
            case .matching:
                comment("events accepted by a Swift predicate: not expressible in SCXML", depth: depth)
                attributes.append(("event", "_unexportable.predicate"))
            }
        }
        if !pseudo, let g = t.guardCondition {
            attributes.append(("cond", SCXMLGuardWriter.expression(g, ids: chart.ids)))
        }
        if t.hasDynamicTargets { comment("dynamic targets computed by Swift code: not exported", depth: depth) }
        if !t.targets.isEmpty { attributes.append(("target", ids(t.targets))) }
        if !pseudo, t.kind == .internal { attributes.append(("type", "internal")) }
        if t.actions.isEmpty {
            line("<transition" + attributeText(attributes) + "/>", depth: depth)
            return
        }
        line("<transition" + attributeText(attributes) + ">", depth: depth)
        for a in t.actions { writeAction(a, depth: depth + 1) }
        line("</transition>", depth: depth)
    }

    private mutating func writeAction(_ a: ChartActionInfo, depth: Int) {
        switch a {
        case .raise(let e):
            line("<raise" + attributeText([("event", e)]) + "/>", depth: depth)
        case .send(let e, let delay, let id):
            var attributes = [("event", e)]
            if delay > .zero { attributes.append(("delay", SCXMLDelay.format(delay))) }
            if let id { attributes.append(("id", id)) }
            line("<send" + attributeText(attributes) + "/>", depth: depth)
        case .cancel(let id):
            line("<cancel" + attributeText([("sendid", id)]) + "/>", depth: depth)
        case .log(let label, let message):
            line("<log" + attributeText([("label", message.map { "\(label): \($0)" } ?? label)]) + "/>", depth: depth)
        case .run(let name):
            comment("Swift action\(name.map { " '\($0)'" } ?? ""): not exported", depth: depth)
        }
    }

    // MARK: - Text

    private func defaultInitial(of s: ChartStateID) -> [ChartStateID] {
        chart.children(of: s).first { !chart.kind(of: $0).isHistory }.map { [$0] } ?? []
    }

    private func ids(_ states: [ChartStateID]) -> String { states.map { chart.id(of: $0) }.joined(separator: " ") }

    private mutating func line(_ text: String, depth: Int) {
        out += String(repeating: "  ", count: depth) + text + "\n"
    }

    private mutating func comment(_ text: String, depth: Int) {
        var safe = ""
        for c in text {
            if c == "-" && safe.last == "-" { safe += " " }
            safe.append(c)
        }
        line("<!-- \(safe) -->", depth: depth)
    }

    private func attributeText(_ attributes: [(String, String)]) -> String {
        attributes.map { " \($0.0)=\"\(Self.escape($0.1))\"" }.joined()
    }

    static func escape(_ value: String) -> String {
        var s = ""
        for c in value.unicodeScalars {
            switch c {
            case "&": s += "&amp;"
            case "<": s += "&lt;"
            case ">": s += "&gt;"
            case "\"": s += "&quot;"
            case "\n": s += "&#10;"
            case "\r": s += "&#13;"
            case "\t": s += "&#9;"
            default: s.unicodeScalars.append(c)
            }
        }
        return s
    }
}
