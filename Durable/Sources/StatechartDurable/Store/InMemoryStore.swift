/// A ``DurableStore`` in memory: for unit tests of users' own code and of the host. Every method
/// runs without suspending inside the actor, so each is atomic like a transaction; nothing
/// survives the process.
public actor InMemoryStore: DurableStore {
    var rows: [String: InstanceRecord] = [:]
    var journals: [String: [JournalEntry]] = [:]
    var keys: [String: [String: IdempotencyRecord]] = [:]
    var timerRows: [String: [TimerRecord]] = [:]
    var outbox: [OutboxEntry] = []

    /// Creates an empty store.
    public init() {}

    /// Nothing to prepare.
    public func prepare() async throws(DurableError) {}

    /// Inserts a new instance (see ``DurableStore/insert(_:)``).
    public func insert(_ commit: MacrostepCommit) async throws(DurableError) {
        let id = commit.instance.id
        guard rows[id] == nil else { throw .instanceExists(id) }
        rows[id] = commit.instance
        journals[id] = [commit.journal]
        keys[id] = [:]
        timerRows[id] = commit.timers
        outbox += commit.outbox
    }

    /// Commits a macrostep with a revision compare-and-swap (see ``DurableStore/commit(_:)``).
    public func commit(_ commit: MacrostepCommit) async throws(DurableError) {
        let id = commit.instance.id
        guard let stored = rows[id] else { throw .unknownInstance(id) }
        guard stored.revision == commit.expectedRevision else {
            throw .revisionConflict(instance: id, expected: commit.expectedRevision, found: stored.revision)
        }
        if let key = commit.idempotency, keys[id]?[key.key] != nil {
            throw .duplicateIdempotencyKey(instance: id, key: key.key)
        }
        rows[id] = commit.instance
        journals[id, default: []].append(commit.journal)
        if let key = commit.idempotency { keys[id, default: [:]][key.key] = key }
        timerRows[id] = commit.timers
        outbox += commit.outbox
    }

    /// The instance row, or `nil`.
    public func instance(_ id: String) async throws(DurableError) -> InstanceRecord? { rows[id] }

    /// The instances in a state (every instance when `state` is `nil`), by id.
    public func instances(inState state: String?) async throws(DurableError) -> [InstanceRecord] {
        let matching = state.map { s in rows.values.filter { $0.activeStates.contains(s) } } ?? Array(rows.values)
        return matching.sorted { $0.id < $1.id }
    }

    /// Deletes an instance and its rows.
    public func delete(_ id: String) async throws(DurableError) -> Bool {
        guard rows.removeValue(forKey: id) != nil else { return false }
        journals[id] = nil
        keys[id] = nil
        timerRows[id] = nil
        outbox.removeAll { $0.instanceID == id }
        return true
    }

    /// The journal in sequence order.
    public func journal(of id: String) async throws(DurableError) -> [JournalEntry] { journals[id] ?? [] }

    /// A recorded idempotency key.
    public func idempotency(_ key: String, of id: String) async throws(DurableError) -> IdempotencyRecord? {
        keys[id]?[key]
    }

    /// The timers in firing order.
    public func timers(of id: String) async throws(DurableError) -> [TimerRecord] { timerRows[id] ?? [] }

    /// Instances with a timer due, earliest first.
    public func instancesWithTimersDue(atOrBefore time: Int64, limit: Int) async throws(DurableError) -> [String] {
        let due = timerRows.compactMap { id, timers -> (String, Int64)? in
            guard let first = timers.map(\.dueNanoseconds).min(), first <= time else { return nil }
            return (id, first)
        }
        return due.sorted { ($0.1, $0.0) < ($1.1, $1.0) }.prefix(max(limit, 0)).map(\.0)
    }

    /// Effects not dispatched yet.
    public func pendingOutbox(limit: Int) async throws(DurableError) -> [OutboxEntry] {
        Array(outbox.filter { !$0.dispatched }.prefix(max(limit, 0)))
    }

    /// Marks an effect dispatched.
    public func markDispatched(_ entry: OutboxEntry) async throws(DurableError) {
        for i in outbox.indices where outbox[i].idempotencyKey == entry.idempotencyKey { outbox[i].dispatched = true }
    }

    /// Forgets the keys of macrosteps committed before `time` (see
    /// ``DurableStore/expireIdempotencyKeys(committedBefore:)``).
    public func expireIdempotencyKeys(committedBefore time: Int64) async throws(DurableError) -> Int {
        var forgotten = 0
        for (id, journal) in journals {
            // A key's commit is its latest journal row: a forgotten key may have been used again.
            var latest: [String: Int64] = [:]
            for entry in journal {
                if let key = entry.idempotencyKey { latest[key] = max(latest[key] ?? .min, entry.atNanoseconds) }
            }
            for (key, at) in latest where at < time {
                if keys[id]?.removeValue(forKey: key) != nil { forgotten += 1 }
            }
        }
        return forgotten
    }
}
