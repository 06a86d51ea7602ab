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
        try await migrate(id, from: nil, to: version, renaming: renaming)
    }

    /// Moves every instance of a chart version to another version, one instance (one
    /// macrostep) at a time, as ``migrate(_:to:renaming:)`` moves one (rule D12).
    ///
    /// ```swift
    /// let report = try await host.migrateAll(chart: "order", from: 1, to: 2, renaming: ["paid": "awaitingShipment"])
    /// for (id, error) in report.failed { log.warning("\(id) stays on version 1: \(error)") }
    /// ```
    ///
    /// An instance that cannot move (its renamed snapshot does not fit, another node holds it, it
    /// moved meanwhile) stays on its version and is reported in ``MigrationReport/failed``; the
    /// others move all the same. Run it again to retry them: the instances already moved are on
    /// the new version and are not listed again. Finished instances are kept where they are
    /// unless `includingFinished`: nothing runs on them any more, and their journals replay on
    /// the version they ran on.
    ///
    /// - Parameters:
    ///   - state: only the instances whose active states include this id (of the old version).
    /// - Throws: ``DurableError/chartNotRegistered(name:version:)`` for either version, before
    ///   anything moves; a store error while listing the instances.
    public func migrateAll(
        chart name: String, from old: Int, to new: Int, renaming: [String: String] = [:],
        inState state: String? = nil, includingFinished: Bool = false
    ) async throws(DurableError) -> MigrationReport {
        for version in [old, new] where charts[ChartKey(name: name, version: version)] == nil {
            throw .chartNotRegistered(name: name, version: version)
        }
        let ids = try await store.instances(inState: state)
            .filter { $0.chartName == name && $0.chartVersion == old && (includingFinished || !$0.finished) }
            .map(\.id).sorted()
        var report = MigrationReport()
        for id in ids {
            do {
                _ = try await migrate(id, from: old, to: new, renaming: renaming)
                report.migrated.append(id)
            } catch {
                report.failed[id] = error
            }
        }
        return report
    }

    /// Moves one instance; with `expected`, only if it is still on that version.
    private func migrate(_ id: String, from expected: Int?, to version: Int, renaming: [String: String])
        async throws(DurableError) -> InstanceRecord
    {
        await acquire(id)
        defer { release(id) }
        guard let record = try await store.instance(id) else { throw .unknownInstance(id) }
        if let expected, record.chartVersion != expected {
            throw .migrationFailed(
                instance: id, from: record.chartVersion, to: version,
                reason: "the instance is on version \(record.chartVersion) now, not \(expected)")
        }
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

/// What ``DurableHost/migrateAll(chart:from:to:renaming:inState:includingFinished:)`` did.
public struct MigrationReport: Sendable, Hashable {
    /// The instances moved to the new version, in id order.
    public var migrated: [String] = []
    /// The instances left on the old version, by id, with the reason each could not move.
    public var failed: [String: DurableError] = [:]

    /// An empty report.
    public init() {}
}

/// The event of a `migrate` journal row.
struct MigrationRecord: Codable {
    var from: Int
    var to: Int
    var renamed: [String: String]
    /// The snapshot as the new version adopted it: a replay starts from here (rule D11).
    var snapshot: String
}
