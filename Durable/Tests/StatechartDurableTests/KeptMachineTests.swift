import Statechart
import StatechartDurable
import StatechartInterchange
import Testing

/// Machines kept in memory between macrosteps (rule D14).
@Suite struct KeptMachineTests {
    // D14: consecutive steps of an instance run on the machine the host kept, and reach what a
    // decoded snapshot reaches: the journal replays into the stored snapshot.
    @Test(arguments: StoreKind.allCases)
    func consecutiveStepsRunOnTheKeptMachine(kind: StoreKind) async throws {
        let clock = ManualClock()
        let host = try await makeHost(try await kind.make(), clock: clock)
        try await host.create("o1", chart: "order", version: 1)
        try await host.send(OrderEvent.pay, to: "o1")
        try await host.send(OrderEvent.notify, to: "o1")
        try await host.create("o2", chart: "order", version: 1)
        await clock.advance(by: .seconds(31))
        #expect(await host.fireDueTimers().fired == 1)
        #expect(await host.statistics.keptMachinesUsed == 3)
        #expect(try await host.verifyJournal(of: "o1") == 3)
        #expect(try await host.verifyJournal(of: "o2") == 2)
        let snapshot = try await host.snapshot(of: "o1", as: ChartSnapshot<OrderEvent, Order>.self)
        #expect(snapshot.context.payments == 1)
    }

    // D14: a row another host changed is decoded, not run on the stale kept machine.
    @Test(arguments: StoreKind.allCases)
    func aRowChangedByAnotherHostIsDecoded(kind: StoreKind) async throws {
        let store = try await kind.make()
        let mine = try await makeHost(store)
        let other = try await makeHost(store)
        try await mine.create("t", chart: "toggle", version: 1)
        try await other.send(SCXMLEvent("flip"), to: "t")  // a → b, behind my host's back
        #expect(try await mine.send(SCXMLEvent("flip"), to: "t").configuration == ["a"])
        #expect(try await mine.send(SCXMLEvent("flip"), to: "t").configuration == ["b"])
        #expect(await mine.statistics.keptMachinesUsed == 1)  // only the last step
        #expect(try await mine.verifyJournal(of: "t") == 4)
    }

    // D21: a host that kept the machine of its own last commit reads nothing before the next
    // step — neither the row nor the key — and a retried key is still answered from the record,
    // also when the event would be refused now (the first send finished the machine).
    @Test(arguments: StoreKind.allCases)
    func stepsFromTheKeptMachineReadNothing(kind: StoreKind) async throws {
        let store = FailingStore(try await kind.make())
        let host = try await makeHost(store)
        try await host.create("o1", chart: "order", version: 1)
        try await host.send(OrderEvent.pay, to: "o1", idempotencyKey: "pay")
        try await host.send(OrderEvent.notify, to: "o1", idempotencyKey: "notify")
        let shipped = try await host.send(OrderEvent.ship, to: "o1", idempotencyKey: "ship")
        #expect(await store.instanceReads == 0)
        #expect(await store.keyReads == 0)
        #expect(shipped.finished)

        let again = try await host.send(OrderEvent.ship, to: "o1", idempotencyKey: "ship")
        #expect(again.replayed && again.sequence == shipped.sequence)
        let payAgain = try await host.send(OrderEvent.pay, to: "o1", idempotencyKey: "pay")
        #expect(payAgain.replayed && payAgain.sequence == 1)
        #expect(try await host.journal(of: "o1").count == 4)
        #expect(try await host.verifyJournal(of: "o1") == 4)
    }

    // D14: with no machines kept every step decodes its snapshot, with the same results.
    @Test func keepingNoMachinesDecodesEveryStep() async throws {
        let host = DurableHost(store: InMemoryStore(), clock: .manual(ManualClock()), keptMachines: 0)
        try await host.register(try toggleChart(), name: "toggle", version: 1, initialContext: SCXMLContext())
        try await host.create("t", chart: "toggle", version: 1)
        for _ in 0..<3 { try await host.send(SCXMLEvent("flip"), to: "t") }
        #expect(await host.statistics.keptMachinesUsed == 0)
        #expect(try await host.instance("t").activeStates == ["b"])
        #expect(try await host.verifyJournal(of: "t") == 4)
    }

    enum LeaseState: String, Hashable, Sendable { case idle, armed, expired }
    enum LeaseEvent: String, Hashable, Sendable, Codable { case arm, disarm }

    /// Idle until armed; armed for 30 s, then expired.
    static func leaseChart() throws -> TypedChart<LeaseEvent, Order> {
        try TypedChart(
            Machine<LeaseState, LeaseEvent, Order>("lease", initial: .idle) {
                When(.idle) { On(.arm, to: .armed) }
                When(.armed) {
                    On(.disarm, to: .idle)
                    After(.seconds(30), to: .expired)
                }
                When(.expired) {}
            })
    }

    // D21, D6: a host's kept machine that is behind the row (another host armed a timer since)
    // finds nothing due; its timer sweep must not trust it again and again — the store says a
    // timer is due — but drop it and fire from the row. Found by the fault test: a timer stayed
    // due for a minute with every node alive.
    @Test(arguments: StoreKind.allCases)
    func aSweepDropsAKeptMachineBehindADueTimer(kind: StoreKind) async throws {
        let store = try await kind.make()
        let clock = ManualClock()
        let mine = try await makeHost(store, clock: clock)
        let other = try await makeHost(store, clock: clock)
        for host in [mine, other] { try await host.register(try Self.leaseChart(), name: "lease", version: 1, initialContext: Order()) }
        try await mine.create("l", chart: "lease", version: 1)  // kept here: idle, no timer
        try await other.send(LeaseEvent.arm, to: "l")  // armed, a timer due at 30 s, behind my host's back
        await clock.advance(by: .seconds(31))
        let sweep = await mine.fireDueTimers()
        #expect(sweep == TimerSweep(fired: 1, failures: []))
        #expect(await mine.statistics.staleKeptMachines == 1)
        #expect(try await mine.instance("l").activeStates == ["expired"])
        #expect(try await store.timers(of: "l").isEmpty)
        // Its own kept machine again, nothing due: nothing is dropped.
        #expect(await mine.fireDueTimers() == TimerSweep(fired: 0, failures: []))
        #expect(await mine.statistics.staleKeptMachines == 1)
        #expect(try await mine.verifyJournal(of: "l") == 3)
    }
}
