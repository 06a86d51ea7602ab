import StatechartDurable
import Testing

/// The store protocol's contract, run against every store (issue 15 §2: one shared suite).
@Suite struct StoreSuiteTests {
    /// A commit for instance `id` from `revision` to `revision + 1` (``macrostep(_:from:to:key:timers:effects:)``).
    func step(_ id: String, from revision: Int64, states: [String], key: String? = nil, timers: [Int64] = [],
              effects: Int = 0) -> MacrostepCommit {
        macrostep(id, from: revision, to: states, key: key, timers: timers, effects: effects)
    }

    // D4: a writer whose expected revision is stale is refused, and nothing it carried is written.
    @Test(arguments: StoreKind.allCases)
    func staleWriterIsRefused(kind: StoreKind) async throws {
        let store = try await kind.make()
        try await store.insert(step("i", from: 0, states: ["open"]))
        try await store.commit(step("i", from: 1, states: ["paid"], key: "k1"))
        await #expect(throws: DurableError.revisionConflict(instance: "i", expected: 1, found: 2)) {
            try await store.commit(step("i", from: 1, states: ["shipped"], key: "k2", timers: [5], effects: 1))
        }
        #expect(try await store.instance("i")?.activeStates == ["paid"])
        #expect(try await store.journal(of: "i").map(\.sequence) == [0, 1])
        #expect(try await store.idempotency("k2", of: "i") == nil)
        #expect(try await store.timers(of: "i").isEmpty)
        #expect(try await store.pendingOutbox(limit: 10).isEmpty)
        await #expect(throws: DurableError.unknownInstance("nobody")) {
            try await store.commit(step("nobody", from: 1, states: []))
        }
    }

    // D9: creating an instance twice is refused and keeps the first.
    @Test(arguments: StoreKind.allCases)
    func insertRefusesAnExistingInstance(kind: StoreKind) async throws {
        let store = try await kind.make()
        try await store.insert(step("i", from: 0, states: ["open"]))
        await #expect(throws: DurableError.instanceExists("i")) { try await store.insert(step("i", from: 0, states: ["x"])) }
        #expect(try await store.instance("i")?.activeStates == ["open"])
    }

    // D3: a key is recorded once per instance; the same key on another instance is another key.
    @Test(arguments: StoreKind.allCases)
    func idempotencyKeysAreRecordedOnce(kind: StoreKind) async throws {
        let store = try await kind.make()
        try await store.insert(step("i", from: 0, states: ["open"]))
        try await store.insert(step("j", from: 0, states: ["open"]))
        try await store.commit(step("i", from: 1, states: ["paid"], key: "k"))
        await #expect(throws: DurableError.duplicateIdempotencyKey(instance: "i", key: "k")) {
            try await store.commit(step("i", from: 2, states: ["shipped"], key: "k"))
        }
        try await store.commit(step("j", from: 1, states: ["paid"], key: "k"))
        let recorded = try #require(try await store.idempotency("k", of: "i"))
        #expect(recorded.outcome.configuration == ["paid"] && recorded.event == "\"e1\"")
        #expect(try await store.instance("i")?.revision == 2)
    }

    // D18: the keys of macrosteps committed before the cut-off are forgotten on every instance;
    // later keys and the journal's own record of every key are kept; a forgotten key can be
    // recorded again, and is then kept by its new commit's time.
    @Test(arguments: StoreKind.allCases)
    func idempotencyKeysExpireByTheirCommitTime(kind: StoreKind) async throws {
        let store = try await kind.make()
        try await store.insert(step("i", from: 0, states: ["open"]))
        try await store.insert(step("j", from: 0, states: ["open"]))
        // The journal row of sequence n is committed at n nanoseconds (see `step`).
        for r in Int64(1)...4 { try await store.commit(step("i", from: r, states: ["s\(r)"], key: "k\(r)")) }
        for r in Int64(1)...2 { try await store.commit(step("j", from: r, states: ["s\(r)"], key: "k\(r)")) }
        #expect(try await store.expireIdempotencyKeys(committedBefore: 3) == 4)
        for key in ["k1", "k2"] {
            #expect(try await store.idempotency(key, of: "i") == nil)
            #expect(try await store.idempotency(key, of: "j") == nil)
        }
        #expect(try await store.idempotency("k3", of: "i") != nil)
        #expect(try await store.idempotency("k4", of: "i") != nil)
        #expect(try await store.journal(of: "i").compactMap(\.idempotencyKey) == ["k1", "k2", "k3", "k4"])
        #expect(try await store.expireIdempotencyKeys(committedBefore: 3) == 0)
        // k1 again, committed at 5: an older row with k1 does not make it expire.
        try await store.commit(step("i", from: 5, states: ["again"], key: "k1"))
        #expect(try await store.expireIdempotencyKeys(committedBefore: 5) == 2)  // k3, k4
        #expect(try await store.idempotency("k1", of: "i")?.outcome.sequence == 5)
    }

    // D6: a commit replaces the instance's timers: more, fewer, other due times, none.
    @Test(arguments: StoreKind.allCases)
    func commitsReplaceTheTimers(kind: StoreKind) async throws {
        let store = try await kind.make()
        try await store.insert(step("i", from: 0, states: ["a"], timers: [10]))
        try await store.commit(step("i", from: 1, states: ["b"], timers: [30, 20, 40]))
        #expect(try await store.timers(of: "i").map(\.dueNanoseconds).sorted() == [20, 30, 40])
        try await store.commit(step("i", from: 2, states: ["c"], timers: [50]))
        let kept = try await store.timers(of: "i")
        #expect(kept.map(\.dueNanoseconds) == [50] && kept.map(\.position) == [0])
        try await store.commit(step("i", from: 3, states: ["d"], timers: []))
        #expect(try await store.timers(of: "i").isEmpty)
        #expect(try await store.instancesWithTimersDue(atOrBefore: 1_000, limit: 10).isEmpty)
    }

    // D5: the journal reads back in sequence order with every field.
    @Test(arguments: StoreKind.allCases)
    func journalKeepsSequenceOrderAndRows(kind: StoreKind) async throws {
        let store = try await kind.make()
        try await store.insert(step("i", from: 0, states: ["open"]))
        for r in Int64(1)...5 { try await store.commit(step("i", from: r, states: ["s\(r)"], key: "k\(r)")) }
        let journal = try await store.journal(of: "i")
        #expect(journal.map(\.sequence) == [0, 1, 2, 3, 4, 5])
        #expect(journal.map(\.configuration) == [["open"], ["s1"], ["s2"], ["s3"], ["s4"], ["s5"]])
        #expect(journal.last?.idempotencyKey == "k5" && journal.first?.kind == .start && journal.last?.kind == .event)
    }

    // D10: listing by a state at any level; delete removes every row of the instance.
    @Test(arguments: StoreKind.allCases)
    func listsByStateAndDeletesEverything(kind: StoreKind) async throws {
        let store = try await kind.make()
        try await store.insert(step("a", from: 0, states: ["open"]))
        try await store.insert(step("b", from: 0, states: ["paid", "paid.waiting"], timers: [10], effects: 2))
        try await store.insert(step("c", from: 0, states: ["paid", "paid.done"]))
        #expect(try await store.instances(inState: "paid").map(\.id) == ["b", "c"])
        #expect(try await store.instances(inState: "paid.done").map(\.id) == ["c"])
        #expect(try await store.instances(inState: nil).map(\.id) == ["a", "b", "c"])
        #expect(try await store.delete("b"))
        #expect(try await !store.delete("b"))
        #expect(try await store.instance("b") == nil)
        #expect(try await store.journal(of: "b").isEmpty)
        #expect(try await store.timers(of: "b").isEmpty)
        #expect(try await store.pendingOutbox(limit: 10).isEmpty)
        #expect(try await store.instances(inState: "paid").map(\.id) == ["c"])
    }

    // D6: timers are rows with absolute due times; a commit replaces the instance's timers.
    @Test(arguments: StoreKind.allCases)
    func dueTimersAreFoundByInstanceEarliestFirst(kind: StoreKind) async throws {
        let store = try await kind.make()
        try await store.insert(step("late", from: 0, states: ["x"], timers: [300, 50]))
        try await store.insert(step("early", from: 0, states: ["x"], timers: [20]))
        try await store.insert(step("never", from: 0, states: ["x"], timers: [10_000]))
        #expect(try await store.instancesWithTimersDue(atOrBefore: 19, limit: 10) == [])
        #expect(try await store.instancesWithTimersDue(atOrBefore: 100, limit: 10) == ["early", "late"])
        #expect(try await store.instancesWithTimersDue(atOrBefore: 100, limit: 1) == ["early"])
        try await store.commit(step("early", from: 1, states: ["y"], timers: []))
        #expect(try await store.instancesWithTimersDue(atOrBefore: 100, limit: 10) == ["late"])
        #expect(try await store.timers(of: "late").map(\.dueNanoseconds) == [300, 50])
    }

    // D7: effects stay pending until marked dispatched.
    @Test(arguments: StoreKind.allCases)
    func outboxEntriesStayPendingUntilDispatched(kind: StoreKind) async throws {
        let store = try await kind.make()
        try await store.insert(step("i", from: 0, states: ["x"], effects: 2))
        try await store.commit(step("i", from: 1, states: ["y"], effects: 1))
        let pending = try await store.pendingOutbox(limit: 10)
        #expect(pending.map(\.idempotencyKey) == ["i/0/0", "i/0/1", "i/1/0"])
        try await store.markDispatched(pending[1])
        #expect(try await store.pendingOutbox(limit: 10).map(\.idempotencyKey) == ["i/0/0", "i/1/0"])
    }

    // D13, D19: many instances committing at once (each its steps one after another, as the
    // host does) are all committed exactly once and in order, whether the store batches them or not.
    @Test(arguments: StoreKind.allCases)
    func concurrentCommitsOfManyInstancesAreAllCommittedInOrder(kind: StoreKind) async throws {
        let store = try await kind.make()
        let ids = (0..<24).map { "c\($0)" }
        for id in ids { try await store.insert(step(id, from: 0, states: ["s0"])) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for id in ids {
                group.addTask {
                    for n in Int64(1)...6 {
                        try await store.commit(step(id, from: n, states: ["s\(n)"], key: "k\(n)", timers: [n], effects: 1))
                    }
                }
            }
            try await group.waitForAll()
        }
        for id in ids {
            #expect(try await store.instance(id)?.revision == 7)
            let journal = try await store.journal(of: id)
            #expect(journal.map(\.sequence) == Array(0...6))
            #expect(journal.compactMap(\.idempotencyKey) == (1...6).map { "k\($0)" })
            #expect(try await store.timers(of: id).map(\.dueNanoseconds) == [6])
        }
        #expect(try await store.pendingOutbox(limit: 1_000).count == ids.count * 6)
    }
}
