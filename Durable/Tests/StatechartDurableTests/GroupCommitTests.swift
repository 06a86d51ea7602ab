@testable import StatechartDurable
import Statechart
import StatechartInterchange
import Testing

/// A store that commits batches (SQLite, rule D13; PostgreSQL, rule D19).
protocol BatchCommitting: DurableStore {
    func commitBatch(_ commits: [MacrostepCommit]) async -> [Result<Void, DurableError>]
    func close() async
}

extension SQLiteStore: BatchCommitting {}
extension PostgresStore: BatchCommitting {}

/// The stores that batch commits.
enum BatchingStoreKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite, postgres

    /// SQLite, and PostgreSQL when a server is given or required.
    static var allCases: [BatchingStoreKind] { PostgresTestServer.enabled ? [.sqlite, .postgres] : [.sqlite] }

    var testDescription: String { rawValue }

    func make() async throws -> any BatchCommitting {
        switch self {
        case .sqlite: return try await SQLiteStore(path: temporaryDatabasePath())
        case .postgres: return try await PostgresTestServer.makeStore()
        }
    }
}

/// Group commit on SQLite (rule D13), and what SQLite and PostgreSQL (rule D19) share.
@Suite struct GroupCommitTests {
    func step(_ id: String, from revision: Int64, to states: [String], key: String? = nil) -> MacrostepCommit {
        macrostep(id, from: revision, to: states, key: key)
    }

    // D13: one transaction, each macrostep checked on its own: the refused ones (a lost
    // compare-and-swap, a duplicate key) are left out alone, the others are committed.
    @Test func refusedMacrostepsOfABatchAreLeftOutAlone() async throws {
        let store = try await SQLiteStore(path: temporaryDatabasePath())
        for id in ["a", "b", "c"] { try await store.insert(step(id, from: 0, to: ["open"])) }
        try await store.commit(step("c", from: 1, to: ["paid"], key: "k"))
        let results = await store.commitBatch([
            step("a", from: 1, to: ["paid"]),
            step("a", from: 1, to: ["shipped"]),  // stale: a is at revision 2 by now
            step("b", from: 1, to: ["paid"]),
            step("c", from: 2, to: ["shipped"], key: "k"),  // the key is recorded already
        ])
        #expect(results.map { (try? $0.get()) != nil } == [true, false, true, false])
        #expect(throws: DurableError.revisionConflict(instance: "a", expected: 1, found: 2)) { try results[1].get() }
        #expect(throws: DurableError.duplicateIdempotencyKey(instance: "c", key: "k")) { try results[3].get() }
        #expect(try await store.instance("a")?.activeStates == ["paid"])
        #expect(try await store.instance("b")?.activeStates == ["paid"])
        #expect(try await store.instance("c")?.activeStates == ["paid"])
        #expect(try await store.journal(of: "a").map(\.sequence) == [0, 1])
        #expect(try await store.journal(of: "c").map(\.sequence) == [0, 1])
        #expect(await store.transactionsCommitted == 2)
        #expect(await store.macrostepsCommitted == 3)
        await store.close()
    }

    // D13, D19: two macrosteps of one instance in one batch (two hosts sharing a store) apply in
    // order: the later one's row and timers stand, both journal rows and keys are kept.
    @Test(arguments: BatchingStoreKind.allCases)
    func successiveMacrostepsOfOneInstanceInABatchApplyInOrder(kind: BatchingStoreKind) async throws {
        let store = try await kind.make()
        try await store.insert(step("a", from: 0, to: ["open"]))
        let results = await store.commitBatch([
            macrostep("a", from: 1, to: ["paid"], key: "k1", timers: [5, 6]),
            macrostep("a", from: 2, to: ["shipped"], key: "k2", timers: [7]), step("a", from: 3, to: ["lost"], key: "k1"),
        ])
        #expect(results.map { (try? $0.get()) != nil } == [true, true, false])
        #expect(throws: DurableError.duplicateIdempotencyKey(instance: "a", key: "k1")) { try results[2].get() }
        #expect(try await store.instance("a")?.activeStates == ["shipped"])
        #expect(try await store.instance("a")?.revision == 3)
        #expect(try await store.instances(inState: "shipped").map(\.id) == ["a"])
        #expect(try await store.journal(of: "a").map(\.configuration) == [["open"], ["paid"], ["shipped"]])
        #expect(try await store.idempotency("k2", of: "a")?.outcome.configuration == ["shipped"])
        #expect(try await store.timers(of: "a").map(\.dueNanoseconds) == [7])
        await store.close()
    }

    // D13: many instances sending at once are all acknowledged, each journal in order; the
    // store counts how many transactions carried them.
    @Test func concurrentSendsToManyInstancesAreAllCommitted() async throws {
        let store = try await SQLiteStore(path: temporaryDatabasePath())
        let host = try await makeHost(store)
        let ids = (0..<32).map { "t\($0)" }
        for id in ids { try await host.create(id, chart: "toggle", version: 1) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for id in ids {
                group.addTask { for n in 0..<5 { try await host.send(SCXMLEvent("flip"), to: id, idempotencyKey: "\(n)") } }
            }
            try await group.waitForAll()
        }
        for id in ids { #expect(try await host.journal(of: id).map(\.sequence) == Array(0...5)) }
        #expect(await store.macrostepsCommitted == 32 * 5)
        #expect(await store.transactionsCommitted <= 32 * 5)
        await store.close()
    }

    // D13, D19: the caller that leads a batch of several being cancelled does not cancel the
    // batch, which carries the other callers' macrosteps too (a PostgreSQL request gives up when
    // cancelled).
    @Test func aCancelledLeaderDoesNotCancelItsBatch() async throws {
        let queue = CommitQueue(maximumBatch: 8, maximumLeaders: 1)
        let run: @Sendable ([MacrostepCommit]) async -> [Result<Void, DurableError>] = { batch in
            try? await Task.sleep(for: .milliseconds(300))
            return batch.map { _ in Task.isCancelled ? .failure(.storage("cancelled")) : .success(()) }
        }
        let first = Task { try await queue.commit(step("a", from: 1, to: ["paid"]), through: run) }
        try await Task.sleep(for: .milliseconds(50))  // a's batch is in flight: b and c wait for the next
        let leader = Task { try await queue.commit(step("b", from: 1, to: ["paid"]), through: run) }
        try await Task.sleep(for: .milliseconds(10))
        let follower = Task { try await queue.commit(step("c", from: 1, to: ["paid"]), through: run) }
        try await first.value  // b now leads the batch of b and c
        try await Task.sleep(for: .milliseconds(100))
        leader.cancel()
        try await leader.value
        try await follower.value
    }
}
