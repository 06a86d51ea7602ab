import Foundation
import OrderWorkflow
import StatechartDurable

/// An order as the API shows it: its record in the store and what its chart keeps.
public struct OrderView: Codable, Hashable, Sendable {
    /// The instance id.
    public var id: String
    /// The chart version the order is pinned to.
    public var chartVersion: Int
    /// The last journal row's sequence number (0: created).
    public var sequence: Int64
    /// Whether the order reached a final state (`delivered`, `cancelled`).
    public var finished: Bool
    /// The active states, outermost first (`paying`, `payment`'s `authorizing`, …).
    public var activeStates: [String]
    /// The order's record (payment attempts, why it was cancelled).
    public var record: OrderRecord

    /// Builds the view of a stored instance and its decoded context.
    public init(_ instance: InstanceRecord, record: OrderRecord) {
        id = instance.id
        chartVersion = instance.chartVersion
        sequence = instance.sequence
        finished = instance.finished
        activeStates = instance.activeStates
        self.record = record
    }
}

/// The body of `POST /orders`: an id of the caller's choosing, or none (the service makes one).
public struct NewOrder: Codable, Hashable, Sendable {
    /// The id to create the order under.
    public var id: String?
    /// Creates the body.
    public init(id: String? = nil) { self.id = id }
}

/// The body of `POST /orders/{id}/events`.
public struct EventRequest: Codable, Hashable, Sendable {
    /// The event's name (`pay`, `authorize`, `capture`, `decline`, `retry`, `ship`, `deliver`, `cancel`).
    public var event: String
    /// A key that makes a retried request apply once (also accepted as the `Idempotency-Key` header).
    public var idempotencyKey: String?
    /// Creates the body.
    public init(event: String, idempotencyKey: String? = nil) {
        self.event = event
        self.idempotencyKey = idempotencyKey
    }
}

/// The answer to an event: whether the order handled it, and the order afterwards.
public struct EventResponse: Codable, Hashable, Sendable {
    /// Whether a transition took the event (an order ignores events its state has no use for).
    public var handled: Bool
    /// Whether this was a retry of a request already applied (same idempotency key).
    public var replayed: Bool
    /// The order after the event.
    public var order: OrderView
}

/// An error as the API returns it, with the HTTP status it came with.
public struct ErrorBody: Codable, Hashable, Sendable {
    /// What went wrong, naming the order, event or key.
    public var error: String
}
