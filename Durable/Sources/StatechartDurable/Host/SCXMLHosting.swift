import Statechart
import StatechartInterchange

/// SCXML charts under a durable host (rule D22): `<send target="#_scxml_<id>">` reaches the
/// instance `id`, through the outbox as a Swift chart's messages do (rule D20).
///
/// Each instance is its own SCXML session, named by the instance id (`_sessionid`), so the events
/// it sends carry `origin` `#_scxml_<instance>` and a receiver replies with
/// `<send targetexpr="_event.origin">`. Every `#_scxml_<id>` is reachable
/// (``SCXMLContext/reachesAnySessionByID``): the host delivers, and reports an unknown instance as
/// it does for D20. After each step the sends due are taken out of the context and committed as
/// outbox rows of kind `send`; delayed ones stay in the snapshot and are durable timers of the
/// instance until they fall due (the runner's `fire`), then go out the same way.
enum SCXMLHosting {
    /// The context a new instance starts with: an SCXML chart's session id is the instance id and
    /// every session id is reachable; any other chart's context is left as it is.
    static func startingContext<C>(_ context: C, instance id: String) -> C {
        guard C.self == SCXMLContext.self, var scxml = context as? SCXMLContext else { return context }
        scxml.setSessionID(id)
        scxml.reachesAnySessionByID = true
        return scxml as? C ?? context
    }

    /// Whether a stored instance was started as a session of the host: every instance is, but for
    /// an SCXML instance started before rule D22 (its context does not reach sessions by id, and
    /// its session id is its own), which keeps its session as it was and replays as it started.
    static func wasStartedHosted<E: Hashable & Sendable, C>(_ snapshot: ChartSnapshot<E, C>) -> Bool {
        guard C.self == SCXMLContext.self, let context = snapshot.context as? SCXMLContext else { return true }
        return context.reachesAnySessionByID
    }

    /// Takes an SCXML machine's sends to other instances due by its own time out of its context,
    /// as messages carrying the SCXML event as JSON (what the receiver's `deliver` decodes). A
    /// machine that has finished discards its delayed ones, as it discards its own timers.
    static func takeSends<E: Hashable & Sendable, C>(from instance: inout ChartInstance<E, C>) throws(DurableError)
        -> [DurableMessage]
    {
        guard C.self == SCXMLContext.self, var context = instance.context as? SCXMLContext,
            !context.queuedOutboundSends.isEmpty
        else { return [] }
        let sends = context.takeOutboundSends(dueBy: instance.now)
        if instance.hasStarted && !instance.isRunning { context.discardDelayedOutboundSends() }
        guard let emptied = context as? C else { return [] }
        instance.context = emptied
        var messages: [DurableMessage] = []
        for send in sends { messages.append(try DurableMessage(send.event, to: send.sessionID)) }
        return messages
    }

    /// An SCXML machine's delayed sends to other instances, as the instance's durable timers.
    static func pendingSends<E: Hashable & Sendable, C>(of instance: ChartInstance<E, C>) throws(DurableError)
        -> [PendingTimer]
    {
        guard C.self == SCXMLContext.self, let context = instance.context as? SCXMLContext else { return [] }
        var timers: [PendingTimer] = []
        for send in context.queuedOutboundSends {
            guard let due = send.due else { continue }
            timers.append(PendingTimer(due: due, event: try DurableJSON.encode(send.event), sendID: send.event.sendID))
        }
        return timers
    }

    /// When the earliest delayed send of an SCXML machine to another instance falls due.
    static func nextSendDueTime<E: Hashable & Sendable, C>(of instance: ChartInstance<E, C>) -> Duration? {
        guard C.self == SCXMLContext.self, let context = instance.context as? SCXMLContext else { return nil }
        return context.nextOutboundDueTime
    }
}
