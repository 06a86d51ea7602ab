import Statechart
import StatechartDurable
import StatechartInterchange
import Testing

/// The host's guarantees (Docs/Durability.md, rules D1…), on every store.
@Suite struct HostTests {
    // D1: a send returns after its macrostep is committed: the outcome is what the store holds.
    @Test(arguments: StoreKind.allCases)
    func acknowledgedSendIsCommitted(kind: StoreKind) async throws {
        let store = try await kind.make()
        let host = try await makeHost(store)
        let created = try await host.create("o1", chart: "order", version: 1)
        #expect(created.activeStates == ["open"] && created.revision == 1 && created.sequence == 0)
        let outcome = try await host.send(OrderEvent.pay, to: "o1")
        #expect(outcome == SendOutcome(sequence: 1, handled: true, configuration: ["paid"], finished: false))
        let stored = try #require(try await store.instance("o1"))
        #expect(stored.activeStates == ["paid"] && stored.revision == 2 && stored.sequence == 1)
        let snapshot = try await host.snapshot(of: "o1", as: ChartSnapshot<OrderEvent, Order>.self)
        #expect(snapshot.context.payments == 1)
        #expect(snapshot.activeStates == ["paid"])
    }

    // D1: a send that throws leaves nothing: no journal row, no snapshot change, no key.
    @Test(arguments: StoreKind.allCases)
    func failedSendLeavesNothing(kind: StoreKind) async throws {
        let store = FailingStore(try await kind.make())
        let host = try await makeHost(store)
        try await host.create("o1", chart: "order", version: 1)
        let before = try await host.instance("o1")

        // An action throws: the machine's step is not committed.
        await #expect(throws: DurableError.machineFailed(instance: "o1", error: .executionFailed(["action of 'open' threw ActionFailure()"]))) {
            try await host.send(OrderEvent.fail, to: "o1", idempotencyKey: "k-fail")
        }
        // The database fails at commit.
        await store.setFailing(true)
        await #expect(throws: DurableError.storage("disk I/O error (injected)")) {
            try await host.send(OrderEvent.pay, to: "o1", idempotencyKey: "k-pay")
        }
        #expect(try await host.instance("o1") == before)
        #expect(try await host.journal(of: "o1").map(\.sequence) == [0])
        #expect(try await store.idempotency("k-pay", of: "o1") == nil)
        #expect(try await store.idempotency("k-fail", of: "o1") == nil)

        // The retry after the database came back is applied once, as a first send.
        await store.setFailing(false)
        let retried = try await host.send(OrderEvent.pay, to: "o1", idempotencyKey: "k-pay")
        #expect(!retried.replayed && retried.sequence == 1 && retried.configuration == ["paid"])
    }

    // D3: a retried send with the same key is applied once and returns the recorded outcome.
    @Test(arguments: StoreKind.allCases)
    func retriedSendIsAppliedOnce(kind: StoreKind) async throws {
        let store = try await kind.make()
        let host = try await makeHost(store)
        try await host.create("o1", chart: "order", version: 1)
        let first = try await host.send(OrderEvent.pay, to: "o1", idempotencyKey: "req-1")
        try await host.send(OrderEvent.ship, to: "o1", idempotencyKey: "req-2")
        let retry = try await host.send(OrderEvent.pay, to: "o1", idempotencyKey: "req-1")
        #expect(!first.replayed && retry.replayed)
        #expect(retry.sequence == first.sequence && retry.configuration == ["paid"])
        #expect(try await host.journal(of: "o1").count == 3)
        let snapshot = try await host.snapshot(of: "o1", as: ChartSnapshot<OrderEvent, Order>.self)
        #expect(snapshot.context.payments == 1)
        // The same key with another event is a caller's bug, not a retry.
        await #expect(throws: DurableError.idempotencyKeyReused(instance: "o1", key: "req-1")) {
            try await host.send(OrderEvent.notify, to: "o1", idempotencyKey: "req-1")
        }
    }

    // D18: keys older than the age given are forgotten by the host's clock: a retry with a
    // forgotten key is applied again (a new macrostep), a retry with a kept key is not.
    @Test(arguments: StoreKind.allCases)
    func expiredIdempotencyKeysNoLongerDeduplicate(kind: StoreKind) async throws {
        let clock = ManualClock()
        let host = try await makeHost(try await kind.make(), clock: clock)
        try await host.create("t", chart: "toggle", version: 1)
        let old = try await host.send(SCXMLEvent("flip"), to: "t", idempotencyKey: "old")
        await clock.advance(by: .seconds(7_200))
        try await host.send(SCXMLEvent("flip"), to: "t", idempotencyKey: "recent")
        // An age past the clock's range forgets nothing (and does not overflow).
        #expect(try await host.expireIdempotencyKeys(olderThan: .seconds(Int64.max)) == 0)
        #expect(try await host.expireIdempotencyKeys(olderThan: .seconds(3_600)) == 1)
        #expect(try await host.send(SCXMLEvent("flip"), to: "t", idempotencyKey: "recent").replayed)
        let again = try await host.send(SCXMLEvent("flip"), to: "t", idempotencyKey: "old")
        #expect(!again.replayed && again.sequence == old.sequence + 2)
        #expect(try await host.journal(of: "t").compactMap(\.idempotencyKey) == ["old", "recent", "old"])
    }

    // D5: the journal holds one row per committed macrostep, in order, with the event and the
    // resulting configuration; concurrent sends to one instance are applied one at a time (D2).
    @Test(arguments: StoreKind.allCases)
    func journalRecordsEveryMacrostepInOrder(kind: StoreKind) async throws {
        let store = try await kind.make()
        let host = try await makeHost(store)
        try await host.create("t", chart: "toggle", version: 1)
        try await withThrowingTaskGroup(of: SendOutcome.self) { group in
            for i in 0..<20 {
                group.addTask { try await host.send(SCXMLEvent("flip"), to: "t", idempotencyKey: "flip-\(i)") }
            }
            var sequences: [Int64] = []
            for try await outcome in group { sequences.append(outcome.sequence) }
            #expect(sequences.sorted() == Array(1...20))
        }
        let journal = try await host.journal(of: "t")
        #expect(journal.map(\.sequence) == Array(0...20))
        #expect(journal.map(\.kind) == [.start] + Array(repeating: .event, count: 20))
        #expect(journal.map(\.configuration) == (0...20).map { $0 % 2 == 0 ? ["a"] : ["b"] })
        #expect(journal.dropFirst().allSatisfy { $0.event.contains("\"flip\"") })
        #expect(try await host.instance("t").revision == 21)
    }

    // D4: two hosts on one store: a stale writer loses the compare-and-swap and writes nothing.
    @Test(arguments: StoreKind.allCases)
    func staleHostLosesTheCompareAndSwap(kind: StoreKind) async throws {
        let store = try await kind.make()
        let host = try await makeHost(store)
        try await host.create("o1", chart: "order", version: 1)
        let stale = try #require(try await store.instance("o1"))
        try await host.send(OrderEvent.pay, to: "o1")
        var write = MacrostepCommit(
            instance: stale, expectedRevision: stale.revision,
            journal: JournalEntry(
                instanceID: "o1", sequence: 1, kind: .event, event: "\"ship\"", configuration: ["shipped"],
                atNanoseconds: 0, idempotencyKey: nil),
            idempotency: nil, timers: [], outbox: [])
        write.instance.revision += 1
        await #expect(throws: DurableError.revisionConflict(instance: "o1", expected: 1, found: 2)) {
            try await store.commit(write)
        }
        #expect(try await host.instance("o1").activeStates == ["paid"])
        #expect(try await host.journal(of: "o1").count == 2)
    }

    // D4: when another host commits between our read and our commit, our step is refused by the
    // compare-and-swap, wrote nothing, and runs again on the new revision: both events apply once.
    @Test(arguments: StoreKind.allCases)
    func hostRunsItsStepAgainAfterLosingTheCompareAndSwap(kind: StoreKind) async throws {
        let shared = try await kind.make()
        let store = FailingStore(shared)
        let host = try await makeHost(store)
        let other = try await makeHost(shared)
        try await host.create("o1", chart: "order", version: 1)
        await store.setBeforeNextCommit { try await other.send(OrderEvent.pay, to: "o1", idempotencyKey: "other") }
        // `ship` was computed from `open`, where it is not handled; after the retry it runs on `paid`.
        let outcome = try await host.send(OrderEvent.ship, to: "o1", idempotencyKey: "mine")
        #expect(outcome.handled && outcome.configuration == ["shipped"] && outcome.sequence == 2)
        #expect(try await host.journal(of: "o1").map(\.idempotencyKey) == [nil, "other", "mine"])
        #expect(await host.statistics.conflictsRetried == 1)
    }

    // D9: a corrupt snapshot row is a typed error naming the instance.
    @Test(arguments: StoreKind.allCases)
    func corruptSnapshotIsReportedWithTheInstance(kind: StoreKind) async throws {
        let store = try await kind.make()
        let host = try await makeHost(store)
        try await host.create("o1", chart: "order", version: 1)
        try await overwriteSnapshot(of: "o1", in: store, with: "{\"formatVersion\": 2, \"activeStates\": [")
        await #expect {
            try await host.send(OrderEvent.pay, to: "o1")
        } throws: { error in
            guard case .corruptSnapshot(let id, _) = error as? DurableError else { return false }
            return id == "o1"
        }
        // The start and the tampering row; the failed send added nothing.
        #expect(try await host.journal(of: "o1").count == 2)
    }

    // D9: a snapshot of another chart (or version) is a typed error naming instance, chart and version.
    @Test(arguments: StoreKind.allCases)
    func snapshotOfAnotherChartIsRefused(kind: StoreKind) async throws {
        let store = try await kind.make()
        let host = try await makeHost(store)
        try await host.create("o1", chart: "order", version: 1)
        try await host.create("t", chart: "toggle", version: 1)
        let toggleSnapshot = try await host.instance("t").snapshot
        try await overwriteSnapshot(of: "o1", in: store, with: toggleSnapshot)
        await #expect {
            try await host.send(OrderEvent.pay, to: "o1")
        } throws: { error in
            guard case .snapshotMismatch(let id, let chart, let version, let reason) = error as? DurableError else {
                return false
            }
            return id == "o1" && chart == "order" && version == 1 && reason.contains("fingerprint")
        }
        // A row pinned to a version nobody registered names the version.
        try await overwriteSnapshot(of: "t", in: store, with: toggleSnapshot, version: 2)
        await #expect(throws: DurableError.chartNotRegistered(name: "toggle", version: 2)) {
            try await host.send(SCXMLEvent("flip"), to: "t")
        }
    }

    // D10: instances are listed by state at any level, finished ones are kept, delete removes them.
    @Test(arguments: StoreKind.allCases)
    func listsInstancesByStateAndDeletes(kind: StoreKind) async throws {
        let store = try await kind.make()
        let host = try await makeHost(store)
        for id in ["a", "b", "c"] { try await host.create(id, chart: "order", version: 1) }
        try await host.send(OrderEvent.pay, to: "b")
        try await host.send(OrderEvent.pay, to: "c")
        let shipped = try await host.send(OrderEvent.ship, to: "c")
        #expect(shipped.finished && shipped.configuration == ["shipped"])
        #expect(try await host.instances(inState: "open").map(\.id) == ["a"])
        #expect(try await host.instances(inState: "paid").map(\.id) == ["b"])
        #expect(try await host.instances(inState: "shipped").map(\.id) == ["c"])
        #expect(try await host.instance("c").finished)
        #expect(try await host.delete("b"))
        #expect(try await !host.delete("b"))
        await #expect(throws: DurableError.unknownInstance("b")) { try await host.send(OrderEvent.ship, to: "b") }
        #expect(try await host.journal(of: "b").isEmpty)
        #expect(try await host.instances().map(\.id) == ["a", "c"])
        // A finished machine refuses events, and nothing is written.
        await #expect(throws: DurableError.machineFailed(instance: "c", error: .finished(finalState: "shipped"))) {
            try await host.send(OrderEvent.pay, to: "c")
        }
    }

    // D9: bad requests are typed errors naming the id, chart or version; nothing is written.
    @Test func badRequestsAreTypedErrors() async throws {
        let host = try await makeHost(InMemoryStore())
        await #expect(throws: DurableError.invalidInstanceID("")) { try await host.create("", chart: "order", version: 1) }
        await #expect(throws: DurableError.chartNotRegistered(name: "order", version: 9)) {
            try await host.create("x", chart: "order", version: 9)
        }
        try await host.create("x", chart: "order", version: 1)
        await #expect(throws: DurableError.instanceExists("x")) { try await host.create("x", chart: "order", version: 1) }
        await #expect(throws: DurableError.chartAlreadyRegistered(name: "order", version: 1)) {
            try await host.register(try orderChart(), name: "order", version: 1, initialContext: Order())
        }
        await #expect {
            try await host.send(SCXMLEvent("flip"), to: "x")
        } throws: { error in
            guard case .eventNotDecodable(let id, _) = error as? DurableError else { return false }
            return id == "x"
        }
        #expect(try await host.journal(of: "x").count == 1)
    }
}

/// Replaces an instance's stored snapshot (and optionally its chart version) behind the host's
/// back, as a damaged or foreign row would look.
func overwriteSnapshot(of id: String, in store: any DurableStore, with snapshot: String, version: Int? = nil) async throws {
    let record = try #require(try await store.instance(id))
    var changed = record
    changed.revision += 1
    changed.sequence += 1
    changed.snapshot = snapshot
    if let version { changed.chartVersion = version }
    try await store.commit(
        MacrostepCommit(
            instance: changed, expectedRevision: record.revision,
            journal: JournalEntry(
                instanceID: id, sequence: changed.sequence, kind: .event, event: "\"tamper\"",
                configuration: changed.activeStates, atNanoseconds: 0, idempotencyKey: nil),
            idempotency: nil, timers: [], outbox: []))
}
