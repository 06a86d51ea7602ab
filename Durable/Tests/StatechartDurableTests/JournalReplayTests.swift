import Statechart
import StatechartDurable
import StatechartInterchange
import SQLiteNIO
import Testing

/// The journal replays into the stored machine (rule D11).
@Suite struct JournalReplayTests {
    /// Drives an order through events and a timer on a clock that moves between steps.
    func driveOrders(_ host: DurableHost, _ clock: ManualClock) async throws {
        try await host.create("o1", chart: "order", version: 1)
        try await host.create("o2", chart: "order", version: 1)
        await clock.advance(by: .milliseconds(2_500))
        try await host.send(OrderEvent.pay, to: "o1", idempotencyKey: "a")
        try await host.send(OrderEvent.notify, to: "o1")
        await clock.advance(by: .seconds(40))  // o2 times out
        #expect(await host.fireDueTimers().fired == 1)
        try await host.send(OrderEvent.pay, to: "o2")  // unhandled in `cancelled`: consumed, journalled
        try await host.send(OrderEvent.ship, to: "o1")
    }

    // D11: replaying every row reaches each row's configuration and, at the end, the stored snapshot.
    @Test(arguments: StoreKind.allCases)
    func journalReplaysIntoTheStoredSnapshot(kind: StoreKind) async throws {
        let clock = ManualClock()
        let host = try await makeHost(try await kind.make(), clock: clock)
        try await driveOrders(host, clock)
        #expect(try await host.verifyJournal(of: "o1") == 4)
        #expect(try await host.verifyJournal(of: "o2") == 3)
        // An SCXML chart replays too.
        try await host.create("t", chart: "toggle", version: 1)
        for _ in 0..<5 { try await host.send(SCXMLEvent("flip"), to: "t") }
        #expect(try await host.verifyJournal(of: "t") == 6)
    }

    // D11: a journal row or a snapshot changed behind the host's back is found, by sequence.
    @Test func tamperedRowsAreFound() async throws {
        let path = temporaryDatabasePath()
        let clock = ManualClock()
        let store = try await SQLiteStore(path: path)
        let host = try await makeHost(store, clock: clock)
        try await driveOrders(host, clock)
        let connection = try await SQLiteConnection.open(storage: .file(path: path))
        _ = try await connection.query(
            "UPDATE statechart_journal SET configuration = '[\"open\"]' WHERE instance_id = 'o1' AND sequence = 2")
        _ = try await connection.query(
            "UPDATE statechart_instances SET snapshot = replace(snapshot, '\"payments\":0', '\"payments\":5') WHERE id = 'o2'")
        try await connection.close()
        await #expect {
            try await host.verifyJournal(of: "o1")
        } throws: { error in
            guard case .journalDiverges("o1", 2, let reason) = error as? DurableError else { return false }
            return reason.contains("[open]") && reason.contains("[paid]")
        }
        await #expect(throws: DurableError.journalDiverges(
            instance: "o2", sequence: 2, reason: "the replayed snapshot differs from the stored one")) {
            try await host.verifyJournal(of: "o2")
        }
        await store.close()
    }
}
