import Foundation
import Logging
import PostgresNIO
import Synchronization

/// A ``DurableStore`` in PostgreSQL, for several nodes (processes, machines) on one database.
///
/// ```swift
/// let store = try await PostgresStore(url: "postgres://app@db.internal:5432/orders")
/// let host = DurableHost(store: store, clock: try await store.databaseClock())
/// ```
///
/// Every method is one transaction on a connection of a pool (postgres-nio's `PostgresClient`);
/// commits of different instances that arrive together share one transaction (group commit, rule
/// D19), in which each macrostep's revision (rule D4) and this node's lease of the instance (rules
/// D15, D16) are checked on their own. The schema lives in one PostgreSQL schema (`public` unless
/// told), created and migrated by the store (rule D8). Synchronous commit is the server's setting
/// (on by default): a commit is on disk before it returns (rule D1).
public final class PostgresStore: DurableStore {
    let client: PostgresClient
    let running: Task<Void, Never>
    let logger = Logger(label: "StatechartDurable.PostgresStore", factory: { _ in SwiftLogNoOpLogHandler() })
    let tables: PostgresTables
    /// The fencing token of each instance this node claimed, as the claim returned it.
    let tokens = Mutex<[String: Int64]>([:])
    /// Macrosteps this store committed, and the transactions that committed them.
    let counters = Mutex<(transactions: Int, macrosteps: Int)>((0, 0))
    /// Group commit: the batches in flight and the commits waiting for the next (rule D19).
    let commits: CommitQueue

    /// The PostgreSQL schema the tables live in.
    public let schema: String
    /// This node's name in the lease table: unique per running store (a fresh UUID unless told).
    public let node: String
    /// How long a claim of an instance lasts after this node's last commit or claim of it (rule D15).
    public let leaseDuration: Duration
    /// Where the database is, for error messages.
    public let location: String
    /// How long one request (a transaction) may go without an answer before the store gives up
    /// on it with ``DurableError/connectionLost(_:)`` (rule D9).
    public let requestTimeout: Duration
    /// The most macrosteps one transaction commits (group commit, rule D19).
    public let maximumBatch: Int
    /// The most batches of macrosteps being committed at once, each on a connection of its own
    /// (rule D19).
    public let concurrentBatches: Int

    /// Connects to the database and creates or migrates the store's schema.
    ///
    /// - Parameters:
    ///   - configuration: postgres-nio's client configuration (host, port, user, TLS, pool size).
    ///   - schema: The PostgreSQL schema of the tables (created if missing): lower-case letters,
    ///     digits and `_`, not starting with a digit.
    ///   - node: This node's name in the lease table; it must differ between running stores.
    ///   - leaseDuration: How long a claim of an instance lasts (rule D15); at least 100 ms.
    ///   - requestTimeout: How long one transaction may go without an answer (at least 100 ms).
    ///     A connection the server kills can leave postgres-nio waiting for an answer that never
    ///     comes; past this time the request fails with ``DurableError/connectionLost(_:)`` and
    ///     the caller retries (with its idempotency key) instead of waiting forever.
    ///   - maximumBatch: The most macrosteps one transaction commits (rule D19); 1 commits each
    ///     macrostep in a transaction of its own.
    ///   - concurrentBatches: The most transactions of macrosteps in flight at once (rule D19);
    ///     commits that arrive while they all are wait and form the next batch.
    /// - Throws: ``DurableError/schema(_:)`` for a bad schema name or a newer schema,
    ///   ``DurableError/connectionLost(_:)`` when the server cannot be reached.
    public init(
        configuration: PostgresClient.Configuration, schema: String = "public", node: String? = nil,
        leaseDuration: Duration = .seconds(2), requestTimeout: Duration = .seconds(30), maximumBatch: Int = 256,
        concurrentBatches: Int = 1
    ) async throws(DurableError) {
        guard Self.isPlainIdentifier(schema) else {
            throw .schema("'\(schema)' is not a plain PostgreSQL schema name (lower-case letters, digits, _)")
        }
        self.schema = schema
        self.node = node ?? UUID().uuidString.lowercased()
        self.leaseDuration = max(leaseDuration, .milliseconds(100))
        self.requestTimeout = max(requestTimeout, .milliseconds(100))
        self.maximumBatch = max(maximumBatch, 1)
        self.concurrentBatches = max(concurrentBatches, 1)
        commits = CommitQueue(maximumBatch: maximumBatch, maximumLeaders: concurrentBatches)
        self.tables = PostgresTables(schema: schema)
        self.location = "\(configuration.host ?? configuration.unixSocketPath ?? "?"):\(configuration.port ?? 5432)/\(configuration.database ?? configuration.username) schema \(schema)"
        let client = PostgresClient(configuration: configuration)
        self.client = client
        running = Task { await client.run() }
        do {
            try await prepare()
        } catch {
            running.cancel()
            throw error
        }
    }

    /// Connects to the database a `postgres://user:password@host:port/database` URL names (no TLS
    /// unless `?sslmode=require`), with at most `connections` pooled connections.
    ///
    /// - Throws: ``DurableError/storage(_:)`` for a URL that is not a PostgreSQL URL, and the
    ///   errors of ``init(configuration:schema:node:leaseDuration:requestTimeout:maximumBatch:concurrentBatches:)``.
    public convenience init(
        url: String, schema: String = "public", node: String? = nil, leaseDuration: Duration = .seconds(2),
        requestTimeout: Duration = .seconds(30), connections: Int = 20, maximumBatch: Int = 256,
        concurrentBatches: Int = 1
    ) async throws(DurableError) {
        var configuration = try Self.configuration(url: url)
        configuration.options.maximumConnections = max(connections, 1)
        try await self.init(
            configuration: configuration, schema: schema, node: node, leaseDuration: leaseDuration,
            requestTimeout: requestTimeout, maximumBatch: maximumBatch, concurrentBatches: concurrentBatches)
    }

    /// Stops the connection pool; the store cannot be used afterwards. Its leases are not
    /// released: they lapse after ``leaseDuration``, as if the node had died (use
    /// ``releaseLeases()`` first to hand them over at once).
    public func close() async {
        running.cancel()
        _ = await running.value
    }

    deinit { running.cancel() }

    /// Transactions that committed macrosteps, and the macrosteps they committed.
    public var committed: (transactions: Int, macrosteps: Int) { counters.withLock { $0 } }

    // MARK: - Schema

    /// Creates the schema and applies the migrations it lacks, in one transaction under an
    /// advisory lock, so stores starting together on a new database migrate it once (rule D8).
    public func prepare() async throws(DurableError) {
        let t = tables
        let location = location
        try await transaction("migrating the schema") { connection, logger in
            _ = try await connection.query(
                "SELECT pg_advisory_xact_lock(hashtext(\("statechart-durable:" + t.schemaName)))", logger: logger
            ).collect()
            try await connection.query("CREATE SCHEMA IF NOT EXISTS \(unescaped: t.quotedSchema)", logger: logger)
            try await connection.query(
                "CREATE TABLE IF NOT EXISTS \(unescaped: t.schemaVersions) (version bigint PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())",
                logger: logger)
            var current = 0
            for try await version in try await connection.query(
                "SELECT COALESCE(MAX(version), 0) FROM \(unescaped: t.schemaVersions)", logger: logger
            ).decode(Int.self) {
                current = version
            }
            guard current <= PostgresSchema.latestVersion else {
                throw DurableError.schema(
                    "the database \(location) has schema version \(current); this package knows versions up to \(PostgresSchema.latestVersion)")
            }
            for version in (current + 1)..<(PostgresSchema.latestVersion + 1) {
                for statement in PostgresSchema.migrations[version - 1] {
                    do {
                        try await connection.query(
                            PostgresQuery(unsafeSQL: statement.replacingOccurrences(of: "{schema}", with: t.quotedSchema)),
                            logger: logger)
                    } catch {
                        throw DurableError.schema("migration \(version) failed: \(Self.describe(error))")
                    }
                }
                try await connection.query(
                    "INSERT INTO \(unescaped: t.schemaVersions) (version) VALUES (\(version))", logger: logger)
            }
        }
    }

    /// The schema version of the database.
    public func schemaVersion() async throws(DurableError) -> Int {
        let t = tables
        return try await statement("reading the schema version") { connection, logger in
            var current = 0
            for try await version in try await connection.query(
                "SELECT COALESCE(MAX(version), 0) FROM \(unescaped: t.schemaVersions)", logger: logger
            ).decode(Int.self) {
                current = version
            }
            return current
        }
    }

    /// The server's `synchronous_commit` setting (`on`: a commit is on disk before it returns).
    public func synchronousCommit() async throws(DurableError) -> String {
        try await statement("reading synchronous_commit") { connection, logger in
            var setting = ""
            for try await value in try await connection.query("SHOW synchronous_commit", logger: logger).decode(String.self) {
                setting = value
            }
            return setting
        }
    }

    // MARK: - Plumbing

    /// Runs `body` in a transaction on a pooled connection; rolls back if it throws. postgres-nio's
    /// and the pool's errors become ``DurableError``s naming the store and `what` was being done.
    func transaction<T: Sendable>(
        _ what: String, _ body: @escaping @Sendable (PostgresConnection, Logger) async throws -> T
    ) async throws(DurableError) -> T {
        try await request(what, inTransaction: true, body)
    }

    /// Runs `body`, one statement, on a pooled connection without `BEGIN` and `COMMIT`: a single
    /// statement is atomic and sees one snapshot by itself, and the two would be two more round
    /// trips to the server (a read before every step of the host).
    func statement<T: Sendable>(
        _ what: String, _ body: @escaping @Sendable (PostgresConnection, Logger) async throws -> T
    ) async throws(DurableError) -> T {
        try await request(what, inTransaction: false, body)
    }

    /// ``transaction(_:_:)`` and ``statement(_:_:)``, under the store's ``requestTimeout``.
    private func request<T: Sendable>(
        _ what: String, inTransaction: Bool, _ body: @escaping @Sendable (PostgresConnection, Logger) async throws -> T
    ) async throws(DurableError) -> T {
        let logger = logger
        let client = client
        let location = location
        let timeout = requestTimeout
        do {
            let answer = try await Deadline.run(within: timeout) {
                try await client.withConnection { connection in
                    guard inTransaction else { return try await body(connection, logger) }
                    try await connection.query("BEGIN", logger: logger)
                    let value: T
                    do {
                        value = try await body(connection, logger)
                    } catch {
                        // A lost connection's transaction is gone with its session; a ROLLBACK sent on
                        // it could wait forever (seen here: a query on a connection the server had just
                        // killed never returned). On a live connection it makes it clean for the pool.
                        if case .connectionLost = Self.mapError(error, at: location, doing: what) { throw error }
                        _ = try? await connection.query("ROLLBACK", logger: logger)
                        throw error
                    }
                    try await connection.query("COMMIT", logger: logger)
                    return value
                }
            }
            guard let answer else {
                // The request was abandoned (and cancelled): if its COMMIT had reached the server it
                // may have committed, which is what connectionLost says (retry with the key, D3).
                throw DurableError.connectionLost(
                    "\(location), \(what): no answer from the server within \(timeout) (the request was abandoned)")
            }
            return answer
        } catch {
            throw mapError(error, doing: what)
        }
    }

    /// A ``DurableError`` for an error thrown inside a transaction.
    func mapError(_ error: any Error, doing what: String) -> DurableError {
        Self.mapError(error, at: location, doing: what)
    }

    /// A ``DurableError`` for an error thrown inside a transaction on the database at `location`.
    static func mapError(_ error: any Error, at location: String, doing what: String) -> DurableError {
        if let error = error as? DurableError { return error }
        if let error = error as? PSQLError {
            switch error.code {
            case .server:
                // Class 08 (connection exception) and 57P (the server shutting down or killing
                // the session: 57P01 admin shutdown, 57P02 crash, 57P03 cannot connect now) mean
                // the connection is gone, not that the request was wrong.
                let state = error.serverInfo?[.sqlState] ?? ""
                if state.hasPrefix("08") || state.hasPrefix("57P") {
                    return .connectionLost("\(location), \(what): \(Self.describe(error))")
                }
                return .storage("\(location), \(what): \(Self.describe(error))")
            case .clientClosedConnection, .serverClosedConnection, .connectionError, .uncleanShutdown, .poolClosed,
                .queryCancelled:
                return .connectionLost("\(location), \(what): \(Self.describe(error))")
            default:
                return .storage("\(location), \(what): \(Self.describe(error))")
            }
        }
        return .storage("\(location), \(what): \(error)")
    }

    /// postgres-nio's errors print little by default (to keep secrets out of logs); the server's
    /// message and SQLSTATE are what tells the reader what went wrong.
    static func describe(_ error: any Error) -> String {
        guard let error = error as? PSQLError else { return String(describing: error) }
        if let info = error.serverInfo {
            let state = info[.sqlState] ?? "?"
            let message = info[.message] ?? "?"
            let detail = info[.detail].map { " (\($0))" } ?? ""
            return "\(message)\(detail) [SQLSTATE \(state)]"
        }
        if let underlying = error.underlying { return "\(error.code): \(underlying)" }
        return "\(error.code)"
    }

    /// Whether `name` can be written into SQL as it is, inside double quotes.
    static func isPlainIdentifier(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, name.unicodeScalars.count <= 63 else { return false }
        let lower = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyz_")
        let rest = lower.union(CharacterSet(charactersIn: "0123456789"))
        return lower.contains(first) && name.unicodeScalars.allSatisfy { rest.contains($0) }
    }

    /// A client configuration from a `postgres://user:password@host:port/database` URL (no TLS
    /// unless `?sslmode=require`), to adjust before ``init(configuration:schema:node:leaseDuration:requestTimeout:maximumBatch:concurrentBatches:)``.
    ///
    /// - Throws: ``DurableError/storage(_:)`` for a URL that is not a PostgreSQL URL.
    public static func configuration(url: String) throws(DurableError) -> PostgresClient.Configuration {
        guard let parts = URLComponents(string: url), ["postgres", "postgresql"].contains(parts.scheme ?? ""),
            let host = parts.host, !host.isEmpty
        else {
            throw .storage("'\(url)' is not a postgres://user@host:port/database URL")
        }
        let database = parts.path.hasPrefix("/") ? String(parts.path.dropFirst()) : parts.path
        let requireTLS = parts.queryItems?.contains { $0.name == "sslmode" && $0.value == "require" } ?? false
        return PostgresClient.Configuration(
            host: host, port: parts.port ?? 5432, username: parts.user ?? "postgres", password: parts.password,
            database: database.isEmpty ? nil : database,
            tls: requireTLS ? .require(.makeClientConfiguration()) : .disable)
    }
}

/// The store's table names, qualified with its (quoted) schema.
struct PostgresTables: Sendable {
    let schemaName: String
    let quotedSchema: String
    let schemaVersions: String
    let instances: String
    let journal: String
    let idempotency: String
    let timers: String
    let outbox: String
    let leases: String

    init(schema: String) {
        schemaName = schema
        quotedSchema = "\"\(schema)\""
        schemaVersions = "\"\(schema)\".statechart_schema"
        instances = "\"\(schema)\".statechart_instances"
        journal = "\"\(schema)\".statechart_journal"
        idempotency = "\"\(schema)\".statechart_idempotency"
        timers = "\"\(schema)\".statechart_timers"
        outbox = "\"\(schema)\".statechart_outbox"
        leases = "\"\(schema)\".statechart_leases"
    }
}
