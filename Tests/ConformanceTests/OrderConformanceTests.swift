import Foundation
import Statechart
import Testing

// swift-state-kit (philiprehberger) — the order example of its README (seed 004), written with the
// public API of Statechart only. Where swift-state-kit behaves differently on purpose (the flaws of
// /work/shared/notes/seed-behaviours.md), the test asserts Statechart's behaviour and names the rule.

@Suite("Conformance: swift-state-kit README (order)")
struct OrderConformanceTests {
    enum OrderState: String, Hashable, Sendable, Codable {
        case pending, onHold, confirmed, shipped, delivered, returned, cancelled
    }
    enum OrderEvent: String, Hashable, Sendable, Codable, CaseIterable {
        case confirm, ship, deliver, reset, cancel, authorize, decline, capture, retry
    }
    enum Payment: String, Hashable, Sendable, Codable { case authorizing, authorized, declined, captured }

    struct Order: Hashable, Sendable, Codable {
        var isPaid = true
        var cardIsValid = true
        var trail: [String] = []
    }

    typealias OrderMachine = StateMachine<OrderState, OrderEvent, Order>

    /// The README's transitions, with its wildcard reset, a guard with a fallback, and its
    /// `onExit(.pending)` / `onEnter(.shipped)` actions.
    static func orderMachine() -> Machine<OrderState, OrderEvent, Order> {
        Machine("order", initial: .pending) {
            // Wildcards declared first: they are still tried after the specific transitions (R25).
            Transition(fromAny: .reset, to: .pending)  // works from any state
            Transition(fromAny: .cancel, to: .cancelled)
            Transition(from: .pending, on: .confirm, to: .confirmed, guard: { $0.isPaid }) {
                $0.trail.append("sendConfirmationEmail")  // the side effect
            }
            Transition(from: .pending, on: .confirm, to: .onHold) { $0.trail.append("holdOrder") }  // guard: { true }
            Transition(from: .onHold, on: .confirm, to: .confirmed, guard: { $0.isPaid })
            Transition(from: .confirmed, on: .ship, to: .shipped)
            Transition(from: .shipped, on: .deliver, to: .delivered)
            Transition(from: .delivered, on: .cancel, to: .returned)  // beats the wildcard cancel
            When(.pending) { OnExit { $0.trail.append("logOrderStart") } }  // machine.onExit(.pending)
            When(.shipped) { OnEntry { $0.trail.append("sendTrackingNotification") } }  // machine.onEnter(.shipped)
            // States only ever reached are declared too, so validate() can tell them from a typo (R65).
            When(.cancelled)
            When(.returned)
        }
    }

    static func historyOptions(_ depth: Int?) -> OrderMachine.Options {
        var options = OrderMachine.Options()
        options.historyDepth = depth
        return options
    }

    // MARK: - Transitions

    @Test("swift-state-kit README: pending → confirmed → shipped → delivered on the async machine (R1, R50)")
    func orderFlow() async throws {
        let machine = try await AsyncStateMachine(Self.orderMachine(), context: Order(), clock: ManualClock())
        #expect(await machine.state == .pending)
        try await machine.send(.confirm)
        #expect(await machine.state == .confirmed)  // let state = try await machine.send(.confirm) // => .confirmed
        try await machine.send(.ship)
        #expect(await machine.state == .shipped)
        try await machine.send(.deliver)
        #expect(await machine.state == .delivered)
        #expect(
            await machine.context.trail == ["logOrderStart", "sendConfirmationEmail", "sendTrackingNotification"])
    }

    @Test("swift-state-kit README: an event with no transition from the state is refused and changes nothing (R18)")
    func invalidTransition() throws {
        var machine = try OrderMachine(Self.orderMachine(), context: Order())
        #expect(throws: MachineError.eventNotHandled(event: "ship", configuration: ["pending"])) {
            try machine.send(.ship)  // swift-state-kit's invalidTransition
        }
        #expect(machine.state == .pending)
        #expect(machine.context.trail.isEmpty)
    }

    @Test("swift-state-kit README: send([events]) stops at the first refused event; the earlier ones stay (R1, R18)")
    func batchSend() throws {
        var machine = try OrderMachine(Self.orderMachine(), context: Order())
        #expect(throws: MachineError.eventNotHandled(event: "deliver", configuration: ["confirmed"])) {
            try machine.send([.confirm, .deliver, .ship])
        }
        #expect(machine.state == .confirmed)
    }

    @Test("swift-state-kit README: the wildcard reset works from any state; from pending it exits and re-enters (R25, R31)")
    func wildcardReset() throws {
        for path: [OrderEvent] in [[], [.confirm], [.confirm, .ship], [.confirm, .ship, .deliver], [.cancel]] {
            var machine = try OrderMachine(Self.orderMachine(), context: Order())
            try machine.send(path)
            try machine.send(.reset)
            #expect(machine.state == .pending, "reset after \(path)")
        }
        var machine = try OrderMachine(Self.orderMachine(), context: Order())
        try machine.send(.reset)  // a self-loop on pending
        #expect(machine.context.trail == ["logOrderStart"])
    }

    @Test("swift-state-kit README: specific transitions are checked before wildcards, whatever the declaration order (R25)")
    func specificBeforeWildcard() throws {
        var machine = try OrderMachine(Self.orderMachine(), context: Order())
        try machine.send([.confirm, .ship, .deliver, .cancel])
        #expect(machine.state == .returned)  // Transition(from: .delivered, on: .cancel, …), not the wildcard
        try machine.send([.reset, .confirm, .ship, .cancel])
        #expect(machine.state == .cancelled)  // shipped has no cancel of its own: the wildcard
    }

    // MARK: - Guards

    @Test("swift-state-kit README: guards are evaluated in order; a failing guard falls through to the next match (R25)")
    func orderedGuards() throws {
        var machine = try OrderMachine(Self.orderMachine(), context: Order(isPaid: true))
        try machine.send(.confirm)
        #expect(machine.state == .confirmed)
        #expect(machine.context.trail == ["logOrderStart", "sendConfirmationEmail"])

        var unpaid = try OrderMachine(Self.orderMachine(), context: Order(isPaid: false))
        try unpaid.send(.confirm)  // the first guard fails: the fallback is taken
        #expect(unpaid.state == .onHold)
        #expect(unpaid.context.trail == ["logOrderStart", "holdOrder"])
    }

    @Test("swift-state-kit README: when no guard holds the event is refused and nothing changes (R18, R25)")
    func noGuardHolds() throws {
        var machine = try OrderMachine(Self.orderMachine(), context: Order(isPaid: false))
        try machine.send(.confirm)
        #expect(throws: MachineError.eventNotHandled(event: "confirm", configuration: ["onHold"])) {
            try machine.send(.confirm)  // onHold's only confirm is guarded by isPaid
        }
        #expect(machine.state == .onHold)
        machine.context.isPaid = true
        try machine.send(.confirm)
        #expect(machine.state == .confirmed)
    }

    enum Loading: Hashable, Sendable { case idle, loading, loaded, error }
    enum LoadEvent: Hashable, Sendable { case start, succeed, reset }

    actor Network {
        var isAvailable = true
        var checks = 0
        func check() -> Bool {
            checks += 1
            return isAvailable
        }
        func set(available: Bool) { isAvailable = available }
    }

    /// The README's guard and timeout examples: `Transition(from: .idle, on: .start, to: .loading,
    /// guard: { await isNetworkAvailable() })` with a `{ true }` fallback to `.error`, and
    /// `TimeoutTransition(from: .loading, after: .seconds(30), on: .timeout, to: .error)`.
    static func loader(network: Network) -> Machine<Loading, LoadEvent, Void> {
        Machine("loader", initial: .idle) {
            Transition(from: .idle, on: .start, to: .loading, asyncGuard: { _ in await network.check() })
            Transition(from: .idle, on: .start, to: .error, guard: { _ in true })  // fallback
            Transition(from: .loading, on: .succeed, to: .loaded)
            Transition(fromAny: .reset, to: .idle)
            When(.loading) { After(.seconds(30), to: .error) }
        }
    }

    @Test("swift-state-kit README: an async guard is awaited in order; when it fails the { true } fallback wins (R25, R58)")
    func asyncGuards() async throws {
        let network = Network()
        let machine = try await AsyncStateMachine(Self.loader(network: network), context: (), clock: ManualClock())
        try await machine.send(.start)
        #expect(await machine.state == .loading)
        try await machine.send(.reset)
        await network.set(available: false)
        try await machine.send(.start)
        #expect(await machine.state == .error)
        #expect(await network.checks == 2)
    }

    // MARK: - Entry and exit actions

    @Test("swift-state-kit README: exit actions run before the state changes, entry actions after; the side effect in between (R8)")
    func entryAndExitOrder() throws {
        var machine = try OrderMachine(Self.orderMachine(), context: Order())
        var seen: [String] = []
        machine.observe { change in seen.append("\(change.fromState.map { "\($0)" } ?? "-") → \(change.toState)") }
        try machine.send([.confirm, .ship])
        // swift-state-kit runs the side effect first, then the exit actions; Statechart exits first (R8).
        #expect(machine.context.trail == ["logOrderStart", "sendConfirmationEmail", "sendTrackingNotification"])
        #expect(seen == ["pending → confirmed", "confirmed → shipped"])  // onTransition, after the actions (R30)
    }

    // MARK: - Timeouts

    @Test("swift-state-kit README: a timeout moves loading to error after 30 s of the injected clock (R53, R54)")
    func timeoutFires() async throws {
        let clock = ManualClock()
        let machine = try await AsyncStateMachine(Self.loader(network: Network()), context: (), clock: clock)
        try await machine.send(.start)
        await clock.advance(by: .seconds(29))
        #expect(await machine.state == .loading)
        await clock.advance(by: .seconds(1))
        #expect(await machine.state == .error)
        #expect(await machine.now == .seconds(30))
    }

    @Test("swift-state-kit README: timeouts auto-cancel when the state changes before the duration expires (R53)")
    func timeoutCancelled() async throws {
        let clock = ManualClock()
        let machine = try await AsyncStateMachine(Self.loader(network: Network()), context: (), clock: clock)
        try await machine.send(.start)
        await clock.advance(by: .seconds(10))
        try await machine.send(.succeed)
        await clock.advance(by: .seconds(60))
        #expect(await machine.state == .loaded)
    }

    @Test("swift-state-kit: leaving and re-entering loading restarts the timeout, an old timer never fires early (R53)")
    func timeoutNeverEarly() async throws {
        let clock = ManualClock()
        let machine = try await AsyncStateMachine(Self.loader(network: Network()), context: (), clock: clock)
        try await machine.send(.start)
        await clock.advance(by: .seconds(20))
        try await machine.send(.reset)
        try await machine.send(.start)  // entered again at t = 20 s
        await clock.advance(by: .seconds(29))  // t = 49 s: the first timer would have fired at 30 s
        #expect(await machine.state == .loading)
        await clock.advance(by: .seconds(1))  // t = 50 s
        #expect(await machine.state == .error)
    }

    // MARK: - Snapshots

    @Test("swift-state-kit README: snapshot() → JSONEncoder → JSONDecoder → restore(from:) brings the order back, running nothing (R40)")
    func snapshotJSONRoundTrip() throws {
        var machine = try OrderMachine(Self.orderWithPayment(), context: Order())
        try machine.send([.confirm, .authorize])
        let data = try JSONEncoder().encode(machine.snapshot())  // let data = try JSONEncoder().encode(snapshot)
        let decoded = try JSONDecoder().decode(ChartSnapshot<OrderEvent, Order>.self, from: data)

        var restored = try OrderMachine(Self.orderWithPayment(), context: Order())
        try restored.restore(from: decoded)  // try await machine.restore(from: decoded)
        #expect(restored.state == .confirmed)
        #expect(restored.activeStateIDs == ["confirmed.authorized"])  // the child's state came along
        #expect(restored.context == machine.context)  // no entry or exit action ran
        #expect(restored.snapshot() == machine.snapshot())

        // From then on both answer every event alike.
        try machine.send(.capture)
        try restored.send(.capture)
        #expect(restored.state == .shipped)
        #expect(restored.snapshot() == machine.snapshot())
    }

    @Test("swift-state-kit README: a snapshot restores into a new machine; a snapshot of another chart is refused (R40)")
    func snapshotIntoNewMachine() throws {
        var machine = try OrderMachine(Self.orderMachine(), context: Order())
        try machine.send([.confirm, .ship])
        let data = try JSONEncoder().encode(machine.snapshot())
        let decoded = try JSONDecoder().decode(ChartSnapshot<OrderEvent, Order>.self, from: data)
        let restored = try OrderMachine(Self.orderMachine(), restoring: decoded)
        #expect(restored.state == .shipped)
        #expect(restored.context.trail == machine.context.trail)

        var other = try OrderMachine(Self.orderWithPayment(), context: Order())
        let error = #expect(throws: MachineError.self) { try other.restore(from: decoded) }
        if case .invalidSnapshot = error {} else { Issue.record("expected invalidSnapshot, got \(String(describing: error))") }
        #expect(other.state == .pending)  // a failed restore changes nothing
    }

    // MARK: - History and undo

    @Test("swift-state-kit README: historyDepth 0 keeps every transition; undo() returns to confirmed (R41)")
    func historyAndUndo() throws {
        var machine = try OrderMachine(Self.orderMachine(), context: Order(), options: Self.historyOptions(0))
        try machine.send(.confirm)
        try machine.send(.ship)
        let history = machine.history.map { "\($0.fromState.map { "\($0)" } ?? "-")→\($0.toState)" }
        #expect(history == ["pending→confirmed", "confirmed→shipped"])  // [pending→confirmed, confirmed→shipped]
        #expect(machine.canUndo)
        let restored = machine.undo()  // let restored = try await machine.undo() // => .confirmed
        #expect(restored == .confirmed)
        #expect(machine.state == .confirmed)
        #expect(machine.context.trail == ["logOrderStart", "sendConfirmationEmail"])  // ship's entry action undone
        #expect(machine.history.count == 1)
    }

    @Test("swift-state-kit README: historyDepth nil disables history, N keeps the last N; reset() clears it (R19, R41)")
    func historyDepths() throws {
        var disabled = try OrderMachine(Self.orderMachine(), context: Order(), options: Self.historyOptions(nil))
        try disabled.send([.confirm, .ship])
        #expect(disabled.history.isEmpty)
        #expect(!disabled.canUndo)
        #expect(disabled.undo() == nil)
        #expect(disabled.state == .shipped)

        var bounded = try OrderMachine(Self.orderMachine(), context: Order(), options: Self.historyOptions(1))
        try bounded.send([.confirm, .ship, .deliver])
        #expect(bounded.history.map(\.event) == [.deliver])
        #expect(bounded.undo() == .shipped)
        #expect(bounded.undo() == nil)

        try bounded.send(.deliver)
        try bounded.reset()  // reset to the initial state, clearing history
        #expect(bounded.state == .pending)
        #expect(!bounded.canUndo)
    }

    @Test("swift-state-kit: undo puts the payment child back in step with its parent (R41)")
    func undoKeepsChildInStep() throws {
        var machine = try OrderMachine(Self.orderWithPayment(), context: Order(), options: Self.historyOptions(0))
        try machine.send([.confirm, .authorize, .cancel])
        #expect(machine.state == .cancelled)
        #expect(machine.undo() == .confirmed)
        #expect(machine.activeStateIDs == ["confirmed.authorized"])  // swift-state-kit left the child out of step
        try machine.send(.capture)
        #expect(machine.state == .shipped)
    }

    @Test("swift-state-kit: restore(from:) clears the undo history (R40, R41)")
    func restoreClearsHistory() throws {
        var machine = try OrderMachine(Self.orderMachine(), context: Order(), options: Self.historyOptions(0))
        let start = machine.snapshot()
        try machine.send([.confirm, .ship])
        try machine.restore(from: start)
        #expect(machine.state == .pending)
        #expect(machine.history.isEmpty && !machine.canUndo)
    }

    // MARK: - Middleware

    actor Log {
        var lines: [String] = []
        func append(_ line: String) { lines.append(line) }
    }

    struct Recorder: TransitionMiddleware {
        let name: String
        let log: Log
        func intercept(event: OrderEvent, configuration: [String], next: @Sendable () async throws -> Void) async throws {
            await log.append("\(name) before \(event) in \(configuration)")
            try await next()
            await log.append("\(name) after \(event)")
        }
    }

    enum AuthError: Error { case denied }

    struct AuthMiddleware: TransitionMiddleware {
        let isAuthorized: @Sendable () async -> Bool
        func intercept(event: OrderEvent, configuration: [String], next: @Sendable () async throws -> Void) async throws {
            guard await isAuthorized() else { throw AuthError.denied }
            try await next()
        }
    }

    struct Swallower: TransitionMiddleware {
        func intercept(event: OrderEvent, configuration: [String], next: @Sendable () async throws -> Void) async throws {}
    }

    @Test("swift-state-kit README: middleware runs in order, the first added outermost; each calls next() to proceed (R55)")
    func middlewareOrder() async throws {
        let log = Log()
        let machine = try await AsyncStateMachine(Self.orderMachine(), context: Order(), clock: ManualClock())
        await machine.addMiddleware(Recorder(name: "first", log: log))
        await machine.addMiddleware(Recorder(name: "second", log: log))
        try await machine.send(.confirm)
        #expect(
            await log.lines == [
                "first before confirm in [\"pending\"]", "second before confirm in [\"pending\"]",
                "second after confirm", "first after confirm",
            ])
        #expect(await machine.state == .confirmed)
    }

    @Test("swift-state-kit README: a middleware that throws rejects the transition; nothing runs, nothing changes (R55)")
    func middlewareRejects() async throws {
        let machine = try await AsyncStateMachine(Self.orderMachine(), context: Order(), clock: ManualClock())
        await machine.addMiddleware(AuthMiddleware(isAuthorized: { false }))
        await #expect(throws: MachineError.transitionRejected(event: "confirm: denied")) {
            try await machine.send(.confirm)
        }
        #expect(await machine.state == .pending)
        #expect(await machine.context.trail.isEmpty)  // no exit action, no side effect
    }

    @Test("swift-state-kit: a middleware that never calls next() rejects the event; the transition does not commit (R55)")
    func middlewareWithoutNext() async throws {
        let machine = try await AsyncStateMachine(Self.orderMachine(), context: Order(), clock: ManualClock())
        await machine.addMiddleware(Swallower())
        await #expect(throws: MachineError.transitionRejected(event: "confirm")) { try await machine.send(.confirm) }
        #expect(await machine.state == .pending)  // swift-state-kit committed it, skipping only the side effect
        #expect(await machine.context.trail.isEmpty)
    }

    // MARK: - Valid events

    @Test("swift-state-kit README: canSend and validEvents in the current state, guards evaluated, nothing changed (R59)")
    func validEvents() throws {
        var machine = try OrderMachine(Self.orderMachine(), context: Order(isPaid: false))
        #expect(machine.validEvents == [.confirm, .reset, .cancel])
        #expect(machine.canSend(.confirm))  // the fallback to onHold counts
        #expect(!machine.canSend(.ship))
        try machine.send(.confirm)
        #expect(machine.state == .onHold)
        #expect(!machine.canSend(.confirm))  // its only confirm is guarded by isPaid
        #expect(machine.validEvents == [.reset, .cancel])
        machine.context.isPaid = true
        #expect(machine.canSend(.confirm))
        #expect(machine.state == .onHold)  // asking changed nothing
        #expect(machine.context.trail == ["logOrderStart", "holdOrder"])
    }

    // MARK: - The statechart way: a payment child machine attached to `confirmed`

    /// swift-state-kit's `attach(child:to:)` only resets the child when the parent is entered or
    /// left. Here the payment machine really lives inside `confirmed` (R21).
    static func orderWithPayment(authorizesWithWork: Bool = false) -> Machine<OrderState, OrderEvent, Order> {
        let payment = Machine<Payment, OrderEvent, Order>("payment", initial: .authorizing) {
            When(.authorizing) {
                OnEntry { $0.trail.append("enter authorizing") }
                OnExit { $0.trail.append("exit authorizing") }
                if authorizesWithWork {
                    Work("authorize") { order in order.cardIsValid ? .authorize : .decline }
                }
                On(.authorize, to: .authorized)
                On(.decline, to: .declined)
            }
            When(.authorized) {
                On(.capture, to: .captured) { $0.isPaid = true }
            }
            When(.declined) {
                On(.retry, to: .authorizing)
            }
            Final(.captured)
        }
        return Machine<OrderState, OrderEvent, Order>("order", initial: .pending) {
            Transition(from: .pending, on: .confirm, to: .confirmed)
            When(.confirmed) {
                OnEntry { $0.trail.append("enter confirmed") }
                OnExit { $0.trail.append("exit confirmed") }
                OnDone(to: .shipped)  // the payment child reached its final state
                On(.decline, to: .cancelled)  // a decline the child does not handle
            }
            Transition(from: .shipped, on: .deliver, to: .delivered)
            Transition(fromAny: .cancel, to: .cancelled)
            Transition(fromAny: .reset, to: .pending)
            When(.delivered)  // declared, not only a target (R65)
            When(.cancelled)
        }.attaching(child: payment, to: .confirmed)
    }

    @Test("swift-state-kit + statechart: the payment child is entered with confirmed, after its entry action, and not before (R10, R21)")
    func childEnteredWithParent() throws {
        var machine = try OrderMachine(Self.orderWithPayment(), context: Order())
        #expect(throws: MachineError.eventNotHandled(event: "authorize", configuration: ["pending"])) {
            try machine.send(.authorize)  // swift-state-kit could drive the child while the parent was elsewhere
        }
        try machine.send(.confirm)
        #expect(machine.activeStateIDs == ["confirmed.authorizing"])
        #expect(machine.isActive(Payment.authorizing))
        #expect(machine.context.trail == ["enter confirmed", "enter authorizing"])
    }

    @Test("swift-state-kit + statechart: a cancel sent while the payment is active bubbles to the order; the child exits first (R4, R8, R21)")
    func cancelBubbles() throws {
        var machine = try OrderMachine(Self.orderWithPayment(), context: Order())
        try machine.send(.confirm)
        machine.context.trail.removeAll()
        try machine.send(.cancel)  // the payment has no cancel: the order's wildcard takes it
        #expect(machine.state == .cancelled)
        #expect(!machine.isActive(Payment.authorizing))
        #expect(machine.context.trail == ["exit authorizing", "exit confirmed"])
    }

    @Test("swift-state-kit + statechart: the child sees each event first; what it does not handle goes to its parent state (R4, R25)")
    func childFirst() throws {
        var machine = try OrderMachine(Self.orderWithPayment(), context: Order())
        try machine.send([.confirm, .decline])
        #expect(machine.activeStateIDs == ["confirmed.declined"])  // the child handled the first decline
        #expect(machine.validEvents == [.reset, .cancel, .decline, .retry])  // the parent's events count too (R59)
        try machine.send(.decline)  // declined has no decline: confirmed's own transition
        #expect(machine.state == .cancelled)
    }

    @Test("swift-state-kit + statechart: when the payment completes, the done event moves the order on (R13, R24)")
    func doneEventShips() throws {
        var machine = try OrderMachine(Self.orderWithPayment(), context: Order(isPaid: false))
        try machine.send([.confirm, .authorize])
        #expect(machine.state == .confirmed)
        try machine.send(.capture)  // the child reaches its final state
        #expect(machine.state == .shipped)
        #expect(machine.context.isPaid)
        try machine.send(.deliver)
        #expect(machine.state == .delivered)
    }

    @Test(
        "swift-state-kit + statechart: authorization as Work in the child; its result drives the child, whose done event ships the order (R24, R52)",
        .timeLimit(.minutes(10)))
    func paymentWork() async throws {
        let machine = try await AsyncStateMachine(
            Self.orderWithPayment(authorizesWithWork: true), context: Order(), clock: ManualClock())
        try await machine.send(.confirm)
        await machine.waitFor(Payment.authorized)
        try await machine.send(.capture)
        #expect(await machine.state == .shipped)

        let declined = try await AsyncStateMachine(
            Self.orderWithPayment(authorizesWithWork: true), context: Order(cardIsValid: false), clock: ManualClock())
        try await declined.send(.confirm)
        await declined.waitFor(Payment.declined)
        try await declined.send(.decline)  // the child does not handle it: the order is cancelled
        #expect(await declined.state == .cancelled)
    }

    // MARK: - Streams

    @Test("swift-state-kit README: state and transition streams (stateStream, transitionStream) (R56)")
    func streams() async throws {
        let machine = try await AsyncStateMachine(Self.orderMachine(), context: Order(), clock: ManualClock())
        var states = await machine.configurations().makeAsyncIterator()
        var transitions = await machine.transitions().makeAsyncIterator()
        #expect(await states.next() == ["pending"])
        try await machine.send(.confirm)
        try await machine.send(.ship)
        #expect(await states.next() == ["confirmed"])
        #expect(await states.next() == ["shipped"])
        let first = await transitions.next()
        #expect(first?.fromState == .pending && first?.event == .confirm && first?.toState == .confirmed)
        let second = await transitions.next()
        #expect(second?.fromState == .confirmed && second?.event == .ship && second?.toState == .shipped)
    }
}
