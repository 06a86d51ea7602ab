import SQLiteNIO

/// Group commit (rule D13): with `synchronous = FULL` every transaction waits for the disk, so
/// macrosteps of different instances that arrive while one transaction is being written are
/// committed together in the next one — each checked on its own, so one refused commit (a lost
/// compare-and-swap, a duplicate key) is left out alone — and every caller is answered only after
/// the transaction holding its macrostep is committed (rule D1).

extension SQLiteStore {
    /// Commits a macrostep with a revision compare-and-swap (see ``DurableStore/commit(_:)``),
    /// in a transaction it may share with other instances' macrosteps (rule D13): one batch in
    /// flight at a time, since SQLite has one writer.
    public func commit(_ commit: MacrostepCommit) async throws(DurableError) {
        try await commits.commit(commit) { batch in await self.commitBatch(batch) }
    }

    /// One transaction for several macrosteps; the results in order. Inside the transaction (the
    /// write lock held) every macrostep's compare-and-swap and key are checked first; the refused
    /// ones are left out and the others written with one statement per table, not per row: the
    /// cost of a statement, not of the disk, bounds a batch. If the transaction fails, every
    /// macrostep of it fails.
    func commitBatch(_ commits: [MacrostepCommit]) async -> [Result<Void, DurableError>] {
        do throws(DurableError) {
            let results = try await exclusively { () async throws(DurableError) -> [Result<Void, DurableError>] in
                try await transaction { () async throws(DurableError) -> [Result<Void, DurableError>] in
                    let results = try await check(commits)
                    let accepted = zip(commits, results).filter { (try? $0.1.get()) != nil }.map(\.0)
                    try await write(accepted)
                    return results
                }
            }
            transactionsCommitted += 1
            macrostepsCommitted += results.filter { (try? $0.get()) != nil }.count
            return results
        } catch {
            return Array(repeating: .failure(error), count: commits.count)
        }
    }

    /// The compare-and-swap and idempotency checks of a batch, in order (``CommitQueue/check(_:revisions:recordedKeys:lease:)``),
    /// against the stored revisions and keys.
    func check(_ commits: [MacrostepCommit]) async throws(DurableError) -> [Result<Void, DurableError>] {
        let ids = Array(Set(commits.map(\.instance.id)))
        var revisions: [String: Int64] = [:]
        for row in try await run(
            "SELECT id, revision FROM statechart_instances WHERE id IN (\(Self.placeholders(ids.count)))",
            ids.map { .text($0) })
        {
            revisions[try Self.text(row, "id")] = try Self.integer(row, "revision")
        }
        let keyed = commits.compactMap { c in c.idempotency.map { (c.instance.id, $0.key) } }
        var recorded = Set<[String]>()
        if !keyed.isEmpty {
            let rows = try await run(
                "SELECT instance_id, key FROM statechart_idempotency WHERE (instance_id, key) IN (VALUES "
                    + Array(repeating: "(?, ?)", count: keyed.count).joined(separator: ", ") + ")",
                keyed.flatMap { [.text($0.0), .text($0.1)] })
            for row in rows { recorded.insert([try Self.text(row, "instance_id"), try Self.text(row, "key")]) }
        }
        return CommitQueue.check(commits, revisions: revisions, recordedKeys: recorded)
    }

    /// Writes accepted macrosteps, one statement per table. When one instance has several, the
    /// last one's instance row, active states and timers stand; every journal row, key and effect is kept.
    func write(_ commits: [MacrostepCommit]) async throws(DurableError) {
        guard !commits.isEmpty else { return }
        var last: [String: MacrostepCommit] = [:]
        for commit in commits { last[commit.instance.id] = commit }
        let finals = Array(last.values)
        let ids: [SQLiteData] = finals.map { .text($0.instance.id) }
        var instanceRows: [[SQLiteData]] = []
        for c in finals {
            let i = c.instance
            instanceRows.append([
                .text(i.id), .integer(Int(i.revision)), .integer(Int(i.sequence)), .integer(i.chartVersion),
                .integer(i.finished ? 1 : 0), .text(try Self.json(i.activeStates)), .text(i.snapshot),
            ])
        }
        for chunk in Self.chunks(instanceRows, columns: 7) {
            _ = try await run(
                "WITH v(id, revision, sequence, chart_version, finished, active_states, snapshot) AS (VALUES "
                    + Self.rowPlaceholders(chunk.count, columns: 7)
                    + """
                    ) UPDATE statechart_instances SET revision = v.revision, sequence = v.sequence,
                    chart_version = v.chart_version, finished = v.finished, active_states = v.active_states,
                    snapshot = v.snapshot FROM v WHERE statechart_instances.id = v.id
                    """, chunk.flatMap { $0 })
        }
        _ = try await run(
            "DELETE FROM statechart_active_states WHERE instance_id IN (\(Self.placeholders(ids.count)))", ids)
        try await insert(
            "statechart_active_states (instance_id, state_id)",
            finals.flatMap { c in Set(c.instance.activeStates).sorted().map { [.text(c.instance.id), .text($0)] } })
        try await insert(
            "statechart_journal (instance_id, sequence, kind, event, configuration, at_ns, idempotency_key)",
            try commits.map { c throws(DurableError) in
                let j = c.journal
                return [
                    .text(j.instanceID), .integer(Int(j.sequence)), .text(j.kind.rawValue), .text(j.event),
                    .text(try Self.json(j.configuration)), .integer(Int(j.atNanoseconds)),
                    j.idempotencyKey.map { .text($0) } ?? .null,
                ]
            })
        var keyRows: [[SQLiteData]] = []
        for c in commits {
            guard let k = c.idempotency else { continue }
            keyRows.append([.text(c.instance.id), .text(k.key), .text(k.event), .text(try Self.json(k.outcome))])
        }
        try await insert("statechart_idempotency (instance_id, key, event, outcome)", keyRows)
        _ = try await run("DELETE FROM statechart_timers WHERE instance_id IN (\(Self.placeholders(ids.count)))", ids)
        try await insert(
            "statechart_timers (instance_id, position, due_ns, event, send_id)",
            finals.flatMap { c in
                c.timers.map { t -> [SQLiteData] in
                    [.text(t.instanceID), .integer(t.position), .integer(Int(t.dueNanoseconds)), .text(t.event),
                     t.sendID.map { .text($0) } ?? .null]
                }
            })
        try await insert(
            "statechart_outbox (instance_id, sequence, position, kind, name, state, payload, dispatched)",
            commits.flatMap { c in
                c.outbox.map { e -> [SQLiteData] in
                    [.text(e.instanceID), .integer(Int(e.sequence)), .integer(e.position), .text(e.kind), .text(e.name),
                     .text(e.state), e.payload.map { .text($0) } ?? .null, .integer(e.dispatched ? 1 : 0)]
                }
            })
    }

    /// A multi-row `INSERT INTO <table (columns)> VALUES …`, in chunks that stay under SQLite's
    /// limit on bound values.
    func insert(_ tableAndColumns: String, _ rows: [[SQLiteData]]) async throws(DurableError) {
        guard let columns = rows.first?.count else { return }
        for chunk in Self.chunks(rows, columns: columns) {
            _ = try await run(
                "INSERT INTO \(tableAndColumns) VALUES \(Self.rowPlaceholders(chunk.count, columns: columns))",
                chunk.flatMap { $0 })
        }
    }

    static func placeholders(_ count: Int) -> String { Array(repeating: "?", count: count).joined(separator: ", ") }

    static func rowPlaceholders(_ rows: Int, columns: Int) -> String {
        Array(repeating: "(" + placeholders(columns) + ")", count: rows).joined(separator: ", ")
    }

    /// Rows in chunks of at most 900 bound values (SQLite's historical default limit is 999).
    static func chunks(_ rows: [[SQLiteData]], columns: Int) -> [ArraySlice<[SQLiteData]>] {
        let size = max(900 / max(columns, 1), 1)
        return stride(from: 0, to: rows.count, by: size).map { rows[$0..<min($0 + size, rows.count)] }
    }
}
