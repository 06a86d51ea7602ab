import Foundation
import Hummingbird
import HummingbirdTesting
import OrderServiceKit
import OrderWorkflow
import Statechart
import StatechartDurable
import Testing

/// The service driven over real HTTP (Hummingbird's live test server on a free port), on a
/// SQLite file in a temporary directory.
@Suite struct OrderServiceTests {
    /// A path for a SQLite file in a fresh temporary directory, removed when `body` returns.
    func withDatabasePath<T>(_ body: (String) async throws -> T) async throws -> T {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("orders-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        return try await body(directory.appendingPathComponent("orders.sqlite").path)
    }

    /// The service on a fresh SQLite file.
    func withService(_ body: @escaping @Sendable (any TestClientProtocol) async throws -> Void) async throws {
        try await withDatabasePath { path in
            let api = try await OrderAPI(store: try await SQLiteStore(path: path))
            let app = api.application(configuration: .init(address: .hostname("127.0.0.1", port: 0)))
            try await app.test(.live) { client in try await body(client) }
        }
    }

    func post<T: Encodable>(_ client: any TestClientProtocol, _ uri: String, _ body: T) async throws -> TestResponse {
        try await client.execute(
            uri: uri, method: .post, headers: [.contentType: "application/json"],
            body: ByteBuffer(bytes: try JSONEncoder().encode(body)))
    }

    func decode<T: Decodable>(_ type: T.Type, _ response: TestResponse) throws -> T {
        try JSONDecoder().decode(type, from: Data(response.body.readableBytesView))
    }

    @Test("An order goes from placed to delivered through its payment child, over HTTP")
    func happyPath() async throws {
        try await withService { client in
            let created = try await post(client, "/orders", NewOrder(id: "o-1"))
            #expect(created.status == .created)
            #expect(try decode(OrderView.self, created).activeStates == ["placed"])

            var last: EventResponse?
            for event in ["pay", "authorize", "capture", "ship", "deliver"] {
                let response = try await post(client, "/orders/o-1/events", EventRequest(event: event))
                #expect(response.status == .ok, "\(event): \(String(buffer: response.body))")
                last = try decode(EventResponse.self, response)
                #expect(last?.handled == true, "\(event)")
            }
            #expect(last?.order.activeStates == ["delivered"])
            #expect(last?.order.finished == true)

            let order = try decode(OrderView.self, try await client.execute(uri: "/orders/o-1", method: .get))
            #expect(order.record.paymentAttempts == 1)
            let journal = try decode([JournalEntry].self, try await client.execute(uri: "/orders/o-1/journal", method: .get))
            #expect(journal.map(\.sequence) == [0, 1, 2, 3, 4, 5])
            #expect(journal.last?.configuration == ["delivered"])
        }
    }

    @Test("The payment child's states are the order's; a cancel bubbles from the child to the order")
    func nestedStatesAndBubbling() async throws {
        try await withService { client in
            _ = try await post(client, "/orders", NewOrder(id: "o-2"))
            let paying = try decode(EventResponse.self, try await post(client, "/orders/o-2/events", EventRequest(event: "pay")))
            #expect(paying.order.activeStates.contains("paying"))
            #expect(paying.order.activeStates.contains { $0.hasSuffix("authorizing") })

            let listed = try decode([OrderView].self, try await client.execute(uri: "/orders?state=paying", method: .get))
            #expect(listed.map(\.id) == ["o-2"])

            let cancelled = try decode(EventResponse.self, try await post(client, "/orders/o-2/events", EventRequest(event: "cancel")))
            #expect(cancelled.order.activeStates == ["cancelled"])
            #expect(cancelled.order.record.cancellation == "cancelled by the customer")
        }
    }

    @Test("A retried request with the same idempotency key is applied once")
    func idempotentRetry() async throws {
        try await withService { client in
            _ = try await post(client, "/orders", NewOrder(id: "o-3"))
            _ = try await post(client, "/orders/o-3/events", EventRequest(event: "pay", idempotencyKey: "k-1"))
            _ = try await post(client, "/orders/o-3/events", EventRequest(event: "decline", idempotencyKey: "k-2"))
            let first = try decode(EventResponse.self, try await post(client, "/orders/o-3/events", EventRequest(event: "retry", idempotencyKey: "k-3")))
            let again = try decode(EventResponse.self, try await post(client, "/orders/o-3/events", EventRequest(event: "retry", idempotencyKey: "k-3")))
            #expect(first.replayed == false)
            #expect(again.replayed == true)
            #expect(again.order.record.paymentAttempts == 2, "the retry counted once")
            let journal = try decode([JournalEntry].self, try await client.execute(uri: "/orders/o-3/journal", method: .get))
            #expect(journal.count == 4)
        }
    }

    @Test("The diagram is an SVG with the active states highlighted")
    func diagram() async throws {
        try await withService { client in
            _ = try await post(client, "/orders", NewOrder(id: "o-4"))
            _ = try await post(client, "/orders/o-4/events", EventRequest(event: "pay"))
            let response = try await client.execute(uri: "/orders/o-4/diagram.svg", method: .get)
            #expect(response.status == .ok)
            #expect(response.headers[.contentType]?.hasPrefix("image/svg+xml") == true)
            let svg = String(buffer: response.body)
            #expect(svg.hasPrefix("<svg") || svg.hasPrefix("<?xml"))
            #expect(svg.contains("paying"))
            #expect(svg.contains("active"))
        }
    }

    @Test("Bad requests get typed errors naming the problem: unknown order, unknown event, duplicate id")
    func badInput() async throws {
        try await withService { client in
            let missing = try await client.execute(uri: "/orders/nope", method: .get)
            #expect(missing.status == .notFound)
            #expect(String(buffer: missing.body).contains("nope"))

            _ = try await post(client, "/orders", NewOrder(id: "o-5"))
            let unknown = try await post(client, "/orders/o-5/events", EventRequest(event: "teleport"))
            #expect(unknown.status == .badRequest)
            #expect(String(buffer: unknown.body).contains("teleport"))

            let duplicate = try await post(client, "/orders", NewOrder(id: "o-5"))
            #expect(duplicate.status == .conflict)

            let deleted = try await client.execute(uri: "/orders/o-5", method: .delete)
            #expect(deleted.status == .noContent)
            #expect(try await client.execute(uri: "/orders/o-5", method: .get).status == .notFound)
        }
    }

    @Test("Orders survive the service: a new service on the same file serves them")
    func survivesRestart() async throws {
        try await withDatabasePath { path in
            do {
                let api = try await OrderAPI(store: try await SQLiteStore(path: path))
                try await api.application(configuration: .init(address: .hostname("127.0.0.1", port: 0))).test(.live) { client in
                    _ = try await post(client, "/orders", NewOrder(id: "o-6"))
                    _ = try await post(client, "/orders/o-6/events", EventRequest(event: "pay"))
                }
            }
            let api = try await OrderAPI(store: try await SQLiteStore(path: path))
            try await api.application(configuration: .init(address: .hostname("127.0.0.1", port: 0))).test(.live) { client in
                let order = try decode(OrderView.self, try await client.execute(uri: "/orders/o-6", method: .get))
                #expect(order.activeStates.contains("paying"))
                #expect(order.sequence == 1)
            }
        }
    }

    @Test("A payment that takes longer than 30 s cancels the order (a durable timer, on the host's clock)")
    func paymentTimeout() async throws {
        try await withDatabasePath { path in
            let clock = ManualClock()
            let api = try await OrderAPI(store: try await SQLiteStore(path: path), clock: .manual(clock))
            let router = Router()
            api.addRoutes(to: router)
            try await Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0))).test(.live) { client in
                _ = try await post(client, "/orders", NewOrder(id: "o-7"))
                _ = try await post(client, "/orders/o-7/events", EventRequest(event: "pay"))
                await clock.advance(by: .seconds(29))
                #expect(await api.host.fireDueTimers().fired == 0)
                await clock.advance(by: .seconds(2))
                #expect(await api.host.fireDueTimers().fired == 1)
                let order = try decode(OrderView.self, try await client.execute(uri: "/orders/o-7", method: .get))
                #expect(order.activeStates == ["cancelled"])
                #expect(order.record.cancellation == "the payment timed out")
            }
        }
    }

    @Test("The service forgets idempotency keys older than its retention, by the host's clock (D18)")
    func oldKeysExpire() async throws {
        try await withDatabasePath { path in
            let clock = ManualClock()
            let store = try await SQLiteStore(path: path)
            let api = try await OrderAPI(
                store: store, clock: .manual(clock), keyRetention: .seconds(3_600), keyExpiryInterval: .milliseconds(20))
            try await api.application(configuration: .init(address: .hostname("127.0.0.1", port: 0))).test(.live) { client in
                _ = try await post(client, "/orders", NewOrder(id: "o-8"))
                _ = try await post(client, "/orders/o-8/events", EventRequest(event: "pay", idempotencyKey: "k-pay"))
                // Within the retention the key stays, however often the expiry runs.
                try await Task.sleep(for: .milliseconds(100))
                #expect(try await store.idempotency("k-pay", of: "o-8") != nil)
                await clock.advance(by: .seconds(7_200))
                var polls = 0
                while try await store.idempotency("k-pay", of: "o-8") != nil {
                    polls += 1
                    try #require(polls < 500, "the key was not forgotten within 10 s")
                    try await Task.sleep(for: .milliseconds(20))
                }
                let journal = try decode([JournalEntry].self, try await client.execute(uri: "/orders/o-8/journal", method: .get))
                #expect(journal.compactMap(\.idempotencyKey) == ["k-pay"], "the journal keeps the key")
            }
        }
    }

    @Test("On PostgreSQL (STATECHART_POSTGRES_URL): the same order workflow over HTTP, durable in the server")
    func onPostgres() async throws {
        guard let url = ProcessInfo.processInfo.environment["STATECHART_POSTGRES_URL"] else {
            // Scripts/test.sh (and CI) start a server and require it; by hand, say why nothing ran.
            #expect(ProcessInfo.processInfo.environment["STATECHART_REQUIRE_POSTGRES"] != "1", "no PostgreSQL server: set STATECHART_POSTGRES_URL")
            print("OrderServiceTests: skipped the PostgreSQL test (no STATECHART_POSTGRES_URL)")
            return
        }
        let schema = "orders_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(12)
        let store = try await PostgresStore(url: url, schema: String(schema))
        let api = try await OrderAPI(store: store)
        try await api.application(configuration: .init(address: .hostname("127.0.0.1", port: 0))).test(.live) { client in
            _ = try await post(client, "/orders", NewOrder(id: "pg-1"))
            for event in ["pay", "decline", "retry", "authorize", "capture", "ship"] {
                let response = try await post(client, "/orders/pg-1/events", EventRequest(event: event, idempotencyKey: event))
                #expect(response.status == .ok, "\(event): \(String(buffer: response.body))")
            }
            let replay = try decode(EventResponse.self, try await post(client, "/orders/pg-1/events", EventRequest(event: "ship", idempotencyKey: "ship")))
            #expect(replay.replayed)
            #expect(replay.order.activeStates == ["shipped"])
            #expect(replay.order.record.paymentAttempts == 2)
        }
        // A second service on the same database sees the order once the first one's lease is handed over.
        try await store.releaseLeases()
        await store.close()
        let again = try await OrderAPI(store: try await PostgresStore(url: url, schema: String(schema)))
        try await again.application(configuration: .init(address: .hostname("127.0.0.1", port: 0))).test(.live) { client in
            let delivered = try decode(EventResponse.self, try await post(client, "/orders/pg-1/events", EventRequest(event: "deliver")))
            #expect(delivered.order.activeStates == ["delivered"])
            let journal = try decode([JournalEntry].self, try await client.execute(uri: "/orders/pg-1/journal", method: .get))
            #expect(journal.count == 8)
        }
    }
}
