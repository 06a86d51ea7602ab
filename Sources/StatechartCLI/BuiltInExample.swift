import Statechart
import StatechartInterchange

/// The example `statechart` runs without arguments: swift-state-kit's order machine, with a
/// payment child machine attached to `confirmed` — the statechart way.
enum ExampleOrder: Hashable, Sendable { case pending, confirmed, shipped, delivered, cancelled }
enum ExamplePayment: Hashable, Sendable { case authorizing, authorized, declined, captured }
enum ExampleEvent: Hashable, Sendable { case confirm, authorize, decline, retry, capture, ship, deliver, cancel }

/// The order's extended state.
struct ExampleOrderData: Sendable {
    var attempts = 0
}

/// The order chart with its payment child (deep history, so a payment resumes where it was).
func exampleOrderMachine() -> Machine<ExampleOrder, ExampleEvent, ExampleOrderData> {
    let payment = Machine<ExamplePayment, ExampleEvent, ExampleOrderData>("payment", initial: .authorizing) {
        When(.authorizing) {
            On(.authorize, to: .authorized)
            On(.decline, to: .declined) { $0.attempts += 1 }
        }
        When(.declined) {
            On(.retry, to: .authorizing, guard: { $0.attempts < 3 })
        }
        When(.authorized) {
            On(.capture, to: .captured)
        }
        Final(.captured)
    }
    var order = Machine<ExampleOrder, ExampleEvent, ExampleOrderData>("order", initial: .pending) {
        When(.pending) { On(.confirm, to: .confirmed) }
        When(.confirmed) { OnDone(to: .shipped) }
        When(.shipped) { On(.deliver, to: .delivered) }
        Final(.delivered)
        Final(.cancelled)
        AnyState { On(.cancel, to: .cancelled) }
    }
    order.attach(child: payment, to: .confirmed, history: .deep)
    return order
}

/// Runs the example shown when `statechart` is called without arguments: each event, the
/// configuration after it, and the trace of what the interpreter did.
func runBuiltInExample() -> Int32 {
    print("Statechart built-in example: an order with a payment child machine attached to `confirmed`.")
    print("(`statechart help` lists the commands.)\n")
    var options = StateMachine<ExampleOrder, ExampleEvent, ExampleOrderData>.Options()
    options.tracing = true
    do {
        var machine = try StateMachine(exampleOrderMachine(), context: ExampleOrderData(), options: options)
        print("start → [\(machine.activeStateIDs.joined(separator: ", "))]")
        for line in TraceLines.lines(machine.trace) { print("    " + line) }
        let events: [ExampleEvent] = [.confirm, .decline, .retry, .authorize, .capture, .deliver]
        for event in events {
            machine.clearTrace()
            try machine.send(event)
            print("\(event) → [\(machine.activeStateIDs.joined(separator: ", "))]")
            for line in TraceLines.lines(machine.trace) { print("    " + line) }
        }
        print("\nThe payment child handled decline, retry, authorize and capture; reaching its final state")
        print("raised done.state.confirmed, which moved the order to shipped. Finished: \(machine.isFinished).")
        return 0
    } catch {
        printError("statechart: \(error)")
        return 1
    }
}
