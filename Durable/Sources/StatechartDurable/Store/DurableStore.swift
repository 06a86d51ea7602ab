/// Where a ``DurableHost`` keeps its instances: one protocol for the in-memory store, SQLite and
/// (later) PostgreSQL. Each method is one transaction; a method that throws wrote nothing.
///
/// The write path is ``commit(_:)``: a whole macrostep (snapshot, journal row, idempotency key,
/// timers, outbox) as one value, so a SQL store runs it as one transaction with a revision
/// compare-and-swap, and no store hands out an open transaction.
public protocol DurableStore: Sendable {
    /// Creates or migrates the schema (a SQL store's versioned migrations). Idempotent.
    func prepare() async throws(DurableError)

    /// Inserts a new instance with its start journal row, timers and effects (its revision is
    /// `commit.expectedRevision + 1`, normally 1).
    ///
    /// - Throws: ``DurableError/instanceExists(_:)``.
    func insert(_ commit: MacrostepCommit) async throws(DurableError)

    /// Commits one macrostep: replaces the instance row if its stored revision is
    /// `commit.expectedRevision`, appends the journal row, records the idempotency key, replaces
    /// the instance's timers and appends its effects — all or nothing.
    ///
    /// - Throws: ``DurableError/revisionConflict(instance:expected:found:)`` when another writer
    ///   committed first, ``DurableError/duplicateIdempotencyKey(instance:key:)`` when the key is
    ///   recorded already, ``DurableError/unknownInstance(_:)`` when the row is gone.
    func commit(_ commit: MacrostepCommit) async throws(DurableError)

    /// The instance row, or `nil`.
    func instance(_ id: String) async throws(DurableError) -> InstanceRecord?

    /// The instances whose active states (at any level) include `state`, by id; all instances when `nil`.
    func instances(inState state: String?) async throws(DurableError) -> [InstanceRecord]

    /// Deletes the instance and everything kept about it; returns whether it existed.
    func delete(_ id: String) async throws(DurableError) -> Bool

    /// The journal of an instance, in sequence order.
    func journal(of id: String) async throws(DurableError) -> [JournalEntry]

    /// The recorded idempotency key of an instance, or `nil`.
    func idempotency(_ key: String, of id: String) async throws(DurableError) -> IdempotencyRecord?

    /// The timers of an instance, in firing order.
    func timers(of id: String) async throws(DurableError) -> [TimerRecord]

    /// The ids of instances with a timer due at or before `time`, earliest due first, at most `limit`.
    func instancesWithTimersDue(atOrBefore time: Int64, limit: Int) async throws(DurableError) -> [String]

    /// Effects not yet dispatched, oldest first, at most `limit`.
    func pendingOutbox(limit: Int) async throws(DurableError) -> [OutboxEntry]

    /// Marks an effect dispatched.
    func markDispatched(_ entry: OutboxEntry) async throws(DurableError)

    /// Forgets the idempotency keys whose macrostep was committed before `time` (the clock time
    /// of the key's latest journal row, in nanoseconds), of every instance; returns how many it
    /// forgot. The journal rows keep their keys (rule D18).
    func expireIdempotencyKeys(committedBefore time: Int64) async throws(DurableError) -> Int
}
