import Statechart
import Testing

typealias OrderMachine = StateMachine<OrderState, OrderEvent, OrderLog>

func orderWithUndo(depth: Int?, history: AttachmentHistory = .none) throws -> OrderMachine {
    var options = OrderMachine.Options()
    options.historyDepth = depth
    return try OrderMachine(orderMachine(history: history), context: OrderLog(), options: options)
}

@Suite("History log and undo")
struct UndoTests {
    @Test("R41: without historyDepth nothing is logged and there is nothing to undo")
    func offByDefault() throws {
        var m = try StateMachine(orderMachine(), context: OrderLog())
        try m.send([.confirm, .authorize])
        #expect(m.history.isEmpty)
        #expect(!m.canUndo)
        #expect(m.undo() == nil)
        #expect(m.activeStateIDs == ["confirmed.authorized"])
    }

    @Test("R41: historyDepth 0 logs every step with the states before and after and the event")
    func unlimitedLog() throws {
        var m = try orderWithUndo(depth: 0)
        try m.send([.confirm, .authorize, .capture, .deliver])
        #expect(m.history.map(\.from) == [["pending"], ["confirmed.authorizing"], ["confirmed.authorized"], ["shipped"]])
        #expect(m.history.map(\.to) == [["confirmed.authorizing"], ["confirmed.authorized"], ["shipped"], ["delivered"]])
        #expect(m.history.map(\.event) == [.confirm, .authorize, .capture, .deliver])
        #expect(m.history.map(\.fromState) == [.pending, .confirmed, .confirmed, .shipped])
        #expect(m.history.map(\.toState) == [.confirmed, .confirmed, .shipped, .delivered])
        #expect(m.canUndo)
    }

    @Test("R41: historyDepth N keeps the last N steps")
    func boundedLog() throws {
        var m = try orderWithUndo(depth: 2)
        try m.send([.confirm, .authorize, .capture])
        #expect(m.history.map(\.event) == [.authorize, .capture])
        #expect(m.undo() == .confirmed)
        #expect(m.undo() == .confirmed)
        #expect(m.activeStateIDs == ["confirmed.authorizing"])
        #expect(m.undo() == nil)
        #expect(m.activeStateIDs == ["confirmed.authorizing"])
    }

    @Test("R41: undo restores the whole nested configuration, the child machine in step with its parent (swift-state-kit's flaw)")
    func nestedUndo() throws {
        var m = try orderWithUndo(depth: 0)
        try m.send([.confirm, .authorize])
        let before = m
        try m.send(.cancel)  // leaves the payment child with its parent
        #expect(m.state == .cancelled && !m.isActive(PaymentState.authorized))
        #expect(m.undo() == .confirmed)
        #expect(m.isActive(PaymentState.authorized))
        #expect(m.activeState(of: PaymentState.self) == .authorized)
        #expect(m.snapshot() == before.snapshot())
        // The child goes on exactly as if the parent had never left.
        var n = before
        try m.send(.capture)
        try n.send(.capture)
        #expect(m.state == .shipped)
        #expect(m.snapshot() == n.snapshot())
    }

    @Test("R41: undo runs no action and no observer; the extended state is restored with the configuration")
    func undoRunsNothing() throws {
        var m = try orderWithUndo(depth: 0)
        var calls = 0
        m.observe { _ in calls += 1 }
        try m.send(.confirm)
        let entries = m.context.entries
        try m.send(.cancel)
        #expect(calls == 2)
        m.options.tracing = true
        m.instance.isTracing = true
        m.undo()
        #expect(calls == 2)
        #expect(m.trace.isEmpty)
        #expect(m.context.entries == entries)
    }

    @Test("R41: events nothing handles and refused requests are not logged; a step whose actions failed is")
    func whatIsLogged() throws {
        enum S: Hashable, Sendable { case a, b, c }
        enum E: Hashable, Sendable { case go, fail, nothing }
        let machine = Machine<S, E, OrderLog>(initial: .a) {
            When(.a) {
                On(.go, to: .b)
                Routes(.b)
            }
            When(.b) {
                On(.fail, to: .c, action: { _ in throw TestError() })
                Routes(.a)
            }
            When(.c) {}
        }
        var options = StateMachine<S, E, OrderLog>.Options()
        options.historyDepth = 0
        var m = try StateMachine(machine, context: OrderLog(), options: options)
        #expect(throws: MachineError.self) { try m.send(.nothing) }
        m.options.throwsOnUnhandledEvent = false
        try m.send(.nothing)
        #expect(throws: MachineError.illegalTransition(from: "a", to: "c")) { try m.transition(to: .c) }
        try m.transition(to: .a)  // already there: nothing happens
        #expect(m.history.isEmpty)
        try m.transition(to: .b)
        #expect(throws: MachineError.executionFailed(["action of 'b' threw boom"])) { try m.send(.fail) }
        #expect(m.state == .c)
        #expect(m.history.map(\.event) == [nil, .fail])
        #expect(m.history.map(\.toState) == [.b, .c])
        #expect(m.undo() == .b)
        #expect(m.undo() == .a)
    }

    @Test("R41: undo restores history values and pending sends with the time they had left; the clock does not go back")
    func historyAndTimers() throws {
        var options = PrivacyMachine.Options()
        options.historyDepth = 0
        var m = try PrivacyMachine(privacyMachine(history: .deep), context: PrivacyLog(), options: options)
        try m.send([.login, .open, .edit])  // autosave due at 10 s
        try m.advance(by: .seconds(3))
        try m.send(.logout)  // records the deep history of loggedIn
        #expect(m.snapshot().history == ["loggedIn.history": ["loggedIn.editing"]])
        try m.advance(by: .seconds(2))
        #expect(m.undo() == .loggedIn)
        #expect(m.snapshot().history.isEmpty)
        #expect(m.now == .seconds(5))
        #expect(m.instance.nextDueTime == .seconds(12))  // 7 s were left when the step was taken
        try m.advance(by: .seconds(7))
        #expect(m.activeState(of: PrivacyScreen.self) == .settings)
    }

    @Test("R41: requests, suspend and resume are logged steps; undo restores the suspension slot")
    func suspendAndRequestsAreSteps() throws {
        var options = PrivacyMachine.Options()
        options.historyDepth = 0
        var m = try editingPrivacy(options: options)
        let editing = m.snapshot()
        try m.suspend(to: .privacy)
        try m.transition(to: .locked)
        try m.resume()
        #expect(m.history.suffix(3).map(\.toState) == [.privacy, .locked, .loggedIn])
        #expect(m.history.suffix(3).allSatisfy { $0.event == nil })
        #expect(m.undo() == .locked)
        #expect(m.isSuspended)
        #expect(m.undo() == .privacy)
        #expect(m.undo() == .loggedIn)
        #expect(!m.isSuspended)
        #expect(m.snapshot() == editing)
    }

    @Test("R41: undoing the step that finished the machine brings it back running")
    func undoFinish() throws {
        var m = try orderWithUndo(depth: 0)
        try m.send([.confirm, .authorize, .capture, .deliver])
        #expect(m.isFinished)
        #expect(m.undo() == .shipped)
        #expect(!m.isFinished)
        try m.send(.deliver)
        #expect(m.isFinished && m.state == .delivered)
    }

    @Test("R41: reset and restore clear the log; turning historyDepth off stops logging")
    func clearing() throws {
        var m = try orderWithUndo(depth: 0)
        try m.send([.confirm, .authorize])
        let snapshot = m.snapshot()
        try m.reset()
        #expect(m.history.isEmpty && !m.canUndo)
        try m.send(.confirm)
        try m.restore(from: snapshot)
        #expect(m.history.isEmpty)
        m.options.historyDepth = nil
        try m.send(.capture)
        #expect(m.history.isEmpty)
    }

    @Test("R41: undoing a random walk step by step retraces every state it went through (200 walks, with and without child history)")
    func randomWalkUndo() throws {
        let baseSeed: UInt64 = 0x0DD0_0041
        for walk in 0..<200 {
            let seed = baseSeed &+ UInt64(walk)
            var rng = SplitMix64(seed: seed)
            var m = try orderWithUndo(depth: 0, history: walk % 2 == 0 ? .none : .deep)
            var before: [ChartSnapshot<OrderEvent, OrderLog>] = []
            var steps: [String] = []
            for _ in 0..<30 {
                let event = SnapshotTests.weightedEvents[Int(rng.next() % UInt64(SnapshotTests.weightedEvents.count))]
                let snapshot = m.snapshot()
                let logged = m.history.count
                try? m.send(event)
                steps.append("\(event)")
                if m.history.count > logged { before.append(snapshot) }
                if m.isFinished { break }
            }
            #expect(m.history.count == before.count, "walk \(walk), seed \(seed): \(steps)")
            while let expected = before.popLast() {
                m.undo()
                guard m.snapshot() == expected else {
                    Issue.record("walk \(walk), seed \(seed): undo did not retrace after \(steps) (\(before.count) left)")
                    break
                }
            }
            #expect(!m.canUndo)
        }
    }
}

/// History values are recorded into the storage their slot already has (issue 16): an undo step
/// or a suspension that shares that storage must keep what it saved.
@Suite("History values kept by undo")
struct HistoryStorageTests {
    enum Room: Hashable, Sendable { case inside, outside }
    enum Step: Hashable, Sendable { case first, second }
    enum Move: Hashable, Sendable { case advance, leave, back }

    static func machine() throws -> StateMachine<Room, Move, Void> {
        let step = Machine<Step, Move, Void>("step", initial: .first) {
            When(.first) { On(.advance, to: .second) }
            When(.second) { On(.advance, to: .first) }
        }
        let room = Machine<Room, Move, Void>("room", initial: .inside) {
            When(.inside) { On(.leave, to: .outside) }
            When(.outside) { On(.back, to: .inside) }
        }.attaching(child: step, to: .inside, history: .deep)
        var options = StateMachine<Room, Move, Void>.Options()
        options.historyDepth = 0
        return try StateMachine(room, context: (), options: options)
    }

    @Test("R11, R41: recording a history again does not change the value an earlier step saved")
    func undoKeepsRecordedHistory() throws {
        var m = try Self.machine()
        try m.send([.advance, .leave])  // history: step.second
        let recorded = m.snapshot().history
        try m.send([.back, .advance, .leave])  // history again, now step.first, into the same slot
        let again = m.snapshot().history
        #expect(again != recorded)
        #expect(m.undo() == .inside)  // before the second leave: inside, step.first
        #expect(m.snapshot().history == recorded)
        #expect(m.undo() == .inside)  // before advance: inside, step.second
        #expect(m.undo() == .outside)  // before back
        #expect(m.snapshot().history == recorded)
        try m.send(.back)
        #expect(m.activeStateIDs == ["inside.second"])
    }
}
