import DurableTestCharts
import Foundation
import Synchronization

/// The fault test's driver and killer: sends each instance its plan one event at a time (the
/// next only once the previous one is acknowledged, so the journal must follow the order of the
/// acknowledgements), through the node that last served the instance; when that node dies or
/// refuses, sends the same event with the same key again, on another node if it died.
final class FaultDriver: Sendable {
    /// One acknowledgement, as the driver received it.
    struct Ack: Sendable {
        var index: Int
        var sequence: Int64
        var replayed: Bool
    }

    struct Statistics: Sendable {
        var fresh = 0
        var replayed = 0
        var kills = 0
        /// Sends tried again, by why (`died`, `leaseHeld`, …).
        var retries: [String: Int] = [:]
        /// From a kill to the acknowledgement of each event the kill interrupted.
        var recoveries = DurationSample()
        /// From starting a killed worker again to its `ready`.
        var restarts = DurationSample()
        /// Sends that failed with an error that is not worth a retry.
        var failures: [String] = []
    }

    private struct State {
        var acks: [String: [Ack]] = [:]
        var statistics = Statistics()
        /// When each node was last killed.
        var killed: [Int: ContinuousClock.Instant] = [:]
    }

    /// Failures that a retry of the same key resolves: another node's lease (live until it
    /// lapses), a lost lease or compare-and-swap, a connection the server or a kill broke.
    static let transient: Set<String> = ["leaseHeld", "leaseLost", "revisionConflict", "connectionLost", "busy"]

    let nodes: [FaultWorkerNode]
    private let state = Mutex(State())

    init(nodes: [FaultWorkerNode]) { self.nodes = nodes }

    var statistics: Statistics { state.withLock { $0.statistics } }
    func acks(of instance: String) -> [Ack] { state.withLock { $0.acks[instance] ?? [] } }

    /// Creates an instance (its start committed), on `home` unless that node is down.
    func create(_ instance: String, home: Int) async throws {
        var slot = home
        for _ in 0..<1_000 {
            slot = await alive(from: slot)
            switch await nodes[slot].request("create \(instance)", instance: instance, key: "-") {
            case .created, .error(kind: "instanceExists", _): return
            case .died, .error(kind: "notRunning", _): slot += 1
            case .error(let kind, let message) where !Self.transient.contains(kind):
                throw FaultTestError(message: "create \(instance): \(kind) \(message)")
            default: try await Task.sleep(for: .milliseconds(100))
            }
        }
        throw FaultTestError(message: "create \(instance): not created after 1,000 tries")
    }

    /// Sends the plan's events in order.
    func drive(_ plan: FaultPlan, home: Int) async throws {
        var slot = home
        for (index, event) in plan.events.enumerated() {
            let line = "send \(plan.instance) \(event.rawValue) e\(index)"
            var interruptedBy: ContinuousClock.Instant?
            sending: while true {
                slot = await alive(from: slot)
                let reply = await nodes[slot].request(line, instance: plan.instance, key: "e\(index)")
                switch reply {
                case .ack(let sequence, let replayed, _):
                    let now = ContinuousClock.now
                    state.withLock {
                        $0.acks[plan.instance, default: []].append(Ack(index: index, sequence: sequence, replayed: replayed))
                        if replayed { $0.statistics.replayed += 1 } else { $0.statistics.fresh += 1 }
                        if let interruptedBy { $0.statistics.recoveries.values.append(interruptedBy.duration(to: now)) }
                    }
                    break sending
                case .error(kind: "notRunning", _):
                    slot += 1
                case .died:
                    // Killed before it answered: the event may be committed or not. The same key
                    // on another node applies it once either way (rule D3).
                    interruptedBy = state.withLock {
                        $0.statistics.retries["died", default: 0] += 1
                        return $0.killed[slot]
                    } ?? interruptedBy
                    slot += 1
                case .error(let kind, let message):
                    guard Self.transient.contains(kind) else {
                        state.withLock { $0.statistics.failures.append("\(line): \(kind) \(message)") }
                        return
                    }
                    state.withLock { $0.statistics.retries[kind, default: 0] += 1 }
                    try await Task.sleep(for: .milliseconds(100))
                case .created:
                    state.withLock { $0.statistics.failures.append("\(line): answered as a create") }
                    return
                }
            }
            // An abandoned order: wait past the payment timeout (30 s on the workers' clock).
            if plan.waitsAfter.contains(index) { try await Task.sleep(for: .milliseconds(750)) }
        }
    }

    /// The first running node from `slot` on (wrapping around), waiting while none runs.
    func alive(from slot: Int) async -> Int {
        while true {
            for offset in 0..<nodes.count {
                let candidate = (slot + offset) % nodes.count
                if nodes[candidate].isAlive { return candidate }
            }
            try? await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Until cancelled: waits a random time in `interval`, kills a random node with SIGKILL, and
    /// starts it again (a new process, a new node name) once it is gone.
    func killRandomNodes(every interval: ClosedRange<Duration>, seed: UInt64) async {
        var generator = SplitMix64(seed: seed ^ 0x6b69_6c6c)
        let low = interval.lowerBound.components.seconds * 1_000, high = interval.upperBound.components.seconds * 1_000
        while !Task.isCancelled {
            let wait = Duration.milliseconds(low + Int64(generator.next() % UInt64(high - low + 1)))
            do { try await Task.sleep(for: wait) } catch { return }
            let node = nodes[Int(generator.next() % UInt64(nodes.count))]
            let at = ContinuousClock.now
            guard node.killNow() else { continue }
            state.withLock {
                $0.killed[node.slot] = at
                $0.statistics.kills += 1
            }
            for _ in 0..<500 where node.isAlive { try? await Task.sleep(for: .milliseconds(10)) }
            try? await Task.sleep(for: .milliseconds(200))
            let start = ContinuousClock.now
            if (try? await node.launch()) == true {
                state.withLock { $0.statistics.restarts.values.append(start.duration(to: .now)) }
            }
        }
    }
}

/// Durations measured over a run, summarized.
struct DurationSample: Sendable {
    var values: [Duration] = []

    var summary: String {
        guard !values.isEmpty else { return "none" }
        let sorted = values.sorted()
        func at(_ fraction: Double) -> String {
            sorted[min(Int(Double(sorted.count) * fraction), sorted.count - 1)].formatted(.units(allowed: [.milliseconds]))
        }
        return "p50 \(at(0.5)), p99 \(at(0.99)), max \(at(1)) (\(sorted.count))"
    }
}

struct FaultTestError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
