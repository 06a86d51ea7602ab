/// Moving instances between versions of their chart (rule D12).
extension DurableHost {
    /// Moves an instance to another registered version of its chart, renaming the state ids that
    /// changed; nothing runs (no exit, entry or transition action). One committed macrostep: the
    /// snapshot pinned to the new version, its timers, and a journal row of kind `migrate`.
    ///
    /// ```swift
    /// try await host.register(orderV2, name: "order", version: 2, initialContext: Order())
    /// try await host.migrate("order-42", to: 2, renaming: ["paid": "awaitingShipment"])
    /// ```
    ///
    /// The context's JSON is kept as it is, so the new version's context type must decode it.
    /// Pending timers keep their due times. Work invoked by active states is not started or
    /// cancelled by a migration.
    ///
    /// - Throws: ``DurableError/unknownInstance(_:)``, ``DurableError/chartNotRegistered(name:version:)``
    ///   for either version, ``DurableError/migrationFailed(instance:from:to:reason:)`` when the
    ///   renamed snapshot does not fit the new version (the reason names the state or field).
    @discardableResult
    public func migrate(_ id: String, to version: Int, renaming: [String: String] = [:]) async throws(DurableError)
        -> InstanceRecord
    {
        await acquire(id)
        defer { release(id) }
        guard let record = try await store.instance(id) else { throw .unknownInstance(id) }
        let old = try chart(for: record)
        guard let new = charts[ChartKey(name: record.chartName, version: version)] else {
            throw .chartNotRegistered(name: record.chartName, version: version)
        }
        // The stored snapshot must fit the version it is pinned to before it is moved.
        try old.check(id, record.snapshot)
        let result: StepResult
        do {
            let renamed = try StateRenaming(map: renaming).apply(
                to: record.snapshot, chartName: new.chartName, fingerprint: new.fingerprint)
            result = try new.adopt(id, renamed)
        } catch {
            throw .migrationFailed(instance: id, from: record.chartVersion, to: version, reason: Self.reason(error))
        }
        let event = try DurableJSON.encode(
            MigrationRecord(from: record.chartVersion, to: version, renamed: renaming, snapshot: result.snapshot))
        let now = clock.now().nanoseconds
        var moved = record
        moved.chartVersion = version
        let commit = makeCommit(moved, result, kind: .migrate, key: nil, event: event, now: now)
        try await store.commit(commit)
        statistics.committed += 1
        keep(commit, result)
        return commit.instance
    }

    static func reason(_ error: DurableError) -> String {
        switch error {
        case .snapshotMismatch(_, _, _, let reason), .corruptSnapshot(_, let reason): return reason
        default: return error.description
        }
    }
}

/// The event of a `migrate` journal row.
struct MigrationRecord: Codable {
    var from: Int
    var to: Int
    var renamed: [String: String]
    /// The snapshot as the new version adopted it: a replay starts from here (rule D11).
    var snapshot: String
}
