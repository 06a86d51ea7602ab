import DurableTestCharts
import Foundation
import Statechart
import StatechartDurable
import Synchronization
import Testing

/// The fault test of issue 15 (rules D1, D3, D4, D6, D15, D16, D17): several worker processes, each a
/// PostgreSQL node hosting the cyclic order chart (a payment child, a 30 s payment timeout on a
/// clock 60 times faster than the database's), on one database. A driver sends ~100,000 events
/// with idempotency keys to ~1,000 instances while a killer sends SIGKILL to a random worker
/// every 2–4 s and starts it again. Afterwards: 0 acknowledged events lost, 0 applied twice,
/// every journal in the order its events were acknowledged, every due timer fired exactly once,
/// and every configuration and context equal to what one in-memory machine reaches from the same
/// events at the same times.
///
/// Minutes long, so not part of the plain `swift test`: Durable/Scripts/test.sh runs it on its
/// own with `STATECHART_FAULT_TEST=1`. The scale comes from the environment:
/// `STATECHART_FAULT_INSTANCES` (1,000), `STATECHART_FAULT_EVENTS` (100,000 in all),
/// `STATECHART_FAULT_WORKERS` (4), `STATECHART_FAULT_SEED` (random; printed).
@Suite(
    .serialized,
    .enabled(if: FaultSettings.enabled, "set STATECHART_FAULT_TEST=1 (Durable/Scripts/test.sh runs it after the other tests)"))
struct FaultTests {

    /// How much faster the workers' clock runs than the database's: the 30 s payment timeout
    /// falls due half a second after `pay`.
    static let clockFactor = 60

    /// The worker binary, built next to the tests (the test target depends on it).
    static var worker: URL? { builtExecutable(named: "DurableFaultWorker") }

    @Test(.timeLimit(.minutes(20))) func killedNodesLoseNothingAndApplyNothingTwice() async throws {
        // A write to a worker that was just killed must fail, not end this process.
        signal(SIGPIPE, SIG_IGN)
        let instances = FaultSettings.setting("STATECHART_FAULT_INSTANCES", 1_000)
        let eventsPerInstance = max(FaultSettings.setting("STATECHART_FAULT_EVENTS", 100_000) / instances, 2)
        let workers = FaultSettings.setting("STATECHART_FAULT_WORKERS", 4)
        let seed = UInt64(FaultSettings.setting("STATECHART_FAULT_SEED", Int.random(in: 1..<Int.max)))
        print("fault test: \(workers) workers, \(instances) instances × \(eventsPerInstance) events, seed \(seed)")

        let binary = try #require(Self.worker, "DurableFaultWorker was not built next to the tests")
        let schema = PostgresTestServer.freshSchema()
        // This store creates the tables; the verification reads through it at the end.
        let store = try await PostgresTestServer.makeStore(schema: schema, node: "verifier")
        let epoch = Duration.nanoseconds(Int64(Date().timeIntervalSince1970 * 1e9))
        let clock = compressedClock(try await store.databaseClock(), factor: Self.clockFactor, epoch: epoch)
        let arguments = [try PostgresTestServer.requireURL(), schema, String(Self.clockFactor), String(epoch.inNanoseconds)]
        let nodes = (0..<workers).map { FaultWorkerNode(slot: $0, binary: binary, arguments: arguments) }
        for node in nodes { #expect(try await node.launch(), "worker \(node.slot) did not start") }

        var generator = SplitMix64(seed: seed)
        let plans = (0..<instances).map { FaultPlan(instance: "order-\($0)", events: eventsPerInstance, &generator) }
        let driver = FaultDriver(nodes: nodes)

        // Create the instances, then drive them all at once while the killer runs.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (i, plan) in plans.enumerated() { group.addTask { try await driver.create(plan.instance, home: i % workers) } }
            try await group.waitForAll()
        }
        let started = ContinuousClock.now
        let killer = Task { await driver.killRandomNodes(every: Duration.seconds(2)...Duration.seconds(4), seed: seed) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (i, plan) in plans.enumerated() { group.addTask { try await driver.drive(plan, home: i % workers) } }
            try await group.waitForAll()
        }
        killer.cancel()
        await killer.value
        let driving = started.duration(to: .now)
        for node in nodes where !node.isAlive { _ = try await node.launch() }

        // Quiet: the nodes fire what falls due; wait until no timer is due any more.
        var quiet: Duration?
        var stillDue: [String] = []
        for _ in 0..<120 {
            let now = clock.now()
            stillDue = []
            for plan in plans
            where try await store.timers(of: plan.instance).contains(where: { $0.dueNanoseconds <= now.inNanoseconds }) {
                stillDue.append(plan.instance)
            }
            if stillDue.isEmpty {
                quiet = now
                break
            }
            try await Task.sleep(for: .milliseconds(500))
        }
        // The workers are stopped on every path: left running after a failure, they outlive the
        // test and crash writing to its closed pipes.
        let alive = nodes.filter(\.isAlive).count
        for node in nodes { await node.finish() }
        guard let settled = quiet else {
            Issue.record(
                "timers were still due after 120 polls: \(stillDue.count) instances (\(stillDue.prefix(5).joined(separator: ", ")) …), \(alive) of \(workers) workers alive when the wait ended")
            return
        }

        // Check every instance against its plan, its acknowledgements and an in-memory machine.
        let chart = try faultOrderChart()
        let host = DurableHost(store: store)
        try await host.register(chart, name: "order", version: 1, initialContext: FaultOrderBook())
        var report = FaultReport()
        for plan in plans {
            try await report.check(
                plan, acks: driver.acks(of: plan.instance), store: store, host: host, chart: chart.chart, settled: settled)
        }
        let stats = driver.statistics
        let perSecond = Double(stats.fresh) / (Double(driving.components.seconds) + Double(driving.components.attoseconds) * 1e-18)
        print(
            """
            fault test (PostgreSQL, \(workers) worker processes): \(instances * eventsPerInstance) events sent, \
            \(stats.fresh + stats.replayed) acknowledgements (\(stats.fresh) first, \(stats.replayed) replayed after a retry), \
            \(stats.kills) kills, \(report.lost) lost, \(report.appliedTwice) applied twice, \
            \(report.outOfOrder) out of order, \(report.timersFired) timers fired (\(report.timersMissed) missed, \
            \(report.timersExtra) fired twice; fired after their due time by \(report.lateness.summary)), \(report.mismatches) configurations differing from the in-memory machine; \
            \(Int(perSecond)) acknowledged events/s over \(driving); retries: \(stats.retries.sorted { $0.key < $1.key }); \
            kill → interrupted event acknowledged on another node: \(stats.recoveries.summary); worker start to ready: \
            \(stats.restarts.summary)
            """)
        #expect(stats.kills >= 3, "the run was too short for the killer")
        #expect(report.lost == 0)
        #expect(report.appliedTwice == 0)
        #expect(report.outOfOrder == 0)
        #expect(report.timersMissed == 0 && report.timersExtra == 0)
        #expect(report.timersFired > 0, "no timer fell due: the test exercised none")
        #expect(report.mismatches == 0)
        #expect(stats.failures.isEmpty, "sends that failed for good: \(stats.failures.prefix(5))")
        for problem in report.problems.prefix(10) { Issue.record("\(problem)") }
        await store.close()
    }
}

/// The fault test's switch and scale, from the environment.
enum FaultSettings {
    static let environment = ProcessInfo.processInfo.environment
    static let enabled = environment["STATECHART_FAULT_TEST"] == "1" && PostgresTestServer.enabled
    static func setting(_ name: String, _ otherwise: Int) -> Int { environment[name].flatMap { Int($0) } ?? otherwise }
}

extension Duration {
    /// Whole nanoseconds, as the stores keep times.
    var inNanoseconds: Int64 { components.seconds * 1_000_000_000 + components.attoseconds / 1_000_000_000 }
}

/// What the driver sends one instance: orders one after another, each by a ``FaultOrderScript``.
struct FaultPlan: Sendable {
    var instance: String
    /// The events in order; the key of event `n` is `e<n>`.
    var events: [FaultOrderEvent]
    /// The events after which the driver waits past the payment timeout (the `pay` of an
    /// abandoned order).
    var waitsAfter: Set<Int>

    init(instance: String, events count: Int, _ generator: inout SplitMix64) {
        self.instance = instance
        events = []
        waitsAfter = []
        while events.count < count {
            let roll = generator.next() % 100
            let script: FaultOrderScript = roll < 45 ? .delivered : roll < 60 ? .retried : roll < 75 ? .cancelled : .abandoned
            if script == .abandoned { waitsAfter.insert(events.count) }
            events += script.events
        }
        events.removeLast(events.count - count)
    }
}

/// A small seeded generator, so a failing run can be repeated with its printed seed.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
