import Testing
import Statechart

/// Handlers of failed sends: SwiftState's `addErrorHandler` (rule R62).
@Suite("Failed sends")
struct FailedSendTests {
    enum Light: Hashable, Sendable { case off, on, broken }
    enum Switch: Hashable, Sendable { case flip, smash, tap }

    static func light() -> Machine<Light, Switch, Bool> {
        Machine(initial: .off) {
            When(.off) {
                On(.flip, to: .on, guard: { powered in powered })
                On(.smash, to: .broken)
            }
            When(.on) { On(.flip, to: .off) }
            Final(.broken)
        }
    }

    @Test("R62: the handler hears unhandled events, failed guards and sends after the end, with the typed error")
    func syncHandler() throws {
        var m = try StateMachine(Self.light(), context: false)
        let heard = Recorder<String>()
        m.onFailedSend { event, error in heard.append("\(event): \(error)") }
        #expect(throws: MachineError.eventNotHandled(event: "flip", configuration: ["off"])) { try m.send(.flip) }  // guard false
        m.options.throwsOnUnhandledEvent = false
        try m.send(.tap)  // not thrown, still reported
        m.context = true
        try m.send(.flip)  // handled: nothing reported
        try m.send(.flip)
        try m.send(.smash)
        #expect(throws: MachineError.finished(finalState: "broken")) { try m.send(.flip) }
        #expect(
            heard.values == [
                "flip: \(MachineError.eventNotHandled(event: "flip", configuration: ["off"]))",
                "tap: \(MachineError.eventNotHandled(event: "tap", configuration: ["off"]))",
                "flip: \(MachineError.finished(finalState: "broken"))",
            ])
    }

    @Test("R62: a removed handler is not called")
    func removal() throws {
        var m = try StateMachine(Self.light(), context: false)
        let heard = Recorder<Switch>()
        let token = m.onFailedSend { event, _ in heard.append(event) }
        m.removeFailedSendHandler(token)
        #expect(throws: MachineError.self) { try m.send(.tap) }
        #expect(heard.values.isEmpty)
    }

    struct Refuse: TransitionMiddleware {
        func intercept(event: Switch, configuration: [String], next: @Sendable () async throws -> Void) async throws {
            if event != .smash { try await next() }
        }
    }

    @Test("R62: the asynchronous runtime reports middleware rejections and the machine's own")
    func asyncHandler() async throws {
        let m = try await AsyncStateMachine(Self.light(), context: true, clock: ManualClock())
        let heard = Recorder<String>()
        await m.onFailedSend { event, error in heard.append("\(event): \(error)") }
        await m.addMiddleware(Refuse())
        await #expect(throws: MachineError.transitionRejected(event: "smash")) { try await m.send(.smash) }
        await #expect(throws: MachineError.self) { try await m.send(.tap) }
        try await m.send(.flip)
        #expect(
            heard.values == [
                "smash: \(MachineError.transitionRejected(event: "smash"))",
                "tap: \(MachineError.eventNotHandled(event: "tap", configuration: ["off"]))",
            ])
    }
}
