/// The rows a ``DurableStore`` keeps, as values. Times are nanoseconds since the host clock's
/// epoch (``HostClock``); snapshots and events are JSON text, so the rows read without the
/// chart's Swift types (the journal is an audit log, rule D5).

/// An instance as stored: where it is and which chart runs it.
public struct InstanceRecord: Hashable, Sendable, Codable {
    /// The instance's id.
    public var id: String
    /// The registered name of its chart.
    public var chartName: String
    /// The chart version it is pinned to.
    public var chartVersion: Int
    /// Increases by one with every committed macrostep: the compare-and-swap token (rule D4).
    public var revision: Int64
    /// The sequence number of the last journal row (the start is 0).
    public var sequence: Int64
    /// The clock time at which the machine's own time was zero (when it was created).
    public var originNanoseconds: Int64
    /// Whether the machine reached a top-level final state. Finished instances are kept until deleted.
    public var finished: Bool
    /// The active states at every level, in document order (the final state when finished).
    public var activeStates: [String]
    /// The machine's `ChartSnapshot`, as JSON.
    public var snapshot: String

    /// Describes an instance row.
    public init(
        id: String, chartName: String, chartVersion: Int, revision: Int64, sequence: Int64,
        originNanoseconds: Int64, finished: Bool, activeStates: [String], snapshot: String
    ) {
        self.id = id
        self.chartName = chartName
        self.chartVersion = chartVersion
        self.revision = revision
        self.sequence = sequence
        self.originNanoseconds = originNanoseconds
        self.finished = finished
        self.activeStates = activeStates
        self.snapshot = snapshot
    }
}

/// What consumed a macrostep.
public enum JournalKind: String, Hashable, Sendable, Codable {
    /// The machine was created and entered its initial configuration.
    case start
    /// An event sent with ``DurableHost/send(_:to:idempotencyKey:)``.
    case event
    /// Delayed sends that fell due (all those due at the same instant).
    case timers
    /// The instance moved to another chart version (rule D12). The row's event is a JSON object
    /// with `from`, `to`, `renamed` and the adopted `snapshot`, so a replay can start from it.
    case migrate
}

/// One journal row: a committed macrostep, in sequence order (rule D5).
public struct JournalEntry: Hashable, Sendable, Codable {
    /// The instance.
    public var instanceID: String
    /// 0 for the start, then 1, 2, … without gaps.
    public var sequence: Int64
    /// What consumed the macrostep.
    public var kind: JournalKind
    /// The event consumed as JSON (for timers: the JSON array of the fired events; for the start: `null`).
    public var event: String
    /// The active states after the macrostep, every level, in document order.
    public var configuration: [String]
    /// The clock time of the commit.
    public var atNanoseconds: Int64
    /// The idempotency key the event was sent with, if any.
    public var idempotencyKey: String?

    /// Describes a journal row.
    public init(
        instanceID: String, sequence: Int64, kind: JournalKind, event: String, configuration: [String],
        atNanoseconds: Int64, idempotencyKey: String?
    ) {
        self.instanceID = instanceID
        self.sequence = sequence
        self.kind = kind
        self.event = event
        self.configuration = configuration
        self.atNanoseconds = atNanoseconds
        self.idempotencyKey = idempotencyKey
    }
}

/// A pending delayed send as a row: an index of the snapshot's pending sends with absolute due
/// times, written in the same transaction as the snapshot (rule D6).
public struct TimerRecord: Hashable, Sendable, Codable {
    /// The instance.
    public var instanceID: String
    /// Its place in firing order.
    public var position: Int
    /// The clock time it falls due.
    public var dueNanoseconds: Int64
    /// The event it sends, as JSON.
    public var event: String
    /// Its send id, if it has one.
    public var sendID: String?

    /// Describes a timer row.
    public init(instanceID: String, position: Int, dueNanoseconds: Int64, event: String, sendID: String?) {
        self.instanceID = instanceID
        self.position = position
        self.dueNanoseconds = dueNanoseconds
        self.event = event
        self.sendID = sendID
    }
}

/// A side effect a macrostep asked for, written in the macrostep's transaction and dispatched
/// after commit, at least once (rule D7).
public struct OutboxEntry: Hashable, Sendable, Codable {
    /// The instance.
    public var instanceID: String
    /// The journal sequence of the macrostep that asked for it.
    public var sequence: Int64
    /// Its place among that macrostep's effects.
    public var position: Int
    /// What to do: `work` (``Statechart/ActionScope/perform(_:_:)``), `invoke.start`, `invoke.cancel`,
    /// or `send` (an event for another instance, ``DurableMessaging``), which the host delivers itself.
    public var kind: String
    /// The work's or invocation's name; for `send`, the id of the instance the event goes to.
    public var name: String
    /// The id of the state that asked for it (empty for `send`).
    public var state: String
    /// For `send`, the event as JSON; `nil` for the other kinds.
    public var payload: String?
    /// Whether a dispatch of it succeeded.
    public var dispatched: Bool

    /// The idempotency key a receiver deduplicates on: instance, sequence and position.
    public var idempotencyKey: String { "\(instanceID)/\(sequence)/\(position)" }

    /// Describes an outbox row.
    public init(
        instanceID: String, sequence: Int64, position: Int, kind: String, name: String, state: String,
        payload: String? = nil, dispatched: Bool = false
    ) {
        self.instanceID = instanceID
        self.sequence = sequence
        self.position = position
        self.kind = kind
        self.name = name
        self.state = state
        self.payload = payload
        self.dispatched = dispatched
    }
}

/// An idempotency key with the event it was first used with and the outcome it recorded (rule D3).
public struct IdempotencyRecord: Hashable, Sendable, Codable {
    /// The key.
    public var key: String
    /// The event's JSON as first sent.
    public var event: String
    /// The outcome that was acknowledged.
    public var outcome: SendOutcome

    /// Describes a recorded key.
    public init(key: String, event: String, outcome: SendOutcome) {
        self.key = key
        self.event = event
        self.outcome = outcome
    }
}

/// What an acknowledged send did.
public struct SendOutcome: Hashable, Sendable, Codable {
    /// The journal sequence of the macrostep.
    public var sequence: Int64
    /// Whether the event enabled a transition (an event that enables none is still consumed and journalled).
    public var handled: Bool
    /// The active states after it, every level, in document order.
    public var configuration: [String]
    /// Whether the machine finished.
    public var finished: Bool
    /// `true` when this is the recorded outcome of an earlier send with the same key (nothing ran).
    public var replayed: Bool

    /// Describes an outcome.
    public init(sequence: Int64, handled: Bool, configuration: [String], finished: Bool, replayed: Bool = false) {
        self.sequence = sequence
        self.handled = handled
        self.configuration = configuration
        self.finished = finished
        self.replayed = replayed
    }
}

/// Everything one macrostep writes, committed by ``DurableStore/commit(_:)`` in one transaction.
public struct MacrostepCommit: Hashable, Sendable {
    /// The instance row after the step; its `revision` must be `expectedRevision + 1`. Its chart
    /// name is the one it was created with; its chart version may change (rule D12).
    public var instance: InstanceRecord
    /// The revision the writer read; the commit is refused if the stored one differs (rule D4).
    public var expectedRevision: Int64
    /// The journal row.
    public var journal: JournalEntry
    /// The idempotency key to record, if the event had one.
    public var idempotency: IdempotencyRecord?
    /// The instance's timers after the step (they replace the stored ones).
    public var timers: [TimerRecord]
    /// The step's effects.
    public var outbox: [OutboxEntry]

    /// Describes a commit.
    public init(
        instance: InstanceRecord, expectedRevision: Int64, journal: JournalEntry, idempotency: IdempotencyRecord?,
        timers: [TimerRecord], outbox: [OutboxEntry]
    ) {
        self.instance = instance
        self.expectedRevision = expectedRevision
        self.journal = journal
        self.idempotency = idempotency
        self.timers = timers
        self.outbox = outbox
    }
}
