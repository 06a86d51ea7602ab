// A node of the fault test (Tests/…/FaultTests.swift): one PostgreSQL store with a node name of
// its own, hosting the cyclic order chart on a compressed clock, firing due timers every 50 ms,
// and driven over its standard input until the test closes it or kills the process with SIGKILL.
//
//   DurableFaultWorker <postgres URL> <schema> <clock factor> <epoch, ns since 1970>
//
// Input lines, each handled at once (concurrently; the host keeps each instance's order):
//   create <instance>             → created <instance> | err <instance> - <kind> <message>
//   send <instance> <event> <key> → ack <instance> <key> <sequence> <replayed> <handled>
//                                   | err <instance> <key> <kind> <message>
// A line is written once the call returned: an `ack` line is an acknowledgement that must survive
// any kill (rule D1). `ready <node>` is written when the node takes input; `done` after a clean end.
import DurableTestCharts
import Foundation
import StatechartDurable

let arguments = CommandLine.arguments
guard arguments.count == 5, let factor = Int(arguments[3]), factor > 0, let epoch = Int64(arguments[4]) else {
    FileHandle.standardError.write(
        Data("usage: DurableFaultWorker <postgres URL> <schema> <clock factor> <epoch ns>\n".utf8))
    exit(2)
}

/// Writes one line with one `write`: lines of concurrent calls never interleave (a pipe writes
/// up to PIPE_BUF bytes at once). When the driver has closed its end (the test is over), no one
/// wants the answer and the node ends quietly; `write(_:)` would trap on the broken pipe.
func say(_ line: String) {
    do {
        try FileHandle.standardOutput.write(contentsOf: Data((line + "\n").utf8))
    } catch {
        exit(0)
    }
}

/// A short name for the kind of failure, which the driver decides on (retry or give up).
func kind(of error: DurableError) -> String {
    switch error {
    case .leaseHeld: return "leaseHeld"
    case .leaseLost: return "leaseLost"
    case .revisionConflict: return "revisionConflict"
    case .connectionLost: return "connectionLost"
    case .busy: return "busy"
    case .instanceExists: return "instanceExists"
    default: return "failed"
    }
}

let node = "worker-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString.prefix(8).lowercased())"
let store = try await PostgresStore(url: arguments[1], schema: arguments[2], node: node, connections: 8)
let clock = compressedClock(try await store.databaseClock(), factor: factor, epoch: .nanoseconds(epoch))
let host = DurableHost(store: store, clock: clock)
try await host.register(try faultOrderChart(), name: "order", version: 1, initialContext: FaultOrderBook())
// Due timers: every 50 ms of real time.
let sweeps = Task { await host.run(every: .milliseconds(50) * factor) }

/// Carries out one input line and answers it.
func handle(_ line: String) async {
    let words = line.split(separator: " ").map(String.init)
    switch (words.first, words.count) {
    case ("create", 2):
        do throws(DurableError) {
            try await host.create(words[1], chart: "order", version: 1)
            say("created \(words[1])")
        } catch {
            say("err \(words[1]) - \(kind(of: error)) \(error)")
        }
    case ("send", 4):
        guard let event = FaultOrderEvent(rawValue: words[2]) else { return say("err \(words[1]) \(words[3]) failed no event \(words[2])") }
        do throws(DurableError) {
            let outcome = try await host.send(event, to: words[1], idempotencyKey: words[3])
            say("ack \(words[1]) \(words[3]) \(outcome.sequence) \(outcome.replayed) \(outcome.handled)")
        } catch {
            say("err \(words[1]) \(words[3]) \(kind(of: error)) \(error)")
        }
    default:
        say("err - - failed unknown command: \(line)")
    }
}

// Standard input is read on a thread of its own (`readLine` blocks); each line becomes a task.
let lines = AsyncStream<String> { continuation in
    Thread.detachNewThread {
        while let line = readLine() { continuation.yield(line) }
        continuation.finish()
    }
}
say("ready \(node)")
await withDiscardingTaskGroup { group in
    for await line in lines {
        group.addTask { await handle(line) }
    }
}
sweeps.cancel()
await store.close()
say("done")
