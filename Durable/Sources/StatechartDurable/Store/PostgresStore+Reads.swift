import Foundation
import Logging
import PostgresNIO
import Synchronization

extension PostgresStore {
    /// The columns of an instance row, in the order ``instanceRecord(_:)`` decodes them.
    static let instanceColumns =
        "id, chart_name, chart_version, revision, sequence, origin_ns, finished, active_states, snapshot"

    /// The instance row, or `nil`.
    public func instance(_ id: String) async throws(DurableError) -> InstanceRecord? {
        let t = tables
        return try await statement("reading '\(id)'") { connection, logger -> InstanceRecord? in
            let rows = try await connection.query(
                "SELECT \(unescaped: Self.instanceColumns) FROM \(unescaped: t.instances) WHERE id = \(id)", logger: logger
            ).collect()
            return try rows.first.map(Self.instanceRecord)
        }
    }

    /// The instances in a state (every instance when `state` is `nil`), by id.
    public func instances(inState state: String?) async throws(DurableError) -> [InstanceRecord] {
        let t = tables
        return try await statement("listing instances") { connection, logger -> [InstanceRecord] in
            let rows: [PostgresRow]
            if let state {
                rows = try await connection.query(
                    """
                    SELECT \(unescaped: Self.instanceColumns) FROM \(unescaped: t.instances)
                    WHERE active_states @> \([state])::text[] ORDER BY id COLLATE "C"
                    """, logger: logger
                ).collect()
            } else {
                rows = try await connection.query(
                    "SELECT \(unescaped: Self.instanceColumns) FROM \(unescaped: t.instances) ORDER BY id COLLATE \"C\"",
                    logger: logger
                ).collect()
            }
            return try rows.map(Self.instanceRecord)
        }
    }

    /// The journal in sequence order.
    public func journal(of id: String) async throws(DurableError) -> [JournalEntry] {
        let t = tables
        return try await statement("reading the journal of '\(id)'") { connection, logger -> [JournalEntry] in
            let rows = try await connection.query(
                """
                SELECT sequence, kind, event, configuration, at_ns, idempotency_key FROM \(unescaped: t.journal)
                WHERE instance_id = \(id) ORDER BY sequence
                """, logger: logger
            ).collect()
            return try rows.map { row throws(DurableError) in
                let (sequence, kindName, event, configuration, at, key) = try Self.decoding(id) {
                    try row.decode((Int64, String, String, [String], Int64, String?).self)
                }
                guard let kind = JournalKind(rawValue: kindName) else {
                    throw .corruptRow(instance: id, reason: "journal row \(sequence) has the unknown kind '\(kindName)'")
                }
                return JournalEntry(
                    instanceID: id, sequence: sequence, kind: kind, event: event, configuration: configuration,
                    atNanoseconds: at, idempotencyKey: key)
            }
        }
    }

    /// A recorded idempotency key.
    public func idempotency(_ key: String, of id: String) async throws(DurableError) -> IdempotencyRecord? {
        let t = tables
        return try await statement("reading key '\(key)' of '\(id)'") { connection, logger -> IdempotencyRecord? in
            let rows = try await connection.query(
                "SELECT event, outcome FROM \(unescaped: t.idempotency) WHERE instance_id = \(id) AND key = \(key)",
                logger: logger
            ).collect()
            guard let row = rows.first else { return nil }
            let (event, outcome) = try Self.decoding(id) { try row.decode((String, String).self) }
            return IdempotencyRecord(key: key, event: event, outcome: try Self.decode(SendOutcome.self, outcome, id))
        }
    }

    /// The timers in firing order.
    public func timers(of id: String) async throws(DurableError) -> [TimerRecord] {
        let t = tables
        return try await statement("reading the timers of '\(id)'") { connection, logger -> [TimerRecord] in
            let rows = try await connection.query(
                "SELECT position, due_ns, event, send_id FROM \(unescaped: t.timers) WHERE instance_id = \(id) ORDER BY position",
                logger: logger
            ).collect()
            return try rows.map { row throws(DurableError) in
                let (position, due, event, sendID) = try Self.decoding(id) {
                    try row.decode((Int64, Int64, String, String?).self)
                }
                return TimerRecord(instanceID: id, position: Int(position), dueNanoseconds: due, event: event, sendID: sendID)
            }
        }
    }

    /// Claims the instances with a timer due at or before `time` that no other node holds, earliest
    /// due first, at most `limit`, and returns their ids (rule D17). Instance rows being committed
    /// or claimed by another node right now are skipped (`FOR UPDATE SKIP LOCKED`), so nodes
    /// polling together take disjoint sets; each claimed instance is this node's (its lease is
    /// taken or extended in the same transaction), so its timers fire here, in order.
    public func instancesWithTimersDue(atOrBefore time: Int64, limit: Int) async throws(DurableError) -> [String] {
        let t = tables
        let node = node
        let micros = leaseDuration.nanoseconds / 1_000
        let claimed = try await transaction("claiming instances with due timers") { connection, logger -> [(String, Int64)] in
            let candidates = try await connection.query(
                """
                SELECT i.id FROM \(unescaped: t.instances) i
                JOIN (SELECT instance_id, MIN(due_ns) AS due FROM \(unescaped: t.timers) WHERE due_ns <= \(time)
                      GROUP BY instance_id) d ON d.instance_id = i.id
                LEFT JOIN \(unescaped: t.leases) l ON l.instance_id = i.id
                WHERE l.instance_id IS NULL OR l.owner = \(node) OR l.expires_at <= clock_timestamp()
                ORDER BY d.due, i.id COLLATE "C" LIMIT \(Int64(max(limit, 0)))
                FOR UPDATE OF i SKIP LOCKED
                """, logger: logger
            ).collect()
            let ids = try candidates.map { row in try row.decode(String.self) }
            guard !ids.isEmpty else { return [] }
            // The lease rows may have changed since the statement's snapshot: the upsert re-checks
            // them and claims only those still free, lapsed or ours.
            var tokens: [String: Int64] = [:]
            for try await (id, token) in try await connection.query(
                """
                INSERT INTO \(unescaped: t.leases) AS l (instance_id, owner, token, expires_at)
                SELECT u, \(node), 1, clock_timestamp() + \(micros) * interval '1 microsecond' FROM unnest(\(ids)::text[]) AS u
                ON CONFLICT (instance_id) DO UPDATE SET
                    token = CASE WHEN l.owner = excluded.owner THEN l.token ELSE l.token + 1 END,
                    owner = excluded.owner, expires_at = excluded.expires_at
                WHERE l.owner = excluded.owner OR l.expires_at <= clock_timestamp()
                RETURNING l.instance_id, l.token
                """, logger: logger
            ).decode((String, Int64).self) {
                tokens[id] = token
            }
            return ids.compactMap { id in tokens[id].map { (id, $0) } }
        }
        // A claim is a fresh start: the host reads the instance row after it (rule D16 guards a
        // write prepared before another node held the instance, with the revision, rule D4).
        tokens.withLock { tokens in
            for (id, token) in claimed { tokens[id] = token }
        }
        return claimed.map(\.0)
    }

    /// Effects not dispatched yet, oldest first.
    public func pendingOutbox(limit: Int) async throws(DurableError) -> [OutboxEntry] {
        let t = tables
        return try await statement("reading the outbox") { connection, logger -> [OutboxEntry] in
            let rows = try await connection.query(
                """
                SELECT instance_id, sequence, position, kind, name, state, payload FROM \(unescaped: t.outbox)
                WHERE NOT dispatched ORDER BY id LIMIT \(Int64(max(limit, 0)))
                """, logger: logger
            ).collect()
            return try rows.map { row throws(DurableError) in
                let id = (try? row.decode(String.self)) ?? "?"
                let (_, sequence, position, kind, name, state, payload) = try Self.decoding(id) {
                    try row.decode((String, Int64, Int64, String, String, String, String?).self)
                }
                return OutboxEntry(
                    instanceID: id, sequence: sequence, position: Int(position), kind: kind, name: name, state: state,
                    payload: payload, dispatched: false)
            }
        }
    }

    /// A ``HostClock`` on the database's clock: wall time corrected by the offset between this
    /// machine's clock and the server's, measured now (half a round trip is the error). Nodes on
    /// machines whose clocks disagree then write and compare due times on one clock (rule D17).
    public func databaseClock() async throws(DurableError) -> HostClock {
        let offset = try await statement("reading the database's clock") { connection, logger -> Int64 in
            let before = HostClock.wallTime().nanoseconds
            var server: Int64 = 0
            for try await value in try await connection.query(
                "SELECT (extract(epoch FROM clock_timestamp()) * 1000000000)::bigint", logger: logger
            ).decode(Int64.self) {
                server = value
            }
            let after = HostClock.wallTime().nanoseconds
            return server - (before + after) / 2
        }
        let shift = Duration.nanoseconds(offset)
        return HostClock(
            now: { HostClock.wallTime() + shift },
            sleepUntil: { deadline in
                let wait = deadline - (HostClock.wallTime() + shift)
                if wait > .zero { try await Task.sleep(for: wait) }
            })
    }

    // MARK: - Decoding

    static func instanceRecord(_ row: PostgresRow) throws(DurableError) -> InstanceRecord {
        let id = (try? row.decode(String.self)) ?? "?"
        let (_, chart, version, revision, sequence, origin, finished, states, snapshot) = try decoding(id) {
            try row.decode((String, String, Int64, Int64, Int64, Int64, Bool, [String], String).self)
        }
        return InstanceRecord(
            id: id, chartName: chart, chartVersion: Int(version), revision: revision, sequence: sequence,
            originNanoseconds: origin, finished: finished, activeStates: states, snapshot: snapshot)
    }

    /// Runs a row decoding; postgres-nio's decoding errors become ``DurableError/corruptRow(instance:reason:)``.
    static func decoding<T>(_ id: String, _ body: () throws -> T) throws(DurableError) -> T {
        do {
            return try body()
        } catch let error as PostgresDecodingError {
            throw .corruptRow(
                instance: id, reason: "column '\(error.columnName)' does not decode as \(error.targetType): \(error.code)")
        } catch {
            throw .corruptRow(instance: id, reason: "\(error)")
        }
    }

    static func decode<T: Decodable>(_ type: T.Type, _ text: String, _ id: String) throws(DurableError) -> T {
        do {
            return try JSONDecoder().decode(type, from: Data(text.utf8))
        } catch {
            throw .corruptRow(instance: id, reason: "unreadable \(T.self): \(error)")
        }
    }
}
