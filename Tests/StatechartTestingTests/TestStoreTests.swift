import Statechart
import StatechartTesting
import Testing

@Suite("TestStore")
struct TestStoreTests {
    // MARK: - Passing tests: what a user writes

    @Test("Every step of a send is listed: exits, exit actions, entries, entry actions, by id and by typed value (R8, R21)")
    func confirm() throws {
        var store = try TestStore(order, context: Order())
        try store.send(.confirm) {
            $0.exited(.pending)
            $0.ran("log exit")
            $0.entered(.confirmed)
            $0.ran("charge")
            $0.entered("confirmed.authorizing")
        }
        #expect(store.context.charges == 1)
        try store.send(.authorize) {
            $0.exited(Payment.authorizing)
            $0.entered(Payment.authorized)
            $0.configuration(["confirmed.authorized"])
        }
    }

    @Test("A finished child raises its parent's done event, which moves the parent on; a delayed send is listed with its delay (R13, R17, R24)")
    func doneEventAndDelayedSend() throws {
        var store = try TestStore(order, context: Order())
        try store.send(.confirm) {
            $0.exited(.pending)
            $0.ran("log exit")
            $0.entered(.confirmed)
            $0.ran("charge")
            $0.entered(Payment.authorizing)
        }
        try store.send(.authorize) {
            $0.exited(Payment.authorizing)
            $0.entered(Payment.authorized)
        }
        try store.send(.capture) {
            $0.exited(Payment.authorized)
            $0.entered(Payment.captured)
            $0.raisedDone(of: .confirmed)
            $0.exited(Payment.captured)
            $0.exited(.confirmed)
            $0.entered(.shipped)
            $0.ran("notify")
            $0.sent(.remind, after: .seconds(60))
            $0.configuration([.shipped])
        }
        try store.advance(by: .seconds(59))  // nothing falls due: nothing may happen
        try store.advance(by: .seconds(1)) {
            $0.ran("action")  // the targetless On(.remind) runs its (unnamed) action
        }
        #expect(store.context.reminders == 1)
        try store.send(.deliver) {
            $0.exited(.shipped)
            $0.entered(.delivered)
            $0.halted(in: .delivered)
            $0.exited(.delivered)
            $0.configuration([.delivered])
        }
        #expect(store.machine.isFinished)
    }

    @Test("advance(by:) checks the steps of an After timer exhaustively; the timer itself is not listed (R17, R53)")
    func afterTimer() throws {
        var store = try TestStore(order, context: Order())
        try store.send(.confirm) {
            $0.exited(.pending)
            $0.ran("log exit")
            $0.entered(.confirmed)
            $0.ran("charge")
            $0.entered(Payment.authorizing)
        }
        try store.advance(by: .seconds(29))
        try store.advance(by: .seconds(1)) {
            $0.exited(Payment.authorizing)
            $0.entered(Payment.declined)
            $0.configuration([Payment.declined])
        }
    }

    @Test("The start can be checked too; reset exits the configuration and enters the initial one (R19, R20)")
    func startAndReset() throws {
        var store = try TestStore(order, context: Order()) {
            $0.entered(.pending)
            $0.configuration([.pending])
        }
        try store.send(.cancel) {
            $0.exited(.pending)
            $0.ran("log exit")
            $0.entered(.cancelled)
        }
        try store.reset {
            $0.exited(.cancelled)
            $0.entered(.pending)
        }
        #expect(store.state == .pending)
    }

    @Test("An event nothing handles causes no step; the machine's error is thrown after the check (R18)")
    func unhandledEvent() throws {
        var store = try TestStore(order, context: Order())
        #expect(throws: MachineError.eventNotHandled(event: "deliver", configuration: ["pending"])) {
            try store.send(.deliver)
        }
        #expect(store.state == .pending)
    }

    @Test("A machine that is already running is tested from where it is; what it did before is not checked")
    func wrapsRunningMachine() throws {
        var machine = try StateMachine(order, context: Order())
        try machine.send(.confirm)
        var store = TestStore(machine)
        try store.send(.cancel) {
            $0.exited(Payment.authorizing)
            $0.exited(.confirmed)
            $0.entered(.cancelled)
        }
    }

    enum Screen: Hashable, Sendable { case home, settings, about }
    enum Tap: Hashable, Sendable { case back }

    @Test("State requests are checked like events (R26)")
    func stateRequest() throws {
        let screens = Machine<Screen, Tap, Void>("screens", initial: .home) {
            When(.home) { Routes(.settings) }
            When(.settings) {
                OnEntry("load settings") { _ in }
                Routes(.home, .about)
            }
            When(.about) { On(.back, to: .settings) }
        }
        var store = try TestStore(screens, context: ())
        try store.transition(to: .settings) {
            $0.exited(.home)
            $0.entered(.settings)
            $0.ran("load settings")
        }
        try store.transition(to: Screen.about) {
            $0.exited(.settings)
            $0.entered(.about)
        }
    }

    @Test("Charts whose states and events are strings (an SCXML chart's twin) name states by id without ambiguity")
    func stringStates() throws {
        let flat = Machine<String, String, Void>(initial: "a") {
            When("a") { On("t", to: "b") { $0.raise("u") } }
            When("b") { On("u", to: "c") { $0.send("v", after: .milliseconds(1500)) } }
            When("c") {}
        }
        var store = try TestStore(flat, context: ())
        try store.send("t") {
            $0.exited("a")
            $0.ran("action")
            $0.raised("u")
            $0.entered("b")
            $0.exited("b")
            $0.ran("action")
            $0.sent("v", after: .milliseconds(1500))
            $0.entered("c")
            $0.configuration(["c"])
        }
    }

    // MARK: - Failing tests: the store must catch every difference

    @Test("An exit the test did not state is an issue at the line of the send, with both traces side by side")
    func catchesUnexpectedExit() throws {
        var store = try TestStore(order, context: Order())
        let line = #line + 2
        try withKnownIssue {
            try store.send(.confirm) {
                $0.ran("log exit")
                $0.entered(.confirmed)
                $0.ran("charge")
                $0.entered(Payment.authorizing)
            }
        } matching: { issue in
            let text = issue.comments.map(\.rawValue).joined()
            return issue.sourceLocation?.line == line
                && issue.sourceLocation?.fileID.hasSuffix("TestStoreTests.swift") == true
                && text.contains("send(confirm): the trace differs")
                && text.contains("expected") && text.contains("| actual")
                && text.split(separator: "\n").contains { $0.hasPrefix("+") && $0.hasSuffix("| exit pending") }
                && text.contains("$0.exited(\"pending\")")
        }
        // The machine still moved: the store checks, it does not undo.
        #expect(store.state == .confirmed)
    }

    @Test("A step the test stated that did not happen is an issue")
    func catchesMissingStep() throws {
        var store = try TestStore(order, context: Order())
        try withKnownIssue {
            try store.send(.cancel) {
                $0.exited(.pending)
                $0.ran("log exit")
                $0.ran("refund")  // never runs
                $0.entered(.cancelled)
            }
        } matching: { issue in
            issue.comments.map(\.rawValue).joined().contains("- action refund")
        }
    }

    @Test("Steps in another order are an issue")
    func catchesWrongOrder() throws {
        var store = try TestStore(order, context: Order())
        try withKnownIssue {
            try store.send(.cancel) {
                $0.ran("log exit")  // exit actions run after the exit step (R8)
                $0.exited(.pending)
                $0.entered(.cancelled)
            }
        } matching: { issue in
            issue.comments.map(\.rawValue).joined().contains("send(cancel): the trace differs")
        }
    }

    @Test("A send without a closure must cause no step at all; so must an advance")
    func catchesStepsOfAnUncheckedSend() throws {
        var store = try TestStore(order, context: Order())
        try withKnownIssue {
            try store.send(.cancel)
        } matching: { issue in
            issue.comments.map(\.rawValue).joined().contains("enter cancelled")
        }
        var timed = try TestStore(order, context: Order())
        try timed.send(.confirm) {
            $0.exited(.pending)
            $0.ran("log exit")
            $0.entered(.confirmed)
            $0.ran("charge")
            $0.entered(Payment.authorizing)
        }
        try withKnownIssue {
            try timed.advance(by: .seconds(30))
        } matching: { issue in
            issue.comments.map(\.rawValue).joined().contains("advance(by: 30.0 seconds)")
        }
    }

    @Test("Raised and sent events are checked exhaustively, their delays included")
    func catchesWrongDelay() throws {
        var store = try TestStore(order, context: Order())
        try store.send(.confirm) {
            $0.exited(.pending)
            $0.ran("log exit")
            $0.entered(.confirmed)
            $0.ran("charge")
            $0.entered(Payment.authorizing)
        }
        try store.send(.authorize) {
            $0.exited(Payment.authorizing)
            $0.entered(Payment.authorized)
        }
        try withKnownIssue {
            try store.send(.capture) {
                $0.exited(Payment.authorized)
                $0.entered(Payment.captured)
                // the done event is not listed
                $0.exited(Payment.captured)
                $0.exited(.confirmed)
                $0.entered(.shipped)
                $0.ran("notify")
                $0.sent(.remind, after: .seconds(30))  // it is 60 s
            }
        } matching: { issue in
            let text = issue.comments.map(\.rawValue).joined()
            return text.contains("raise done.state.confirmed") && text.contains("≠ send remind after 30.0 seconds")
        }
    }

    @Test("A configuration the test stated that is not the machine's is an issue")
    func catchesWrongConfiguration() throws {
        var store = try TestStore(order, context: Order())
        try withKnownIssue {
            try store.send(.cancel) {
                $0.exited(.pending)
                $0.ran("log exit")
                $0.entered(.cancelled)
                $0.configuration([.shipped])
            }
        } matching: { issue in
            let text = issue.comments.map(\.rawValue).joined()
            return text.contains("configuration differs") && text.contains("expected: [shipped]")
                && text.contains("actual:   [cancelled]")
        }
    }

    @Test("A name that is not a state of the chart is an issue of its own")
    func catchesUnknownState() throws {
        var store = try TestStore(order, context: Order())
        try withKnownIssue {
            try store.send(.cancel) {
                $0.exited("pendng")
                $0.ran("log exit")
                $0.entered(.cancelled)
            }
        } matching: { issue in
            let text = issue.comments.map(\.rawValue).joined()
            return text.contains("'pendng' is not a state id of the chart") || text.contains("exit pendng")
        }
    }

    @Test("A checked start fails like an operation")
    func catchesWrongStart() throws {
        try withKnownIssue {
            _ = try TestStore(order, context: Order()) {
                $0.entered(.confirmed)
            }
        } matching: { issue in
            issue.comments.map(\.rawValue).joined().contains("start: the trace differs")
        }
    }
}
