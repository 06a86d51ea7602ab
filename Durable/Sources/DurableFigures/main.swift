// Durable figures (issue 15 §4): durable macrosteps per second and send-to-acknowledged latency
// on the SQLite and in-memory stores, with 1, 8 and 64 instances driven concurrently. Not a timed
// test: run it in release mode and read the numbers.
//
//   swift run -c release --package-path Durable DurableFigures [events per instance]
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
    print(
        String(
            format: "%@  %3d instances  %6d macrosteps in %6.2f s  %8.0f macrosteps/s  p50 %6.2f ms  p99 %6.2f ms",
            label, instances, latencies.count, seconds, rate, percentile(latencies, 0.50), percentile(latencies, 0.99))
            + batches)
}

let perInstance = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 0
for instances in [1, 8, 64] {
    let events = perInstance > 0 ? perInstance : max(4_000 / instances, 50)
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("figures-\(UUID().uuidString).sqlite").path
    let sqlite = try await SQLiteStore(path: path)
    try await measure(store: sqlite, label: "sqlite", instances: instances, eventsPerInstance: events)
    await sqlite.close()
    for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    try await measure(store: InMemoryStore(), label: "memory", instances: instances, eventsPerInstance: events)
}
