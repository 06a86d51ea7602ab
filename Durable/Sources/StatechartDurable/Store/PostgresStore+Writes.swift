import Foundation
import Logging
import PostgresNIO
import Synchronization

extension PostgresStore {
    /// Inserts a new instance (see ``DurableStore/insert(_:)``) and claims its lease for this node.
    public func insert(_ commit: MacrostepCommit) async throws(DurableError) {
        let t = tables
        let node = node
        let lease = leaseDuration
        let id = commit.instance.id
        let token = try await transaction("creating instance '\(id)'") { connection, logger -> Int64 in
            let i = commit.instance
            let inserted = try await connection.query(
                """
                INSERT INTO \(unescaped: t.instances)
                (id, chart_name, chart_version, revision, sequence, origin_ns, finished, active_states, snapshot)
                VALUES (\(id), \(i.chartName), \(Int64(i.chartVersion)), \(i.revision), \(i.sequence),
                \(i.originNanoseconds), \(i.finished), \(i.activeStates), \(i.snapshot))
                ON CONFLICT (id) DO NOTHING RETURNING 1
                """, logger: logger
            ).collect()
            guard !inserted.isEmpty else { throw DurableError.instanceExists(id) }
            let token = try await Self.claim(id, node: node, lease: lease, tables: t, on: connection, logger: logger)
            try await Self.writeRows(of: commit, tables: t, on: connection, logger: logger)
            return token
        }
        tokens.withLock { $0[id] = token }
        counters.withLock { $0.transactions += 1; $0.macrosteps += 1 }
    }

    /// Commits a macrostep (see ``DurableStore/commit(_:)``). In one transaction: the instance
    /// row is replaced only if its revision is the expected one (rule D4); this node's lease of
    /// the instance is claimed or extended, with its fencing token checked (rules D15, D16); the
    /// journal row, key, timers and effects are written.
    ///
    /// - Throws: besides the protocol's errors, ``DurableError/leaseHeld(instance:owner:)`` and
    ///   ``DurableError/leaseLost(instance:node:)``.
    public func commit(_ commit: MacrostepCommit) async throws(DurableError) {
        let t = tables
        let node = node
        let lease = leaseDuration
        let id = commit.instance.id
        let known = tokens.withLock { $0[id] }
        let token: Int64
        do throws(DurableError) {
            token = try await transaction("committing sequence \(commit.journal.sequence) of '\(id)'") {
                connection, logger -> Int64 in
                // The instance row first, then its lease: the order the timer claim locks them in
                // (instancesWithTimersDue), so the two never wait for each other in a cycle.
                let i = commit.instance
                let updated = try await connection.query(
                    """
                    UPDATE \(unescaped: t.instances) SET revision = \(i.revision), sequence = \(i.sequence),
                    chart_version = \(Int64(i.chartVersion)), finished = \(i.finished),
                    active_states = \(i.activeStates), snapshot = \(i.snapshot)
                    WHERE id = \(id) AND revision = \(commit.expectedRevision) RETURNING 1
                    """, logger: logger
                ).collect()
                if updated.isEmpty {
                    var found: Int64?
                    for try await revision in try await connection.query(
                        "SELECT revision FROM \(unescaped: t.instances) WHERE id = \(id)", logger: logger
                    ).decode(Int64.self) {
                        found = revision
                    }
                    guard let found else { throw DurableError.unknownInstance(id) }
                    throw DurableError.revisionConflict(instance: id, expected: commit.expectedRevision, found: found)
                }
                let token = try await Self.claim(id, node: node, lease: lease, tables: t, on: connection, logger: logger)
                if let known, known != token {
                    // Another node held the instance between our claims (tokens only grow when the
                    // owner changes): what we hold of it may be stale.
                    throw DurableError.leaseLost(instance: id, node: node)
                }
                try await Self.writeRows(of: commit, tables: t, on: connection, logger: logger)
                return token
            }
        } catch .leaseLost(let instance, let node) {
            tokens.withLock { $0[id] = nil }  // the next attempt claims the instance anew
            throw .leaseLost(instance: instance, node: node)
        }
        tokens.withLock { $0[id] = token }
        counters.withLock { $0.transactions += 1; $0.macrosteps += 1 }
    }

    /// Claims or extends this node's lease of an instance inside the caller's transaction and
    /// returns its fencing token: the same token while this node keeps the instance, the next one
    /// when it takes the instance from a node whose lease lapsed (or from nobody).
    ///
    /// - Throws: ``DurableError/leaseHeld(instance:owner:)`` when another node's lease is live.
    static func claim(
        _ id: String, node: String, lease: Duration, tables t: PostgresTables, on connection: PostgresConnection,
        logger: Logger
    ) async throws -> Int64 {
        let micros = lease.nanoseconds / 1_000
        var token: Int64?
        for try await value in try await connection.query(
            """
            INSERT INTO \(unescaped: t.leases) AS l (instance_id, owner, token, expires_at)
            VALUES (\(id), \(node), 1, clock_timestamp() + \(micros) * interval '1 microsecond')
            ON CONFLICT (instance_id) DO UPDATE SET
                token = CASE WHEN l.owner = excluded.owner THEN l.token ELSE l.token + 1 END,
                owner = excluded.owner, expires_at = excluded.expires_at
            WHERE l.owner = excluded.owner OR l.expires_at <= clock_timestamp()
            RETURNING l.token
            """, logger: logger
        ).decode(Int64.self) {
            token = value
        }
        if let token { return token }
        var owner = "another node"
        for try await value in try await connection.query(
            "SELECT owner FROM \(unescaped: t.leases) WHERE instance_id = \(id)", logger: logger
        ).decode(String.self) {
            owner = value
        }
        throw DurableError.leaseHeld(instance: id, owner: owner)
    }

    /// The rows a macrostep adds or replaces besides the instance row — the journal row, the key
    /// (refused if recorded already), the instance's timers (replaced) and its effects — in one
    /// statement: data-modifying `WITH` clauses, each run once, so the commit pays one round trip
    /// for them instead of one per table. Timers at positions the macrostep keeps are updated in
    /// place and the others deleted (one statement must not delete and insert the same row).
    static func writeRows(
        of commit: MacrostepCommit, tables t: PostgresTables, on connection: PostgresConnection, logger: Logger
    ) async throws {
        let id = commit.instance.id
        let j = commit.journal
        let key = commit.idempotency
        let outcome = try key.map { try PostgresStore.json($0.outcome) } ?? ""
        let timers = commit.timers
        let effects = commit.outbox
        let recorded = try await connection.query(
            """
            WITH journal AS (
                INSERT INTO \(unescaped: t.journal) (instance_id, sequence, kind, event, configuration, at_ns, idempotency_key)
                VALUES (\(id), \(j.sequence), \(j.kind.rawValue), \(j.event), \(j.configuration), \(j.atNanoseconds), \(j.idempotencyKey))
            ), recorded AS (
                INSERT INTO \(unescaped: t.idempotency) (instance_id, key, event, outcome)
                SELECT \(id), \(key?.key ?? ""), \(key?.event ?? ""), \(outcome) WHERE \(key != nil)
                ON CONFLICT DO NOTHING RETURNING 1
            ), dropped AS (
                DELETE FROM \(unescaped: t.timers) WHERE instance_id = \(id) AND position >= \(Int64(timers.count))
            ), kept AS (
                INSERT INTO \(unescaped: t.timers) (instance_id, position, due_ns, event, send_id)
                SELECT \(id), p, d, e, CASE WHEN h THEN s END
                FROM unnest(\(timers.map { Int64($0.position) })::bigint[], \(timers.map(\.dueNanoseconds))::bigint[],
                \(timers.map(\.event))::text[], \(timers.map { $0.sendID != nil })::bool[],
                \(timers.map { $0.sendID ?? "" })::text[]) AS u(p, d, e, h, s)
                ON CONFLICT (instance_id, position) DO UPDATE
                SET due_ns = excluded.due_ns, event = excluded.event, send_id = excluded.send_id
            ), effects AS (
                INSERT INTO \(unescaped: t.outbox) (instance_id, sequence, position, kind, name, state, dispatched)
                SELECT \(id), q, p, k, n, s, x
                FROM unnest(\(effects.map(\.sequence))::bigint[], \(effects.map { Int64($0.position) })::bigint[],
                \(effects.map(\.kind))::text[], \(effects.map(\.name))::text[], \(effects.map(\.state))::text[],
                \(effects.map(\.dispatched))::bool[]) AS u(q, p, k, n, s, x)
                ORDER BY p
            )
            SELECT count(*)::bigint FROM recorded
            """, logger: logger
        ).collect()
        if let key, try recorded.first?.decode(Int64.self) != 1 {
            // The statement's other writes are rolled back with the transaction.
            throw DurableError.duplicateIdempotencyKey(instance: id, key: key.key)
        }
    }

    /// Deletes an instance and every row kept about it (its lease too), in one transaction.
    public func delete(_ id: String) async throws(DurableError) -> Bool {
        let t = tables
        let existed = try await transaction("deleting '\(id)'") { connection, logger -> Bool in
            let gone = try await connection.query(
                "DELETE FROM \(unescaped: t.instances) WHERE id = \(id) RETURNING 1", logger: logger
            ).collect()
            for table in [t.journal, t.idempotency, t.timers, t.outbox, t.leases] {
                try await connection.query("DELETE FROM \(unescaped: table) WHERE instance_id = \(id)", logger: logger)
            }
            return !gone.isEmpty
        }
        tokens.withLock { $0[id] = nil }
        return existed
    }

    /// Forgets the keys of macrosteps committed before `time` (see
    /// ``DurableStore/expireIdempotencyKeys(committedBefore:)``), in one statement.
    public func expireIdempotencyKeys(committedBefore time: Int64) async throws(DurableError) -> Int {
        let t = tables
        return try await transaction("expiring idempotency keys") { connection, logger -> Int in
            try await connection.query(
                """
                DELETE FROM \(unescaped: t.idempotency) k WHERE (
                    SELECT max(j.at_ns) FROM \(unescaped: t.journal) j
                    WHERE j.instance_id = k.instance_id AND j.idempotency_key = k.key) < \(time)
                RETURNING 1
                """, logger: logger
            ).collect().count
        }
    }

    /// Marks an effect dispatched.
    public func markDispatched(_ entry: OutboxEntry) async throws(DurableError) {
        let t = tables
        try await transaction("marking effect \(entry.idempotencyKey) dispatched") { connection, logger in
            _ = try await connection.query(
                """
                UPDATE \(unescaped: t.outbox) SET dispatched = true
                WHERE instance_id = \(entry.instanceID) AND sequence = \(entry.sequence) AND position = \(Int64(entry.position))
                """, logger: logger)
        }
    }

    /// Hands this node's leases over at once (a node shutting down cleanly): other nodes may
    /// drive its instances without waiting for the leases to lapse.
    public func releaseLeases() async throws(DurableError) {
        let t = tables
        let node = node
        try await transaction("releasing the leases of node '\(node)'") { connection, logger in
            _ = try await connection.query(
                "UPDATE \(unescaped: t.leases) SET expires_at = clock_timestamp() WHERE owner = \(node)", logger: logger)
        }
        tokens.withLock { $0.removeAll() }
    }

    static func json<T: Encodable>(_ value: T) throws(DurableError) -> String {
        do {
            return String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
        } catch {
            throw .storage("cannot encode \(T.self): \(error)")
        }
    }
}
