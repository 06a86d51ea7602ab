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
        #expect(try await store.schemaVersion() == 3)
        try await store.prepare()
        await store.close()
        let reopened = try await SQLiteStore(path: path)
        #expect(try await reopened.schemaVersion() == 3)
        await reopened.close()
        #expect(try await rawSQL(path, "SELECT COUNT(*) AS n FROM statechart_schema").first?.column("n")?.integer == 3)
        #expect(try await rawSQL(path, "PRAGMA journal_mode").first?.column("journal_mode")?.string == "wal")
    }

    // D8, D20: a file of version 2 (before messages) is migrated to version 3 when opened: its
    // outbox gains the payload column, and the rows it had read back without one.
    @Test func aVersion2FileIsMigrated() async throws {
        let path = temporaryDatabasePath()
        let store = try await SQLiteStore(path: path)
        try await store.insert(
            MacrostepCommit(
                instance: InstanceRecord(
                    id: "old", chartName: "c", chartVersion: 1, revision: 1, sequence: 0, originNanoseconds: 0, finished: false,
                    activeStates: ["s"], snapshot: "{}"),
                expectedRevision: 0,
                journal: JournalEntry(
                    instanceID: "old", sequence: 0, kind: .start, event: "null", configuration: ["s"], atNanoseconds: 0,
                    idempotencyKey: nil),
                idempotency: nil, timers: [],
                outbox: [OutboxEntry(instanceID: "old", sequence: 0, position: 0, kind: "work", name: "w", state: "s")]))
        await store.close()
        // The file as version 2 left it.
        _ = try await rawSQL(path, "ALTER TABLE statechart_outbox DROP COLUMN payload")
        _ = try await rawSQL(path, "DELETE FROM statechart_schema WHERE version = 3")

        let reopened = try await SQLiteStore(path: path)
        #expect(try await reopened.schemaVersion() == 3)
        let pending = try await reopened.pendingOutbox(limit: 10)
        #expect(pending.map(\.idempotencyKey) == ["old/0/0"])
        #expect(pending.first?.payload == nil)
        await reopened.close()
    }

    // D8: stores opening one new file at once migrate it once, and none of them fails.
    // The first connection to switch a new file to WAL rebuilds its index while the others are
    // refused with SQLITE_BUSY_RECOVERY, not plain SQLITE_BUSY; several rounds make that race likely.
    @Test func storesOpeningOneNewFileAtOnceMigrateItOnce() async throws {
        for _ in 0..<12 {
            let path = temporaryDatabasePath()
            let stores = try await withThrowingTaskGroup(of: SQLiteStore.self) { group in
                for _ in 0..<6 { group.addTask { try await SQLiteStore(path: path) } }
                var stores: [SQLiteStore] = []
                for try await store in group { stores.append(store) }
                return stores
            }
            for store in stores {
                #expect(try await store.schemaVersion() == 3)
                await store.close()
            }
            #expect(try await rawSQL(path, "SELECT COUNT(*) AS n FROM statechart_schema").first?.column("n")?.integer == 3)
        }
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
        // A host reads the row when it has not kept the instance's machine (rule D21): after a
        // restart, as here, an eviction, or another host's write.
        let restarted = try await makeHost(store)
        await #expect {
            try await restarted.send(OrderEvent.pay, to: "o1")
        } throws: { error in
            guard case .corruptSnapshot(let id, _) = error as? DurableError else { return false }
            return id == "o1"
        }
        // Other instances are not affected.
        #expect(try await restarted.send(OrderEvent.pay, to: "o2").configuration == ["paid"])
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
