import Foundation
import Statechart
import StatechartECMAScript

/// An `<invoke>` as the loader compiled it (rule R86): what an ``SCXMLSession`` evaluates when the
/// invoking state's macrostep ends, to start a child session.
///
/// Inline `<content>` holding an `<scxml>` document is loaded with the chart, so a broken child is
/// a load error. `src`, `srcexpr` and `<content expr>` name a document that is only known when the
/// invocation starts; one that cannot be read or loaded raises `error.execution` then.
struct SCXMLInvokeDefinition: Sendable {
    /// Where the invoked document comes from.
    enum Source: Sendable {
        /// Loaded with the invoking chart (inline `<content>`).
        case chart(SCXMLChart)
        /// `src`: a path or `file:` URL, relative to the invoking chart's folder.
        case file(String)
        /// `srcexpr`: evaluated to such a path when the invocation starts.
        case fileExpression(ScriptExpression)
        /// `<content expr>`: evaluated to the document (an XML value or a string of markup).
        case content(ScriptExpression)
    }

    /// The id of the invoking state.
    var stateID: String
    /// The element's position in its document: what a snapshot names it by.
    var element: Int
    var line: Int
    var type: SCXMLValue?
    var source: Source
    var id: String?
    var idLocation: ScriptExpression?
    var namelist: [ScriptExpression] = []
    var params: [SCXMLParam] = []
    var autoforward = false
    /// `<finalize>`: runs in the invoking session before it takes an event from this invocation.
    var finalize: [Action<SCXMLEvent, SCXMLContext>] = []
    /// How the invoked documents of `src`, `srcexpr` and `<content expr>` are loaded.
    var options: SCXMLLoadOptions
    /// The element as written: what an export writes back.
    var markup: String

    /// The `type` values that name SCXML (SCXML 6.4.1).
    static let scxmlTypes: Set<String> = ["http://www.w3.org/TR/scxml/", "http://www.w3.org/TR/scxml", "scxml"]

    /// How deep invoked documents may nest inline (each level is loaded when its parent is).
    static let maximumInlineNesting = 32
}

/// What an `<invoke>` throws when a runtime other than ``SCXMLSession`` starts it as work.
struct SCXMLSessionRequired: Error, CustomStringConvertible {
    var stateID: String
    var description: String {
        "the <invoke> of '\(stateID)' starts an SCXML session: run the chart in an SCXMLSession"
    }
}

/// An invocation whose arguments were evaluated: what a session needs to start the child.
struct SCXMLStartedInvocation: Hashable, Sendable {
    var invokeID: String
    var chart: SCXMLChart
    var values: [String: DataValue]
    /// Where the chart came from, so that a restored session can load it again.
    var source: SCXMLSessionSnapshot.Source

    static func == (a: Self, b: Self) -> Bool {
        a.invokeID == b.invokeID && a.chart === b.chart && a.values == b.values
    }

    func hash(into hasher: inout Hasher) { hasher.combine(invokeID) }
}

extension SCXMLInvokeDefinition {
    /// Compiles the `<invoke>` at `index` of `tree`, a child of the state `stateID`.
    static func compile(
        _ index: Int, tree: XMLTree, stateID: String, finalize: [Action<SCXMLEvent, SCXMLContext>],
        compiler: SCXMLStepCompiler?, options: SCXMLLoadOptions, markup: String
    ) throws(SCXMLError) -> SCXMLInvokeDefinition {
        let e = tree.elements[index]
        let line = e.location.line
        let attributes = AttributeReader(element: e)
        func both(_ a: String, _ b: String) -> SCXMLError {
            .invalidElement(e.name, line: line, reason: "'\(a)' and '\(b)' cannot both be given")
        }
        func expression(_ text: String) -> ScriptExpression { ScriptExpression(text, limits: compiler?.limits ?? ScriptLimits()) }
        let type: SCXMLValue?
        switch (e.attributes["type"], e.attributes["typeexpr"]) {
        case (let t?, nil): type = .literal(t)
        case (nil, let t?): type = .expression(expression(t))
        case (nil, nil): type = nil
        case (_?, _?): throw both("type", "typeexpr")
        }
        let contents = e.children.filter { tree.elements[$0].name == "content" }
        if contents.count > 1 {
            throw .invalidElement("content", line: tree.elements[contents[1]].location.line, reason: "an <invoke> has at most one <content>")
        }
        let source: Source
        switch (e.attributes["src"], e.attributes["srcexpr"], contents.first) {
        case (let src?, nil, nil): source = .file(src)
        case (nil, let src?, nil): source = .fileExpression(expression(src))
        case (nil, nil, let c?): source = try content(c, tree: tree, options: options, expression: expression)
        case (nil, nil, nil):
            throw .invalidElement(e.name, line: line, reason: "an <invoke> names its document with 'src', 'srcexpr' or a <content>")
        case (_?, _?, _): throw both("src", "srcexpr")
        default: throw .invalidElement(e.name, line: line, reason: "an <invoke> has a 'src' or 'srcexpr', or a <content>, not both")
        }
        var definition = SCXMLInvokeDefinition(
            stateID: stateID, element: index, line: line, type: type, source: source, options: options, markup: markup)
        switch (e.attributes["id"], e.attributes["idlocation"]) {
        case (let id?, nil):
            guard !id.isEmpty, !id.contains(where: \.isWhitespace) else { throw attributes.invalid("id", id, "expected one name, without spaces") }
            definition.id = id
        case (nil, let location?): definition.idLocation = expression(location)
        case (nil, nil): break
        case (_?, _?): throw both("id", "idlocation")
        }
        switch e.attributes["autoforward"] {
        case nil, "false"?: definition.autoforward = false
        case "true"?: definition.autoforward = true
        case let v?: throw attributes.invalid("autoforward", v, "expected 'true' or 'false'")
        }
        if let names = e.attributes["namelist"] {
            definition.namelist = names.split(whereSeparator: \.isWhitespace).map { expression(String($0)) }
        }
        for c in e.children where tree.elements[c].name == "param" {
            guard let compiler else { break }
            definition.params.append(try compiler.param(tree.elements[c]))
        }
        let finalizers = e.children.filter { tree.elements[$0].name == "finalize" }
        if finalizers.count > 1 {
            throw .invalidElement("finalize", line: tree.elements[finalizers[1]].location.line, reason: "an <invoke> has at most one <finalize>")
        }
        definition.finalize = finalize
        return definition
    }

    /// The document of a `<content>`: loaded now when written inline, evaluated later from `expr`.
    private static func content(
        _ index: Int, tree: XMLTree, options: SCXMLLoadOptions, expression: (String) -> ScriptExpression
    ) throws(SCXMLError) -> Source {
        let c = tree.elements[index]
        let text = c.markup.isEmpty ? c.text.trimmingWhitespace() : c.markup
        switch (c.attributes["expr"], text.isEmpty) {
        case (let expr?, true): return .content(expression(expr))
        case (_?, false):
            throw .invalidElement(c.name, line: c.location.line, reason: "a <content> has an 'expr' or inline content, not both")
        case (nil, true):
            throw .invalidElement(c.name, line: c.location.line, reason: "the <content> of an <invoke> holds the <scxml> document to start")
        case (nil, false):
            guard options.invokeNesting < maximumInlineNesting else {
                throw .limitExceeded(.nestingDepth, limit: maximumInlineNesting, element: "invoke", line: c.location.line)
            }
            var nested = options
            nested.invokeNesting += 1
            do {
                return .chart(try SCXMLDocument.load(string: text, name: "invoked", options: nested))
            } catch {
                if case .limitExceeded = error { throw error }
                throw .invalidElement(
                    c.name, line: c.location.line,
                    reason: "the invoked document does not load: \(error.description) (lines count from its <scxml>)")
            }
        }
    }

    /// The action that evaluates the invocation's arguments in the invoking session, when it starts
    /// (SCXML 6.4): type, document, id (assigned to `idlocation`), `namelist` and `<param>`s. A
    /// failure raises `error.execution` and the invocation does not start.
    func startAction() -> Action<SCXMLEvent, SCXMLContext> {
        let definition = self
        return .content("<invoke> of '\(stateID)'") { scope, environment in
            scope.context.links.started = nil
            func fail(_ message: String) -> SCXMLExecutionError {
                SCXMLExecutionError(message: message, element: "invoke", line: definition.line)
            }
            func evaluate<T>(_ body: (inout ECMAScriptDataModel) throws(ScriptError) -> T) throws(SCXMLExecutionError) -> T {
                do {
                    return try body(&scope.context.data)
                } catch {
                    throw fail(error.description)
                }
            }
            if let type = definition.type {
                let text: String
                switch type {
                case .literal(let t): text = t
                case .expression(let e): text = try evaluate { data throws(ScriptError) in try data.evaluateString(e, in: environment) }
                }
                guard Self.scxmlTypes.contains(text) else {
                    throw fail("the invocation type '\(text)' is not supported (only SCXML: 'http://www.w3.org/TR/scxml/')")
                }
            }
            let chart: SCXMLChart
            let source: SCXMLSessionSnapshot.Source
            switch definition.source {
            case .chart(let c):
                chart = c
                source = .inline
            case .file(let src):
                (chart, source) = try definition.load(file: src, fail: fail)
            case .fileExpression(let e):
                let src = try evaluate { data throws(ScriptError) in try data.evaluateString(e, in: environment) }
                (chart, source) = try definition.load(file: src, fail: fail)
            case .content(let e):
                let value = try evaluate { data throws(ScriptError) in try data.evaluate(e, in: environment) }
                let markup: String
                switch value {
                case .xml(let x), .string(let x): markup = x
                default: throw fail("the <content> expression gave no SCXML document")
                }
                chart = try definition.load(markup: markup, fail: fail)
                source = .markup(markup)
            }
            scope.context.links.invocationCounter += 1
            let invokeID = definition.id ?? "\(definition.stateID).\(scope.context.links.invocationCounter)"
            if let location = definition.idLocation {
                try evaluate { data throws(ScriptError) in
                    guard location.isLocation else { throw ScriptError(.syntax, "'\(location.source)' is not a location") }
                    try data.assign(location, .string(invokeID))
                }
            }
            var values: [String: DataValue] = [:]
            for name in definition.namelist {
                values[name.source] = try evaluate { data throws(ScriptError) in
                    guard name.isLocation else { throw ScriptError(.syntax, "'\(name.source)' in namelist is not a location") }
                    return try data.evaluate(name, in: environment)
                }
            }
            for p in definition.params {
                values[p.name] = try evaluate { data throws(ScriptError) in try data.evaluate(p.value, in: environment) }
            }
            scope.context.links.started = SCXMLStartedInvocation(invokeID: invokeID, chart: chart, values: values, source: source)
        }
    }

    private func load(file src: String, fail: (String) -> SCXMLExecutionError) throws(SCXMLExecutionError)
        -> (SCXMLChart, SCXMLSessionSnapshot.Source)
    {
        let sources = SCXMLExternalSources(baseURL: options.baseURL, limit: options.limits.maximumFileSize)
        switch sources.url(for: src) {
        case .failure(let reason): throw fail("the document '\(src)' \(reason)")
        case .success(let url):
            do throws(SCXMLError) {
                return (try load(file: url), .file(url.path))
            } catch {
                throw fail("the document '\(src)' does not load: \(error.description)")
            }
        }
    }

    /// Loads an invoked document from a file, its own `src`s relative to its folder.
    func load(file url: URL) throws(SCXMLError) -> SCXMLChart {
        var nested = options
        nested.baseURL = nil
        return try SCXMLDocument.load(contentsOf: url, options: nested)
    }

    private func load(markup: String, fail: (String) -> SCXMLExecutionError) throws(SCXMLExecutionError) -> SCXMLChart {
        do throws(SCXMLError) {
            return try load(markup: markup)
        } catch {
            throw fail("the invoked document does not load: \(error.description)")
        }
    }

    /// Loads an invoked document from markup.
    func load(markup: String) throws(SCXMLError) -> SCXMLChart {
        try SCXMLDocument.load(string: markup, name: "invoked", options: options)
    }
}
