import Foundation
import Logging
import PostgresNIO
import StatechartDurable
import Testing

/// The PostgreSQL server the tests use: `STATECHART_POSTGRES_URL` (Durable/Scripts/test.sh starts
/// a throwaway cluster and sets it). Each store the tests make lives in a fresh schema of its
/// own, so tests running in parallel never see each other's rows.
///
/// Without a URL the PostgreSQL tests are skipped with a printed reason — unless
/// `STATECHART_REQUIRE_POSTGRES=1` (the script and CI set it): then they run and fail loudly.
enum PostgresTestServer {
    static let url = ProcessInfo.processInfo.environment["STATECHART_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }
    static let required = ProcessInfo.processInfo.environment["STATECHART_REQUIRE_POSTGRES"] == "1"

    /// Whether the PostgreSQL tests run (printing once why not).
    static let enabled: Bool = {
        if url != nil || required { return true }
        print(
            "⚠️  PostgreSQL tests SKIPPED: STATECHART_POSTGRES_URL is not set. Run Durable/Scripts/test.sh, which starts a throwaway server.")
        return false
    }()

    /// Why a PostgreSQL-only suite is skipped.
    static let skipReason: Comment = "STATECHART_POSTGRES_URL is not set (Durable/Scripts/test.sh starts a throwaway server)"

    /// The URL, or a loud failure when a server is required and none is given.
    static func requireURL() throws -> String {
        guard let url else {
            throw PostgresUnavailable(
                message: "STATECHART_REQUIRE_POSTGRES=1 but STATECHART_POSTGRES_URL is not set: the PostgreSQL tests need a server")
        }
        return url
    }

    /// A fresh schema name.
    static func freshSchema() -> String {
        "statechart_test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
    }

    /// A store in a fresh schema (or in `schema`, to put several nodes on one set of tables).
    static func makeStore(
        schema: String? = nil, node: String? = nil, lease: Duration = .seconds(2)
    ) async throws -> PostgresStore {
        try await PostgresStore(
            url: try requireURL(), schema: schema ?? freshSchema(), node: node, leaseDuration: lease, connections: 4)
    }
}

/// A required PostgreSQL server is missing.
struct PostgresUnavailable: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

/// Another session holding an instance's row lock, as a commit or a lease claim holds it: a
/// transaction that locks the row (`FOR UPDATE`), runs `then` (more statements of that session,
/// such as another node's claim), and ends (`COMMIT` or `ROLLBACK`) only when ``end()`` is called.
/// A store's commit of that instance waits for it meanwhile.
final class RowLockHolder: Sendable {
    private let running: Task<Void, Never>
    private let holding: Task<Void, any Error>
    private let release: AsyncStream<Void>.Continuation

    /// Returns once the row is locked and `then` has run.
    init(instance: String, schema: String, then statements: [String] = [], ending: String) async throws {
        let client = PostgresClient(configuration: try PostgresStore.configuration(url: try PostgresTestServer.requireURL()))
        running = Task { await client.run() }
        let logger = Logger(label: "lock-holder")
        let (locked, isLocked) = AsyncStream.makeStream(of: Void.self)
        let (released, release) = AsyncStream.makeStream(of: Void.self)
        self.release = release
        holding = Task {
            defer { isLocked.finish() }  // a holder that fails must not leave the test waiting
            try await client.withConnection { connection in
                try await connection.query("BEGIN", logger: logger)
                _ = try await connection.query(
                    "SELECT 1 FROM \(unescaped: "\"\(schema)\"").statechart_instances WHERE id = \(instance) FOR UPDATE",
                    logger: logger
                ).collect()
                for statement in statements { try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger) }
                isLocked.yield()
                for await _ in released { break }
                try await connection.query(PostgresQuery(unsafeSQL: ending), logger: logger)
            }
        }
        for await _ in locked { break }
    }

    /// Ends the transaction, and reports how the holder ended.
    func end() async throws {
        release.yield()
        defer { running.cancel() }
        try await holding.value
    }

    /// Waits until `count` sessions of `pg_stat_activity` for which the SQL `condition` holds wait
    /// for a lock: requests of the store under test have reached the row held here.
    static func waitForWaiters(where condition: String, count: Int = 1) async throws {
        let client = PostgresClient(configuration: try PostgresStore.configuration(url: try PostgresTestServer.requireURL()))
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await client.run() }
            defer { group.cancelAll() }
            let waiting = PostgresQuery(
                unsafeSQL: "SELECT count(*)::bigint FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND \(condition)")
            var polls = 0
            while try await client.query(waiting).collect().first?.decode(Int64.self) != Int64(count) {
                polls += 1
                try #require(polls < 500, "no request waited for the lock (\(condition))")
                try await Task.sleep(for: .milliseconds(20))
            }
        }
    }
}
