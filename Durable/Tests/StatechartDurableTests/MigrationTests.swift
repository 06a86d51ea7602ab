import Statechart
import StatechartDurable
import Testing

enum OrderStateV2: String, Hashable, Sendable { case pending, awaitingShipment, shipped, cancelled, refunded }

/// Version 2 of the order: `open` is now `pending`, `paid` is `awaitingShipment`, and a failed
/// shipment is refunded.
func orderChartV2() throws -> TypedChart<OrderEvent, Order> {
    try TypedChart(
        Machine<OrderStateV2, OrderEvent, Order>("order", initial: .pending) {
            When(.pending) {
                On(.pay, to: .awaitingShipment) { $0.context.payments += 1 }
                After(.seconds(30), to: .cancelled)
            }
            When(.awaitingShipment) {
                On(.ship, to: .shipped)
                On(.fail, to: .refunded)
            }
            Final(.shipped)
            When(.cancelled) {}
            When(.refunded) {}
        })
}

let renamedToV2 = ["open": "pending", "paid": "awaitingShipment"]

/// Moving running instances to a new chart version by a map of state ids (rule D12).
@Suite struct MigrationTests {
    func hostWithBothVersions(_ kind: StoreKind, clock: ManualClock) async throws -> (DurableHost, any DurableStore) {
        let store = try await kind.make()
        let host = try await makeHost(store, clock: clock)
        try await host.register(try orderChartV2(), name: "order", version: 2, initialContext: Order())
        return (host, store)
    }

    // D12: an instance moves to version 2 with its states renamed; its context and its pending
    // timeout come along (the timer keeps its due time and fires under the new state's name).
    @Test(arguments: StoreKind.allCases)
    func runningInstanceMovesToTheNewVersion(kind: StoreKind) async throws {
        let clock = ManualClock()
        let (host, store) = try await hostWithBothVersions(kind, clock: clock)
        try await host.create("waiting", chart: "order", version: 1)
        try await host.create("paid", chart: "order", version: 1)
        try await host.send(OrderEvent.pay, to: "paid")
        await clock.advance(by: .seconds(20))

        let moved = try await host.migrate("waiting", to: 2, renaming: renamedToV2)
        #expect(moved.chartVersion == 2 && moved.activeStates == ["pending"])
        #expect(try await store.instance("waiting")?.chartVersion == 2)
        #expect(try await store.timers(of: "waiting").map(\.dueNanoseconds) == [Duration.seconds(30).nanosecondsForTest])
        try await host.migrate("paid", to: 2, renaming: renamedToV2)
        #expect(try await host.instances(inState: "awaitingShipment").map(\.id) == ["paid"])
        let snapshot = try await host.snapshot(of: "paid", as: ChartSnapshot<OrderEvent, Order>.self)
        #expect(snapshot.context.payments == 1)

        // Version 2's behaviour runs from here.
        #expect(try await host.send(OrderEvent.fail, to: "paid").configuration == ["refunded"])
        await clock.advance(by: .seconds(10))
        #expect(await host.fireDueTimers().fired == 1)
        #expect(try await host.instance("waiting").activeStates == ["cancelled"])
        #expect(try await host.journal(of: "waiting").map(\.kind) == [.start, .migrate, .timers])
        // The journal replays from the migration row (D11).
        #expect(try await host.verifyJournal(of: "waiting") == 3)
        #expect(try await host.verifyJournal(of: "paid") == 4)
    }

    // D12: leaving a renamed state cancels the renamed timer: the timeout of `open` must not fire
    // after the instance was paid under version 2.
    @Test func renamedTimerIsCancelledByLeavingItsState() async throws {
        let clock = ManualClock()
        let (host, store) = try await hostWithBothVersions(.memory, clock: clock)
        try await host.create("o", chart: "order", version: 1)
        try await host.migrate("o", to: 2, renaming: renamedToV2)
        try await host.send(OrderEvent.pay, to: "o")
        #expect(try await store.timers(of: "o").isEmpty)
        await clock.advance(by: .seconds(60))
        #expect(await host.fireDueTimers().fired == 0)
        #expect(try await host.instance("o").activeStates == ["awaitingShipment"])
    }

    // D12: a map that leaves a state the new version does not have is refused, naming the state,
    // and nothing is written; so is a version nobody registered.
    @Test(arguments: StoreKind.allCases)
    func incompleteMapIsRefused(kind: StoreKind) async throws {
        let (host, _) = try await hostWithBothVersions(kind, clock: ManualClock())
        try await host.create("o", chart: "order", version: 1)
        let before = try await host.instance("o")
        await #expect {
            try await host.migrate("o", to: 2, renaming: ["paid": "awaitingShipment"])
        } throws: { error in
            guard case .migrationFailed("o", 1, 2, let reason) = error as? DurableError else { return false }
            return reason.contains("'open'")
        }
        await #expect(throws: DurableError.chartNotRegistered(name: "order", version: 3)) {
            try await host.migrate("o", to: 3)
        }
        #expect(try await host.instance("o") == before)
        #expect(try await host.journal(of: "o").count == 1)
        #expect(try await host.send(OrderEvent.pay, to: "o").configuration == ["paid"])  // still version 1
    }

    // D12: migrateAll moves the unfinished instances of version 1; an instance whose renamed
    // snapshot does not fit stays on version 1 and is reported while the others move; a second
    // run with a complete map moves the rest; a finished instance moves only when asked.
    @Test(arguments: StoreKind.allCases)
    func migrateAllMovesAVersionAndReportsWhatStays(kind: StoreKind) async throws {
        let clock = ManualClock()
        let (host, _) = try await hostWithBothVersions(kind, clock: clock)
        for id in ["a", "b", "c", "d"] { try await host.create(id, chart: "order", version: 1) }
        try await host.send(OrderEvent.pay, to: "b")
        try await host.send(OrderEvent.pay, to: "d")
        try await host.send(OrderEvent.ship, to: "d")  // finished: shipped

        // Only `open` is mapped: `b`, in `paid`, does not fit version 2.
        let first = try await host.migrateAll(chart: "order", from: 1, to: 2, renaming: ["open": "pending"])
        #expect(first.migrated == ["a", "c"])
        #expect(Array(first.failed.keys) == ["b"])
        guard case .migrationFailed("b", 1, 2, let reason)? = first.failed["b"] else {
            Issue.record("b: \(String(describing: first.failed["b"]))")
            return
        }
        #expect(reason.contains("'paid'"))
        #expect(try await host.instance("b").chartVersion == 1)
        #expect(try await host.instance("d").chartVersion == 1)
        #expect(try await host.instance("a").activeStates == ["pending"])

        // By state: only the instances in `paid` (of version 1) are listed.
        let second = try await host.migrateAll(chart: "order", from: 1, to: 2, renaming: renamedToV2, inState: "paid")
        #expect(second.migrated == ["b"] && second.failed.isEmpty)
        #expect(try await host.send(OrderEvent.fail, to: "b").configuration == ["refunded"])  // version 2 runs it

        // The finished instance, when asked.
        let third = try await host.migrateAll(chart: "order", from: 1, to: 2, renaming: renamedToV2, includingFinished: true)
        #expect(third.migrated == ["d"] && third.failed.isEmpty)
        #expect(try await host.instance("d").chartVersion == 2)
        #expect(try await host.migrateAll(chart: "order", from: 1, to: 2, includingFinished: true) == MigrationReport())
        for id in ["a", "b", "c", "d"] { _ = try await host.verifyJournal(of: id) }
    }

    // D12: both versions must be registered before anything moves.
    @Test func migrateAllChecksBothVersionsFirst() async throws {
        let (host, _) = try await hostWithBothVersions(.memory, clock: ManualClock())
        try await host.create("o", chart: "order", version: 1)
        await #expect(throws: DurableError.chartNotRegistered(name: "order", version: 3)) {
            try await host.migrateAll(chart: "order", from: 1, to: 3)
        }
        await #expect(throws: DurableError.chartNotRegistered(name: "order", version: 7)) {
            try await host.migrateAll(chart: "order", from: 7, to: 2)
        }
        #expect(try await host.instance("o").chartVersion == 1)
    }
}
