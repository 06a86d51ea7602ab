// Durable figures (issue 15 §4): durable macrosteps per second and send-to-acknowledged latency
// on the SQLite, in-memory and (given a server) PostgreSQL stores, with 1, 8 and 64 instances
// driven concurrently. Not a timed test: run it in release mode and read the numbers.
//
//   swift run -c release --package-path Durable DurableFigures [events per instance]
//
// STATECHART_POSTGRES_URL=postgres://… adds PostgreSQL (each measurement in a fresh schema);
// DURABLE_FIGURES_ONLY=postgres (or sqlite, memory) measures that store alone;
// DURABLE_FIGURES_POSTGRES_BATCHES=n sets the PostgreSQL store's concurrent batches (rule D19);
// DURABLE_FIGURES_INSTANCES=64 (or 1,8) measures throughput at those instance counts alone, without
// the open-loop and timer measurements (to read the CPU time of one load).
import Foundation
import Statechart
import StatechartDurable

enum Light: String, Hashable, Sendable { case red, green }
enum Tick: String, Hashable, Sendable, Codable { case tick }
struct Count: Hashable, Sendable, Codable { var ticks = 0 }

/// A two-state chart whose every event is handled and changes the context.
func lightChart() throws -> TypedChart<Tick, Count> {
    try TypedChart(
        Machine<Light, Tick, Count>("light", initial: .red) {
            When(.red) { On(.tick, to: .green) { $0.context.ticks += 1 } }
            When(.green) { On(.tick, to: .red) { $0.context.ticks += 1 } }
        })
}

enum Phase: String, Hashable, Sendable { case waiting, expired }

/// A chart whose only transition is a 200 ms timeout.
func timeoutChart() throws -> TypedChart<Tick, Count> {
    try TypedChart(
        Machine<Phase, Tick, Count>("timeout", initial: .waiting) {
            When(.waiting) { After(.milliseconds(200), to: .expired) }
            When(.expired) {}
        })
}

/// Timer lateness: instances with a 200 ms timeout, the host polling every `interval` on the
/// wall clock; lateness is the commit time of the timer's journal row minus its due time.
func measureTimers(store: any DurableStore, label: String, instances: Int, interval: Duration) async throws {
    let host = DurableHost(store: store)
    try await host.register(try timeoutChart(), name: "timeout", version: 1, initialContext: Count())
    let poller = Task { await host.run(every: interval) }
    for i in 0..<instances {
        try await host.create("\(label)-timer-\(i)", chart: "timeout", version: 1)
        try await Task.sleep(for: .milliseconds(1))
    }
    var late: [Duration] = []
    for i in 0..<instances {
        let id = "\(label)-timer-\(i)"
        while try await host.instance(id).activeStates != ["expired"] { try await Task.sleep(for: .milliseconds(20)) }
        let record = try await host.instance(id)
        guard let row = try await host.journal(of: id).first(where: { $0.kind == .timers }) else { continue }
        late.append(.nanoseconds(row.atNanoseconds - record.originNanoseconds) - .milliseconds(200))
    }
    poller.cancel()
    late.sort()
    print(
        String(
            format: "%@  timer lateness, %d timeouts, polling every %d ms: p50 %6.2f ms  p99 %6.2f ms  max %6.2f ms",
            label, late.count, Int(interval.components.attoseconds / 1_000_000_000_000_000), percentile(late, 0.50),
            percentile(late, 0.99), percentile(late, 1.0)))
}

/// Latency at a fixed offered load (open loop): `rate` sends per second spread over `instances`,
/// each send started on schedule whether or not the ones before were acknowledged, for
/// `seconds`; latency runs from the scheduled time to the acknowledgement.
func measureOpenLoop(store: any DurableStore, label: String, instances: Int, rate: Int, seconds: Int) async throws {
    let host = DurableHost(store: store)
    try await host.register(try lightChart(), name: "light", version: 1, initialContext: Count())
    for i in 0..<instances { try await host.create("\(label)-open-\(i)", chart: "light", version: 1) }
    let clock = ContinuousClock()
    let start = clock.now.advanced(by: .milliseconds(50))
    let total = rate * seconds
    let latencies = try await withThrowingTaskGroup(of: Duration.self) { group in
        for n in 0..<total {
            let due = start.advanced(by: .nanoseconds(Int64(n) * 1_000_000_000 / Int64(rate)))
            try await clock.sleep(until: due)
            group.addTask {
                try await host.send(Tick.tick, to: "\(label)-open-\(n % instances)", idempotencyKey: "o\(n)")
                return due.duration(to: clock.now)
            }
        }
        var all: [Duration] = []
        for try await latency in group { all.append(latency) }
        return all.sorted()
    }
    print(
        String(
            format: "%@  open loop, %d events/s over %d instances for %d s: p50 %6.2f ms  p99 %6.2f ms  max %6.2f ms",
            label, rate, instances, seconds, percentile(latencies, 0.50), percentile(latencies, 0.99),
            percentile(latencies, 1.0)))
}

/// The `p`-th percentile of sorted durations, in milliseconds.
func percentile(_ sorted: [Duration], _ p: Double) -> Double {
    let i = min(sorted.count - 1, Int((Double(sorted.count) * p).rounded(.up)) - 1)
    let (s, a) = sorted[max(i, 0)].components
    return Double(s) * 1e3 + Double(a) / 1e15
}

func measure(store: any DurableStore, label: String, instances: Int, eventsPerInstance: Int) async throws {
    let host = DurableHost(store: store)
    try await host.register(try lightChart(), name: "light", version: 1, initialContext: Count())
    for i in 0..<instances { try await host.create("\(label)-\(instances)-\(i)", chart: "light", version: 1) }
    let clock = ContinuousClock()
    let start = clock.now
    let latencies = try await withThrowingTaskGroup(of: [Duration].self) { group in
        for i in 0..<instances {
            group.addTask {
                var own: [Duration] = []
                own.reserveCapacity(eventsPerInstance)
                for n in 0..<eventsPerInstance {
                    let sent = clock.now
                    try await host.send(Tick.tick, to: "\(label)-\(instances)-\(i)", idempotencyKey: "k\(n)")
                    own.append(sent.duration(to: clock.now))
                }
                return own
            }
        }
        var all: [Duration] = []
        for try await own in group { all += own }
        return all.sorted()
    }
    let elapsed = start.duration(to: clock.now)
    let (s, a) = elapsed.components
    let seconds = Double(s) + Double(a) / 1e18
    let rate = Double(latencies.count) / seconds
    var batches = ""
    if let sqlite = store as? SQLiteStore {
        let (transactions, macrosteps) = (await sqlite.transactionsCommitted, await sqlite.macrostepsCommitted)
        batches = String(format: "  %.1f macrosteps per transaction", Double(macrosteps) / Double(max(transactions, 1)))
    }
    if let postgres = store as? PostgresStore {
        let (transactions, macrosteps) = postgres.committed
        batches = String(format: "  %.1f macrosteps per transaction", Double(macrosteps) / Double(max(transactions, 1)))
    }
    print(
        String(
            format: "%@  %3d instances  %6d macrosteps in %6.2f s  %8.0f macrosteps/s  p50 %6.2f ms  p99 %6.2f ms",
            label, instances, latencies.count, seconds, rate, percentile(latencies, 0.50), percentile(latencies, 0.99))
            + batches)
}

let environment = ProcessInfo.processInfo.environment
let only = environment["DURABLE_FIGURES_ONLY"]
let postgresURL = environment["STATECHART_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }
func wants(_ store: String) -> Bool { only == nil || only == store }

/// A PostgreSQL store in a fresh schema, with as many pooled connections as instances (up to 64).
func postgresStore(_ url: String, connections: Int) async throws -> PostgresStore {
    let batches = environment["DURABLE_FIGURES_POSTGRES_BATCHES"].flatMap(Int.init) ?? 1  // the store's default
    return try await PostgresStore(
        url: url, schema: "figures_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased(),
        connections: min(max(connections, 4), 64), concurrentBatches: batches)
}

let perInstance = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 0
let counts = environment["DURABLE_FIGURES_INSTANCES"].map { $0.split(separator: ",").compactMap { Int($0) } }
for instances in counts ?? [1, 8, 64] {
    let events = perInstance > 0 ? perInstance : max(4_000 / instances, 50)
    if wants("sqlite") {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("figures-\(UUID().uuidString).sqlite").path
        let sqlite = try await SQLiteStore(path: path)
        try await measure(store: sqlite, label: "sqlite", instances: instances, eventsPerInstance: events)
        await sqlite.close()
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }
    if let postgresURL, wants("postgres") {
        let store = try await postgresStore(postgresURL, connections: instances)
        try await measure(store: store, label: "postgres", instances: instances, eventsPerInstance: events)
        await store.close()
    }
    if wants("memory") {
        try await measure(store: InMemoryStore(), label: "memory", instances: instances, eventsPerInstance: events)
    }
}
if counts != nil { exit(0) }
if wants("sqlite") {
    let openPath = FileManager.default.temporaryDirectory.appendingPathComponent("figures-\(UUID().uuidString).sqlite").path
    let openStore = try await SQLiteStore(path: openPath)
    try await measureOpenLoop(store: openStore, label: "sqlite", instances: 64, rate: 1_000, seconds: 5)
    await openStore.close()
    for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: openPath + suffix) }
}
if let postgresURL, wants("postgres") {
    let store = try await postgresStore(postgresURL, connections: 64)
    try await measureOpenLoop(store: store, label: "postgres", instances: 64, rate: 1_000, seconds: 5)
    await store.close()
}
if wants("sqlite") {
    let timerPath = FileManager.default.temporaryDirectory.appendingPathComponent("figures-\(UUID().uuidString).sqlite").path
    let timerStore = try await SQLiteStore(path: timerPath)
    try await measureTimers(store: timerStore, label: "sqlite", instances: 200, interval: .milliseconds(10))
    await timerStore.close()
    for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: timerPath + suffix) }
}
if let postgresURL, wants("postgres") {
    let store = try await postgresStore(postgresURL, connections: 16)
    try await measureTimers(store: store, label: "postgres", instances: 200, interval: .milliseconds(10))
    await store.close()
}
if wants("memory") {
    try await measureTimers(store: InMemoryStore(), label: "memory", instances: 200, interval: .milliseconds(10))
}
