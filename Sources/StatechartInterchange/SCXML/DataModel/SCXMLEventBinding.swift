import Statechart
import StatechartECMAScript

/// `_event` and the system variables of SCXML 5.10 as the ECMAScript data model sees them.
enum SCXMLEventBinding {
    /// Binds `_event` (read-only) to the event being processed; before the first event it is
    /// `undefined`. A `done.state.<id>` event carries the `<donedata>` its final state evaluated.
    ///
    /// Every guard and action calls this before it evaluates, and the event seldom changed since
    /// the last call: the SCXML event itself is the binding's key, so `_event` (an object of seven
    /// members) is only built when the event differs from the one it was built from.
    @inline(__always)
    static func bind(_ environment: ChartEnvironment<SCXMLEvent>, in context: inout SCXMLContext) throws(ScriptError) {
        // The steady state, inlined into every guard and action: the engine numbers the events a
        // machine takes, and `_event` was built from the event with this number. Nothing of the
        // environment is copied (a copy of the event alone cost about 140 instructions).
        if context.data.isEventBound(serial: environment.eventSerial) { return }
        if case .none = environment.event { return }
        try rebind(environment, in: &context)
    }

    /// `bind` when the numbers differ: a copy of the bound event (the same name and fields, or
    /// equal ones) keeps the binding, under its new number; another event is bound.
    @inline(never)
    private static func rebind(_ environment: ChartEnvironment<SCXMLEvent>, in context: inout SCXMLContext) throws(ScriptError) {
        let serial = environment.eventSerial
        let event: SCXMLEvent
        switch environment.event {
        case nil: return
        case .event(let e)?:
            if context.data.isEventBound(name: e.name, fields: e.fieldsIdentity) {
                return context.data.noteEventSerial(serial)
            }
            event = e
        case .done?:
            let name = environment.eventName ?? ""
            let id = String(name.dropFirst("done.state.".count))
            event = SCXMLEvent(name, data: context.doneData[id] ?? .undefined, kind: .platform)
        case .error(let e)?: event = SCXMLEvent(e.name, data: e.data, kind: .platform, sendID: e.sendID)
        case .timer?: event = SCXMLEvent(environment.eventName ?? "", kind: .platform)
        }
        if let bound = context.data.boundEventKey as? BoundEvent, bound.event == event {
            return context.data.noteEventSerial(serial)
        }
        try context.data.bindEvent(
            event.scriptValue, key: BoundEvent(event: event), name: event.name, fields: event.fieldsIdentity, serial: serial)
    }

    /// The event `_event` was last built from (the data model keeps it, see `bind`).
    private final class BoundEvent {
        let event: SCXMLEvent
        init(event: SCXMLEvent) { self.event = event }
    }

    /// The SCXML Event I/O processor's type URI.
    static let scxmlProcessor = "http://www.w3.org/TR/scxml/#SCXMLEventProcessor"

    /// Declares `_sessionid`, `_name`, `_ioprocessors` and `_event` (read-only) for a new session;
    /// `_ioprocessors` lists the Basic HTTP processor too when the host has one (`httpBase`).
    static func declareSystemVariables(sessionID: String, name: String, httpBase: String?, in data: inout ECMAScriptDataModel) throws(ScriptError) {
        try data.declare("_sessionid", .string(sessionID), readOnly: true)
        try data.declare("_name", .string(name), readOnly: true)
        let location: DataValue = ["location": .string("#_scxml_" + sessionID)]
        var processors = DataObject([(scxmlProcessor, location), ("scxml", location)])
        if let httpBase {
            let http: DataValue = ["location": .string(httpBase + sessionID)]
            processors[BasicHTTPMessage.type] = http
            processors[BasicHTTPMessage.shortType] = http
        }
        try data.declare("_ioprocessors", .object(processors), readOnly: true)
        // Declared but unbound until the first event (W3C 319): `_event` reads as undefined.
        try data.bindEvent(.undefined)
    }
}

/// `<send>`: evaluates its attributes and data, then queues the event where its target says.
enum SCXMLSendRunner {
    static func send(
        _ send: SCXMLSendStep, step: SCXMLStep, scope: inout SCXMLStepRunner.Scope, environment: ChartEnvironment<SCXMLEvent>
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
        let sentID = id
        func failSend(_ message: String) -> SCXMLExecutionError {
            SCXMLExecutionError(message: message, element: step.element, line: step.line, sendID: sentID)
        }
        let data: DataValue
        do throws(ScriptError) {
            data = try eventData(send, &scope.context.data, environment)
        } catch {
            throw failSend(error.description)
        }
        if let type, type == BasicHTTPMessage.type || type == BasicHTTPMessage.shortType {
            // Basic HTTP (rule R93): the body is encoded now, the host posts it after the step.
            guard scope.context.links.httpBase != nil else {
                throw failSend("the Basic HTTP Event I/O Processor is not enabled in this host")
            }
            guard let target else {
                // SCXML D.2.2: a message that cannot be dispatched is error.communication.
                scope.raise(SCXMLEvent("error.communication", kind: .platform, sendID: id))
                return
            }
            // The event travels as the body; the outbox keeps its name and send id for `<cancel>`
            // and a failure's `error.communication`.
            let body = BasicHTTPMessage.body(event: event, data: data, isContent: send.content != nil)
            scope.context.links.outbox.append(
                SCXMLOutboundSend(
                    target: .http(url: target, body: body), event: SCXMLEvent(event ?? "HTTP.POST", sendID: id),
                    due: delay > .zero ? scope.now + delay : nil))
            return
        }
        if let type, !SCXMLSchema.sendTypes.contains(type) {
            throw failSend("the event I/O processor '\(type)' is not supported (SCXML's own and Basic HTTP)")
        }
        guard let name = event else { throw failSend("a <send> without an event name") }
        let origin = "#_scxml_" + scope.context.sessionID
        let external = SCXMLEvent(
            name, data: data, kind: .external, sendID: id, origin: origin, originType: SCXMLEventBinding.scxmlProcessor)
        switch target {
        case nil:
            scope.send(external, after: delay, id: id)
        case "#_internal"?:
            var raised = external
            raised.kind = .internal
            if delay > .zero { scope.send(raised, after: delay, id: id) } else { scope.raise(raised) }
        case let t? where t == origin:
            scope.send(external, after: delay, id: id)
        case let t? where t.hasPrefix("#_"):
            // Another session of the same SCXMLSession (rule R86), or one this machine cannot reach.
            let links = scope.context.links
            let to: SCXMLOutboundSend.Target?
            if t == "#_parent" {
                to = links.parentSessionID == nil ? nil : .parent
            } else if t.hasPrefix("#_scxml_") {
                let session = String(t.dropFirst("#_scxml_".count))
                // Under a host that addresses sessions by id, delivering is the host's job, and so
                // is reporting an unknown id.
                let reachable = links.sessions.contains(session) || links.anySessionByID == true
                to = reachable || delay > .zero ? .session(session) : nil
            } else if links.anySessionByID == true {
                // Such a host starts no invocation (its machines run without an SCXMLSession), so
                // none can start before a delayed send falls due either.
                to = nil
            } else {
                // Exiting the invoking state cancels an invocation before any transition content runs.
                // A delayed send is dispatched when it falls due (SCXML 6.2.4): its invocation may
                // start meanwhile, and if none runs then, error.communication is raised then.
                let invocation = String(t.dropFirst(2))
                let running = links.invocations[invocation].map(environment.isActive) == true
                to = running || delay > .zero ? .invocation(invocation) : nil
            }
            guard let to else {
                scope.raise(SCXMLEvent("error.communication", kind: .platform, sendID: id))
                return
            }
            scope.context.links.outbox.append(
                SCXMLOutboundSend(target: to, event: external, due: delay > .zero ? scope.now + delay : nil))
        case let t?:
            throw failSend("the target '\(t)' is not supported (only '#_internal', '#_scxml_<sessionid>' or none)")
        }
    }

    /// The data of a `<send>`: `<content>`'s value, or an object of the `namelist` variables and
    /// the `<param>`s (in that order; a repeated name keeps the last value), or `undefined`.
    static func eventData(_ send: SCXMLSendStep, _ data: inout ECMAScriptDataModel, _ environment: ChartEnvironment<SCXMLEvent>) throws(ScriptError) -> DataValue {
        if let content = send.content { return try SCXMLStepRunner.inlineValue(content, &data, environment) }
        if send.namelist.isEmpty && send.params.isEmpty { return .undefined }
        var object = DataObject()
        for name in send.namelist {
            guard name.isLocation else { throw ScriptError(.syntax, "'\(name.source)' in namelist is not a location") }
            object[name.source] = try data.evaluate(name, in: environment)
        }
        for p in send.params { object[p.name] = try data.evaluate(p.value, in: environment) }
        return .object(object)
    }
}

// The data model's evaluations for SCXML's event type. Not generic, so every call in this module
// (`cond`, `<assign>`, `<log>`, `<send>`…) picks these over the data model's generic public
// methods, which other modules run unspecialized and which then look up the metadata of
// `ChartEnvironment<Event>` at every call. Same behaviour; only the active states are passed.
extension ECMAScriptDataModel {
    mutating func evaluate(_ expression: ScriptExpression, in environment: ChartEnvironment<SCXMLEvent>) throws(ScriptError) -> DataValue {
        try evaluate(expression, activeStates: environment.activeStates)
    }

    mutating func evaluateCondition(_ expression: ScriptExpression, in environment: ChartEnvironment<SCXMLEvent>) throws(ScriptError) -> Bool {
        try evaluateCondition(expression, activeStates: environment.activeStates)
    }

    mutating func evaluateString(_ expression: ScriptExpression, in environment: ChartEnvironment<SCXMLEvent>) throws(ScriptError) -> String {
        try evaluateString(expression, activeStates: environment.activeStates)
    }

    mutating func assign(
        _ location: ScriptExpression, from expression: ScriptExpression, in environment: ChartEnvironment<SCXMLEvent>
    ) throws(ScriptError) {
        try assign(location, from: expression, activeStates: environment.activeStates)
    }

    mutating func run(_ program: ScriptProgram, in environment: ChartEnvironment<SCXMLEvent>) throws(ScriptError) {
        try run(program, activeStates: environment.activeStates)
    }

    mutating func elements(of expression: ScriptExpression, in environment: ChartEnvironment<SCXMLEvent>) throws(ScriptError) -> [DataValue] {
        try elements(of: expression, activeStates: environment.activeStates)
    }
}
