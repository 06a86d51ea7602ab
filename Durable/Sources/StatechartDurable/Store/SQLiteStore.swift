import Foundation
import SQLiteNIO

/// A ``DurableStore`` in an SQLite file: one process, WAL journal, `synchronous=FULL` (a commit
/// is on disk before it returns, rule D1), schema created and migrated by the store (rule D8).
///
/// ```swift
/// let store = try await SQLiteStore(path: "/var/lib/orders/machines.sqlite")
/// let host = DurableHost(store: store)
/// ```
///
/// One connection, used by one transaction at a time (an async lock inside the actor): SQLite has
/// one writer per file anyway. A second store on the same file (another host in the process, or
/// the next process after a restart) waits for the lock up to the busy timeout.
public actor SQLiteStore: DurableStore {
    /// The connection that writes (one transaction at a time).
    let connection: SQLiteConnection
    /// The connection that reads (WAL: readers do not wait for the writer).
    let reader: SQLiteConnection
    /// The path of the database file.
    public nonisolated let path: String
    var busy = false
    var waiters: [CheckedContinuation<Void, Never>] = []
    /// Group commit: the batch in flight and the commits waiting for the next (rule D13).
    let commits: CommitQueue
    /// Transactions that committed macrosteps (through ``commit(_:)``), and the macrosteps they
    /// committed: their ratio is the group commit's batch size (rule D13).
    public internal(set) var transactionsCommitted = 0
    /// See ``transactionsCommitted``.
    public internal(set) var macrostepsCommitted = 0
    /// The most macrosteps one transaction commits (group commit, rule D13).
    public nonisolated let maximumBatch: Int

    /// Opens (creating if needed) the database file and migrates its schema.
    ///
    /// - Throws: ``DurableError/storage(_:)`` when the file cannot be opened,
    ///   ``DurableError/schema(_:)`` when its schema is newer than this package or a migration fails.
    ///
    /// - Parameters:
    ///   - path: The database file.
    ///   - maximumBatch: The most macrosteps one transaction commits when commits arrive while
    ///     another transaction is on its way to disk (rule D13); 1 turns group commit off.
    public init(path: String, maximumBatch: Int = 256) async throws(DurableError) {
        self.maximumBatch = max(maximumBatch, 1)
        commits = CommitQueue(maximumBatch: maximumBatch, maximumLeaders: 1)
        let writer: SQLiteConnection
        do {
            writer = try await SQLiteConnection.open(storage: .file(path: path))
        } catch {
            throw .storage("cannot open SQLite database '\(path)': \(error)")
        }
        do {
            reader = try await SQLiteConnection.open(storage: .file(path: path))
        } catch {
            try? await writer.close()
            throw .storage("cannot open SQLite database '\(path)': \(error)")
        }
        connection = writer
        self.path = path
        do {
            try await prepare()
            _ = try await reader.query("PRAGMA busy_timeout = 0")  // see prepare() and reading(_:)
        } catch let error as DurableError {
            await close()
            throw error
        } catch {
            await close()
            throw .storage("cannot prepare SQLite database '\(path)': \(error)")
        }
    }

    /// Closes the connection; the store cannot be used afterwards. A store that is dropped
    /// without this closes its connection in the background.
    public func close() async {
        if !connection.isClosed { try? await connection.close() }
        if !reader.isClosed { try? await reader.close() }
    }

    deinit {
        // SQLiteNIO requires every connection to be closed; the future keeps it alive until then.
        // Closing twice is not safe in SQLiteNIO 1.13.2 (its hook cleanup dereferences the freed
        // handle), so only a connection still open is closed here.
        if !connection.isClosed { _ = connection.close() }
        if !reader.isClosed { _ = reader.close() }
    }

    // MARK: - Schema

    /// Sets WAL and synchronous commits, then applies the migrations the file lacks, each in
    /// its own transaction (rule D8). Several stores may open one new file at once: each
    /// migration re-reads the version inside its transaction, so it is applied once.
    public func prepare() async throws(DurableError) {
        try await exclusively { () async throws(DurableError) in
            // The writer never sleeps inside SQLite waiting for another connection's write lock:
            // that would hold a thread of SwiftNIO's shared pool, which the lock's holder may need
            // to finish (two stores on one file in one process starve each other). `begin()`
            // waits asynchronously instead.
            _ = try await run("PRAGMA busy_timeout = 0")
            let mode = try await whileBusy { () async throws(DurableError) in
                try await run("PRAGMA journal_mode = WAL").first?.column("journal_mode")?.string
            }
            guard mode?.lowercased() == "wal" else { throw .storage("SQLite refused WAL mode (it answered \(mode ?? "nothing"))") }
            _ = try await run("PRAGMA synchronous = FULL")
            try await transaction { () async throws(DurableError) in
                _ = try await run(
                    "CREATE TABLE IF NOT EXISTS statechart_schema (version INTEGER PRIMARY KEY, applied_ns INTEGER NOT NULL)")
            }
            while try await migrateOneStep() {}
        }
    }

    /// Applies the next migration the file lacks, in one transaction; `false` when it lacks none.
    func migrateOneStep() async throws(DurableError) -> Bool {
        try await transaction { () async throws(DurableError) -> Bool in
            let current = try await run("SELECT COALESCE(MAX(version), 0) AS v FROM statechart_schema").first?.column("v")?.integer ?? 0
            guard current <= SQLiteSchema.latestVersion else {
                throw .schema(
                    "the database '\(path)' has schema version \(current); this package knows versions up to \(SQLiteSchema.latestVersion)")
            }
            guard current < SQLiteSchema.latestVersion else { return false }
            let version = Int(current) + 1
            for statement in SQLiteSchema.migrations[version - 1] {
                do {
                    _ = try await connection.query(statement, [])
                } catch {
                    throw .schema("migration \(version) failed: \(error)")
                }
            }
            _ = try await run(
                "INSERT INTO statechart_schema (version, applied_ns) VALUES (?, ?)",
                [.integer(version), .integer(Int(HostClock.wallTime().nanoseconds))])
            return true
        }
    }

    /// The schema version of the file.
    public func schemaVersion() async throws(DurableError) -> Int {
        Int(try await run("SELECT COALESCE(MAX(version), 0) AS v FROM statechart_schema").first?.column("v")?.integer ?? 0)
    }

    /// The connection's `PRAGMA synchronous` level (2 is FULL: a commit is on disk before it returns).
    public func synchronousLevel() async throws(DurableError) -> Int {
        Int(try await run("PRAGMA synchronous").first?.column("synchronous")?.integer ?? -1)
    }

    // MARK: - Writes

    /// Inserts a new instance (see ``DurableStore/insert(_:)``).
    public func insert(_ commit: MacrostepCommit) async throws(DurableError) {
        try await exclusively { () async throws(DurableError) in
            try await transaction { () async throws(DurableError) in
                let id = commit.instance.id
                let exists = try await run("SELECT 1 AS one FROM statechart_instances WHERE id = ?", [.text(id)])
                guard exists.isEmpty else { throw .instanceExists(id) }
                let i = commit.instance
                _ = try await run(
                    """
                    INSERT INTO statechart_instances
                    (id, chart_name, chart_version, revision, sequence, origin_ns, finished, active_states, snapshot)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                    [
                        .text(id), .text(i.chartName), .integer(i.chartVersion), .integer(Int(i.revision)),
                        .integer(Int(i.sequence)), .integer(Int(i.originNanoseconds)), .integer(i.finished ? 1 : 0),
                        .text(try Self.json(i.activeStates)), .text(i.snapshot),
                    ])
                try await writeRows(of: commit)
            }
        }
    }

    /// The rows a macrostep adds or replaces besides the instance row.
    func writeRows(of commit: MacrostepCommit) async throws(DurableError) {
        let id = commit.instance.id
        _ = try await run("DELETE FROM statechart_active_states WHERE instance_id = ?", [.text(id)])
        for state in Set(commit.instance.activeStates) {
            _ = try await run("INSERT INTO statechart_active_states (instance_id, state_id) VALUES (?, ?)", [.text(id), .text(state)])
        }
        let j = commit.journal
        _ = try await run(
            """
            INSERT INTO statechart_journal (instance_id, sequence, kind, event, configuration, at_ns, idempotency_key)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """,
            [
                .text(id), .integer(Int(j.sequence)), .text(j.kind.rawValue), .text(j.event),
                .text(try Self.json(j.configuration)), .integer(Int(j.atNanoseconds)), j.idempotencyKey.map { .text($0) } ?? .null,
            ])
        if let key = commit.idempotency {
            _ = try await run(
                "INSERT INTO statechart_idempotency (instance_id, key, event, outcome) VALUES (?, ?, ?, ?)",
                [.text(id), .text(key.key), .text(key.event), .text(try Self.json(key.outcome))])
        }
        _ = try await run("DELETE FROM statechart_timers WHERE instance_id = ?", [.text(id)])
        for t in commit.timers {
            _ = try await run(
                "INSERT INTO statechart_timers (instance_id, position, due_ns, event, send_id) VALUES (?, ?, ?, ?, ?)",
                [.text(id), .integer(t.position), .integer(Int(t.dueNanoseconds)), .text(t.event), t.sendID.map { .text($0) } ?? .null])
        }
        for e in commit.outbox {
            _ = try await run(
                """
                INSERT INTO statechart_outbox (instance_id, sequence, position, kind, name, state, payload, dispatched)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """,
                [.text(id), .integer(Int(e.sequence)), .integer(e.position), .text(e.kind), .text(e.name), .text(e.state),
                 e.payload.map { .text($0) } ?? .null, .integer(e.dispatched ? 1 : 0)])
        }
    }

    /// Deletes an instance and its rows, in one transaction.
    public func delete(_ id: String) async throws(DurableError) -> Bool {
        try await exclusively { () async throws(DurableError) -> Bool in
            try await transaction { () async throws(DurableError) -> Bool in
                let gone = try await run("DELETE FROM statechart_instances WHERE id = ? RETURNING id", [.text(id)])
                for table in ["statechart_active_states", "statechart_journal", "statechart_idempotency", "statechart_timers", "statechart_outbox"] {
                    _ = try await run("DELETE FROM \(table) WHERE instance_id = ?", [.text(id)])
                }
                return !gone.isEmpty
            }
        }
    }

    /// Forgets the keys of macrosteps committed before `time` (see
    /// ``DurableStore/expireIdempotencyKeys(committedBefore:)``), in one statement.
    public func expireIdempotencyKeys(committedBefore time: Int64) async throws(DurableError) -> Int {
        try await exclusively { () async throws(DurableError) -> Int in
            try await transaction { () async throws(DurableError) -> Int in
                try await run(
                    """
                    DELETE FROM statechart_idempotency WHERE (
                        SELECT MAX(j.at_ns) FROM statechart_journal j WHERE j.instance_id = statechart_idempotency.instance_id
                        AND j.idempotency_key = statechart_idempotency.key) < ?
                    RETURNING 1
                    """, [.integer(Int(time))]
                ).count
            }
        }
    }

    /// Marks an effect dispatched.
    public func markDispatched(_ entry: OutboxEntry) async throws(DurableError) {
        try await exclusively { () async throws(DurableError) in
            try await transaction { () async throws(DurableError) in
                _ = try await run(
                    "UPDATE statechart_outbox SET dispatched = 1 WHERE instance_id = ? AND sequence = ? AND position = ?",
                    [.text(entry.instanceID), .integer(Int(entry.sequence)), .integer(entry.position)])
            }
        }
    }
}
