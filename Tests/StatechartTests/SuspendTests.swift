import Foundation
import Statechart
import Testing

// MARK: - A session with a nested screen machine, a barrier and a background (privacy) state

enum PrivacyState: String, Hashable, Sendable, Codable { case loggedOut, loggedIn, privacy, locked, closed, undeclared }
enum PrivacyScreen: String, Hashable, Sendable { case home, settings, editing }
enum PrivacyEvent: String, Hashable, Sendable, Codable { case login, logout, open, edit, back, save, close }

struct PrivacyLog: Hashable, Sendable, Codable {
    var lines: [String] = []
    /// The `loggedIn` barrier denies.
    var deny = false
    /// The `loggedIn` barrier redirects to `locked`.
    var lock = false
    /// The `locked` barrier redirects back to `loggedIn` (a cycle when `lock` is set too).
    var lockRedirectsBack = false
}

func privacyScreens() -> Machine<PrivacyScreen, PrivacyEvent, PrivacyLog> {
    Machine("screens", initial: .home) {
        When(.home) {
            OnEntry { $0.lines.append("enter home") }
            OnExit { $0.lines.append("exit home") }
            On(.open, to: .settings)
        }
        When(.settings) {
            OnEntry { $0.lines.append("enter settings") }
            OnExit { $0.lines.append("exit settings") }
            On(.edit, to: .editing)
            On(.back, to: .home)
        }
        When(.editing) {
            OnEntry { scope in
                scope.lines.append("enter editing")
                scope.send(.save, after: .seconds(10), id: "autosave")
            }
            OnExit { $0.lines.append("exit editing") }
            On(.save, to: .settings)
        }
    }
}

/// loggedOut —login→ loggedIn (screens: home → settings → editing, which autosaves after 10 s);
/// privacy is the background state; locked; closed is final.
func privacyMachine(history: AttachmentHistory = .none) -> Machine<PrivacyState, PrivacyEvent, PrivacyLog> {
    Machine<PrivacyState, PrivacyEvent, PrivacyLog>("session", initial: .loggedOut) {
        When(.loggedOut) {
            OnEntry { $0.lines.append("enter loggedOut") }
            OnExit { $0.lines.append("exit loggedOut") }
            On(.login, to: .loggedIn)
            Routes(.loggedIn)
        }
        When(.loggedIn) {
            OnEntry { $0.lines.append("enter loggedIn") }
            OnExit { $0.lines.append("exit loggedIn") }
            On(.logout, to: .loggedOut)
            Routes(.loggedOut, .locked)
            TransitionBarrier { $0.deny ? .deny : $0.lock ? .redirect(to: .locked) : .allow }
        }
        Global(.privacy) {
            OnEntry { previous, scope in scope.lines.append("enter privacy from \(previous.map { "\($0)" } ?? "nil")") }
            OnExit { next, scope in scope.lines.append("exit privacy to \(next.map { "\($0)" } ?? "nil")") }
            Routes(.locked)
        }
        When(.locked) {
            OnEntry { $0.lines.append("enter locked") }
            OnExit { $0.lines.append("exit locked") }
            On(.login, to: .loggedIn)
            Routes(.loggedIn)
            TransitionBarrier { $0.lockRedirectsBack ? .redirect(to: .loggedIn) : .allow }
        }
        Final(.closed)
        AnyState { On(.close, to: .closed) }
    }.attaching(child: privacyScreens(), to: .loggedIn, history: history)
}

typealias PrivacyMachine = StateMachine<PrivacyState, PrivacyEvent, PrivacyLog>

/// A session logged in and editing, its autosave 4 s from due; the log emptied.
func editingPrivacy(options: PrivacyMachine.Options = .init()) throws -> PrivacyMachine {
    var m = try PrivacyMachine(privacyMachine(), context: PrivacyLog(), options: options)
    try m.send([.login, .open, .edit])
    try m.advance(by: .seconds(6))
    m.context.lines.removeAll()
    return m
}

@Suite("Suspend and resume")
struct SuspendTests {
    @Test("R42: suspend sets the whole nested configuration aside — no exit action — and runs only the background's entry, which sees the suspended state as previous")
    func suspendRunsOnlyTheBackgroundEntry() throws {
        var m = try editingPrivacy()
        #expect(m.activeStateIDs == ["loggedIn.editing"])
        try m.suspend(to: .privacy)
        #expect(m.context.lines == ["enter privacy from loggedIn"])
        #expect(m.state == .privacy)
        #expect(m.isSuspended)
        #expect(m.suspendedStateIDs == ["loggedIn.editing"])
        #expect(!m.isActive(PrivacyScreen.editing))
        // The autosave is paused, not cancelled and not firing.
        #expect(m.instance.pendingDelayedSends == 0)
        try m.advance(by: .seconds(60))
        #expect(m.state == .privacy)
    }

    @Test("R42: resume exits the background (its exit sees the restore state as next) and puts back the exact nested configuration without entry actions; paused sends keep their remaining time")
    func resumeRestoresExactly() throws {
        var m = try editingPrivacy()
        try m.suspend(to: .privacy)
        try m.advance(by: .seconds(60))
        m.context.lines.removeAll()
        try m.resume()
        #expect(m.context.lines == ["exit privacy to loggedIn"])
        #expect(!m.isSuspended && m.suspendedStateIDs == nil)
        #expect(m.state == .loggedIn)
        #expect(m.activeStateIDs == ["loggedIn.editing"])
        #expect(m.activeState(of: PrivacyScreen.self) == .editing)
        #expect(m.instance.nextDueTime == m.now + .seconds(4))
        try m.advance(by: .seconds(4))
        #expect(m.activeState(of: PrivacyScreen.self) == .settings)
        #expect(m.context.lines == ["exit privacy to loggedIn", "exit editing", "enter settings"])
    }

    @Test("R42: a resumed machine answers events exactly like one that was never suspended")
    func resumedEqualsUnsuspended() throws {
        let original = try editingPrivacy()
        var m = original
        try m.suspend(to: .privacy)
        try m.resume()
        m.context.lines.removeAll()
        var n = original
        for e: PrivacyEvent in [.save, .back, .open, .logout, .login] {
            try m.send(e)
            try n.send(e)
            #expect(m.snapshot() == n.snapshot())
        }
    }

    @Test("R42: a deny from the restore state's barrier throws and keeps the machine suspended in the background")
    func deny() throws {
        var m = try editingPrivacy()
        try m.suspend(to: .privacy)
        m.context.deny = true
        m.context.lines.removeAll()
        #expect(throws: MachineError.transitionDenied(to: "loggedIn")) { try m.resume() }
        #expect(m.state == .privacy && m.isSuspended)
        #expect(m.context.lines.isEmpty)
        m.context.deny = false
        try m.resume()
        #expect(m.activeStateIDs == ["loggedIn.editing"])
    }

    @Test("R42: a redirect from the restore state's barrier goes to the redirect target instead: a normal transition, the suspended configuration and its paused sends dropped")
    func redirect() throws {
        var m = try editingPrivacy()
        try m.suspend(to: .privacy)
        m.context.lock = true
        m.context.lines.removeAll()
        try m.resume()
        #expect(m.state == .locked)
        #expect(m.context.lines == ["exit privacy to locked", "enter locked"])
        #expect(!m.isSuspended)
        #expect(!m.isActive(PrivacyScreen.editing))
        #expect(m.instance.pendingDelayedSends == 0)
    }

    @Test("R42: redirects are followed through the barriers in turn; a cycle is an error and the machine stays suspended")
    func redirectCycle() throws {
        var m = try editingPrivacy()
        try m.suspend(to: .privacy)
        m.context.lock = true
        m.context.lockRedirectsBack = true
        #expect(throws: MachineError.redirectCycle(["loggedIn", "locked", "loggedIn"])) { try m.resume() }
        #expect(m.isSuspended && m.state == .privacy)
    }

    @Test("R42: while suspended the machine runs in the background state; resume exits wherever it is and restores")
    func runsWhileSuspended() throws {
        var m = try editingPrivacy()
        try m.suspend(to: .privacy)
        try m.transition(to: .locked)
        #expect(m.state == .locked && m.isSuspended)
        m.context.lines.removeAll()
        try m.resume()
        #expect(m.context.lines == ["exit locked"])
        #expect(m.activeStateIDs == ["loggedIn.editing"])
    }

    @Test("R42: errors — not suspended, already suspended, suspending to the active state, to an undeclared state, or a finished machine")
    func errors() throws {
        var m = try editingPrivacy()
        #expect(throws: MachineError.invalidSnapshot("the machine is not suspended: there is no configuration to resume")) {
            try m.resume()
        }
        #expect(throws: MachineError.unknownState("undeclared")) { try m.suspend(to: .undeclared) }
        try m.suspend(to: .privacy)
        #expect(throws: MachineError.invalidSnapshot("the machine is already suspended to 'privacy'; resume() it first")) {
            try m.suspend(to: .locked)
        }
        try m.resume()
        try m.transition(to: .privacy)
        #expect(throws: MachineError.alreadyInState("privacy")) { try m.suspend(to: .privacy) }
        try m.send(.close)
        #expect(throws: MachineError.finished(finalState: "closed")) { try m.suspend(to: .privacy) }
    }

    @Test("R42: a machine that finishes while suspended cannot resume; reset forgets the suspension")
    func finishedWhileSuspended() throws {
        var m = try editingPrivacy()
        try m.suspend(to: .privacy)
        try m.send(.close)
        #expect(throws: MachineError.finished(finalState: "closed")) { try m.resume() }
        try m.reset()
        #expect(!m.isSuspended && m.state == .loggedOut)
    }

    @Test("R42: a failing background entry or exit action is reported after the machine is suspended or resumed all the same")
    func failuresStillSuspend() throws {
        let failing = Machine<PrivacyState, PrivacyEvent, PrivacyLog>(initial: .loggedOut) {
            When(.loggedOut) { On(.login, to: .loggedIn) }
            When(.loggedIn) {}
            When(.privacy) {
                OnEntry { _ in throw TestError() }
                OnExit { _ in throw TestError() }
            }
        }
        var m = try PrivacyMachine(failing, context: PrivacyLog())
        try m.send(.login)
        #expect(throws: MachineError.executionFailed(["action of 'privacy' threw boom"])) { try m.suspend(to: .privacy) }
        #expect(m.isSuspended && m.state == .privacy)
        #expect(throws: MachineError.executionFailed(["action of 'privacy' threw boom"])) { try m.resume() }
        #expect(!m.isSuspended && m.state == .loggedIn)
    }

    @Test("R42, R30: observers see suspend and resume as requests")
    func observers() throws {
        var m = try editingPrivacy()
        var seen: [String] = []
        m.observe { seen.append("\($0.from) → \($0.to)") }
        try m.suspend(to: .privacy)
        try m.resume()
        #expect(seen == [#"["loggedIn.editing"] → ["privacy"]"#, #"["privacy"] → ["loggedIn.editing"]"#])
    }

    @Test("R42, R40: a snapshot of a suspended machine holds the suspension; the restored machine resumes the same way")
    func snapshotWhileSuspended() throws {
        var m = try editingPrivacy()
        try m.suspend(to: .privacy)
        try m.advance(by: .seconds(1))
        let data = try JSONEncoder().encode(m.snapshot())
        let decoded = try JSONDecoder().decode(ChartSnapshot<PrivacyEvent, PrivacyLog>.self, from: data)
        #expect(decoded.suspension == SnapshotSuspension(
            background: "privacy", activeStates: ["loggedIn", "loggedIn.editing"],
            pausedSends: [SnapshotPendingSend(remaining: .seconds(4), event: .event(.save), id: "autosave")]))
        var n = try PrivacyMachine(privacyMachine(), restoring: decoded)
        #expect(n.isSuspended && n.suspendedStateIDs == ["loggedIn.editing"])
        try m.resume()
        try n.resume()
        #expect(n.snapshot() == m.snapshot())
        try n.advance(by: .seconds(4))
        #expect(n.activeState(of: PrivacyScreen.self) == .settings)

        var bad = decoded
        bad.suspension?.background = "loggedIn.home"
        #expect(throws: MachineError.invalidSnapshot("suspension.background 'loggedIn.home' is not a non-final state of the top level")) {
            _ = try PrivacyMachine(privacyMachine(), restoring: bad)
        }
        bad = decoded
        bad.suspension?.activeStates = ["loggedIn"]
        #expect(throws: MachineError.invalidSnapshot("suspension.activeStates is not a legal configuration: the compound state 'loggedIn' has 0 active children; exactly one is required")) {
            _ = try PrivacyMachine(privacyMachine(), restoring: bad)
        }
    }

    @Test("R42, R52, R41, R40: invoked work runs exactly while its state is active — cancelled on suspend, started again on resume, after undo and after restore")
    func invokedWork() throws {
        enum Job: Hashable, Sendable { case idle, busy, away }
        enum JobEvent: Hashable, Sendable { case start, finish }
        let machine = Machine<Job, JobEvent, Int>(initial: .idle) {
            When(.idle) { On(.start, to: .busy) }
            When(.busy) {
                Work("job") { _ in nil }
                On(.finish, to: .idle)
            }
            When(.away) { Work("watch") { _ in nil } }
        }
        var options = StateMachine<Job, JobEvent, Int>.Options()
        options.historyDepth = 0
        var m = try StateMachine(machine, context: 0, options: options)
        func running() -> [String] { m.instance.runningInvocationTokens.map { m.instance.chart.id(of: $0.state) } }
        func requests() -> [String] {
            m.instance.takeInvocationRequests().map {
                switch $0 {
                case .start(_, let state, let invocation): return "start \(invocation.name) in \(m.instance.chart.id(of: state))"
                case .cancel: return "cancel"
                }
            }
        }
        try m.send(.start)
        _ = requests()
        #expect(running() == ["busy"])
        try m.suspend(to: .away)
        #expect(running() == ["away"])
        #expect(requests() == ["cancel", "start watch in away"])
        try m.resume()
        #expect(running() == ["busy"])
        #expect(requests() == ["cancel", "start job in busy"])
        m.undo()  // back to suspended in away
        #expect(running() == ["away"])
        #expect(requests() == ["cancel", "start watch in away"])
        let restored = try StateMachine(machine, restoring: m.snapshot())
        #expect(restored.instance.runningInvocationTokens.map { restored.instance.chart.id(of: $0.state) } == ["away"])
    }

    @Test("R42: history is recorded when the background is exited, never for the suspended configuration")
    func historyUntouched() throws {
        var m = try PrivacyMachine(privacyMachine(history: .deep), context: PrivacyLog())
        try m.send([.login, .open])
        try m.suspend(to: .privacy)
        #expect(m.snapshot().history.isEmpty)
        try m.resume()
        #expect(m.snapshot().history.isEmpty)
        try m.send(.logout)
        #expect(m.snapshot().history == ["loggedIn.history": ["loggedIn.settings"]])
    }
}
