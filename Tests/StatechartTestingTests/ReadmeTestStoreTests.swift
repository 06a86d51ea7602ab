import Statechart
import StatechartTesting
import Testing

/// The README's TestStore example, verbatim (with the README's order machine), so the README
/// cannot drift from the API.
@Suite("README: TestStore")
struct ReadmeTestStoreTests {
    enum Order: Hashable, Sendable { case pending, confirmed, shipped, cancelled }
    enum Payment: Hashable, Sendable { case authorizing, authorized, captured }
    enum Event: Hashable, Sendable { case confirm, authorize, capture, cancel }

    static var order: Machine<Order, Event, Void> {
        let payment = Machine<Payment, Event, Void>(initial: .authorizing) {
            When(.authorizing) { On(.authorize, to: .authorized) }
            When(.authorized) { On(.capture, to: .captured) }
            Final(.captured)
        }
        var order = Machine<Order, Event, Void>(initial: .pending) {
            When(.pending) { On(.confirm, to: .confirmed) }
            When(.confirmed) { OnDone(to: .shipped) }
            When(.shipped) {}
            When(.cancelled) {}
            AnyState { On(.cancel, to: .cancelled) }
        }
        order.attach(child: payment, to: .confirmed, history: .deep)
        return order
    }

    @Test("README: every exit, entry and event of each send is stated; anything else fails the test (R13, R21)")
    func orderShipsOnceThePaymentIsCaptured() throws {
        let order = Self.order
        // The README's example starts here.
        var store = try TestStore(order, context: ())
        try store.send(.confirm) {
            $0.exited(Order.pending)
            $0.entered(Order.confirmed)
            $0.entered(Payment.authorizing)     // the child starts with its parent
        }
        try store.send(.authorize) {
            $0.exited(Payment.authorizing)
            $0.entered(Payment.authorized)
        }
        try store.send(.capture) {
            $0.exited(Payment.authorized)
            $0.entered(Payment.captured)
            $0.raisedDone(of: Order.confirmed)  // the child finished: its parent is done
            $0.exited(Payment.captured)
            $0.exited(Order.confirmed)
            $0.entered(Order.shipped)
        }
    }
}
