import Statechart
import Testing

// Machinus (drekka) — the user login example of its README (seed 000), written with the public API
// of Statechart only. Machinus' state configs become `When`/`Global`/`FinalGlobal` with `Routes`
// (canTransitionTo), `TransitionBarrier` and `DynamicTransition`; its background state is
// `suspend(to:)` / `resume()` (R42). Extended the statechart way: `loggedIn` is a compound state
// whose attached screen machine passes `logOut` up to it.

@Suite("Conformance: Machinus README (user login)")
struct UserLoginConformanceTests {
    enum UserState: Hashable, Sendable {
        case initialising, registering, loggedIn, loggedOut
        /// Machinus' `.background(…)` state: reached by `suspend(to:)`, never by a request.
        case background
        /// A `.global(…)` state: any state may request it without listing it.
        case maintenance
        /// A `.finalGlobal(…)` state.
        case banned
    }
    /// The screens of a logged-in user: the child machine attached to `loggedIn`.
    enum Screen: Hashable, Sendable { case home, profile, settings, expired }
    /// Machinus has no events; the screens need a few, and `logOut` is passed up to `loggedIn`.
    enum UserEvent: Hashable, Sendable { case openSettings, back, expire, logOut }

    struct UserSession: Sendable {
        var userIsLoggedIn = false
        var registered = false
        var registrationOpen = true
        var screens: [String] = []
    }

    typealias UserMachine = StateMachine<UserState, UserEvent, UserSession>

    static func screens() -> Machine<Screen, UserEvent, UserSession> {
        Machine("screens", initial: .home) {
            When(.home) {
                OnEntry { $0.screens.append("enter home") }
                OnExit { $0.screens.append("exit home") }
                On(.openSettings, to: .settings)
                Routes(.profile, .settings)
            }
            When(.profile) {
                Routes(.home)
            }
            When(.settings) {
                OnEntry { $0.screens.append("enter settings") }
                OnExit { $0.screens.append("exit settings") }
                On(.back, to: .home)
                Routes(.home)
            }
            Final(.expired)  // the session ran out; loggedIn stays until the user logs out
            AnyState { On(.expire, to: .expired) }
        }
    }

    static func userMachine() -> Machine<UserState, UserEvent, UserSession> {
        Machine("user", initial: .initialising) {
            When(.initialising) {
                OnEntry { $0.screens.append("reloadConfiguration") }
                Routes(.loggedOut)  // canTransitionTo: .loggedOut
            }
            When(.loggedOut) {
                OnEntry { $0.screens.append("displayLoginScreen") }
                OnExit { $0.screens.append("hideLoginScreen") }
                Routes(.loggedIn, .registering)
            }
            When(.loggedIn) {
                OnEntry { $0.screens.append("displayUsersHomeScreen") }
                OnExit { $0.screens.append("leaveUsersHome") }
                TransitionBarrier { $0.userIsLoggedIn ? .allow : .redirect(to: .loggedOut) }
                Routes(.loggedOut)
                On(.logOut, to: .loggedOut)  // what the screens do not handle comes here
                Attach(screens())
            }
            When(.registering) {
                OnEntry { $0.screens.append("displayRegistrationScreen") }
                TransitionBarrier { $0.registrationOpen ? .allow : .deny }  // .fail
                DynamicTransition { $0.registered ? .loggedIn : .loggedOut }
                Routes(.loggedOut, .loggedIn)
            }
            When(.background) {
                OnEntry { previous, scope in scope.screens.append("displayPrivacyScreen over \(describe(previous))") }
                OnExit { next, scope in scope.screens.append("hidePrivacyScreen for \(describe(next))") }
            }
            Global(.maintenance) {
                OnEntry { $0.screens.append("displayMaintenanceScreen") }
                Routes(.loggedOut)
            }
            FinalGlobal(.banned) {
                OnEntry { $0.screens.append("displayBannedScreen") }
            }
        }
    }

    static func describe(_ state: UserState?) -> String { state.map { "\($0)" } ?? "nil" }

    /// A machine logged in on its home screen, its log emptied.
    static func loggedIn() throws -> UserMachine {
        var machine = try UserMachine(userMachine(), context: UserSession(userIsLoggedIn: true))
        try machine.transition(to: UserState.loggedOut)
        try machine.transition(to: UserState.loggedIn)
        machine.context.screens.removeAll()
        return machine
    }

    // MARK: - States and transitions

    @Test("Machinus README: the machine starts in the first listed state, and its didEnter runs (R20)")
    func startsInFirstState() throws {
        let machine = try UserMachine(Self.userMachine(), context: UserSession())
        #expect(machine.state == .initialising)  // machine.state == .initialising // -> true
        #expect(machine.context.screens == ["reloadConfiguration"])  // Machinus skips it
    }

    @Test("Machinus README: transition(to: .loggedOut) changes state and runs the new state's didEnter (R26)")
    func transitionToLoggedOut() throws {
        var machine = try UserMachine(Self.userMachine(), context: UserSession())
        try machine.transition(to: UserState.loggedOut)
        #expect(machine.state == .loggedOut)
        #expect(machine.context.screens == ["reloadConfiguration", "displayLoginScreen"])
    }

    @Test("Machinus README: didExit runs before didEnter; didEnter gets the previous state, didExit the next (R8, R29)")
    func neighbours() throws {
        let session = Machine<UserState, UserEvent, UserSession>("neighbours", initial: .loggedOut) {
            When(.loggedOut) {
                OnExit { next, scope in scope.screens.append("didExit(next: \(Self.describe(next)))") }
                Routes(.registering)
            }
            When(.registering) {
                OnEntry { previous, scope in scope.screens.append("didEnter(previous: \(Self.describe(previous)))") }
            }
        }
        var machine = try UserMachine(session, context: UserSession())
        try machine.transition(to: UserState.registering)
        #expect(machine.context.screens == ["didExit(next: registering)", "didEnter(previous: loggedOut)"])
    }

    @Test("Machinus README: didTransition is called after each transition with from and to (R30)")
    func didTransition() throws {
        var machine = try UserMachine(Self.userMachine(), context: UserSession(userIsLoggedIn: true))
        var calls: [String] = []
        machine.observe { calls.append("\(Self.describe($0.fromState)) -> \($0.toState)") }
        try machine.transition(to: UserState.loggedOut)
        try machine.transition(to: UserState.loggedIn)
        try machine.send(.logOut)
        #expect(calls == ["initialising -> loggedOut", "loggedOut -> loggedIn", "loggedIn -> loggedOut"])
    }

    // MARK: - Barriers

    @Test("Machinus README: a barrier that answers .allow lets the transition happen (R26)")
    func barrierAllows() throws {
        var machine = try UserMachine(Self.userMachine(), context: UserSession(userIsLoggedIn: true))
        try machine.transition(to: UserState.loggedOut)
        try machine.transition(to: UserState.loggedIn)
        #expect(machine.state == .loggedIn)
        #expect(machine.context.screens.suffix(3) == ["hideLoginScreen", "displayUsersHomeScreen", "enter home"])
    }

    @Test("Machinus README: a barrier that answers .redirect(to: .loggedOut) sends the request there instead (R26)")
    func barrierRedirects() throws {
        var machine = try UserMachine(Self.userMachine(), context: UserSession(userIsLoggedIn: false))
        try machine.transition(to: UserState.loggedOut)
        try machine.transition(to: UserState.registering)
        machine.context.screens.removeAll()
        try machine.transition(to: UserState.loggedIn)  // userIsLoggedIn() is false
        #expect(machine.state == .loggedOut)
        #expect(machine.context.screens == ["displayLoginScreen"])  // loggedIn was never entered
    }

    @Test("Machinus README: a barrier that fails throws transitionDenied and leaves the state alone (R26)")
    func barrierFails() throws {
        var machine = try UserMachine(Self.userMachine(), context: UserSession(registrationOpen: false))
        try machine.transition(to: UserState.loggedOut)
        #expect(throws: MachineError.transitionDenied(to: "registering")) {
            try machine.transition(to: UserState.registering)
        }
        #expect(machine.state == .loggedOut)
        #expect(machine.context.screens == ["reloadConfiguration", "displayLoginScreen"])
    }

    @Test("Machinus: a barrier cannot open a route that canTransitionTo does not list (R26)")
    func barrierAfterRoute() throws {
        var machine = try UserMachine(Self.userMachine(), context: UserSession(userIsLoggedIn: true))
        // Machinus lets an allowing barrier admit an unlisted target; Statechart checks the route first.
        #expect(throws: MachineError.illegalTransition(from: "initialising", to: "loggedIn")) {
            try machine.transition(to: UserState.loggedIn)
        }
        #expect(machine.state == .initialising)
    }

    @Test("Machinus: barriers that redirect to each other end in redirectCycle instead of recursing forever (R26)")
    func redirectCycle() throws {
        let cyclic = Machine<UserState, UserEvent, UserSession>("cycle", initial: .loggedOut) {
            When(.loggedOut) { Routes(.loggedIn, .registering) }
            When(.loggedIn) {
                TransitionBarrier { _ in .redirect(to: .registering) }
                Routes(.registering)
            }
            When(.registering) {
                TransitionBarrier { _ in .redirect(to: .loggedIn) }
                Routes(.loggedIn)
            }
        }
        var machine = try UserMachine(cyclic, context: UserSession())
        #expect(throws: MachineError.redirectCycle(["registering", "loggedIn", "registering"])) {
            try machine.transition(to: UserState.registering)
        }
        #expect(machine.state == .loggedOut)
    }

    // MARK: - Dynamic transitions

    @Test("Machinus README: transition() runs the registering state's dynamic transition (R27)", arguments: [true, false])
    func dynamicTransition(registered: Bool) throws {
        var machine = try UserMachine(
            Self.userMachine(), context: UserSession(userIsLoggedIn: true, registered: registered))
        try machine.transition(to: UserState.loggedOut)
        try machine.transition(to: UserState.registering)
        try machine.transition()  // registered() ? .loggedIn : .loggedOut
        #expect(machine.state == (registered ? .loggedIn : .loggedOut))
    }

    @Test("Machinus README: a dynamic transition's answer goes through the routes and the barrier too (R26, R27)")
    func dynamicTransitionChecked() throws {
        var machine = try UserMachine(Self.userMachine(), context: UserSession(userIsLoggedIn: false, registered: true))
        try machine.transition(to: UserState.loggedOut)
        try machine.transition(to: UserState.registering)
        try machine.transition()  // .loggedIn, whose barrier redirects to .loggedOut
        #expect(machine.state == .loggedOut)
    }

    // MARK: - Global and final states

    @Test("Machinus README: a global state is reachable from any state without being listed (R26)")
    func globalState() throws {
        for path: [UserState] in [[], [.loggedOut], [.loggedOut, .registering]] {
            var machine = try UserMachine(Self.userMachine(), context: UserSession())
            for state in path { try machine.transition(to: state) }
            try machine.transition(to: UserState.maintenance)
            #expect(machine.state == .maintenance, "from \(path.last.map { "\($0)" } ?? "initialising")")
        }
        var machine = try Self.loggedIn()
        try machine.transition(to: UserState.maintenance)  // from a compound state too: its screens exit first
        #expect(machine.context.screens == ["exit home", "leaveUsersHome", "displayMaintenanceScreen"])
    }

    @Test("Machinus README: a final global state cannot be left; the machine has finished (R15, R28)")
    func finalGlobalState() throws {
        var machine = try Self.loggedIn()
        try machine.transition(to: UserState.banned)
        #expect(machine.state == .banned)
        #expect(machine.isFinished)
        #expect(machine.context.screens == ["exit home", "leaveUsersHome", "displayBannedScreen"])
        #expect(throws: MachineError.finished(finalState: "banned")) { try machine.transition(to: UserState.maintenance) }
        #expect(throws: MachineError.finished(finalState: "banned")) { try machine.send(.logOut) }
    }

    @Test("Machinus README: a final state cannot be left by a request: finalState (R26, R28)")
    func finalStateOfChild() throws {
        var machine = try Self.loggedIn()
        try machine.send(.expire)
        #expect(machine.activeStateIDs == ["loggedIn.expired"])
        #expect(throws: MachineError.finalState("loggedIn.expired")) { try machine.transition(to: Screen.home) }
        try machine.send(.logOut)  // the parent can still leave
        #expect(machine.state == .loggedOut)
    }

    // MARK: - Errors

    @Test("Machinus README: every failed request is a typed MachineError, never fatalError (R26, R27)")
    func errors() throws {
        var machine = try UserMachine(Self.userMachine(), context: UserSession())
        // StateMachineError.illegalTransition
        #expect(throws: MachineError.illegalTransition(from: "initialising", to: "registering")) {
            try machine.transition(to: UserState.registering)
        }
        // An unknown state and a missing dynamic closure were fatalError in Machinus.
        #expect(throws: MachineError.unknownState("nowhere")) { try machine.transition(to: "nowhere") }
        #expect(throws: MachineError.noDynamicTransition("initialising")) { try machine.transition() }
        // A background state has no canTransitionTo: no request reaches it.
        #expect(throws: MachineError.illegalTransition(from: "initialising", to: "background")) {
            try machine.transition(to: UserState.background)
        }
        // A state of the screens while loggedIn is not active.
        #expect(throws: MachineError.illegalTransition(from: "loggedIn (inactive)", to: "loggedIn.settings")) {
            try machine.transition(to: Screen.settings)
        }
        // StateMachineError.alreadyInState, behind Machinus' flag.
        try machine.transition(to: UserState.initialising)  // nothing happens
        #expect(machine.context.screens == ["reloadConfiguration"])
        machine.options.throwsWhenAlreadyInState = true
        #expect(throws: MachineError.alreadyInState("initialising")) {
            try machine.transition(to: UserState.initialising)
        }
        #expect(machine.state == .initialising)
    }

    @Test("Machinus: no minimum of three states — a two-state machine runs (R20)")
    func twoStates() throws {
        let small = Machine<UserState, UserEvent, UserSession>("small", initial: .loggedOut) {
            When(.loggedOut) { Routes(.loggedIn) }
            When(.loggedIn) { Routes(.loggedOut) }
        }
        var machine = try UserMachine(small, context: UserSession())
        try machine.transition(to: UserState.loggedIn)
        #expect(machine.state == .loggedIn)
    }

    // MARK: - Reset

    @Test("Machinus README: reset() returns to the first state; it runs the exit and entry actions and keeps the session (R19)")
    func reset() throws {
        var machine = try Self.loggedIn()
        try machine.send(.openSettings)
        machine.context.screens.removeAll()
        try machine.reset()
        #expect(machine.state == .initialising)
        #expect(machine.context.screens == ["exit settings", "leaveUsersHome", "reloadConfiguration"])
        #expect(machine.context.userIsLoggedIn)  // the extended state is kept
    }

    @Test("Machinus README: reset() is the only way out of a final state (R15, R19)")
    func resetFromFinal() throws {
        var machine = try Self.loggedIn()
        try machine.transition(to: UserState.banned)
        try machine.reset()
        #expect(!machine.isFinished)
        #expect(machine.state == .initialising)
        try machine.transition(to: UserState.loggedOut)
        #expect(machine.state == .loggedOut)
    }

    // MARK: - The background state: suspend and resume

    @Test("Machinus README: going to the background remembers the state and runs only the background's didEnter (R42)")
    func suspend() throws {
        var machine = try Self.loggedIn()
        try machine.send(.openSettings)
        machine.context.screens.removeAll()
        try machine.suspend(to: .background)  // the app went to the background
        #expect(machine.state == .background)
        #expect(machine.isSuspended)
        #expect(machine.suspendedStateIDs == ["loggedIn.settings"])
        #expect(machine.context.screens == ["displayPrivacyScreen over loggedIn"])  // no exit action ran
    }

    @Test("Machinus README: coming back to the foreground restores the exact state, running only the background's didExit (R42)")
    func resume() throws {
        var machine = try Self.loggedIn()
        try machine.send(.openSettings)
        try machine.suspend(to: .background)
        machine.context.screens.removeAll()
        try machine.resume()  // the app came back to the foreground
        #expect(!machine.isSuspended)
        #expect(machine.activeStateIDs == ["loggedIn.settings"])  // the screens too, without entry actions
        #expect(machine.context.screens == ["hidePrivacyScreen for loggedIn"])
        try machine.send(.back)
        #expect(machine.activeState(of: Screen.self) == .home)
    }

    @Test("Machinus README: on resume the restore state's barrier may redirect (R42)")
    func resumeRedirected() throws {
        var machine = try Self.loggedIn()
        try machine.suspend(to: .background)
        machine.context.userIsLoggedIn = false  // the session ended while in the background
        machine.context.screens.removeAll()
        try machine.resume()
        #expect(machine.state == .loggedOut)
        #expect(!machine.isActive(Screen.home))
        #expect(machine.context.screens == ["hidePrivacyScreen for loggedOut", "displayLoginScreen"])
    }

    @Test("Machinus: suspending twice, resuming without suspending or suspending to the active state are typed errors (R42)")
    func suspendErrors() throws {
        var machine = try Self.loggedIn()
        let notSuspended = #expect(throws: MachineError.self) { try machine.resume() }
        if case .invalidSnapshot = notSuspended {} else { Issue.record("resume: \(String(describing: notSuspended))") }
        #expect(throws: MachineError.alreadyInState("loggedIn")) { try machine.suspend(to: .loggedIn) }
        try machine.suspend(to: .background)
        let twice = #expect(throws: MachineError.self) { try machine.suspend(to: .background) }
        if case .invalidSnapshot = twice {} else { Issue.record("suspend twice: \(String(describing: twice))") }
        #expect(machine.isSuspended)
    }

    // MARK: - The statechart way: loggedIn is a compound state

    @Test("Machinus + statechart: loggedIn enters its screens after its own didEnter; the screens take events first (R10, R21)")
    func screensInsideLoggedIn() throws {
        var machine = try UserMachine(Self.userMachine(), context: UserSession(userIsLoggedIn: true))
        try machine.transition(to: UserState.loggedOut)
        machine.context.screens.removeAll()
        try machine.transition(to: UserState.loggedIn)
        #expect(machine.activeStateIDs == ["loggedIn.home"])
        #expect(machine.context.screens == ["hideLoginScreen", "displayUsersHomeScreen", "enter home"])
        try machine.send(.openSettings)
        #expect(machine.isActive(Screen.settings))
        try machine.transition(to: Screen.home)  // a request at the screens' level follows their routes
        #expect(machine.activeStateIDs == ["loggedIn.home"])
    }

    @Test("Machinus + statechart: logOut sent to the screens bubbles to loggedIn, which leaves innermost first (R4, R8, R21)")
    func logOutBubbles() throws {
        var machine = try Self.loggedIn()
        try machine.send(.openSettings)
        machine.context.screens.removeAll()
        try machine.send(.logOut)  // the screens have no logOut
        #expect(machine.state == .loggedOut)
        #expect(!machine.isActive(Screen.settings))
        #expect(machine.context.screens == ["exit settings", "leaveUsersHome", "displayLoginScreen"])
    }
}
