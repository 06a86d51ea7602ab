import Statechart
import StatechartECMAScript

/// Turns a document's `<datamodel>` into the actions that create and bind its data.
///
/// - When the machine starts (the root's initial transition): the system variables (`_sessionid`,
///   `_name`, `_ioprocessors`) and every `<data>` of the document are declared; with early binding
///   (the default) each `<data>` is then bound in document order, and the top-level `<script>`s run.
/// - With `binding="late"`, a state's `<data>` is bound when the state is first entered, before its
///   `<onentry>`; the `<data>` of `<scxml>` itself is bound when the machine starts.
///
/// A `<data>` that fails to bind raises `error.execution` and leaves its variable `undefined`; the
/// others are still bound (SCXML 5.3), and so a binding never throws out of its action.
struct SCXMLDataBuilder {
    typealias Item = SCXMLBuilder.Item

    struct DataItem {
        var id: String
        var value: SCXMLAssignedValue
        var markup: String
    }

    let tree: XMLTree
    let items: [Item]
    /// `<data>` by the index of the state (or root, 0) whose `<datamodel>` holds it.
    private(set) var dataByState: [Int: [DataItem]] = [:]
    private(set) var allIDs: [String] = []
    private(set) var lateBinding = false

    let sources: SCXMLExternalSources

    init(tree: XMLTree, items: [Item], sources: SCXMLExternalSources) {
        self.tree = tree
        self.items = items
        self.sources = sources
    }

    /// Reads every `<data>`.
    mutating func collect() throws(SCXMLError) {
        lateBinding = tree.elements[0].attributes["binding"] == "late"
        var seen: Set<String> = []
        for (i, e) in tree.elements.enumerated() where e.name == "data" {
            let line = e.location.line
            guard let id = try AttributeReader(element: e).token("id") else {
                throw .missingAttribute("id", element: e.name, line: line)
            }
            let text = e.markup.isEmpty ? e.text.trimmingWhitespace() : e.markup
            let value: SCXMLAssignedValue
            switch (e.attributes["expr"], e.attributes["src"], text.isEmpty) {
            case (let expr?, nil, true): value = .expression(ScriptExpression(expr))
            case (nil, let src?, true):
                // Read when the chart loads; one that cannot be read is error.execution when bound (SCXML 5.3).
                switch sources.read(src) {
                case .success(let content):
                    // A file of XML is XML data (a DOM in scripts, SCXML B.2.2); any other, a value
                    // like inline content.
                    let trimmed = content.trimmingWhitespace()
                    value = trimmed.hasPrefix("<") ? .markup(trimmed) : .inline(trimmed)
                case .failure(let reason): value = .unavailable("'\(src)' \(reason)")
                }
            case (nil, nil, false): value = e.markup.isEmpty ? .inline(text) : .markup(text)
            case (nil, nil, true): value = .none
            default:
                throw .invalidElement(e.name, line: line, reason: "a <data> has one of 'expr', 'src' or inline content")
            }
            if !seen.insert(id).inserted {
                throw .invalidElement(e.name, line: line, reason: "the data id '\(id)' is declared twice")
            }
            let holder = tree.elements[e.parent].parent
            dataByState[holder, default: []].append(DataItem(id: id, value: value, markup: SCXMLMarkup.element(i, in: tree)))
            allIDs.append(id)
        }
    }

    /// The actions that run when the machine starts.
    /// The description of the first start action of every chart with the ECMAScript data model:
    /// how an export tells such a chart from one of the null data model, whose `<if>` blocks are
    /// content too.
    static let startMarkup = "<!-- the system variables and every <data>, declared -->"

    func startActions(chartName: String, compiler: SCXMLStepCompiler?) -> [Action<SCXMLEvent, SCXMLContext>] {
        let ids = allIDs
        var actions: [Action<SCXMLEvent, SCXMLContext>] = [
            .content(Self.startMarkup) { scope, _ in
                // An invoked session gets its id from the session that starts it (rule R86).
                let sessionID = scope.context.sessionID.isEmpty ? SCXMLSession.newSessionID() : scope.context.sessionID
                scope.context.sessionID = sessionID
                scope.context.boundStates = []
                try SCXMLEventBinding.declareSystemVariables(
                    sessionID: sessionID, name: chartName, httpBase: scope.context.links.httpBase, in: &scope.context.data)
                for id in ids { try scope.context.data.declare(id, .undefined) }
            }
        ]
        let bound = lateBinding ? (dataByState[0] ?? []) : dataByState.keys.sorted().flatMap { dataByState[$0] ?? [] }
        for item in bound { actions.append(Self.bind(item)) }
        for c in tree.elements[0].children where tree.elements[c].name == "script" {
            guard let step = compiler?.compiled[c] else { continue }
            let mayReadEvent = SCXMLStep.mayReadEvent([step])
            actions.append(.content(SCXMLMarkup.element(c, in: tree)) { scope, environment in
                do throws(SCXMLExecutionError) {
                    try SCXMLStepRunner.run([step], mayReadEvent: mayReadEvent, scope: &scope, environment: environment)
                } catch {
                    scope.raiseExecutionError(error.description)
                }
            })
        }
        return actions
    }

    /// With late binding, the action that binds a state's `<data>` on its first entry.
    func lateBindingAction(for state: Int, stateID: String) -> Action<SCXMLEvent, SCXMLContext>? {
        guard lateBinding, let data = dataByState[state], !data.isEmpty else { return nil }
        return .content(data.map(\.markup).joined(separator: "\n")) { scope, environment in
            guard scope.context.boundStates.insert(stateID).inserted else { return }
            for item in data { Self.bind(item, &scope, environment) }
        }
    }

    /// Binds one `<data>` (an action of its own).
    private static func bind(_ item: DataItem) -> Action<SCXMLEvent, SCXMLContext> {
        .content(item.markup) { scope, environment in bind(item, &scope, environment) }
    }

    /// Binds one `<data>`; a failure raises `error.execution` and leaves it `undefined`.
    private static func bind(_ item: DataItem, _ scope: inout SCXMLStepRunner.Scope, _ environment: ChartEnvironment<SCXMLEvent>) {
        let location = ScriptExpression(item.id)
        do throws(ScriptError) {
            // A value the invoking <invoke> passed replaces the document's (SCXML 6.4, rule R86).
            if let passed = scope.context.links.passedValues[item.id] {
                return try scope.context.data.assign(location, passed)
            }
            try SCXMLStepRunner.assign(item.value, to: location, &scope.context.data, environment)
        } catch {
            scope.raiseExecutionError("<data id=\"\(item.id)\">: \(error.description)")
        }
    }

    /// The action that evaluates a final state's `<donedata>` into the data of its parent's
    /// `done.state.<id>` event: `<content>`'s value, or an object of the `<param>`s. A failure
    /// raises `error.execution` and the done event carries no data.
    static func doneData(_ e: XMLElementNode, of parentID: String, compiler: SCXMLStepCompiler, tree: XMLTree, index: Int) throws(SCXMLError) -> Action<SCXMLEvent, SCXMLContext> {
        var send = SCXMLSendStep(line: e.location.line)
        for c in e.children {
            let child = tree.elements[c]
            if child.name == "param" { send.params.append(try compiler.param(child)) }
            if child.name == "content" {
                if send.content != nil {
                    throw .invalidElement(child.name, line: child.location.line, reason: "a <donedata> has at most one <content>")
                }
                send.content = try compiler.content(child)
            }
        }
        if send.content != nil && !send.params.isEmpty {
            throw .invalidElement(e.name, line: e.location.line, reason: "a <donedata> has a <content> or <param>s, not both")
        }
        let done = send
        return .content(SCXMLMarkup.element(index, in: tree)) { scope, environment in
            do throws(ScriptError) {
                scope.context.doneData[parentID] = try SCXMLSendRunner.eventData(done, &scope.context.data, environment)
            } catch {
                scope.context.doneData[parentID] = nil
                scope.raiseExecutionError("<donedata> at line \(done.line): \(error.description)")
            }
        }
    }

    /// A block of executable content as one action.
    static func content(_ steps: [SCXMLStep], markup: String) -> Action<SCXMLEvent, SCXMLContext> {
        // Most blocks are a few steps without `<if>` or `<foreach>`: they run in a plain loop,
        // without the frame stack nested content needs.
        let mayReadEvent = SCXMLStep.mayReadEvent(steps)
        if steps.allSatisfy(\.isFlat) {
            return .content(markup) { scope, environment in
                try SCXMLStepRunner.runFlat(steps, mayReadEvent: mayReadEvent, scope: &scope, environment: environment)
            }
        }
        return .content(markup) { scope, environment in
            try SCXMLStepRunner.run(steps, mayReadEvent: mayReadEvent, scope: &scope, environment: environment)
        }
    }

    /// A transition's `cond` under the ECMAScript data model.
    static func condition(_ expression: ScriptExpression) -> Guard<SCXMLEvent, SCXMLContext> {
        .expression(expression.source) { context, environment in
            // `count < 2` cannot observe `_event`: it is bound only for a condition that may read it.
            if context.data.needsEvent(mayRead: expression.mayReadEvent) { try SCXMLEventBinding.bind(environment, in: &context) }
            return try context.data.evaluateCondition(expression, in: environment)
        }
    }
}
