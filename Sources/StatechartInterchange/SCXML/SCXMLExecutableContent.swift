import Statechart

/// `<raise>`, `<send>`, `<cancel>` and `<log>` as engine actions.
///
/// - `<raise event>` → ``Action/raise(_:)`` (internal queue).
/// - `<send event>` with no target → ``Action/send(_:delay:id:)`` (external queue, after `delay`).
/// - `<send event target="#_internal">` → ``Action/raise(_:)``; with a delay, a delayed send: the
///   event arrives when its time comes, while the machine is idle, exactly as an internal event
///   raised at that moment would be handled.
/// - `<cancel sendid>` → ``Action/cancel(id:)``.
/// - `<log label>` → ``Action/log(label:message:)``.
enum SCXMLExecutableContent {
    static func action(_ e: XMLElementNode, attributes: AttributeReader) throws(SCXMLError) -> Action<SCXMLEvent, SCXMLContext> {
        let line = e.location.line
        switch e.name {
        case "raise":
            guard let event = try eventName(e, attributes: attributes) else {
                throw .missingAttribute("event", element: e.name, line: line)
            }
            return .raise(SCXMLEvent(event, kind: .internal))
        case "send":
            guard let event = try eventName(e, attributes: attributes) else {
                throw .missingAttribute("event", element: e.name, line: line)
            }
            if let type = e.attributes["type"], !SCXMLSchema.sendTypes.contains(type) {
                throw attributes.invalid("type", type, "only the SCXML Event I/O processor is supported")
            }
            var delay = Duration.zero
            if let text = e.attributes["delay"] {
                switch SCXMLDelay.parse(text) {
                case .success(let d): delay = d
                case .failure(let f): throw attributes.invalid("delay", text, f.reason)
                }
            }
            let id = try attributes.token("id")
            switch e.attributes["target"] {
            case nil:
                return .send(SCXMLEvent(event, sendID: id), delay: delay, id: id)
            case "#_internal"?:
                let raised = SCXMLEvent(event, kind: .internal, sendID: id)
                return delay > .zero ? .send(raised, delay: delay, id: id) : .raise(raised)
            case let target?:
                throw attributes.invalid(
                    "target", target, "only '#_internal' or no target (the external queue) is supported")
            }
        case "cancel":
            guard let id = try attributes.token("sendid") else {
                throw .missingAttribute("sendid", element: e.name, line: line)
            }
            return .cancel(id: id)
        case "log":
            return .log(label: e.attributes["label"] ?? "", message: e.attributes["expr"].flatMap(stringLiteral))
        default:
            preconditionFailure("not executable content: \(e.name)")
        }
    }

    /// The text of a string literal written `'text'` or `"text"` without quotes or backslashes
    /// inside, or `nil` for anything else.
    static func stringLiteral(_ text: String) -> String? {
        let t = text.trimmingWhitespace()
        guard t.count >= 2, let q = t.first, q == "'" || q == "\"", t.last == q else { return nil }
        let inner = t.dropFirst().dropLast()
        guard !inner.contains(q), !inner.contains("\\") else { return nil }
        return String(inner)
    }

    /// The `event` attribute: one event name, without white space or wildcards.
    private static func eventName(_ e: XMLElementNode, attributes: AttributeReader) throws(SCXMLError) -> String? {
        guard let name = try attributes.token("event") else { return nil }
        if name.contains("*") { throw attributes.invalid("event", name, "an event name cannot contain '*'") }
        return name
    }
}
