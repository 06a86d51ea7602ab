import Statechart
import StatechartTesting
import Testing

/// The sync example checked exhaustively with StatechartTesting's `TestStore`. The synchronous
/// machine does not run `doSync` (the asynchronous runtime does), so the test sends the result
/// event the work would send, and advances the machine's clock past the cache lifetime.
@Suite("Conformance: DDStateMachine README (sync), step by step")
struct SyncTestStoreTests {
    typealias Example = SyncConformanceTests

    @Test("TestStore: sync succeeds, the cache expires after 30 s, a second sync fails, a retry counts (R17, R25, R52)")
    func syncCycle() throws {
        let machine = Example.syncMachine(service: Example.SyncService())
        var store = try TestStore(machine, context: Example.SyncExtraState()) {
            $0.entered(.notSynced)
        }
        try store.send(.sync) {
            $0.exited(.notSynced)
            $0.entered(.inProgress)  // its work (doSync) starts here in the asynchronous runtime
        }
        try store.send(.workFinished(true)) {
            $0.exited(.inProgress)
            $0.ran("action")  // the .on listener: the cache expires in 30 s
            $0.entered(.synced)
        } context: {
            $0.expiry = .seconds(30)  // an Equatable context is checked too (R78)
        }
        // The cache is fresh: the guard refuses, no step happens and the machine says so (R18).
        #expect(throws: MachineError.self) { try store.send(.sync) }
        try store.advance(by: .seconds(30)) {
            $0.ran("action")  // After(30 s): the cache lifetime runs out
        } context: {
            $0.expiry = nil
        }
        try store.send(.sync) {
            $0.exited(.synced)
            $0.entered(.inProgress)
        }
        try store.send(.workFinished(false)) {
            $0.exited(.inProgress)
            $0.entered(.failed)
        }
        try store.send(.sync) {
            $0.exited(.failed)
            $0.ran("action")  // retries += 1
            $0.entered(.inProgress)
            $0.configuration([.inProgress])
        } context: {
            $0.retries = 1
        }
    }
}
