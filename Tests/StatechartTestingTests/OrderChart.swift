import Statechart

/// The order chart of the README with a payment child, named actions, a delayed transition and a
/// delayed send: enough to exercise every kind of step the test store checks.
enum OrderState: String, Hashable, Sendable { case pending, confirmed, shipped, delivered, cancelled }
enum Payment: String, Hashable, Sendable { case authorizing, authorized, declined, captured }
enum OrderEvent: String, Hashable, Sendable { case confirm, authorize, decline, capture, deliver, remind, cancel }

struct Order: Sendable {
    var charges = 0
    var reminders = 0
}

let payment = Machine<Payment, OrderEvent, Order>("payment", initial: .authorizing) {
    When(.authorizing) {
        On(.authorize, to: .authorized)
        On(.decline, to: .declined)
        After(.seconds(30), to: .declined)
    }
    When(.authorized) { On(.capture, to: .captured) }
    When(.declined) {}
    Final(.captured)
}

let order = Machine<OrderState, OrderEvent, Order>("order", initial: .pending) {
    When(.pending) {
        OnExit("log exit") { _ in }
        On(.confirm, to: .confirmed)
    }
    When(.confirmed) {
        OnEntry("charge") { $0.charges += 1 }
        OnDone(to: .shipped)
    }
    When(.shipped) {
        OnEntry("notify") { $0.send(.remind, after: .seconds(60)) }
        On(.remind) { $0.reminders += 1 }
        On(.deliver, to: .delivered)
    }
    Final(.delivered)
    When(.cancelled) {}
    AnyState { On(.cancel, to: .cancelled) }
}.attaching(child: payment, to: .confirmed)
