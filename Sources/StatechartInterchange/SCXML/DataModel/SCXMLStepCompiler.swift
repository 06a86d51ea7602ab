import Statechart
import StatechartECMAScript

/// Compiles the executable content of a document into ``SCXMLStep``s, once, when it loads.
///
/// The elements are visited in reverse document order, so every element's children are compiled
/// before it and nothing recurses to the depth of the document. What can only be known when the
/// content runs (an expression that does not parse, a location that is not one, an unsupported
/// `type`) is kept for then: SCXML wants those charts to load and to raise `error.execution`.
struct SCXMLStepCompiler {
    let tree: XMLTree
    let dataModel: SCXMLDataModelKind
    let limits: ScriptLimits
    let sources: SCXMLExternalSources
    private(set) var compiled: [Int: SCXMLStep] = [:]
    /// `cond`s already parsed for the null data model, by text
    /// (``SCXMLBuilder/nullDataModelConditions(_:)``), so that they are not parsed again.
    var nullConditions = SCXMLTextCache<SCXMLCondition>()

    init(tree: XMLTree, dataModel: SCXMLDataModelKind, limits: ScriptLimits, sources: SCXMLExternalSources = SCXMLExternalSources()) {
        self.tree = tree
        self.dataModel = dataModel
        self.limits = limits
        self.sources = sources
    }

    /// Compiles every element of executable content in the document.
    mutating func compileAll() throws(SCXMLError) {
        for i in tree.elements.indices.reversed() where SCXMLSchema.executableContent.contains(tree.elements[i].name) {
            compiled[i] = try compile(i)
        }
    }

    /// The steps of a block: the compiled children of `<onentry>`, `<onexit>` or `<transition>`.
    func steps(in block: Int) -> [SCXMLStep] {
        tree.elements[block].children.compactMap { compiled[$0] }
    }

    /// Whether a block needs the step runner under the null data model: it has an `<if>`, or a
    /// `<send>` to another session.
    func needsSteps(_ block: Int) -> Bool {
        tree.elements[block].children.contains { Self.needsRunner(tree.elements[$0]) }
    }

    /// Whether an element of executable content needs the step runner under the null data model:
    /// an `<if>`, or a `<send>` to another session (`#_parent`, `#_<invokeid>`, `#_scxml_<id>`;
    /// rule R86), which the engine's own send action cannot reach.
    static func needsRunner(_ e: XMLElementNode) -> Bool {
        if e.kind == .if { return true }
        guard e.kind == .send, let target = e.attributes[.target] else { return false }
        return target.hasPrefix("#_") && target != "#_internal"
    }

    private func expression(_ text: String) -> ScriptExpression { ScriptExpression(text, limits: limits) }

    private func condition(_ text: String, _ e: XMLElementNode) throws(SCXMLError) -> ScriptExpression {
        switch dataModel {
        case .ecmascript:
            return expression(text)
        case .null:
            guard let parsed = nullConditions[text] ?? SCXMLCondition.parse(text) else {
                throw .unsupportedExpression(text, attribute: "cond", element: e.name, line: e.location.line)
            }
            return expression(parsed.scriptSource)
        }
    }

    /// `attribute` or `attribute + "expr"`; both at once is an error.
    private func value(_ e: XMLElementNode, _ attribute: String, expr: String) throws(SCXMLError) -> SCXMLValue? {
        switch (e.attributes[attribute], e.attributes[expr]) {
        case (let literal?, nil): return .literal(literal)
        case (nil, let text?): return .expression(expression(text))
        case (nil, nil): return nil
        case (_?, _?):
            throw .invalidElement(e.name, line: e.location.line, reason: "'\(attribute)' and '\(expr)' cannot both be given")
        }
    }

    private func inline(_ e: XMLElementNode) -> SCXMLAssignedValue {
        if !e.markup.isEmpty { return .markup(e.markup) }
        let text = e.text.trimmingWhitespace()
        return text.isEmpty ? .none : .inline(text)
    }

    private func compile(_ i: Int) throws(SCXMLError) -> SCXMLStep {
        let e = tree.elements[i]
        let line = e.location.line
        let attributes = AttributeReader(element: e)
        func step(_ kind: SCXMLStep.Kind) -> SCXMLStep { SCXMLStep(kind: kind, element: e.name, line: line) }
        switch e.name {
        case "raise":
            guard let event = try attributes.token("event") else { throw .missingAttribute("event", element: e.name, line: line) }
            if event.contains("*") { throw attributes.invalid("event", event, "an event name cannot contain '*'") }
            return step(.raise(event))
        case "send":
            return step(.send(try compileSend(e)))
        case "cancel":
            guard let id = try value(e, "sendid", expr: "sendidexpr") else {
                throw .missingAttribute("sendid", element: e.name, line: line)
            }
            return step(.cancel(id))
        case "log":
            let expr = e.attributes["expr"].map { text in
                // The null data model logs a string literal as it is (its only expression is In()).
                dataModel == .null ? expression(SCXMLExecutableContent.stringLiteral(text).map { "'\($0)'" } ?? text) : expression(text)
            }
            return step(.log(label: e.attributes["label"] ?? "", expr: expr))
        case "assign":
            guard let location = e.attributes["location"] else { throw .missingAttribute("location", element: e.name, line: line) }
            let value: SCXMLAssignedValue
            switch (e.attributes["expr"], inline(e)) {
            case (let text?, .none): value = .expression(expression(text))
            case (nil, let content): value = content
            case (_?, _):
                throw .invalidElement(e.name, line: line, reason: "an <assign> has an 'expr' or inline content, not both")
            }
            return step(.assign(location: expression(location), value: value))
        case "script":
            if let src = e.attributes["src"] {
                if !e.text.trimmingWhitespace().isEmpty {
                    throw .invalidElement(e.name, line: line, reason: "a <script> has a 'src' or inline content, not both")
                }
                // A script that cannot be read makes the document invalid (SCXML 5.8).
                switch sources.read(src) {
                case .success(let text): return step(.script(ScriptProgram(text, limits: limits)))
                case .failure(let reason): throw attributes.invalid("src", src, reason.description)
                }
            }
            return step(.script(ScriptProgram(e.text, limits: limits)))
        case "if":
            guard let cond = e.attributes["cond"] else { throw .missingAttribute("cond", element: e.name, line: line) }
            var branches = [SCXMLBranch(condition: try condition(cond, e), steps: [])]
            for c in e.children {
                let child = tree.elements[c]
                switch child.name {
                case "elseif":
                    guard let text = child.attributes["cond"] else {
                        throw .missingAttribute("cond", element: child.name, line: child.location.line)
                    }
                    if branches.last?.condition == nil {
                        throw .invalidElement(child.name, line: child.location.line, reason: "<elseif> after <else>")
                    }
                    branches.append(SCXMLBranch(condition: try condition(text, child), steps: []))
                case "else":
                    if branches.last?.condition == nil {
                        throw .invalidElement(child.name, line: child.location.line, reason: "an <if> has at most one <else>")
                    }
                    branches.append(SCXMLBranch(condition: nil, steps: []))
                default:
                    if let s = compiled[c] { branches[branches.count - 1].steps.append(s) }
                }
            }
            return step(.branches(branches))
        case "foreach":
            guard let array = e.attributes["array"] else { throw .missingAttribute("array", element: e.name, line: line) }
            guard let item = e.attributes["item"] else { throw .missingAttribute("item", element: e.name, line: line) }
            return step(
                .foreach(
                    array: expression(array), item: expression(item), index: e.attributes["index"].map(expression),
                    body: e.children.compactMap { compiled[$0] }))
        default:
            preconditionFailure("not executable content: \(e.name)")
        }
    }

    private func compileSend(_ e: XMLElementNode) throws(SCXMLError) -> SCXMLSendStep {
        let line = e.location.line
        var send = SCXMLSendStep(line: line)
        send.event = try value(e, "event", expr: "eventexpr")
        send.target = try value(e, "target", expr: "targetexpr")
        send.type = try value(e, "type", expr: "typeexpr")
        send.delay = try value(e, "delay", expr: "delayexpr")
        if case .literal(let text)? = send.delay, case .failure(let f) = SCXMLDelay.parse(text) {
            throw AttributeReader(element: e).invalid("delay", text, f.reason)
        }
        switch (e.attributes["id"], e.attributes["idlocation"]) {
        case (let id?, nil): send.id = id
        case (nil, let location?): send.idLocation = expression(location)
        case (nil, nil): break
        case (_?, _?): throw .invalidElement(e.name, line: line, reason: "'id' and 'idlocation' cannot both be given")
        }
        if let names = e.attributes["namelist"] {
            send.namelist = names.split(whereSeparator: \.isWhitespace).map { expression(String($0)) }
        }
        for c in e.children {
            let child = tree.elements[c]
            switch child.name {
            case "param": send.params.append(try param(child))
            case "content":
                if send.content != nil {
                    throw .invalidElement(child.name, line: child.location.line, reason: "a <send> has at most one <content>")
                }
                send.content = try content(child)
            default: break
            }
        }
        // SCXML 6.2: a send to SCXML's own event processor (the default) names its event; one of
        // another type (Basic HTTP names it in a parameter) need not, and one whose type is an
        // expression is only known when it runs. Those load, and fail when they run if they must.
        let ownProcessor: Bool
        switch send.type {
        case nil: ownProcessor = true
        case .literal(let type)?: ownProcessor = SCXMLSchema.sendTypes.contains(type)
        case .expression?: ownProcessor = false
        }
        if ownProcessor && send.event == nil && send.content == nil {
            throw .missingAttribute("event", element: e.name, line: line)
        }
        if send.content != nil && (!send.params.isEmpty || !send.namelist.isEmpty) {
            throw .invalidElement(e.name, line: line, reason: "a <send> with <content> has no <param> and no 'namelist'")
        }
        return send
    }

    /// A `<param name expr|location>`.
    func param(_ e: XMLElementNode) throws(SCXMLError) -> SCXMLParam {
        guard let name = e.attributes["name"] else { throw .missingAttribute("name", element: e.name, line: e.location.line) }
        switch (e.attributes["expr"], e.attributes["location"]) {
        case (let text?, nil), (nil, let text?): return SCXMLParam(name: name, value: expression(text))
        case (nil, nil): throw .missingAttribute("expr", element: e.name, line: e.location.line)
        case (_?, _?): throw .invalidElement(e.name, line: e.location.line, reason: "'expr' and 'location' cannot both be given")
        }
    }

    /// A `<content expr>` or `<content>` with inline text.
    func content(_ e: XMLElementNode) throws(SCXMLError) -> SCXMLAssignedValue {
        switch (e.attributes["expr"], inline(e)) {
        case (let text?, .none): return .expression(expression(text))
        case (nil, let value): return value
        case (_?, _): throw .invalidElement(e.name, line: e.location.line, reason: "a <content> has an 'expr' or inline content, not both")
        }
    }
}

/// The data model a document declares.
enum SCXMLDataModelKind: Sendable {
    /// `datamodel="null"` or none: no data, conditions are `In()` and its combinations.
    case null
    /// `datamodel="ecmascript"`: Statechart's ECMAScript subset (Docs/DataModel.md).
    case ecmascript
}

extension SCXMLCondition {
    /// The condition as ECMAScript source (`In('a') && !In('b')`), for content that runs under the
    /// null data model through the same runner. The nesting is bounded by ``maximumDepth``.
    var scriptSource: String {
        switch self {
        case .inState(let id):
            var escaped = ""
            for c in id {
                if c == "\\" || c == "'" { escaped.append("\\") }
                escaped.append(c)
            }
            return "In('\(escaped)')"
        case .not(let x): return "!(" + x.scriptSource + ")"
        case .all(let xs): return xs.isEmpty ? "true" : "(" + xs.map(\.scriptSource).joined(separator: " && ") + ")"
        case .any(let xs): return xs.isEmpty ? "false" : "(" + xs.map(\.scriptSource).joined(separator: " || ") + ")"
        }
    }
}
