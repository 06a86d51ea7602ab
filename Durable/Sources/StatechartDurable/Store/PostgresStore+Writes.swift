import Foundation
import Logging
import PostgresNIO
import Synchronization

extension PostgresStore {
    /// Inserts a new instance (see ``DurableStore/insert(_:)``) and claims its lease for this node,
    /// writing its other rows with the statements of a commit (rule D19).
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
            // The row just inserted is at its new revision: the claim's compare-and-swap holds.
            let rows = try await Self.lockAndClaim(
                ids: [id], expected: [(id, i.revision)], keys: [], node: node, lease: lease, tables: t,
                on: connection, logger: logger)
            guard let token = rows.tokens[id] else {
                throw DurableError.leaseHeld(instance: id, owner: rows.owners[id] ?? "another node")
            }
            try await Self.writeRows(of: [commit], updatingInstances: false, tables: t, on: connection, logger: logger)
            return token
        }
        tokens.withLock { $0[id] = token }
        counters.withLock { $0.transactions += 1; $0.macrosteps += 1 }
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
