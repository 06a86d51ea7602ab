import Statechart

// The chart of the fault test (FaultTests, DurableFaultWorker): the order workflow with its
// payment child and a 30 s payment timeout, made cyclic (`reopen` starts the next order) so that
// one instance takes a hundred events and many timeouts.

/// The order's states.
public enum FaultOrderState: String, Hashable, Sendable, CaseIterable {
    case placed, paying, packing, shipped, delivered, cancelled
}

/// The payment's states, a child machine of `paying`.
public enum FaultPaymentState: String, Hashable, Sendable, CaseIterable {
    case authorizing, authorized, declined, captured
}

/// What the fault test's driver sends.
public enum FaultOrderEvent: String, Hashable, Sendable, Codable, CaseIterable {
    case pay, authorize, decline, retry, capture, ship, deliver, cancel, reopen
}

/// What an order instance counts, so that a step applied twice or lost shows in the context too.
public struct FaultOrderBook: Hashable, Sendable, Codable {
    /// Orders started (`pay` from `placed`).
    public var payments = 0
    /// Payment attempts after a decline.
    public var retries = 0
    /// Orders delivered.
    public var delivered = 0
    /// Orders cancelled by the customer.
    public var cancelled = 0
    /// Orders cancelled by the payment timeout (each one a timer that fired).
    public var timedOut = 0
    /// Orders started again after delivery or cancellation.
    public var reopened = 0

    /// An empty book.
    public init() {}
}

/// How long the payment may take before the order is cancelled, in the chart's time (the fault
/// test's hosts run on a compressed clock: ``compressedClock(_:factor:epoch:)``).
public let faultPaymentTimeout: Duration = .seconds(30)

/// The cyclic order chart: placed → paying (payment child: authorizing → authorized → captured,
/// or declined → retry) → packing → shipped → delivered → reopen → placed; `cancel` before
/// shipping, and the payment timeout, lead to `cancelled`, which `reopen` also leaves.
public func faultOrderChart() throws -> TypedChart<FaultOrderEvent, FaultOrderBook> {
    let payment = Machine<FaultPaymentState, FaultOrderEvent, FaultOrderBook>("payment", initial: .authorizing) {
        When(.authorizing) {
            On(.authorize, to: .authorized)
            On(.decline, to: .declined)
        }
        When(.authorized) { On(.capture, to: .captured) }
        When(.declined) { On(.retry, to: .authorizing) { $0.context.retries += 1 } }
        Final(.captured)
    }
    let order = Machine<FaultOrderState, FaultOrderEvent, FaultOrderBook>("order", initial: .placed) {
        When(.placed) {
            On(.pay, to: .paying) { $0.context.payments += 1 }
            On(.cancel, to: .cancelled) { $0.context.cancelled += 1 }
        }
        When(.paying) {
            OnDone(to: .packing)
            On(.cancel, to: .cancelled) { $0.context.cancelled += 1 }
            After(faultPaymentTimeout, to: .cancelled) { $0.context.timedOut += 1 }
        }
        When(.packing) {
            On(.ship, to: .shipped)
            On(.cancel, to: .cancelled) { $0.context.cancelled += 1 }
        }
        When(.shipped) { On(.deliver, to: .delivered) }
        When(.delivered) { On(.reopen, to: .placed) { $0.context.reopened += 1 } }
        When(.cancelled) { On(.reopen, to: .placed) { $0.context.reopened += 1 } }
    }.attaching(child: payment, to: .paying)
    return try TypedChart(order)
}

/// The events of one order as the fault test's driver sends them, by how the order goes.
public enum FaultOrderScript: CaseIterable, Sendable {
    /// Paid, shipped and delivered.
    case delivered
    /// Declined once, paid on the retry, delivered.
    case retried
    /// Cancelled by the customer while paying.
    case cancelled
    /// Left unpaid: the driver waits past the payment timeout after `pay`, and the timer cancels it.
    case abandoned

    /// The events, in order; `reopen` ends every order.
    public var events: [FaultOrderEvent] {
        switch self {
        case .delivered: return [.pay, .authorize, .capture, .ship, .deliver, .reopen]
        case .retried: return [.pay, .decline, .retry, .authorize, .capture, .ship, .deliver, .reopen]
        case .cancelled: return [.pay, .authorize, .cancel, .reopen]
        case .abandoned: return [.pay, .reopen]
        }
    }
}
