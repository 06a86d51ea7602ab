import Foundation
import Logging
import PostgresNIO
import Synchronization

/// Group commit on PostgreSQL (rule D19). Every commit is a batch — of one when nothing else is
/// waiting — so there is one code path for the write: macrosteps of different instances that
/// arrive while the store's batches are in flight are committed together in the next transaction
/// (``CommitQueue``, shared with SQLite's rule D13), in four round trips whatever the batch's size:
/// `BEGIN`; one statement that locks the instance rows, reads their revisions and the batch's
/// recorded keys and claims this node's leases; one statement that writes every accepted
/// macrostep's rows (arrays bound as parameters and `unnest`ed, one clause per table); `COMMIT`
/// (and one more, only when another node's lease refuses a claim, to name that node).
/// One transaction and one WAL flush serve the whole batch. One batch in flight at a time by
/// default (``concurrentBatches``): measured here, two or four in flight split the same work into
/// smaller batches and were no faster (Docs/Durability.md, Figures).
extension PostgresStore {
    /// Commits a macrostep (see ``DurableStore/commit(_:)``), in a transaction it may share with
    /// other instances' macrosteps (rule D19). In that transaction: the instance row is replaced
    /// only if its revision is the expected one (rule D4); this node's lease of the instance is
    /// claimed or extended, with its fencing token checked (rules D15, D16); the journal row,
    /// key, timers and effects are written. A macrostep refused for any of these reasons fails
    /// alone; the others of its batch commit.
    ///
    /// - Throws: besides the protocol's errors, ``DurableError/leaseHeld(instance:owner:)`` and
    ///   ``DurableError/leaseLost(instance:node:)``; ``DurableError/connectionLost(_:)`` or
    ///   ``DurableError/storage(_:)`` when the batch's transaction fails.
    public func commit(_ commit: MacrostepCommit) async throws(DurableError) {
        try await commits.commit(commit) { batch in await self.commitBatch(batch) }
    }

    /// One transaction for several macrosteps; the results in order. Each macrostep is checked
    /// on its own (``CommitQueue/check(_:revisions:recordedKeys:lease:)``) and the refused ones
    /// are left out; if the transaction fails, every macrostep of it fails with its error.
    func commitBatch(_ commits: [MacrostepCommit]) async -> [Result<Void, DurableError>] {
        let t = tables
        let node = node
        let lease = leaseDuration
        let ids = Self.distinctIDs(commits)
        let known = tokens.withLock { tokens in ids.reduce(into: [String: Int64]()) { $0[$1] = tokens[$1] } }
        let what =
            commits.count == 1
            ? "committing sequence \(commits[0].journal.sequence) of '\(commits[0].instance.id)'"
            : "committing a batch of \(commits.count) macrosteps"
        do throws(DurableError) {
            let (results, claimed) = try await transaction(what) {
                connection, logger -> ([Result<Void, DurableError>], [String: Int64]) in
                let rows = try await Self.lockAndClaim(
                    ids: ids, expected: commits.map { ($0.instance.id, $0.expectedRevision) },
                    keys: commits.compactMap { $0.idempotency?.key }, node: node, lease: lease, tables: t,
                    on: connection, logger: logger)
                let results = CommitQueue.check(
                    commits, revisions: rows.revisions, recordedKeys: rows.recordedKeys
                ) { id in
                    guard let token = rows.tokens[id] else {
                        return .leaseHeld(instance: id, owner: rows.owners[id] ?? "another node")
                    }
                    // Another node held the instance between our claims (tokens only grow when
                    // the owner changes): what we hold of it may be stale.
                    if let mine = known[id], mine != token { return .leaseLost(instance: id, node: node) }
                    return nil
                }
                let accepted = zip(commits, results).filter { (try? $0.1.get()) != nil }.map(\.0)
                try await Self.writeRows(of: accepted, tables: t, on: connection, logger: logger)
                return (results, rows.tokens)
            }
            tokens.withLock { tokens in
                for (id, token) in claimed {
                    // After a lost lease (the token changed under us) the next attempt claims
                    // the instance anew.
                    let lost = known[id].map { $0 != token } ?? false
                    tokens[id] = lost ? nil : token
                }
            }
            let count = results.filter { (try? $0.get()) != nil }.count
            counters.withLock { $0.transactions += 1; $0.macrosteps += count }
            return results
        } catch {
            return Array(repeating: .failure(error), count: commits.count)
        }
    }

    /// What the first statement of a batch's transaction found.
    struct LockedRows {
        /// The stored revision of each instance that exists.
        var revisions: [String: Int64] = [:]
        /// The fencing token of each lease this node claimed or extended.
        var tokens: [String: Int64] = [:]
        /// The owner of each lease another node holds (for ``DurableError/leaseHeld(instance:owner:)``).
        var owners: [String: String] = [:]
        /// The batch's keys recorded already, as `[instance, key]`.
        var recordedKeys: Set<[String]> = []
    }

    /// In one statement: locks the batch's instance rows in id order (`FOR UPDATE`, so two batches
    /// on other connections or nodes never wait for each other in a cycle; the instance row
    /// before its lease, the order the timer claim locks them in), reads their revisions as they
    /// are after any writer it waited for, claims or extends this node's lease of each instance
    /// the batch will write (one of its macrosteps expects the stored revision: an instance whose
    /// compare-and-swap is lost is not claimed), and reads which of the batch's keys are recorded;
    /// a second statement, only when a claim is refused, reads the refusing leases' owners.
    /// Keys read here are current for every instance whose compare-and-swap holds: any commit
    /// recording a key of an instance also raises its revision, under the row lock taken here.
    static func lockAndClaim(
        ids: [String], expected: [(id: String, revision: Int64)], keys: [String], node: String, lease: Duration,
        tables t: PostgresTables, on connection: PostgresConnection, logger: Logger
    ) async throws -> LockedRows {
        let micros = lease.nanoseconds / 1_000
        var found = LockedRows()
        let rows = try await connection.query(
            """
            WITH locked AS (
                SELECT i.id, i.revision FROM \(unescaped: t.instances) i WHERE i.id = ANY(\(ids)::text[])
                ORDER BY i.id FOR UPDATE
            ), claimed AS (
                INSERT INTO \(unescaped: t.leases) AS l (instance_id, owner, token, expires_at)
                SELECT k.id, \(node), 1, clock_timestamp() + \(micros) * interval '1 microsecond' FROM locked k
                WHERE EXISTS (
                    SELECT 1 FROM unnest(\(expected.map(\.id))::text[], \(expected.map(\.revision))::bigint[]) AS e(id, r)
                    WHERE e.id = k.id AND e.r = k.revision)
                ORDER BY k.id
                ON CONFLICT (instance_id) DO UPDATE SET
                    token = CASE WHEN l.owner = excluded.owner THEN l.token ELSE l.token + 1 END,
                    owner = excluded.owner, expires_at = excluded.expires_at
                WHERE l.owner = excluded.owner OR l.expires_at <= clock_timestamp()
                RETURNING l.instance_id, l.token
            )
            SELECT d.id, k.revision, c.token, ARRAY(
                SELECT r.key FROM \(unescaped: t.idempotency) r WHERE r.instance_id = d.id AND r.key = ANY(\(keys)::text[]))
            FROM unnest(\(ids)::text[]) AS d(id)
            LEFT JOIN locked k ON k.id = d.id
            LEFT JOIN claimed c ON c.instance_id = d.id
            """, logger: logger
        ).decode((String, Int64?, Int64?, [String]).self)
        for try await (id, revision, token, recorded) in rows {
            found.revisions[id] = revision
            found.tokens[id] = token
            for key in recorded { found.recordedKeys.insert([id, key]) }
        }
        // A claim refused though its compare-and-swap held: another node's lease is live. Its
        // owner is read by a statement of its own: the statement above reads the leases as they
        // were when it began, and it may have waited for the instance row while that node claimed
        // the lease (a claim that wrote nothing else, such as one whose commit was refused as
        // `leaseLost`), so it could name this node or a node before. A new statement sees every
        // claim made under the row locks held now.
        let refused = expected.filter { found.revisions[$0.id] == $0.revision && found.tokens[$0.id] == nil }.map(\.id)
        if !refused.isEmpty {
            let owners = try await connection.query(
                "SELECT instance_id, owner FROM \(unescaped: t.leases) WHERE instance_id = ANY(\(refused)::text[])",
                logger: logger
            ).decode((String, String).self)
            for try await (id, owner) in owners { found.owners[id] = owner }
        }
        return found
    }

    /// The rows accepted macrosteps add or replace — instance rows, journal rows, keys, timers,
    /// effects — in one statement whatever their number: data-modifying `WITH` clauses, one per
    /// table, each over arrays bound as parameters. When one instance has several macrosteps in
    /// the batch (two hosts on one store), the last one's instance row and timers stand; every
    /// journal row, key and effect is kept. Timers at positions kept are updated in place and
    /// the others deleted (one statement must not delete and insert the same row). Lists of
    /// states travel as JSON text, since `unnest` cannot take arrays of unequal lengths.
    static func writeRows(
        of commits: [MacrostepCommit], updatingInstances: Bool = true, tables t: PostgresTables,
        on connection: PostgresConnection, logger: Logger
    ) async throws {
        guard !commits.isEmpty else { return }
        var last: [String: MacrostepCommit] = [:]
        for commit in commits { last[commit.instance.id] = commit }
        let finals = distinctIDs(commits).compactMap { last[$0] }
        let instances = updatingInstances ? finals.map(\.instance) : []
        let journal = commits.map(\.journal)
        let keyed = commits.filter { $0.idempotency != nil }
        let keys = keyed.compactMap(\.idempotency)
        let timers = finals.flatMap(\.timers)
        let effects = commits.flatMap(\.outbox)
        let recorded = try await connection.query(
            """
            WITH updated AS (
                UPDATE \(unescaped: t.instances) AS i SET revision = u.revision, sequence = u.sequence,
                chart_version = u.chart_version, finished = u.finished, snapshot = u.snapshot,
                active_states = ARRAY(SELECT s FROM jsonb_array_elements_text(u.states::jsonb) WITH ORDINALITY AS x(s, n) ORDER BY n)
                FROM unnest(\(instances.map(\.id))::text[], \(instances.map(\.revision))::bigint[],
                \(instances.map(\.sequence))::bigint[], \(instances.map { Int64($0.chartVersion) })::bigint[],
                \(instances.map(\.finished))::bool[], \(instances.map(\.snapshot))::text[],
                \(try instances.map { try json($0.activeStates) })::text[])
                AS u(id, revision, sequence, chart_version, finished, snapshot, states)
                WHERE i.id = u.id
            ), journal AS (
                INSERT INTO \(unescaped: t.journal) (instance_id, sequence, kind, event, configuration, at_ns, idempotency_key)
                SELECT u.id, u.q, u.k, u.e,
                ARRAY(SELECT s FROM jsonb_array_elements_text(u.c::jsonb) WITH ORDINALITY AS x(s, n) ORDER BY n),
                u.a, CASE WHEN u.h THEN u.key END
                FROM unnest(\(journal.map(\.instanceID))::text[], \(journal.map(\.sequence))::bigint[],
                \(journal.map(\.kind.rawValue))::text[], \(journal.map(\.event))::text[],
                \(try journal.map { try json($0.configuration) })::text[], \(journal.map(\.atNanoseconds))::bigint[],
                \(journal.map { $0.idempotencyKey != nil })::bool[], \(journal.map { $0.idempotencyKey ?? "" })::text[])
                AS u(id, q, k, e, c, a, h, key)
            ), recorded AS (
                INSERT INTO \(unescaped: t.idempotency) (instance_id, key, event, outcome)
                SELECT * FROM unnest(\(keyed.map(\.instance.id))::text[], \(keys.map(\.key))::text[],
                \(keys.map(\.event))::text[], \(try keys.map { try json($0.outcome) })::text[])
                ON CONFLICT DO NOTHING RETURNING 1
            ), dropped AS (
                DELETE FROM \(unescaped: t.timers) t
                USING unnest(\(finals.map(\.instance.id))::text[], \(finals.map { Int64($0.timers.count) })::bigint[]) AS u(id, n)
                WHERE t.instance_id = u.id AND t.position >= u.n
            ), kept AS (
                INSERT INTO \(unescaped: t.timers) (instance_id, position, due_ns, event, send_id)
                SELECT id, p, d, e, CASE WHEN h THEN s END
                FROM unnest(\(timers.map(\.instanceID))::text[], \(timers.map { Int64($0.position) })::bigint[],
                \(timers.map(\.dueNanoseconds))::bigint[], \(timers.map(\.event))::text[],
                \(timers.map { $0.sendID != nil })::bool[], \(timers.map { $0.sendID ?? "" })::text[]) AS u(id, p, d, e, h, s)
                ON CONFLICT (instance_id, position) DO UPDATE
                SET due_ns = excluded.due_ns, event = excluded.event, send_id = excluded.send_id
            ), effects AS (
                INSERT INTO \(unescaped: t.outbox) (instance_id, sequence, position, kind, name, state, payload, dispatched)
                SELECT id, q, p, k, n, s, CASE WHEN h THEN d END, x
                FROM unnest(\(effects.map(\.instanceID))::text[], \(effects.map(\.sequence))::bigint[],
                \(effects.map { Int64($0.position) })::bigint[], \(effects.map(\.kind))::text[],
                \(effects.map(\.name))::text[], \(effects.map(\.state))::text[],
                \(effects.map { $0.payload != nil })::bool[], \(effects.map { $0.payload ?? "" })::text[],
                \(effects.map(\.dispatched))::bool[])
                WITH ORDINALITY AS u(id, q, p, k, n, s, h, d, x, o)
                ORDER BY o
            )
            SELECT count(*)::bigint FROM recorded
            """, logger: logger
        ).collect()
        if try recorded.first?.decode(Int64.self) != Int64(keys.count) {
            // Cannot happen while every key is recorded under its instance's row lock (see
            // lockAndClaim); if it does, the whole transaction is rolled back and each caller
            // retries with its key, which then finds the recorded one (rule D3).
            throw DurableError.storage("an idempotency key of the batch was recorded by another transaction meanwhile")
        }
    }

    /// The instances of a batch, each once, in the order they first appear.
    static func distinctIDs(_ commits: [MacrostepCommit]) -> [String] {
        var seen = Set<String>()
        return commits.map(\.instance.id).filter { seen.insert($0).inserted }
    }
}
