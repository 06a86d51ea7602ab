import Foundation
import HTTPTypes
import Hummingbird
import OrderWorkflow
import Statechart
import StatechartDurable
import StatechartInterchange

/// The order workflow served over HTTP: every request that changes an order returns once the
/// change is committed to the store (acknowledged means durable, rule D1 of Docs/Durability.md).
///
/// | request | what it does |
/// |---|---|
/// | `POST /orders` | creates an order (`{"id": "…"}` optional) — 201 |
/// | `GET /orders[?state=paying]` | lists orders, optionally those in one state |
/// | `GET /orders/{id}` | the order: active states, record, sequence |
/// | `POST /orders/{id}/events` | `{"event": "pay", "idempotencyKey": "…"}` — applied once per key |
/// | `GET /orders/{id}/journal` | every committed step, in order |
/// | `GET /orders/{id}/diagram.svg` | the chart with the order's active states highlighted |
/// | `DELETE /orders/{id}` | deletes the order and its journal — 204 |
public struct OrderAPI: Sendable {
    /// The durable host the orders live in.
    public let host: DurableHost
    let chart: Chart<OrderEvent, OrderRecord>
    /// How long an idempotency key is kept after its request was committed (rule D18).
    public let keyRetention: Duration
    /// How often the application forgets keys older than ``keyRetention``.
    public let keyExpiryInterval: Duration

    /// The name and version the order chart is registered under.
    public static let chartName = "order"
    /// The version every new order is pinned to.
    public static let chartVersion = 1

    /// Registers the order chart with a new host on `store`. Idempotency keys are kept for
    /// `keyRetention` (a day by default) and looked at every `keyExpiryInterval` (an hour).
    public init(
        store: any DurableStore, clock: HostClock = .system, keyRetention: Duration = .seconds(86_400),
        keyExpiryInterval: Duration = .seconds(3_600)
    ) async throws {
        self.keyRetention = keyRetention
        self.keyExpiryInterval = keyExpiryInterval
        let typed = try orderChart()
        host = DurableHost(store: store, clock: clock)
        try await host.register(typed, name: Self.chartName, version: Self.chartVersion, initialContext: OrderRecord())
        chart = typed.chart
    }

    /// The routes, on a router the caller serves (``application(configuration:)`` does).
    public func addRoutes(to router: Router<BasicRequestContext>) {
        let orders = router.group("orders")
        orders.post { request, context in try await create(request, context) }
        orders.get { request, _ in try await list(request) }
        orders.get(":id") { _, context in try await view(try context.parameters.require("id")) }
        orders.delete(":id") { _, context in try await delete(try context.parameters.require("id")) }
        orders.post(":id/events") { request, context in
            try await send(request, context, to: try context.parameters.require("id"))
        }
        orders.get(":id/journal") { _, context in try await journal(try context.parameters.require("id")) }
        orders.get(":id/diagram.svg") { _, context in try await diagram(try context.parameters.require("id")) }
    }

    /// The service as a Hummingbird application listening on `configuration`'s address, with
    /// the host's timer loop running beside it (the payment timeout fires while nobody calls), and
    /// the expiry of old idempotency keys.
    public func application(configuration: ApplicationConfiguration) -> some ApplicationProtocol {
        let router = Router()
        addRoutes(to: router)
        var app = Application(router: router, configuration: configuration)
        app.addServices(TimerService(host: host))
        app.addServices(KeyExpiryService(host: host, retention: keyRetention, interval: keyExpiryInterval))
        return app
    }

    // MARK: - Handlers

    func create(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        var body = NewOrder()
        if request.headers[.contentLength] != "0", request.headers[.contentType] != nil {
            body = try await request.decode(as: NewOrder.self, context: context)
        }
        let id = body.id ?? UUID().uuidString.lowercased()
        do {
            let record = try await host.create(id, chart: Self.chartName, version: Self.chartVersion)
            return try json(OrderView(record, record: OrderRecord()), status: .created)
        } catch {
            throw APIError(error)
        }
    }

    func list(_ request: Request) async throws -> Response {
        let state = request.uri.queryParameters["state"].map(String.init)
        do {
            var views: [OrderView] = []
            for record in try await host.instances(inState: state) { views.append(try await orderView(record)) }
            return try json(views)
        } catch let error as DurableError {
            throw APIError(error)
        }
    }

    func view(_ id: String) async throws -> Response {
        do {
            return try json(try await orderView(try await host.instance(id)))
        } catch {
            throw APIError(error)
        }
    }

    func send(_ request: Request, _ context: BasicRequestContext, to id: String) async throws -> Response {
        let body = try await request.decode(as: EventRequest.self, context: context)
        guard let event = OrderEvent(rawValue: body.event) else {
            let known = OrderEvent.allCases.map(\.rawValue).joined(separator: ", ")
            throw HTTPError(.badRequest, message: "'\(body.event)' is not an order event (one of: \(known))")
        }
        let key = body.idempotencyKey ?? request.headers[Self.idempotencyKeyHeader]
        do {
            let outcome = try await host.send(event, to: id, idempotencyKey: key)
            let order = try await orderView(try await host.instance(id))
            return try json(EventResponse(handled: outcome.handled, replayed: outcome.replayed, order: order))
        } catch {
            throw APIError(error)
        }
    }

    func journal(_ id: String) async throws -> Response {
        do {
            return try json(try await host.journal(of: id))
        } catch {
            throw APIError(error)
        }
    }

    func diagram(_ id: String) async throws -> Response {
        do {
            let record = try await host.instance(id)
            let svg = SVGDiagram.svg(chart, active: Set(record.activeStates))
            return Response(
                status: .ok, headers: [.contentType: "image/svg+xml; charset=utf-8"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: svg)))
        } catch {
            throw APIError(error)
        }
    }

    func delete(_ id: String) async throws -> Response {
        let existed: Bool
        do {
            existed = try await host.delete(id)
        } catch {
            throw APIError(error)
        }
        guard existed else { throw APIError(DurableError.unknownInstance(id)) }
        return Response(status: .noContent)
    }

    // MARK: - Helpers

    /// The header a client may send its idempotency key in, instead of the body.
    static let idempotencyKeyHeader = HTTPField.Name("Idempotency-Key")!

    func orderView(_ record: InstanceRecord) async throws(DurableError) -> OrderView {
        let snapshot = try await host.snapshot(of: record.id, as: ChartSnapshot<OrderEvent, OrderRecord>.self)
        return OrderView(record, record: snapshot.context)
    }

    func json<T: Encodable>(_ value: T, status: HTTPResponse.Status = .ok) throws -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = try encoder.encode(value)
        return Response(
            status: status, headers: [.contentType: "application/json; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }
}

/// A durable host's error as an HTTP error: 404 for an unknown order, 409 for a conflict, 422
/// for an event the order's machine refused, 503 when the store is busy or gone.
struct APIError: HTTPResponseError {
    let status: HTTPResponse.Status
    let message: String

    init(_ error: any Error) {
        guard let error = error as? DurableError else {
            status = .internalServerError
            message = String(describing: error)
            return
        }
        switch error {
        case .unknownInstance: status = .notFound
        case .instanceExists, .idempotencyKeyReused, .duplicateIdempotencyKey, .revisionConflict: status = .conflict
        case .invalidInstanceID, .eventNotDecodable, .eventNotEncodable: status = .badRequest
        case .machineFailed: status = .unprocessableContent
        case .busy, .storage: status = .serviceUnavailable
        default: status = .internalServerError
        }
        message = error.description
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        let data = try JSONEncoder().encode(ErrorBody(error: message))
        return Response(
            status: status, headers: [.contentType: "application/json; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }
}
