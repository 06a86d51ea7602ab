import Statechart
import StatechartECMAScript

/// `_event` and the system variables of SCXML 5.10 as the ECMAScript data model sees them.
enum SCXMLEventBinding {
    /// Binds `_event` (read-only) to the event being processed; before the first event it stays
    /// unbound. Events carry no data yet: `data` is `undefined`, and `type` is `platform` for
    /// `done.*` and `error.*` events, `external` for the others.
    static func bind(_ environment: ChartEnvironment<String>, in data: inout ECMAScriptDataModel) throws(ScriptError) {
        guard let event = environment.event, let name = environment.eventName else { return }
        let type: String
        switch event {
        case .event: type = "external"
        case .done, .error, .timer: type = "platform"
        }
        try data.bindEvent(
            .object(
                DataObject([
                    ("name", .string(name)), ("type", .string(type)), ("sendid", .undefined), ("origin", .undefined),
                    ("origintype", .undefined), ("invokeid", .undefined), ("data", .undefined),
                ])))
    }

    /// The SCXML Event I/O processor's type URI.
    static let scxmlProcessor = "http://www.w3.org/TR/scxml/#SCXMLEventProcessor"

    /// Declares `_sessionid`, `_name`, `_ioprocessors` and `_event` (read-only) for a new session.
    static func declareSystemVariables(sessionID: String, name: String, in data: inout ECMAScriptDataModel) throws(ScriptError) {
        try data.declare("_sessionid", .string(sessionID), readOnly: true)
        try data.declare("_name", .string(name), readOnly: true)
        let location: DataValue = ["location": .string("#_scxml_" + sessionID)]
        try data.declare(
            "_ioprocessors", .object(DataObject([(scxmlProcessor, location), ("scxml", location)])), readOnly: true)
        // Declared but unbound until the first event (W3C 319): `_event` reads as undefined.
        try data.bindEvent(.undefined)
    }
}

/// `<send>`: evaluates its attributes and data, then queues the event where its target says.
enum SCXMLSendRunner {
    static func send(
        _ send: SCXMLSendStep, step: SCXMLStep, scope: inout SCXMLStepRunner.Scope, environment: ChartEnvironment<String>
    ) throws(SCXMLExecutionError) {
        func fail(_ message: String) -> SCXMLExecutionError {
            SCXMLExecutionError(message: message, element: step.element, line: step.line)
        }
        // Everything is evaluated first, in document order; any failure sends nothing.
        let event = try send.event.map { v throws(SCXMLExecutionError) in try SCXMLStepRunner.string(v, step, &scope, environment) }
        let target = try send.target.map { v throws(SCXMLExecutionError) in try SCXMLStepRunner.string(v, step, &scope, environment) }
        let type = try send.type.map { v throws(SCXMLExecutionError) in try SCXMLStepRunner.string(v, step, &scope, environment) }
        var delay = Duration.zero
        if let d = send.delay {
            let text = try SCXMLStepRunner.string(d, step, &scope, environment)
            switch SCXMLDelay.parse(text) {
            case .success(let value): delay = value
            case .failure(let f): throw fail("the delay '\(text)' is not a duration: \(f.reason)")
            }
        }
        var id = send.id
        if let location = send.idLocation {
            scope.context.sendCounter += 1
            let generated = "send.\(scope.context.sendCounter)"
            try SCXMLStepRunner.attempt(step) { () throws(ScriptError) in
                guard location.isLocation else { throw ScriptError(.syntax, "'\(location.source)' is not a location") }
                try scope.context.data.assign(location, .string(generated))
            }
            id = generated
        }
        // The event's data is evaluated so that its errors are raised; events do not carry it yet.
        try SCXMLStepRunner.attempt(step) { () throws(ScriptError) in
            for name in send.namelist { _ = try scope.context.data.evaluate(name, in: environment) }
            for p in send.params { _ = try scope.context.data.evaluate(p.value, in: environment) }
            if let content = send.content { _ = try SCXMLStepRunner.inlineValue(content, &scope.context.data, environment) }
        }
        if let type, !SCXMLSchema.sendTypes.contains(type) {
            throw fail("the event I/O processor '\(type)' is not supported (only SCXML's own)")
        }
        guard let event else { throw fail("a <send> without an event name") }
        switch target {
        case nil:
            scope.send(event, after: delay, id: id)
        case "#_internal"?:
            if delay > .zero { scope.send(event, after: delay, id: id) } else { scope.raise(event) }
        case let t? where t == "#_scxml_" + scope.context.sessionID:
            scope.send(event, after: delay, id: id)
        case let t? where t.hasPrefix("#_"):
            // A session or invocation this machine cannot reach (no parent, no invoked child of that id).
            scope.raise("error.communication")
        case let t?:
            throw fail("the target '\(t)' is not supported (only '#_internal', '#_scxml_<sessionid>' or none)")
        }
    }
}
