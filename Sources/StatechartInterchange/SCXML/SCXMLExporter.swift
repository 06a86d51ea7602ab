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
///
/// Content of other namespaces (editor annotations, such as Qt Creator's `qt:editorinfo` elements
/// and `qt:` attributes) is not part of a chart: pass the ``SCXMLForeignContent`` that
/// ``SCXMLDocument/loadDocument(data:name:options:)`` returned to
/// ``export(_:foreignContent:)`` to write it back on the elements it was on — foreign attributes
/// as written, foreign elements verbatim as the first children of their parent, with the
/// namespace declarations they need.
public enum SCXMLExporter {
    /// The document, ending with a newline.
    ///
    /// - Parameter chart: The chart to write.
    public static func export<Event, Context>(_ chart: Chart<Event, Context>) -> String {
        export(chart, foreignContent: SCXMLForeignContent())
    }

    /// The document with the content of other namespaces written back on its elements, ending
    /// with a newline.
    ///
    /// - Parameters:
    ///   - chart: The chart to write.
    ///   - foreignContent: Attributes and elements of other namespaces by element; markup for an
    ///     element the chart does not have is not written.
    public static func export<Event, Context>(
        _ chart: Chart<Event, Context>, foreignContent: SCXMLForeignContent
    ) -> String {
        var writer = Writer(chart: chart, foreign: foreignContent)
        writer.write()
        return writer.out
    }
}

private struct Writer<Event: Hashable & Sendable, Context> {
    let chart: Chart<Event, Context>
    let foreign: SCXMLForeignContent
    /// The bindings in scope where the next element is written.
    var scope: [String: String] = [:]
    var out = ""

    enum Task {
        case open(ChartStateID, depth: Int)
        case close(String, depth: Int)
    }

    init(chart: Chart<Event, Context>, foreign: SCXMLForeignContent) {
        self.chart = chart
        self.foreign = foreign
    }

    mutating func write() {
        let root = chart.root
        out += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        let data = DataModelMarkup(chart: chart)
        var attributes = [
            ("xmlns", "http://www.w3.org/2005/07/scxml"), ("version", "1.0"),
            ("datamodel", data.usesData ? "ecmascript" : "null"),
        ]
        if data.lateBinding { attributes.append(("binding", "late")) }
        attributes.append(("name", chart.name))
        var notes: [String] = []
        if let initial = chart.initialTransition(of: root) {
            if initial.targets != defaultInitial(of: root) { attributes.append(("initial", ids(initial.targets))) }
            if !initial.actions.isEmpty && !data.usesData { notes.append("the chart's initial actions are not exported") }
        }
        let rootTransitions = chart.transitions(of: root)
        if !rootTransitions.isEmpty {
            notes.append(
                "\(rootTransitions.count) chart-wide transition(s) are not exported: <scxml> has no transitions")
        }
        scope[""] = "http://www.w3.org/2005/07/scxml"
        _ = startElement("scxml", attributes, path: .root, depth: 0, hasContent: true)
        for note in notes { comment(note, depth: 1) }
        // The data model: the <data> and <script> the loader made the chart's start actions.
        if !data.rootData.isEmpty {
            line("<datamodel>", depth: 1)
            for markup in data.rootData { raw(markup, depth: 2) }
            line("</datamodel>", depth: 1)
        }
        for markup in data.rootScripts { raw(markup, depth: 1) }
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
        let id = chart.id(of: s)
        if initialElement == nil, chart.kind(of: s) == .compound, let initial = chart.initialTransition(of: s),
            foreign.markup[.initial(of: id)] != nil || foreign.markup[.defaultTransition(of: id)] != nil
        {
            // The <initial> element carried foreign content: write it as an element to keep it.
            initialElement = initial
            attributes.removeAll { $0.0 == "initial" }
        }
        // An SCXML <invoke> keeps its markup (rule R86); Swift work has no SCXML form.
        let invokes = chart.invocations(of: s).compactMap { ($0.definition as? SCXMLInvokeDefinition)?.markup }
        let hasContent =
            !entry.isEmpty || !exit.isEmpty || initialElement != nil || historyDefault != nil || !transitions.isEmpty
            || !chart.children(of: s).isEmpty || !invokes.isEmpty
        scope = scope(outside: s)
        guard let inner = startElement(name, attributes, path: .state(id), depth: depth, hasContent: hasContent)
        else { return nil }
        scope = inner
        for (i, block) in entry.enumerated() {
            if let markup = DataModelMarkup.lateData(block) {
                // Late binding: the state's own <datamodel>, bound on its first entry.
                line("<datamodel>", depth: depth + 1)
                raw(markup, depth: depth + 2)
                line("</datamodel>", depth: depth + 1)
                continue
            }
            if let markup = DataModelMarkup.doneData(block) {
                // A final state's <donedata>, which the loader runs after its <onentry> blocks.
                raw(markup, depth: depth + 1)
                continue
            }
            writeBlock("onentry", block, path: .onEntry(state: id, index: i), depth: depth + 1)
        }
        for (i, block) in exit.enumerated() {
            writeBlock("onexit", block, path: .onExit(state: id, index: i), depth: depth + 1)
        }
        if let initialElement, let initialScope = startElement(
            "initial", [], path: .initial(of: id), depth: depth + 1, hasContent: true)
        {
            scope = initialScope
            writeTransition(initialElement, pseudo: true, path: .defaultTransition(of: id), depth: depth + 2)
            scope = inner
            line("</initial>", depth: depth + 1)
        }
        if let historyDefault {
            writeTransition(historyDefault, pseudo: true, path: .defaultTransition(of: id), depth: depth + 1)
        }
        for (i, t) in transitions.enumerated() {
            writeTransition(t, pseudo: false, path: .transition(state: id, index: i), depth: depth + 1)
        }
        for markup in invokes { raw(markup, depth: depth + 1) }
        return name
    }

    /// The bindings in scope around state `s`'s element: the root's, then those declared on its
    /// ancestors' elements.
    private func scope(outside s: ChartStateID) -> [String: String] {
        var ancestors: [ChartStateID] = []
        var p = chart.parent(of: s)
        while let a = p, a != chart.root {
            ancestors.append(a)
            p = chart.parent(of: a)
        }
        var bindings: [String: String] = ["": "http://www.w3.org/2005/07/scxml"]
        let paths = [SCXMLElementPath.root] + ancestors.reversed().map { .state(chart.id(of: $0)) }
        for path in paths {
            for d in foreign[path].namespaceDeclarations where path != .root || !d.prefix.isEmpty {
                bindings[d.prefix] = d.uri
            }
        }
        return bindings
    }

    /// Writes a start tag with the foreign attributes and namespace declarations of `path`, then
    /// the foreign child elements of `path`, which get the declarations they need that are not in
    /// scope. Returns the bindings in scope inside the element, or `nil` when it was written
    /// self-closing (no content and no foreign child); the caller then writes nothing more.
    private mutating func startElement(
        _ name: String, _ attributes: [(String, String)], path: SCXMLElementPath, depth: Int, hasContent: Bool
    ) -> [String: String]? {
        let markup = foreign[path]
        var tag = "<" + name + attributeText(attributes)
        // Declarations on this element: its own, then those its foreign attributes need.
        var declared: [String: String] = [:]
        var declarations: [SCXMLNamespaceBinding] = []
        func declare(_ b: SCXMLNamespaceBinding) {
            guard b.prefix != "xml", declared[b.prefix] == nil else { return }
            if path == .root && b.prefix.isEmpty { return }
            declared[b.prefix] = b.uri
            declarations.append(b)
        }
        for d in markup.namespaceDeclarations { declare(d) }
        for a in markup.attributes where (declared[a.namespace.prefix] ?? scope[a.namespace.prefix]) != a.namespace.uri {
            declare(a.namespace)
        }
        for d in declarations { tag += " " + d.declaration }
        for a in markup.attributes { tag += " " + a.text }
        guard hasContent || !markup.elements.isEmpty else {
            line(tag + "/>", depth: depth)
            return nil
        }
        line(tag + ">", depth: depth)
        let inner = scope.merging(declared) { $1 }
        for e in markup.elements {
            let missing = e.namespaces.filter { b in b.prefix != "xml" && (inner[b.prefix] ?? "") != b.uri }
            line(Self.declaring(missing, in: e.text), depth: depth + 1)
        }
        return inner
    }

    /// `text` (an element) with the declarations added to its start tag.
    private static func declaring(_ bindings: [SCXMLNamespaceBinding], in text: String) -> String {
        guard !bindings.isEmpty else { return text }
        let afterName = text.dropFirst().firstIndex { $0.isWhitespace || $0 == "/" || $0 == ">" } ?? text.endIndex
        return String(text[..<afterName]) + bindings.map { " " + $0.declaration }.joined() + text[afterName...]
    }

    private mutating func writeBlock(
        _ name: String, _ actions: [ChartActionInfo], path: SCXMLElementPath, depth: Int
    ) {
        let outer = scope
        guard let inner = startElement(name, [], path: path, depth: depth, hasContent: !actions.isEmpty) else { return }
        scope = inner
        for (i, a) in actions.enumerated() { writeAction(a, path: .action(in: path, index: i), depth: depth + 1) }
        scope = outer
        line("</\(name)>", depth: depth)
    }

    private mutating func writeTransition(
        _ t: ChartTransitionInfo, pseudo: Bool, path: SCXMLElementPath, depth: Int
    ) {
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
        let outer = scope
        guard let inner = startElement("transition", attributes, path: path, depth: depth, hasContent: !t.actions.isEmpty)
        else { return }
        scope = inner
        for (i, a) in t.actions.enumerated() { writeAction(a, path: .action(in: path, index: i), depth: depth + 1) }
        scope = outer
        line("</transition>", depth: depth)
    }

    private mutating func writeAction(_ a: ChartActionInfo, path: SCXMLElementPath, depth: Int) {
        func simple(_ name: String, _ attributes: [(String, String)]) {
            if startElement(name, attributes, path: path, depth: depth, hasContent: false) != nil {
                line("</\(name)>", depth: depth)
            }
        }
        switch a {
        case .raise(let e):
            simple("raise", [("event", e)])
        case .send(let e, let delay, let id):
            var attributes = [("event", e)]
            if delay > .zero { attributes.append(("delay", SCXMLDelay.format(delay))) }
            if let id { attributes.append(("id", id)) }
            simple("send", attributes)
        case .cancel(let id):
            simple("cancel", [("sendid", id)])
        case .log(let label, let message):
            simple("log", [("label", message.map { "\(label): \($0)" } ?? label)])
        case .content(let source):
            // The datamodel's markup as the loader wrote it back (SCXMLContentWriter), one element per line.
            raw(source, depth: depth)
        case .run(let name):
            comment("Swift action\(name.map { " '\($0)'" } ?? ""): not exported", depth: depth)
        }
    }

    // MARK: - Text

    private func defaultInitial(of s: ChartStateID) -> [ChartStateID] {
        chart.children(of: s).first { !chart.kind(of: $0).isHistory }.map { [$0] } ?? []
    }

    private func ids(_ states: [ChartStateID]) -> String { states.map { chart.id(of: $0) }.joined(separator: " ") }

    /// Writes markup kept by the loader, indented to `depth`: each line that starts outside its
    /// elements (the loader writes one element per line) is indented, and every line inside an
    /// element is written as it is, because there its white space is content — the text of a
    /// `<data>` value or a `<script>` — and an export that re-indented it would change the value
    /// on every round trip (found by LoaderFuzz).
    private mutating func raw(_ markup: String, depth: Int) {
        var tags = MarkupDepth()
        for text in markup.split(separator: "\n", omittingEmptySubsequences: false) {
            if tags.depth == 0 && !tags.inTag {
                if !text.isEmpty { line(String(text), depth: depth) }
            } else {
                out += text + "\n"
            }
            tags.read(text)
        }
    }

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
        attributes.map { " \($0.0)=\"\(SCXMLText.escape($0.1))\"" }.joined()
    }
}

/// What an export needs to know of a chart loaded with `datamodel="ecmascript"`: the loader keeps
/// each `<data>` and top-level `<script>` as start actions, and a late-bound state's `<data>` as
/// its first entry block, with their markup (SCXMLDataBuilder).
private struct DataModelMarkup {
    var usesData = false
    var lateBinding = false
    var rootData: [String] = []
    var rootScripts: [String] = []

    init<Event, Context>(chart: Chart<Event, Context>) {
        var states = [chart.root]
        var i = 0
        while i < states.count {
            let s = states[i]
            i += 1
            states.append(contentsOf: chart.children(of: s))
            var transitions = chart.transitions(of: s)
            if let t = chart.initialTransition(of: s) { transitions.append(t) }
            for t in transitions {
                if let g = t.guardCondition, Self.hasExpression(g) { usesData = true }
            }
            if chart.entryActions(of: s).contains(where: { Self.lateData($0) != nil }) { lateBinding = true }
        }
        // Content blocks alone do not tell: the null data model makes them of `<if>` and of sends to
        // other sessions (a chart exported as ECMAScript for them came back with other start actions:
        // found by LoaderFuzz). The ECMAScript loader's first start action does.
        guard let initial = chart.initialTransition(of: chart.root) else { return }
        if initial.actions.contains(where: { if case .content(SCXMLDataBuilder.startMarkup) = $0 { true } else { false } }) {
            usesData = true
        }
        guard usesData else { return }
        for case .content(let markup) in initial.actions {
            if markup.hasPrefix("<data") { rootData.append(markup) } else if markup.hasPrefix("<script") { rootScripts.append(markup) }
        }
    }

    /// The markup of a late-bound state's `<data>`, if this entry block is one.
    static func lateData(_ block: [ChartActionInfo]) -> String? { markup(block, element: "data") }

    /// The markup of a final state's `<donedata>`, if this entry block is one.
    static func doneData(_ block: [ChartActionInfo]) -> String? { markup(block, element: "donedata") }

    /// The markup of an entry block that is one element of the data model (`<data …>`, not `<datamodel>`).
    private static func markup(_ block: [ChartActionInfo], element: String) -> String? {
        guard block.count == 1, case .content(let markup) = block[0], markup.hasPrefix("<" + element),
            let next = markup.dropFirst(element.count + 1).first, next == ">" || next == " " || next == "/"
        else { return nil }
        return markup
    }

    private static func hasExpression(_ g: ChartGuardInfo) -> Bool {
        var stack = [g]
        while let g = stack.popLast() {
            switch g {
            case .expression: return true
            case .not(let x): stack.append(x)
            case .all(let xs), .any(let xs): stack.append(contentsOf: xs)
            case .inState, .predicate: break
            }
        }
        return false
    }
}

/// How deep inside its elements a reader of kept markup is, line after line. The markup is the
/// loader's own writing: text and values are escaped, so each `<` starts a tag (a comment or
/// processing instruction opens nothing), and a tag may go on over a line break.
struct MarkupDepth {
    private(set) var depth = 0
    private(set) var inTag = false
    private var closing = false
    private var opening = false
    private var previous: UInt8 = 0

    mutating func read(_ text: Substring) {
        for b in text.utf8 {
            if !inTag {
                if previous == UInt8(ascii: "<") {
                    inTag = true
                    closing = b == UInt8(ascii: "/")
                    opening = b != UInt8(ascii: "/") && b != UInt8(ascii: "!") && b != UInt8(ascii: "?")
                }
            } else if b == UInt8(ascii: ">") {
                if closing { depth -= 1 } else if opening && previous != UInt8(ascii: "/") { depth += 1 }
                inTag = false
            }
            previous = b
        }
        previous = UInt8(ascii: "\n")
    }
}
