import Foundation
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
