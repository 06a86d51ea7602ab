import Statechart
import Testing

/// Every operation on a machine that reached a top-level final state (rule R68).
@Suite("After the end")
struct AfterTheEndTests {
    enum S: Hashable, Sendable { case idle, busy, away, done }
    enum E: Hashable, Sendable { case start, finish }

    static func finished(historyDepth: Int? = nil) throws -> StateMachine<S, E, Int> {
        let m = Machine<S, E, Int>(initial: .idle) {
            When(.idle) {
                On(.start, to: .busy)
                Routes(.busy)
                DynamicTransition { _ in .busy }
            }
            When(.busy) { On(.finish, to: .done) }
            When(.away) {}
            Final(.done)
        }
        var options = StateMachine<S, E, Int>.Options()
        options.historyDepth = historyDepth
        var machine = try StateMachine(m, context: 0, options: options)
        try machine.send(.start)
        try machine.send(.finish)
        #expect(machine.isFinished)
        return machine
    }

    static let end = MachineError.finished(finalState: "done")

    @Test("R68: send and a batch of sends throw finished")
    func send() throws {
        var m = try Self.finished()
        #expect(throws: Self.end) { try m.send(.start) }
        #expect(throws: Self.end) { try m.send([.start, .finish]) }
    }

    @Test("R68: transition(to:) throws finished — for a known state, the final state itself and an unknown one")
    func requests() throws {
        var m = try Self.finished()
        #expect(throws: Self.end) { try m.transition(to: S.busy) }
        #expect(throws: Self.end) { try m.transition(to: S.done) }
        #expect(throws: Self.end) { try m.transition(to: "no such state") }
    }

    @Test("R68: the dynamic request transition() throws finished, not noDynamicTransition")
    func dynamicRequest() throws {
        var m = try Self.finished()
        #expect(throws: Self.end) { try m.transition() }
    }

    @Test("R68: advance(by:), suspend(to:) and resume() throw finished and change nothing")
    func timeAndSuspension() throws {
        var m = try Self.finished()
        let now = m.now
        #expect(throws: Self.end) { try m.advance(by: .seconds(1)) }
        #expect(m.now == now)
        #expect(throws: Self.end) { try m.suspend(to: .away) }
        #expect(throws: Self.end) { try m.resume() }
        #expect(m.state == .done)
    }

    @Test("R68: queries answer, and reset() and undo() bring the machine back")
    func waysBack() throws {
        var m = try Self.finished(historyDepth: 0)
        #expect(m.state == .done)
        // The typed queries agree with `state`: the final state is the one active value.
        #expect(m.isActive(S.done) && !m.isActive(S.busy))
        #expect(m.activeStates(of: S.self) == [.done] && m.activeState(of: S.self) == .done)
        #expect(m.activeStateIDs == ["done"] && m.activePaths == [[AnyHashable(S.done)]])
        #expect(!m.canSend(.start))
        _ = m.snapshot()
        var undone = m
        #expect(undone.undo() == .busy)
        #expect(!undone.isFinished)
        try m.reset()
        #expect(m.state == .idle && !m.isFinished)
        try m.send(.start)
        #expect(m.state == .busy)
    }
}

/// Rule R68 in the asynchronous runtimes: their clock moves before every operation, and a
/// finished machine's clock catching up is not an operation that fails.
@Suite("After the end, asynchronous")
struct AfterTheEndAsyncTests {
    typealias S = AfterTheEndTests.S
    typealias E = AfterTheEndTests.E

    static let machine = Machine<S, E, Int>(initial: .idle) {
        When(.idle) { On(.start, to: .busy) }
        When(.busy) { On(.finish, to: .done) }
        Final(.done)
    }

    @Test("R68: a finished AsyncStateMachine refuses sends with finished only, and reset() brings it back without a stale failure")
    func asyncMachine() async throws {
        let m = try await AsyncStateMachine(Self.machine, context: 0)
        try await m.send(.start)
        try await m.send(.finish)
        #expect(await m.isFinished)
        for _ in 0..<3 {
            try await Task.sleep(for: .milliseconds(2))  // the clock moves between operations
            await #expect(throws: AfterTheEndTests.end) { try await m.send(.start) }
        }
        try await Task.sleep(for: .milliseconds(2))
        try await m.reset()
        #expect(await m.state == .idle)
        try await m.send(.start)
        #expect(await m.state == .busy)
    }

    /// Idle times out after two seconds; `finish` ends the machine.
    static let timed = Machine<S, E, Int>(initial: .idle) {
        When(.idle) {
            After(.seconds(2), to: .away)
            On(.finish, to: .done)
        }
        When(.away) {}
        Final(.done)
    }

    @Test("R68, R54: a finished AsyncStateMachine's time follows the clock, so the timer reset() starts is due two seconds after the reset")
    func asyncTimeAfterTheEnd() async throws {
        let clock = ManualClock()
        let m = try await AsyncStateMachine(Self.timed, context: 0, clock: clock)
        try await m.send(.finish)
        await clock.advance(by: .seconds(10))
        #expect(await m.now == .seconds(10))
        try await m.reset()
        #expect(await m.state == .idle)
        await clock.advance(by: .seconds(1))
        #expect(await m.state == .idle)  // was `.away`: the timer was due two seconds after the end
        await clock.advance(by: .seconds(1))
        #expect(await m.state == .away)
    }

    @Test("R68, R54: a finished ObservableStateMachine's time follows the clock, so the timer reset() starts is due two seconds after the reset")
    @MainActor
    func observableTimeAfterTheEnd() async throws {
        let clock = ManualClock()
        let m = try ObservableStateMachine(Self.timed, context: 0, clock: clock)
        try m.send(.finish)
        await clock.advance(by: .seconds(10))
        #expect(m.now == .seconds(10))
        try m.reset()
        #expect(m.state == .idle)
        await clock.advance(by: .seconds(1))
        #expect(m.state == .idle)
        await clock.advance(by: .seconds(1))
        #expect(m.state == .away)
    }

    @Test("R68: a finished ObservableStateMachine refuses sends with finished only, and reset() brings it back")
    @MainActor
    func observableMachine() async throws {
        let m = try ObservableStateMachine(Self.machine, context: 0)
        try m.send(.start)
        try m.send(.finish)
        #expect(m.machine.isFinished && m.isFinished && m.activePaths == [[AnyHashable(S.done)]])
        for _ in 0..<3 {
            try await Task.sleep(for: .milliseconds(2))
            #expect(throws: AfterTheEndTests.end) { try m.send(.start) }
        }
        try await Task.sleep(for: .milliseconds(2))
        try m.reset()
        #expect(m.state == .idle && !m.isFinished && m.activePaths == [[AnyHashable(S.idle)]])
        try m.send(.start)
        #expect(m.state == .busy)
    }
}
