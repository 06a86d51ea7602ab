import Statechart

/// The order example of swift-state-kit's README, extended with a payment child machine.
enum OrderState: Hashable, Sendable { case pending, confirmed, shipped, delivered, cancelled }
enum PaymentState: Hashable, Sendable { case authorizing, authorized, captured, failed }
enum OrderEvent: Hashable, Sendable { case confirm, ship, deliver, cancel, reset, authorize, capture, decline, retry }

struct OrderLog: Sendable {
    var entries: [String] = []
    var paid = false
    var attempts = 0
}

func paymentMachine(history: AttachmentHistory = .none) -> Machine<PaymentState, OrderEvent, OrderLog> {
    Machine("payment", initial: .authorizing) {
        When(.authorizing) {
            OnEntry { $0.entries.append("enter authorizing") }
            OnExit { $0.entries.append("exit authorizing") }
            On(.authorize, to: .authorized)
            On(.decline, to: .failed)
        }
        When(.authorized) {
            OnEntry { $0.entries.append("enter authorized") }
            OnExit { $0.entries.append("exit authorized") }
            On(.capture, to: .captured) { $0.paid = true }
        }
        When(.failed) {
            On(.retry, to: .authorizing, guard: { $0.attempts < 3 }) { $0.attempts += 1 }
        }
        Final(.captured) {
            OnEntry { $0.entries.append("enter captured") }
        }
    }
}

func orderMachine(history: AttachmentHistory = .none) -> Machine<OrderState, OrderEvent, OrderLog> {
    var order = Machine<OrderState, OrderEvent, OrderLog>("order", initial: .pending) {
        When(.pending) {
            OnEntry { $0.entries.append("enter pending") }
            OnExit { $0.entries.append("exit pending") }
            On(.confirm, to: .confirmed)
        }
        When(.confirmed) {
            OnEntry { $0.entries.append("enter confirmed") }
            OnExit { $0.entries.append("exit confirmed") }
            OnDone(to: .shipped)
        }
        When(.shipped) {
            On(.deliver, to: .delivered)
        }
        Final(.delivered)
        When(.cancelled) {
            OnEntry { $0.entries.append("enter cancelled") }
        }
        AnyState {
            On(.cancel, to: .cancelled)
            On(.reset, to: .pending)
        }
    }
    order.attach(child: paymentMachine(), to: .confirmed, history: history)
    return order
}
