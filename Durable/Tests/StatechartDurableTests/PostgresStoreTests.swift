import Foundation
import PostgresNIO
import Statechart
import StatechartDurable
import StatechartInterchange
import Testing

/// What only the PostgreSQL store has: its schema and migrations, the server's settings, rows
/// damaged by another program, connections that go away.
@Suite(.enabled(if: PostgresTestServer.enabled, PostgresTestServer.skipReason), .timeLimit(.minutes(1)))
struct PostgresStoreTests {
    /// Runs raw SQL on the test server through a client of its own.
    func rawSQL(_ sql: String) async throws -> [PostgresRow] {
        let client = PostgresClient(configuration: try PostgresStore.configuration(url: try PostgresTestServer.requireURL()))
        return try await withThrowingTaskGroup(of: [PostgresRow]?.self) { group in
            group.addTask {
                await client.run()
                return nil
            }
            defer { group.cancelAll() }  // also when the query throws: the client's run() ends
            return try await client.query(PostgresQuery(unsafeSQL: sql)).collect()
        }
    }

    // D8: the store creates its schema (every migration) once; preparing again migrates nothing,
    // and stores opening one new schema at once migrate it once.
    @Test func createsItsSchemaOnceEvenWhenStoresStartTogether() async throws {
        let schema = PostgresTestServer.freshSchema()
        let stores = try await withThrowingTaskGroup(of: PostgresStore.self) { group in
            for _ in 0..<4 { group.addTask { try await PostgresTestServer.makeStore(schema: schema) } }
            var stores: [PostgresStore] = []
            for try await store in group { stores.append(store) }
            return stores
        }
        for store in stores {
            #expect(try await store.schemaVersion() == 4)
            try await store.prepare()
            await store.close()
        }
        let rows = try await rawSQL("SELECT COUNT(*)::bigint FROM \"\(schema)\".statechart_schema")
        #expect(try rows.first?.decode(Int64.self) == 4)
    }

    // D8: a schema written by a newer package is refused, naming its version.
    @Test func refusesANewerSchema() async throws {
        let schema = PostgresTestServer.freshSchema()
        let store = try await PostgresTestServer.makeStore(schema: schema)
        await store.close()
        _ = try await rawSQL("INSERT INTO \"\(schema)\".statechart_schema (version) VALUES (99)")
        await #expect {
            try await PostgresTestServer.makeStore(schema: schema)
        } throws: { error in
            guard case .schema(let message) = error as? DurableError else { return false }
            return message.contains("schema version 99")
        }
    }

    // D8: a schema name that is not a plain identifier is refused before any SQL runs.
    @Test func refusesASchemaNameThatIsNotAPlainIdentifier() async throws {
        await #expect {
            try await PostgresTestServer.makeStore(schema: "x\"; DROP TABLE y; --")
        } throws: { error in
            guard case .schema(let message) = error as? DurableError else { return false }
            return message.contains("not a plain PostgreSQL schema name")
        }
        await #expect(throws: DurableError.storage("'mysql://h/d' is not a postgres://user@host:port/database URL")) {
            try await PostgresStore(url: "mysql://h/d")
        }
    }

    // D1: the server commits synchronously (the store does not turn it off).
    @Test func commitsAreSynchronous() async throws {
        let store = try await PostgresTestServer.makeStore()
        #expect(try await store.synchronousCommit() == "on")
        await store.close()
    }

    // D9: rows damaged by another program are typed errors naming the instance.
    @Test func damagedRowsAreReportedWithTheInstance() async throws {
        let schema = PostgresTestServer.freshSchema()
        let store = try await PostgresTestServer.makeStore(schema: schema)
        let host = try await makeHost(store)
        try await host.create("o1", chart: "order", version: 1)
        try await host.send(OrderEvent.pay, to: "o1", idempotencyKey: "k")
        _ = try await rawSQL("UPDATE \"\(schema)\".statechart_journal SET kind = 'bogus' WHERE sequence = 1")
        await #expect {
            try await store.journal(of: "o1")
        } throws: { error in
            guard case .corruptRow(let id, let reason) = error as? DurableError else { return false }
            return id == "o1" && reason.contains("bogus")
        }
        _ = try await rawSQL("UPDATE \"\(schema)\".statechart_idempotency SET outcome = 'not json'")
        await #expect {
            try await store.idempotency("k", of: "o1")
        } throws: { error in
            guard case .corruptRow(let id, _) = error as? DurableError else { return false }
            return id == "o1"
        }
        await store.close()
    }

    // D9, D3: the server kills the store's connections mid-run. A request on a killed connection
    // fails with `connectionLost` naming the store (deterministically: the send waits on a row
    // lock another session holds when its connection is killed), the pool connects again, and
    // sends retried with their keys are applied once: nothing acknowledged is lost. A request
    // that gets no answer at all (postgres-nio sometimes waits forever on a connection killed
    // while it was idle: about one run in eight of the whole suite hung here before the store
    // had a request timeout) fails with `connectionLost` after the timeout and is retried too.
    // The timeout is 10 s: it also bounds the store's first transaction, which migrates its
    // schema, and with 3 s that timed out once in a CI run where every suite used the server at once.
    @Test func droppedConnectionsAreReportedAndSendsRetriedWithTheirKeysApplyOnce() async throws {
        let name = "statechart_drop_\(UInt32.random(in: 0...UInt32.max))"
        let schema = PostgresTestServer.freshSchema()
        var configuration = try PostgresStore.configuration(url: try PostgresTestServer.requireURL())
        configuration.options.additionalStartupParameters = [("application_name", name)]
        configuration.options.maximumConnections = 2
        let store = try await PostgresStore(configuration: configuration, schema: schema, requestTimeout: .seconds(10))
        let host = try await makeHost(store)
        try await host.create("t", chart: "toggle", version: 1)
        let kill = "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = '\(name)'"

        // Another session locks the instance row; the send's commit waits for it; its connection is killed.
        let holder = try await RowLockHolder(instance: "t", schema: schema, ending: "ROLLBACK")
        let blocked = Task { try await host.send(SCXMLEvent("flip"), to: "t", idempotencyKey: "blocked") }
        // Kill only once the send's commit waits for the lock (a loaded machine may take a while).
        try await RowLockHolder.waitForWaiters(where: "application_name = '\(name)'")
        _ = try await rawSQL(kill)
        let result = await blocked.result
        try await holder.end()
        guard case .failure(let error) = result, case .connectionLost(let message) = error as? DurableError else {
            Issue.record("the send on a killed connection returned \(result), not connectionLost")
            return
        }
        #expect(message.contains("schema \(schema)"))

        // Kill every few sends; retry the refused ones with their keys.
        var lost = 0
        for n in 0..<20 {
            if n.isMultiple(of: 5) { _ = try await rawSQL(kill) }
            var attempts = 0
            while true {
                attempts += 1
                let failure: DurableError?
                do {
                    try await host.send(SCXMLEvent("flip"), to: "t", idempotencyKey: n == 0 ? "blocked" : "flip-\(n)")
                    failure = nil
                } catch {
                    failure = error
                }
                guard let failure else { break }
                guard case .connectionLost = failure, attempts < 20 else { throw failure }
                lost += 1
                try await Task.sleep(for: .milliseconds(20))
            }
        }
        let keys = try await store.journal(of: "t").compactMap(\.idempotencyKey)
        #expect(keys == ["blocked"] + (1..<20).map { "flip-\($0)" })
        print("D9: a send on a killed connection reported connectionLost; \(lost) more while killing every 5 sends; all 20 keys applied once")
        await store.close()
    }
}
