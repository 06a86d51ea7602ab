import Statechart

/// The states of an order.
public enum OrderState: String, Hashable, Sendable, CaseIterable {
    case placed, paying, packing, shipped, delivered, cancelled
}

/// The states of the payment, a child machine of `paying`.
public enum PaymentState: String, Hashable, Sendable, CaseIterable {
    case authorizing, authorized, captured, declined
}

/// What an order can be told, by its customer, its payment provider or its warehouse.
public enum OrderEvent: String, Hashable, Sendable, Codable, CaseIterable {
    /// The customer pays: the payment starts.
    case pay
    /// The payment provider authorized the amount.
    case authorize
    /// The payment provider captured it: the payment is done.
    case capture
    /// The payment provider declined it.
    case decline
    /// The customer tries again after a decline.
    case retry
    /// The warehouse handed the parcel over.
    case ship
    /// The carrier delivered it.
    case deliver
    /// The customer cancels (before the order ships).
    case cancel
}

/// What an order keeps besides its state.
public struct OrderRecord: Hashable, Sendable, Codable {
    /// Payment attempts (a retry after a decline is a new one).
    public var paymentAttempts = 0
    /// Why it was cancelled, when it was.
    public var cancellation: String?

    /// A new order.
    public init() {}
}

/// How long the payment may take before the order is cancelled.
public let paymentTimeout: Duration = .seconds(30)

/// The order workflow: placed → paying (with its payment child) → packing → shipped → delivered.
///
/// A cancel is handled anywhere before shipping (it bubbles from the payment child to the
/// order); a payment that takes longer than ``paymentTimeout`` cancels the order. The payment
/// finishing (`captured`, a final state) completes `paying`, whose done event moves the order on.
public func orderChart() throws -> TypedChart<OrderEvent, OrderRecord> {
    let payment = Machine<PaymentState, OrderEvent, OrderRecord>("payment", initial: .authorizing) {
        When(.authorizing) {
            On(.authorize, to: .authorized)
            On(.decline, to: .declined)
        }
        When(.authorized) { On(.capture, to: .captured) }
        When(.declined) {
            On(.retry, to: .authorizing) { $0.context.paymentAttempts += 1 }
        }
        Final(.captured)
    }
    let order = Machine<OrderState, OrderEvent, OrderRecord>("order", initial: .placed) {
        When(.placed) {
            On(.pay, to: .paying) { $0.context.paymentAttempts += 1 }
            On(.cancel, to: .cancelled) { $0.context.cancellation = "cancelled by the customer" }
        }
        When(.paying) {
            OnDone(to: .packing)
            On(.cancel, to: .cancelled) { $0.context.cancellation = "cancelled by the customer" }
            After(paymentTimeout, to: .cancelled) { $0.context.cancellation = "the payment timed out" }
        }
        When(.packing) {
            On(.ship, to: .shipped)
            On(.cancel, to: .cancelled) { $0.context.cancellation = "cancelled by the customer" }
        }
        When(.shipped) { On(.deliver, to: .delivered) }
        Final(.delivered)
        Final(.cancelled)
    }.attaching(child: payment, to: .paying)
    return try TypedChart(order)
}
