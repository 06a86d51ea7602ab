import Statechart

/// What a session's context knows of the sessions around it (rule R86), kept up to date by its
/// ``SCXMLSession``: where `<send>` may send, and what it sent that other sessions must receive.
struct SCXMLSessionLinks: Hashable, Sendable, Codable {
    /// The invoking session's id, for a session started by `<invoke>` (`#_parent` reaches it).
    var parentSessionID: String?
    /// This session's invocations that run now, by id, with the state that invoked each
    /// (`#_<invokeid>` reaches them while that state is active: exiting it cancels them).
    var invocations: [String: String] = [:]
    /// The ids of every session of the same ``SCXMLSession`` (`#_scxml_<sessionid>` reaches them).
    var sessions: Set<String> = []
    /// `true` when a host of many sessions addressed by id delivers the outbox
    /// (``SCXMLContext/reachesAnySessionByID``): every `#_scxml_<sessionid>` is then reachable.
    /// Optional so that snapshots taken before it existed decode, and those that do not use it
    /// encode as before.
    var anySessionByID: Bool?
    /// Events for other sessions, queued by `<send>` and delivered by the ``SCXMLSession``: after
    /// the step that sent them, or at their due time.
    var outbox: [SCXMLOutboundSend] = []
    /// The values the invoking `<invoke>` passed (`namelist`, `<param>`): they replace the
    /// `<data>` of the same id when the session starts (SCXML 6.4).
    var passedValues: [String: DataValue] = [:]
    /// Counts the invocations started, for the ids of those without one (`stateid.N`).
    var invocationCounter = 0
    /// Set by an `<invoke>`'s start action for the session to pick up; `nil` between steps, so
    /// never part of a snapshot.
    var started: SCXMLStartedInvocation?
    /// Where the host's Basic HTTP processor receives (``BasicHTTPEventProcessor``), the session
    /// id left off; `nil` when the host has none. Set by the host, never part of a snapshot (a
    /// restored session may be served at another address).
    var httpBase: String?

    private enum CodingKeys: String, CodingKey {
        case parentSessionID, invocations, sessions, anySessionByID, outbox, passedValues, invocationCounter
    }
}

/// An event a session sent to another one.
struct SCXMLOutboundSend: Hashable, Sendable, Codable {
    /// Who receives it.
    enum Target: Hashable, Sendable, Codable {
        /// The invoking session (`#_parent`).
        case parent
        /// An invocation of the sender (`#_<invokeid>`).
        case invocation(String)
        /// Any session of the same ``SCXMLSession`` (`#_scxml_<sessionid>`).
        case session(String)
        /// A URL, through the Basic HTTP Event I/O Processor (rule R93): the form body, already
        /// encoded when the `<send>` ran, is posted there.
        case http(url: String, body: String)
    }

    var target: Target
    var event: SCXMLEvent
    /// When it is due, in the sending machine's time; `nil`: after the step that sent it.
    var due: Duration?
}
