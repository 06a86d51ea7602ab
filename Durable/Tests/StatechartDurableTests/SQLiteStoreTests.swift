import Statechart
import StatechartDurable
import StatechartInterchange
import SQLiteNIO
import Testing

/// What only the SQLite store has: its file, its pragmas, its migrations, several connections.
@Suite struct SQLiteStoreTests {
    /// Runs raw SQL on the file through a connection of its own.
    func rawSQL(_ path: String, _ sql: String, _ binds: [SQLiteData] = []) async throws -> [SQLiteRow] {
        let connection = try await SQLiteConnection.open(storage: .file(path: path))
        do {
            let rows = try await connection.query(sql, binds)
            try await connection.close()
            return rows
        } catch {
            try await connection.close()
            throw error
        }
    }

    // D8: the store creates its schema (version 1) once, in WAL mode; opening it again migrates nothing.
    @Test func createsAndKeepsItsSchema() async throws {
        let path = temporaryDatabasePath()
        let store = try await SQLiteStore(path: path)
        #expect(try await store.schemaVersion() == 2)
        try await store.prepare()
        await store.close()
        let reopened = try await SQLiteStore(path: path)
        #expect(try await reopened.schemaVersion() == 2)
        await reopened.close()
        #expect(try await rawSQL(path, "SELECT COUNT(*) AS n FROM statechart_schema").first?.column("n")?.integer == 2)
        #expect(try await rawSQL(path, "PRAGMA journal_mode").first?.column("journal_mode")?.string == "wal")
    }

    // D8: stores opening one new file at once migrate it once, and none of them fails.
    @Test func storesOpeningOneNewFileAtOnceMigrateItOnce() async throws {
        let path = temporaryDatabasePath()
        let stores = try await withThrowingTaskGroup(of: SQLiteStore.self) { group in
            for _ in 0..<4 { group.addTask { try await SQLiteStore(path: path) } }
            var stores: [SQLiteStore] = []
            for try await store in group { stores.append(store) }
            return stores
        }
        for store in stores {
            #expect(try await store.schemaVersion() == 2)
            await store.close()
        }
        #expect(try await rawSQL(path, "SELECT COUNT(*) AS n FROM statechart_schema").first?.column("n")?.integer == 2)
    }

    // D1: commits are synchronous (synchronous = FULL, 2) on the store's connection.
    @Test func commitsAreSynchronous() async throws {
        let store = try await SQLiteStore(path: temporaryDatabasePath())
        #expect(try await store.synchronousLevel() == 2)
        await store.close()
    }

    // D8: a file written by a newer package is refused, naming its version, not half-used.
    @Test func refusesANewerSchema() async throws {
        let path = temporaryDatabasePath()
        await (try await SQLiteStore(path: path)).close()
        _ = try await rawSQL(path, "INSERT INTO statechart_schema (version, applied_ns) VALUES (99, 0)")
        await #expect {
            _ = try await SQLiteStore(path: path)
        } throws: { error in
            guard case .schema(let message) = error as? DurableError else { return false }
            return message.contains("schema version 99") && message.contains(path)
        }
    }

    // D9: a snapshot damaged on disk is reported with the instance's id.
    @Test func damagedRowOnDiskIsReported() async throws {
        let path = temporaryDatabasePath()
        let store = try await SQLiteStore(path: path)
        let host = try await makeHost(store)
        try await host.create("o1", chart: "order", version: 1)
        try await host.create("o2", chart: "order", version: 1)
        _ = try await rawSQL(path, "UPDATE statechart_instances SET snapshot = substr(snapshot, 1, 40) WHERE id = 'o1'")
        await #expect {
            try await host.send(OrderEvent.pay, to: "o1")
        } throws: { error in
            guard case .corruptSnapshot(let id, _) = error as? DurableError else { return false }
            return id == "o1"
        }
        // Other instances are not affected.
        #expect(try await host.send(OrderEvent.pay, to: "o2").configuration == ["paid"])
        await store.close()
    }

    // D4: two hosts on one file drive one instance at once: every send is applied once, the
    // loser of each compare-and-swap runs its step again on the new revision.
    @Test func twoHostsOnOneFileApplyEverySendOnce() async throws {
        let path = temporaryDatabasePath()
        let clock = ManualClock()
        let first = try await makeHost(try await SQLiteStore(path: path), clock: clock)
        let second = try await makeHost(try await SQLiteStore(path: path), clock: clock)
        try await first.create("t", chart: "toggle", version: 1)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for i in 0..<30 {
                let host = i % 2 == 0 ? first : second
                group.addTask { try await host.send(SCXMLEvent("flip"), to: "t", idempotencyKey: "k\(i)") }
            }
            try await group.waitForAll()
        }
        // Retries through the other host are replays.
        #expect(try await second.send(SCXMLEvent("flip"), to: "t", idempotencyKey: "k0").replayed)
        let journal = try await first.journal(of: "t")
        #expect(journal.map(\.sequence) == Array(0...30))
        #expect(Set(journal.compactMap(\.idempotencyKey)) == Set((0..<30).map { "k\($0)" }))
        #expect(try await first.instance("t").activeStates == ["a"])
    }
}
