import Testing
import Statechart

/// The README's example, verbatim, so the README cannot drift from the API.
@Suite("README")
struct ReadmeExampleTests {
    enum Order: Hashable, Sendable { case pending, confirmed, shipped, cancelled }
    enum Payment: Hashable, Sendable { case authorizing, authorized, captured }
    enum Event: Hashable, Sendable { case confirm, authorize, capture, cancel }

    @Test("README: a nested machine; the child handles first, unhandled events bubble (R21, R24)")
    func readmeExample() throws {
        let payment = Machine<Payment, Event, Void>(initial: .authorizing) {
            When(.authorizing) { On(.authorize, to: .authorized) }
            When(.authorized) { On(.capture, to: .captured) }
            Final(.captured)                       // finishing the child completes `confirmed`
        }

        var order = Machine<Order, Event, Void>(initial: .pending) {
            When(.pending) { On(.confirm, to: .confirmed) }
            When(.confirmed) { OnDone(to: .shipped) }
            When(.shipped) {}
            When(.cancelled) {}
            AnyState { On(.cancel, to: .cancelled) }   // from every order state
        }
        order.attach(child: payment, to: .confirmed, history: .deep)

        var machine = try StateMachine(order, context: ())
        try machine.send(.confirm)
        #expect(machine.isActive(Payment.authorizing))
        try machine.send(.authorize)
        #expect(machine.isActive(Payment.authorized))
        try machine.send(.cancel)
        #expect(machine.state == .cancelled)

        var done = try StateMachine(order, context: ())
        try done.send([.confirm, .authorize, .capture])
        #expect(done.state == .shipped)
    }
}
