import Statechart

/// An event one session sent to another by its id (`<send target="#_scxml_<sessionid>">`), for a
/// host that runs many sessions and delivers between them itself
/// (``SCXMLContext/takeOutboundSends(dueBy:)``).
public struct SCXMLOutboundEvent: Hashable, Sendable {
    /// The receiving session's id: `<sessionid>` of the target `#_scxml_<sessionid>`.
    public var sessionID: String
    /// The event as the receiver takes it: an external event with its name, data and `sendid`,
    /// `origin` `#_scxml_` followed by the sender's session id (where a reply goes) and `origintype`
    /// the SCXML Event I/O processor.
    public var event: SCXMLEvent
    /// When it falls due, in the sending machine's time (``ChartInstance/now``), for a delayed
    /// send; `nil` for one due after the step that sent it.
    public var due: Duration?

    /// Describes an event for the session `sessionID`.
    public init(sessionID: String, event: SCXMLEvent, due: Duration? = nil) {
        self.sessionID = sessionID
        self.event = event
        self.due = due
    }
}

/// Running SCXML machines under a host of many sessions addressed by id, without an
/// ``SCXMLSession`` (a durable host that runs each machine as its own instance, say).
///
/// ```swift
/// var context = SCXMLContext(sessionID: "order-42", reachesAnySessionByID: true)
/// var machine = ChartInstance(chart: chart, context: context)
/// try machine.start()
/// for send in machine.context.takeOutboundSends(dueBy: machine.now) {
///     // deliver send.event to the session send.sessionID
/// }
/// ```
///
/// With ``reachesAnySessionByID`` on, `<send target="#_scxml_<id>">` queues the event for the
/// session `id` whatever `id` is; the host takes it after the step and delivers it, and reports an
/// id it does not know. `#_parent` and `#_<invokeid>` reach nothing (the host starts no
/// invocations): such a send raises `error.communication` in the sender, delayed or not.
extension SCXMLContext {
    /// Creates a context with its session id (`_sessionid`) chosen by the host, so that the
    /// events the machine sends carry `origin` `#_scxml_<sessionID>` and a receiver can reply to
    /// it. An empty id is replaced by a random one when the machine starts, as by default.
    ///
    /// - Parameters:
    ///   - sessionID: The session's id; a host uses its own name for the machine (an instance id).
    ///   - reachesAnySessionByID: See ``reachesAnySessionByID``.
    public init(sessionID: String, reachesAnySessionByID: Bool = false) {
        self.init()
        setSessionID(sessionID)
        self.reachesAnySessionByID = reachesAnySessionByID
    }

    /// Sets the session id (`_sessionid`) of a context before its machine starts, keeping the rest
    /// as it is; see ``init(sessionID:reachesAnySessionByID:)``.
    /// After the start it would change the `origin` of later sends but not `_sessionid`, so a host
    /// sets it only on the context a machine starts with.
    public mutating func setSessionID(_ id: String) {
        sessionID = id
    }

    /// Whether every `#_scxml_<sessionid>` target is reachable: `<send>` queues the event for the
    /// host to take with ``takeOutboundSends(dueBy:)`` instead of raising `error.communication`
    /// for a session it does not know. Default `false`; an ``SCXMLSession`` leaves it off, since
    /// it knows its sessions.
    public var reachesAnySessionByID: Bool {
        get { links.anySessionByID == true }
        set { links.anySessionByID = newValue ? true : nil }
    }

    /// Takes the events sent to other sessions by id that are due by `time`: those of steps that
    /// have run, and delayed ones whose time (the machine's, ``ChartInstance/now``) has come, in
    /// the order they are due (sends due together in the order they were sent). Later delayed
    /// sends stay queued, and so in the machine's snapshot, until they fall due or a `<cancel>`
    /// removes them.
    ///
    /// - Parameter time: The machine time the host has reached.
    public mutating func takeOutboundSends(dueBy time: Duration) -> [SCXMLOutboundEvent] {
        func isDue(_ send: SCXMLOutboundSend) -> Bool {
            guard case .session = send.target else { return false }
            return send.due.map { $0 <= time } ?? true
        }
        guard links.outbox.contains(where: isDue) else { return [] }
        let due = links.outbox.enumerated().filter { isDue($0.element) }
            .sorted { ($0.element.due ?? time, $0.offset) < ($1.element.due ?? time, $1.offset) }
        links.outbox.removeAll(where: isDue)
        return due.compactMap { entry in
            guard case .session(let id) = entry.element.target else { return nil }
            return SCXMLOutboundEvent(sessionID: id, event: entry.element.event, due: entry.element.due)
        }
    }

    /// The sends to other sessions by id still queued, in the order they were sent: a host that
    /// keeps durable timers makes one of each delayed one, due at ``SCXMLOutboundEvent/due``.
    public var queuedOutboundSends: [SCXMLOutboundEvent] {
        links.outbox.compactMap { send in
            guard case .session(let id) = send.target else { return nil }
            return SCXMLOutboundEvent(sessionID: id, event: send.event, due: send.due)
        }
    }

    /// The machine time at which the earliest delayed send to another session by id falls due, if
    /// one is queued: a host wakes the machine then and takes it with ``takeOutboundSends(dueBy:)``.
    public var nextOutboundDueTime: Duration? {
        links.outbox.lazy.filter {
            if case .session = $0.target { return true }
            return false
        }.compactMap(\.due).min()
    }

    /// Discards the delayed sends to other sessions still queued, as a session that ends discards
    /// its own delayed events (a host calls it when the machine has finished).
    public mutating func discardDelayedOutboundSends() {
        links.outbox.removeAll { $0.due != nil }
    }
}
