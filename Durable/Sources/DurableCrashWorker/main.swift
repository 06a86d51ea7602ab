// A worker process for the crash test (CrashTests): it sends numbered events with idempotency
// keys to counter instances in one SQLite file and prints a line for each acknowledged send,
// until it is done or killed with SIGKILL. The test reads the lines: every printed line is an
// acknowledgement that must survive the kill (rule D1).
//
//   DurableCrashWorker <database path> <instances> <events per instance>
import DurableTestCharts
import Foundation
import StatechartDurable

let arguments = CommandLine.arguments
guard arguments.count == 4, let instances = Int(arguments[2]), let events = Int(arguments[3]) else {
    FileHandle.standardError.write(Data("usage: DurableCrashWorker <database path> <instances> <events per instance>\n".utf8))
    exit(2)
}
let store = try await SQLiteStore(path: arguments[1])
let host = DurableHost(store: store)
try await host.register(try counterChart(), name: "counter", version: 1, initialContext: Tally())
/// Creates the instance unless a worker before this one did: a restarted worker goes on with them.
/// (A function, not top-level code: Swift 6.3.1 crashes compiling a typed `catch .case` pattern
/// in an async top-level `do`.)
func createIfMissing(_ id: String) async throws(DurableError) {
    do {
        try await host.create(id, chart: "counter", version: 1)
    } catch {
        guard case .instanceExists = error else { throw error }
    }
}
for i in 0..<instances { try await createIfMissing("c\(i)") }
/// Writes one line with one `write`. When the driver has closed its end, the worker ends quietly
/// (`write(_:)` would trap on the broken pipe).
func say(_ line: String) {
    do {
        try FileHandle.standardOutput.write(contentsOf: Data((line + "\n").utf8))
    } catch {
        exit(0)
    }
}
try await withThrowingTaskGroup(of: Void.self) { group in
    for i in 0..<instances {
        group.addTask {
            for n in 0..<events {
                let outcome = try await host.send(Bump.bump, to: "c\(i)", idempotencyKey: "e\(n)")
                // One write per line, after the send returned: the line is the acknowledgement.
                say("ack c\(i) e\(n) \(outcome.sequence) \(outcome.replayed)")
            }
        }
    }
    try await group.waitForAll()
}
await store.close()
say("done")
