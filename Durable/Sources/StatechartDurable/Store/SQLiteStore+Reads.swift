import Foundation
import SQLiteNIO

extension SQLiteStore {
    // MARK: - Reads

    /// The instance row, or `nil`.
    public func instance(_ id: String) async throws(DurableError) -> InstanceRecord? {
        try await reading { () async throws(DurableError) -> InstanceRecord? in
            let rows = try await read("SELECT * FROM statechart_instances WHERE id = ?", [.text(id)])
            return try rows.first.map(Self.instanceRecord)
        }
    }

    /// The instances in a state (every instance when `state` is `nil`), by id.
    public func instances(inState state: String?) async throws(DurableError) -> [InstanceRecord] {
        try await reading { () async throws(DurableError) -> [InstanceRecord] in
            let rows: [SQLiteRow]
            if let state {
                rows = try await read(
                    """
                    SELECT i.* FROM statechart_instances i JOIN statechart_active_states s ON s.instance_id = i.id
                    WHERE s.state_id = ? ORDER BY i.id
                    """, [.text(state)])
            } else {
                rows = try await read("SELECT * FROM statechart_instances ORDER BY id")
            }
            return try rows.map(Self.instanceRecord)
        }
    }

    /// The journal in sequence order.
    public func journal(of id: String) async throws(DurableError) -> [JournalEntry] {
        try await reading { () async throws(DurableError) -> [JournalEntry] in
            let rows = try await read("SELECT * FROM statechart_journal WHERE instance_id = ? ORDER BY sequence", [.text(id)])
            return try rows.map { row throws(DurableError) in
                guard let kind = JournalKind(rawValue: try Self.text(row, "kind")) else {
                    throw .storage("journal row of '\(id)' has an unknown kind")
                }
                return JournalEntry(
                    instanceID: id, sequence: try Self.integer(row, "sequence"), kind: kind, event: try Self.text(row, "event"),
                    configuration: try Self.decode([String].self, try Self.text(row, "configuration"), id),
                    atNanoseconds: try Self.integer(row, "at_ns"), idempotencyKey: row.column("idempotency_key")?.string)
            }
        }
    }

    /// A recorded idempotency key.
    public func idempotency(_ key: String, of id: String) async throws(DurableError) -> IdempotencyRecord? {
        try await reading { () async throws(DurableError) -> IdempotencyRecord? in
            let rows = try await read(
                "SELECT * FROM statechart_idempotency WHERE instance_id = ? AND key = ?", [.text(id), .text(key)])
            guard let row = rows.first else { return nil }
            return IdempotencyRecord(
                key: key, event: try Self.text(row, "event"),
                outcome: try Self.decode(SendOutcome.self, try Self.text(row, "outcome"), id))
        }
    }

    /// The timers in firing order.
    public func timers(of id: String) async throws(DurableError) -> [TimerRecord] {
        try await reading { () async throws(DurableError) -> [TimerRecord] in
            let rows = try await read("SELECT * FROM statechart_timers WHERE instance_id = ? ORDER BY position", [.text(id)])
            return try rows.map { row throws(DurableError) in
                TimerRecord(
                    instanceID: id, position: Int(try Self.integer(row, "position")),
                    dueNanoseconds: try Self.integer(row, "due_ns"), event: try Self.text(row, "event"),
                    sendID: row.column("send_id")?.string)
            }
        }
    }

    /// Instances with a timer due, earliest first.
    public func instancesWithTimersDue(atOrBefore time: Int64, limit: Int) async throws(DurableError) -> [String] {
        try await reading { () async throws(DurableError) -> [String] in
            let rows = try await read(
                """
                SELECT instance_id, MIN(due_ns) AS due FROM statechart_timers WHERE due_ns <= ?
                GROUP BY instance_id ORDER BY due, instance_id LIMIT ?
                """, [.integer(Int(time)), .integer(max(limit, 0))])
            return try rows.map { row throws(DurableError) in try Self.text(row, "instance_id") }
        }
    }

    /// Effects not dispatched yet, oldest first.
    public func pendingOutbox(limit: Int) async throws(DurableError) -> [OutboxEntry] {
        try await reading { () async throws(DurableError) -> [OutboxEntry] in
            let rows = try await read(
                "SELECT * FROM statechart_outbox WHERE dispatched = 0 ORDER BY rowid LIMIT ?", [.integer(max(limit, 0))])
            return try rows.map { row throws(DurableError) in
                OutboxEntry(
                    instanceID: try Self.text(row, "instance_id"), sequence: try Self.integer(row, "sequence"),
                    position: Int(try Self.integer(row, "position")), kind: try Self.text(row, "kind"),
                    name: try Self.text(row, "name"), state: try Self.text(row, "state"),
                    payload: try Self.optionalText(row, "payload"), dispatched: false)
            }
        }
    }

    // MARK: - Plumbing

    /// Runs a read. Reads go to a connection of their own, outside any lock: in WAL mode they see
    /// the last committed state and never wait for a transaction being written, so instances
    /// prepare their next macrosteps while a group commit is on its way to disk (rule D13).
    /// In WAL mode a reader is refused only in rare moments (another connection recovering the
    /// WAL); it waits for them like the writer, asynchronously.
    func reading<T>(_ body: () async throws(DurableError) -> T) async throws(DurableError) -> T {
        try await whileBusy(body)
    }

    /// One statement on the read connection.
    func read(_ sql: String, _ binds: [SQLiteData] = []) async throws(DurableError) -> [SQLiteRow] {
        do {
            return try await reader.query(sql, binds)
        } catch let error as SQLiteError where Self.isBusy(error) {
            throw .busy("'\(path)' is locked by another connection (in: \(sql.prefix(60))…)")
        } catch {
            throw .storage("\(error) (in: \(sql.prefix(60))…)")
        }
    }

    /// Runs `body` while no other operation of this store uses the write connection (FIFO): an
    /// actor's methods interleave at every `await`, and a transaction must not.
    func exclusively<T>(_ body: () async throws(DurableError) -> T) async throws(DurableError) -> T {
        if busy {
            await withCheckedContinuation { waiters.append($0) }
        } else {
            busy = true
        }
        defer {
            if waiters.isEmpty { busy = false } else { waiters.removeFirst().resume() }
        }
        return try await body()
    }

    /// Runs `body` in a write transaction (`BEGIN IMMEDIATE`: the write lock is taken first, so
    /// the compare-and-swap read and the writes see one state); rolls back if it throws.
    func transaction<T>(_ body: () async throws(DurableError) -> T) async throws(DurableError) -> T {
        try await whileBusy { () async throws(DurableError) in _ = try await run("BEGIN IMMEDIATE") }
        let value: T
        do {
            value = try await body()
        } catch {
            _ = try? await run("ROLLBACK")
            throw error
        }
        do {
            _ = try await run("COMMIT")
        } catch {
            _ = try? await run("ROLLBACK")
            throw error
        }
        return value
    }

    /// Whether SQLite refused for a moment because another connection holds the file: the plain
    /// `SQLITE_BUSY`, and its extended codes. `SQLITE_BUSY_RECOVERY` comes while another
    /// connection rebuilds the WAL index, as when several stores open one new file at once
    /// (`PRAGMA journal_mode = WAL`); `SQLITE_BUSY_SNAPSHOT` and `SQLITE_BUSY_TIMEOUT` end the
    /// same way. Each is waited out by ``whileBusy(_:)``, never reported as damage.
    static func isBusy(_ error: SQLiteError) -> Bool {
        switch error.reason {
        case .busy, .busyInRecovery, .busyInSnapshot, .busyTimeout: true
        default: false
        }
    }

    /// How long an operation waits for another connection's write lock before it reports the
    /// database busy.
    static var busyTimeout: Duration { .seconds(10) }

    /// Runs `body` again, after an asynchronous wait growing from 1 to 50 ms, while SQLite reports
    /// the database busy (another connection holds the write lock), up to ``busyTimeout``. No
    /// thread waits meanwhile.
    func whileBusy<T>(_ body: () async throws(DurableError) -> T) async throws(DurableError) -> T {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: Self.busyTimeout)
        var wait = Duration.milliseconds(1)
        while true {
            do {
                return try await body()
            } catch .busy where clock.now < deadline {
                try? await Task.sleep(for: wait)
                wait = min(wait * 2, .milliseconds(50))
            } catch .busy {
                throw .busy("'\(path)' stayed locked by another connection for \(Self.busyTimeout)")
            }
        }
    }

    /// One statement; SQLite's errors become ``DurableError/storage(_:)``.
    func run(_ sql: String, _ binds: [SQLiteData] = []) async throws(DurableError) -> [SQLiteRow] {
        do {
            return try await connection.query(sql, binds)
        } catch let error as SQLiteError where Self.isBusy(error) {
            throw .busy("'\(path)' is locked by another connection (in: \(sql.prefix(60))…)")
        } catch {
            throw .storage("\(error) (in: \(sql.prefix(60))…)")
        }
    }

    static func instanceRecord(_ row: SQLiteRow) throws(DurableError) -> InstanceRecord {
        let id = try text(row, "id")
        return InstanceRecord(
            id: id, chartName: try text(row, "chart_name"), chartVersion: Int(try integer(row, "chart_version")),
            revision: try integer(row, "revision"), sequence: try integer(row, "sequence"),
            originNanoseconds: try integer(row, "origin_ns"), finished: try integer(row, "finished") != 0,
            activeStates: try decode([String].self, try text(row, "active_states"), id), snapshot: try text(row, "snapshot"))
    }

    static func text(_ row: SQLiteRow, _ column: String) throws(DurableError) -> String {
        guard let value = row.column(column), case .text(let text) = value else {
            throw .storage("column '\(column)' is missing or not text")
        }
        return text
    }

    /// A text column that may be NULL.
    static func optionalText(_ row: SQLiteRow, _ column: String) throws(DurableError) -> String? {
        switch row.column(column) {
        case .text(let text)?: return text
        case .null?: return nil
        default: throw .storage("column '\(column)' is missing or not text")
        }
    }

    static func integer(_ row: SQLiteRow, _ column: String) throws(DurableError) -> Int64 {
        guard let value = row.column(column), case .integer(let number) = value else {
            throw .storage("column '\(column)' is missing or not an integer")
        }
        return Int64(number)
    }

    static func json<T: Encodable>(_ value: T) throws(DurableError) -> String {
        do {
            return String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
        } catch {
            throw .storage("cannot encode \(T.self): \(error)")
        }
    }

    static func decode<T: Decodable>(_ type: T.Type, _ text: String, _ id: String) throws(DurableError) -> T {
        do {
            return try JSONDecoder().decode(type, from: Data(text.utf8))
        } catch {
            throw .storage("a row of instance '\(id)' holds unreadable \(T.self): \(error)")
        }
    }
}
