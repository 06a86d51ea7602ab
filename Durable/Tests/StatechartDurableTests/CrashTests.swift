import DurableTestCharts
import Foundation
import Statechart
import StatechartDurable
import Synchronization
import Testing

/// SIGKILL in the middle of a run (rule D1): every acknowledged send survives, none is applied
/// twice, every journal holds its instance's events in the order they were acknowledged, and the
/// machines reach what replaying their journals reaches.
@Suite(.timeLimit(.minutes(5))) struct CrashTests {
    /// One acknowledgement line of the worker: `ack <instance> <key> <sequence> <replayed>`.
    struct Ack: Hashable {
        var instance: String
        var key: String
        var sequence: Int64
        var replayed: Bool
    }

    /// The worker binary, built next to the tests (the test target depends on it).
    static var worker: URL? { builtExecutable(named: "DurableCrashWorker") }

    /// Runs the worker until it printed `killAfter` new (not replayed) acknowledgements, then
    /// kills it with SIGKILL; with `nil` it runs to the end. Returns every acknowledgement printed.
    /// Also returns how long the worker took from launch to its first acknowledgement: for a
    /// restarted worker, the recovery time (opening the file after the kill, resuming).
    func runWorker(_ path: String, instances: Int, events: Int, killAfter: Int?) async throws
        -> (acks: [Ack], killed: Bool, firstAck: Duration?)
    {
        let binary = try #require(Self.worker, "DurableCrashWorker was not built next to the tests")
        let process = Process()
        process.executableURL = binary
        process.arguments = [path, String(instances), String(events)]
        let pipe = Pipe()
        process.standardOutput = pipe
        let text = Mutex("")
        let clock = ContinuousClock()
        let launched = clock.now
        let firstAck = Mutex<Duration?>(nil)
        pipe.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            let now = clock.now
            text.withLock { $0 += String(decoding: data, as: UTF8.self) }
            firstAck.withLock { if $0 == nil, !data.isEmpty { $0 = launched.duration(to: now) } }
        }
        try process.run()
        var killed = false
        if let killAfter {
            for _ in 0..<6_000 where process.isRunning {
                let fresh = text.withLock { $0.split(separator: "\n").filter { $0.hasSuffix(" false") }.count }
                if fresh >= killAfter {
                    kill(process.processIdentifier, SIGKILL)
                    killed = true
                    break
                }
                try await Task.sleep(for: .milliseconds(5))
            }
        }
        // Wait without blocking a thread of the cooperative pool (two on this machine), and never
        // forever: a worker that hangs is killed and reported.
        let deadline = clock.now + .seconds(120)
        while process.isRunning {
            if clock.now > deadline {
                kill(process.processIdentifier, SIGKILL)
                Issue.record("the worker did not finish within 120 s; killed")
                break
            }
            try await Task.sleep(for: .milliseconds(10))
        }
        process.waitUntilExit()
        pipe.fileHandleForReading.readabilityHandler = nil
        let rest = pipe.fileHandleForReading.readDataToEndOfFile()
        let all = text.withLock { $0 } + String(decoding: rest, as: UTF8.self)
        let acks = all.split(separator: "\n").compactMap { line -> Ack? in
            let parts = line.split(separator: " ")
            guard parts.count == 5, parts[0] == "ack", let sequence = Int64(parts[3]) else { return nil }
            return Ack(instance: String(parts[1]), key: String(parts[2]), sequence: sequence, replayed: parts[4] == "true")
        }
        if !killed { #expect(process.terminationStatus == 0 && all.hasSuffix("done\n")) }
        return (acks, killed, firstAck.withLock { $0 })
    }

    /// The acknowledgements that are not in the store with the sequence they were acknowledged with.
    func lost(_ acks: [Ack], in path: String) async throws -> [Ack] {
        let store = try await SQLiteStore(path: path)
        var lost: [Ack] = []
        for ack in acks where try await store.idempotency(ack.key, of: ack.instance)?.outcome.sequence != ack.sequence {
            lost.append(ack)
        }
        await store.close()
        return lost
    }

    // D1: kill -9 twice in the middle of a run, restart, finish: 0 acknowledged sends lost, 0
    // applied twice, journals in acknowledgement order, machines equal to their replays.
    @Test func acknowledgedSendsSurviveSIGKILL() async throws {
        let path = temporaryDatabasePath()
        let (instances, events) = (8, 150)
        var acknowledged: [Ack] = []
        var kills = 0
        var lostAcks: [Ack] = []
        var recoveries: [Duration] = []
        for round in 0..<3 {
            let run = try await runWorker(path, instances: instances, events: events, killAfter: round < 2 ? 100 : nil)
            if run.killed { kills += 1 }
            if round > 0, let first = run.firstAck { recoveries.append(first) }
            acknowledged += run.acks
            lostAcks += try await lost(acknowledged, in: path)
        }
        #expect(kills == 2)
        #expect(lostAcks.isEmpty, "acknowledged but lost: \(lostAcks.prefix(5))")

        let store = try await SQLiteStore(path: path)
        let host = DurableHost(store: store)
        try await host.register(try counterChart(), name: "counter", version: 1, initialContext: Tally())
        var applied = 0
        var appliedTwice = 0
        for i in 0..<instances {
            let id = "c\(i)"
            let journal = try await host.journal(of: id)
            let keys = journal.compactMap(\.idempotencyKey)
            applied += keys.count
            appliedTwice += keys.count - Set(keys).count
            // Each event applied once, in the order the worker sent (and was acknowledged) them.
            #expect(journal.map(\.sequence) == Array(0...Int64(events)))
            #expect(journal.dropFirst().map(\.idempotencyKey) == (0..<events).map { "e\($0)" })
            // A replayed acknowledgement names the sequence of the first.
            for ack in acknowledged where ack.instance == id {
                #expect(journal[Int(ack.sequence)].idempotencyKey == ack.key)
            }
            #expect(try await host.verifyJournal(of: id) == events + 1)
            let snapshot = try await host.snapshot(of: id, as: ChartSnapshot<Bump, Tally>.self)
            #expect(snapshot.context.bumps == events)
        }
        let fresh = acknowledged.filter { !$0.replayed }
        #expect(Set(fresh.map { [$0.instance, $0.key] }).count == fresh.count)
        #expect(appliedTwice == 0)
        // The counts, for the log: what the issue's fault test reports, on one SQLite worker.
        print(
            "crash test (SQLite, one worker at a time): \(instances * events) events, \(acknowledged.count) acknowledgements "
                + "(\(fresh.count) first, \(acknowledged.count - fresh.count) replayed), \(kills) kills, "
                + "\(lostAcks.count) lost, \(appliedTwice) applied twice, \(applied) applied; "
                + "restart to first acknowledgement: \(recoveries.map { $0.formatted(.units(allowed: [.milliseconds])) })")
        await store.close()
    }
}
