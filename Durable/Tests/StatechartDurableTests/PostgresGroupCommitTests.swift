@testable import StatechartDurable
import Statechart
import StatechartInterchange
import Testing

/// Group commit on PostgreSQL (rule D19): one transaction for several instances' macrosteps,
/// each checked on its own. (GroupCommitTests runs what SQLite and PostgreSQL share.)
@Suite(.enabled(if: PostgresTestServer.enabled, PostgresTestServer.skipReason), .timeLimit(.minutes(1)))
struct PostgresGroupCommitTests {
    func step(
        _ id: String, from revision: Int64, to states: [String], key: String? = nil, timers: [Int64] = []
    ) -> MacrostepCommit {
        macrostep(id, from: revision, to: states, key: key, timers: timers)
    }

    // D19: one transaction, each macrostep checked on its own: the refused ones — a lost
    // compare-and-swap, a recorded key, an unknown instance, another node's live lease — fail
    // alone with the error a single commit gets, and the others are committed.
    @Test func refusedMacrostepsOfABatchAreLeftOutAlone() async throws {
        let schema = PostgresTestServer.freshSchema()
        let store = try await PostgresTestServer.makeStore(schema: schema, node: "one")
        let other = try await PostgresTestServer.makeStore(schema: schema, node: "two")
        for id in ["a", "b", "c"] { try await store.insert(step(id, from: 0, to: ["open"])) }
        try await other.insert(step("e", from: 0, to: ["open"]))  // node two holds e's lease
        try await store.commit(step("c", from: 1, to: ["paid"], key: "k"))
        let before = store.committed
        let results = await store.commitBatch([
            step("a", from: 1, to: ["paid"], timers: [9]),
            step("a", from: 1, to: ["shipped"]),  // stale: a is at revision 2 by now
            step("b", from: 1, to: ["paid"], key: "k"),
            step("c", from: 2, to: ["shipped"], key: "k"),  // the key is recorded already
            step("nobody", from: 1, to: ["paid"]),
            step("e", from: 1, to: ["paid"]),
        ])
        #expect(results.map { (try? $0.get()) != nil } == [true, false, true, false, false, false])
        #expect(throws: DurableError.revisionConflict(instance: "a", expected: 1, found: 2)) { try results[1].get() }
        #expect(throws: DurableError.duplicateIdempotencyKey(instance: "c", key: "k")) { try results[3].get() }
        #expect(throws: DurableError.unknownInstance("nobody")) { try results[4].get() }
        #expect(throws: DurableError.leaseHeld(instance: "e", owner: "two")) { try results[5].get() }
        #expect(store.committed.transactions == before.transactions + 1)
        #expect(store.committed.macrosteps == before.macrosteps + 2)
        #expect(try await store.instance("a")?.activeStates == ["paid"])
        #expect(try await store.timers(of: "a").map(\.dueNanoseconds) == [9])
        #expect(try await store.instance("b")?.revision == 2)
        #expect(try await store.idempotency("k", of: "b")?.outcome.configuration == ["paid"])
        #expect(try await store.instance("c")?.activeStates == ["paid"])
        #expect(try await store.journal(of: "c").map(\.sequence) == [0, 1])
        #expect(try await store.instance("e")?.revision == 1)
        #expect(try await store.journal(of: "e").map(\.sequence) == [0])
        await store.close()
        await other.close()
    }

    // D19: a batch whose transaction fails (here the server refuses a journal row that exists
    // already) fails every macrostep in it, and none of them is written.
    @Test func aFailedTransactionFailsEveryMacrostepOfItsBatch() async throws {
        let store = try await PostgresTestServer.makeStore()
        for id in ["a", "b"] { try await store.insert(step(id, from: 0, to: ["open"])) }
        var clash = step("b", from: 1, to: ["paid"])
        clash.journal.sequence = 0  // the start's row: a duplicate primary key
        let results = await store.commitBatch([step("a", from: 1, to: ["paid"], key: "k"), clash])
        for result in results {
            #expect {
                try result.get()
            } throws: { error in
                guard case .storage = error as? DurableError else { return false }
                return true
            }
        }
        #expect(try await store.instance("a")?.revision == 1)
        #expect(try await store.journal(of: "a").map(\.sequence) == [0])
        #expect(try await store.idempotency("k", of: "a") == nil)
        try await store.commit(step("a", from: 1, to: ["paid"], key: "k"))  // a retry is a first commit
        #expect(try await store.instance("a")?.activeStates == ["paid"])
        await store.close()
    }

    // D19: many instances sent to at once through a host are all acknowledged, each event
    // applied once and journalled in the order it was sent; fewer transactions than macrosteps
    // carried them (batches of several instances).
    @Test func concurrentSendsToManyInstancesAreAllCommittedOnceInOrder() async throws {
        let store = try await PostgresTestServer.makeStore()
        let host = try await makeHost(store)
        let ids = (0..<32).map { "t\($0)" }
        for id in ids { try await host.create(id, chart: "toggle", version: 1) }
        let before = store.committed
        try await withThrowingTaskGroup(of: Void.self) { group in
            for id in ids {
                group.addTask { for n in 0..<5 { try await host.send(SCXMLEvent("flip"), to: id, idempotencyKey: "\(n)") } }
            }
            try await group.waitForAll()
        }
        for id in ids {
            let journal = try await host.journal(of: id)
            #expect(journal.map(\.sequence) == Array(0...5))
            #expect(journal.compactMap(\.idempotencyKey) == (0..<5).map { "\($0)" })
            #expect(try await host.instance(id).activeStates == ["b"])
        }
        let after = store.committed
        #expect(after.macrosteps - before.macrosteps == 32 * 5)
        #expect(after.transactions - before.transactions < 32 * 5)
        print("D19: 160 macrosteps in \(after.transactions - before.transactions) transactions")
        await store.close()
    }
}
