import Statechart
import StatechartTesting
import Testing

/// The order example with its payment child checked exhaustively with StatechartTesting's
/// `TestStore`: the child is entered with `confirmed`, handles its own events, and its final state
/// raises the done event that ships the order.
@Suite("Conformance: swift-state-kit README (order with payment), step by step")
struct OrderTestStoreTests {
    typealias Example = OrderConformanceTests

    @Test("TestStore: confirm enters the payment child; authorize and capture run in it; its done event ships the order (R8, R13, R24)")
    func orderWithPayment() throws {
        var store = try TestStore(Example.orderWithPayment(), context: Example.Order()) {
            $0.entered(.pending)
        }
        try store.send(.confirm) {
            $0.exited(.pending)
            $0.entered(.confirmed)
            $0.ran("action")  // enter confirmed
            $0.entered(Example.Payment.authorizing)  // the child starts with its parent (R10)
            $0.ran("action")  // enter authorizing
        } context: {
            $0.trail = ["enter confirmed", "enter authorizing"]  // an Equatable context is checked too (R78)
        }
        try store.send(.authorize) {  // handled by the child, innermost first (R4)
            $0.exited(Example.Payment.authorizing)
            $0.ran("action")  // exit authorizing
            $0.entered(Example.Payment.authorized)
        } context: {
            $0.trail.append("exit authorizing")
        }
        try store.send(.capture) {
            $0.exited(Example.Payment.authorized)
            $0.ran("action")  // isPaid = true
            $0.entered(Example.Payment.captured)
            $0.raisedDone(of: Example.OrderState.confirmed)  // the child reached its final state (R13)
            $0.exited(Example.Payment.captured)
            $0.exited(.confirmed)
            $0.ran("action")  // exit confirmed
            $0.entered(.shipped)
            $0.configuration([.shipped])
        } context: {
            $0.trail.append("exit confirmed")
        }
    }
}
