import Testing
import Statechart

// The main examples of the five seed libraries' READMEs, rewritten with Statechart.
// Docs/Migration.md shows the same code; every ```swift block there is a verbatim excerpt of
// this file. The types live inside each suite so they do not collide with other test files.

// MARK: - Machinus

@Suite("Migration: Machinus")
struct MachinusMigrationTests {
    enum UserState: Hashable, Sendable {
        case initialising, registering, loggedIn, loggedOut, privacy, banned
    }

    struct UserSession: Sendable {
        var userIsLoggedIn = false
        var registered = false
        var registrationOpen = true
        var resumeState: UserState?
        var screens: [String] = []
    }

    /// Machinus' states have no events: the event type is `Never`.
    static func userMachine() -> Machine<UserState, Never, UserSession> {
        Machine(initial: .initialising) {
            When(.initialising) {
                OnEntry { $0.screens.append("reloadConfiguration") }
                Routes(.loggedOut)
            }
            When(.loggedOut) {
                OnEntry { $0.screens.append("displayLoginScreen") }
                OnExit { $0.screens.append("hideLoginScreen") }
                Routes(.loggedIn, .registering)
            }
            When(.loggedIn) {
                OnEntry { $0.screens.append("displayUsersHomeScreen") }
                TransitionBarrier { $0.userIsLoggedIn ? .allow : .redirect(to: .loggedOut) }
                Routes(.loggedOut)
            }
            When(.registering) {
                OnEntry { $0.screens.append("displayRegistrationScreen") }
                TransitionBarrier { $0.registrationOpen ? .allow : .deny }
                DynamicTransition { $0.registered ? .loggedIn : .loggedOut }
                Routes(.loggedOut, .loggedIn)
            }
            // The README's background (privacy) state, requested by hand: it remembers where it came from.
            Global(.privacy) {
                OnEntry { previous, scope in
                    scope.screens.append("displayPrivacyScreen")
                    scope.resumeState = previous
                }
                OnExit { next, scope in
                    if let next { scope.screens.append("hidePrivacyScreen, back to \(next)") }
                }
                DynamicTransition { $0.resumeState ?? .loggedOut }
                Routes(.initialising, .registering, .loggedIn, .loggedOut)
            }
            FinalGlobal(.banned) {
                OnEntry { $0.screens.append("displayBannedScreen") }
            }
        }
    }

    @Test("Machinus README: starts in the first state and runs its didEnter (R20)")
    func startsInFirstState() throws {
        let machine = try StateMachine(Self.userMachine(), context: UserSession())
        #expect(machine.state == .initialising)
        #expect(machine.context.screens == ["reloadConfiguration"])
    }

    @Test("Machinus README: transition(to:) follows canTransitionTo; a barrier cannot open an undeclared route (R26)")
    func routes() throws {
        var machine = try StateMachine(Self.userMachine(), context: UserSession(userIsLoggedIn: true))
        #expect(throws: MachineError.illegalTransition(from: "initialising", to: "loggedIn")) {
            try machine.transition(to: UserState.loggedIn)
        }
        try machine.transition(to: UserState.loggedOut)
        try machine.transition(to: UserState.loggedIn)
        #expect(machine.state == .loggedIn)
        #expect(
            machine.context.screens == [
                "reloadConfiguration", "displayLoginScreen", "hideLoginScreen", "displayUsersHomeScreen",
            ])
    }

    @Test("Machinus README: a barrier redirects loggedIn to loggedOut (R26)")
    func barrierRedirects() throws {
        var machine = try StateMachine(Self.userMachine(), context: UserSession())
        try machine.transition(to: UserState.loggedOut)
        try machine.transition(to: UserState.registering)
        try machine.transition(to: UserState.loggedIn)  // userIsLoggedIn is false: redirected
        #expect(machine.state == .loggedOut)
        machine.context.userIsLoggedIn = true
        try machine.transition(to: UserState.loggedIn)  // now the barrier allows it
        #expect(machine.state == .loggedIn)
    }

    @Test("Machinus README: a barrier that fails denies the transition (R26)")
    func barrierDenies() throws {
        var machine = try StateMachine(Self.userMachine(), context: UserSession(registrationOpen: false))
        try machine.transition(to: UserState.loggedOut)
        #expect(throws: MachineError.transitionDenied(to: "registering")) {
            try machine.transition(to: UserState.registering)
        }
        #expect(machine.state == .loggedOut)
    }

    @Test("Machinus: barriers that redirect to each other end in redirectCycle, not endless recursion (R26)")
    func redirectCycle() throws {
        let cyclic = Machine<UserState, Never, UserSession>(initial: .loggedOut) {
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
        var machine = try StateMachine(cyclic, context: UserSession())
        #expect(throws: MachineError.redirectCycle(["loggedIn", "registering", "loggedIn"])) {
            try machine.transition(to: UserState.loggedIn)
        }
        #expect(machine.state == .loggedOut)
    }

    @Test("Machinus README: transition() runs the dynamic transition of the registering state (R27)")
    func dynamicTransition() throws {
        var machine = try StateMachine(Self.userMachine(), context: UserSession())
        try machine.transition(to: UserState.loggedOut)
        try machine.transition(to: UserState.registering)
        try machine.transition()  // not registered: loggedOut
        #expect(machine.state == .loggedOut)
        machine.context.registered = true
        machine.context.userIsLoggedIn = true
        try machine.transition(to: UserState.registering)
        try machine.transition()  // registered: loggedIn
        #expect(machine.state == .loggedIn)
        #expect(throws: MachineError.noDynamicTransition("loggedIn")) { try machine.transition() }
    }

    @Test("Machinus README: didEnter gets the previous state, didExit the next one, didTransition follows (R29, R30)")
    func neighboursAndObservers() throws {
        var machine = try StateMachine(Self.userMachine(), context: UserSession(userIsLoggedIn: true))
        var didTransition: [String] = []
        machine.observe { didTransition.append("\($0.fromState.map { "\($0)" } ?? "-") -> \($0.toState)") }
        try machine.transition(to: UserState.loggedOut)
        try machine.transition(to: UserState.loggedIn)
        try machine.transition(to: UserState.privacy)  // global: reachable without a route
        #expect(machine.context.resumeState == .loggedIn)
        try machine.transition()  // back to where it came from
        #expect(machine.state == .loggedIn)
        #expect(
            machine.context.screens.suffix(3) == [
                "displayPrivacyScreen", "hidePrivacyScreen, back to loggedIn", "displayUsersHomeScreen",
            ])
        #expect(
            didTransition == [
                "initialising -> loggedOut", "loggedOut -> loggedIn", "loggedIn -> privacy", "privacy -> loggedIn",
            ])
    }

    @Test("Machinus README: a final global state ends the machine; reset runs exit and entry actions (R15, R19, R28)")
    func finalAndReset() throws {
        var machine = try StateMachine(Self.userMachine(), context: UserSession())
        try machine.transition(to: UserState.loggedOut)
        try machine.reset()  // exits loggedOut, enters initialising
        #expect(machine.state == .initialising)
        #expect(machine.context.screens.suffix(2) == ["hideLoginScreen", "reloadConfiguration"])
        try machine.transition(to: UserState.banned)
        #expect(machine.isFinished)
        #expect(throws: MachineError.finished(finalState: "banned")) { try machine.transition(to: UserState.loggedOut) }
        try machine.reset()  // the only way out
        #expect(machine.state == .initialising)
    }

    @Test("Machinus README: typed errors instead of fatalError; alreadyInState only when asked for (R26, R27)")
    func typedErrors() throws {
        var machine = try StateMachine(Self.userMachine(), context: UserSession())
        #expect(throws: MachineError.unknownState("nowhere")) { try machine.transition(to: "nowhere") }
        #expect(throws: MachineError.noDynamicTransition("initialising")) { try machine.transition() }
        try machine.transition(to: UserState.initialising)  // already there: nothing happens
        machine.options.throwsWhenAlreadyInState = true  // Machinus' enableSameStateError
        #expect(throws: MachineError.alreadyInState("initialising")) {
            try machine.transition(to: UserState.initialising)
        }
    }
}

// MARK: - SwiftState

@Suite("Migration: SwiftState")
struct SwiftStateMigrationTests {
    enum MyState: Hashable, Sendable, CaseIterable { case state0, state1, state2 }
    enum MyEvent: Hashable, Sendable { case event0, event1 }

    struct Messages: Sendable {
        var userInfo: String?
        var printed: [String] = []
    }

    /// `StateMachine<MyState, NoEvent>`: a machine driven by state requests only.
    static func stateMachine() -> Machine<MyState, Never, Messages> {
        Machine(initial: .state0) {
            When(.state0) { Routes(.state1) }  // .state0 => .state1
            When(.state1) {
                OnEntry { previous, scope in  // addHandler(.state0 => .state1)
                    if previous == .state0 { scope.printed.append("0 => 1") }
                }
            }
            Global(.state2) {  // .any => .state2
                OnEntry { $0.printed.append("Any => 2, msg=\($0.userInfo ?? "nil")") }
                OnExit { $0.printed.append("2 => Any, msg=\($0.userInfo ?? "nil")") }
                Routes(MyState.allCases)  // .state2 => .any
            }
        }
    }

    @Test("SwiftState README: 0 => 1, any => 2, 2 => any succeed; 1 => 0 fails and reaches the error handler")
    func stateRoutes() throws {
        var machine = try StateMachine(Self.stateMachine(), context: Messages())
        #expect(machine.state == .state0)
        try machine.transition(to: MyState.state1)  // machine <- .state1
        #expect(machine.state == .state1)
        machine.context.userInfo = "Hello"  // machine <- (.state2, "Hello")
        try machine.transition(to: MyState.state2)
        #expect(machine.state == .state2)
        machine.context.userInfo = "Bye"  // machine <- (.state1, "Bye")
        try machine.transition(to: MyState.state1)
        #expect(machine.state == .state1)
        do {
            try machine.transition(to: MyState.state0)  // fail: no 1 => 0
        } catch MachineError.illegalTransition(let from, let to) {  // addErrorHandler
            machine.context.printed.append("[ERROR] \(from) => \(to)")
        }
        #expect(machine.state == .state1)
        #expect(
            machine.context.printed == [
                "0 => 1", "Any => 2, msg=Hello", "2 => Any, msg=Bye", "[ERROR] state1 => state0",
            ])
    }

    static func eventMachine() -> Machine<MyState, MyEvent, Void> {
        Machine(initial: .state0) {
            // addRoutes(event: .event0, transitions: [.state0 => .state1, .state1 => .state2])
            Transition(from: .state0, on: .event0, to: .state1)
            Transition(from: .state1, on: .event0, to: .state2)
        }
    }

    static func wildcardMachine() -> Machine<MyState, MyEvent, Bool> {
        Machine(initial: .state0) {
            // [.state0, .state1] => .state2, with a condition on the context
            Transition(from: [.state0, .state1], on: .event1, to: .state2, guard: { isAllowed in isAllowed })
            When(.state2) { On(.event0, to: .state1) }  // a specific route for event0 ...
            AnyState { On(.event0, to: .state0) }  // ... and .any => .state0 for the same event
        }
    }

    @Test("SwiftState README: event routes; a third event0 has no route from state2 (R18)")
    func eventRoutes() throws {
        var machine = try StateMachine(Self.eventMachine(), context: ())
        var printed: [String] = []
        machine.observe { change in  // addHandler(event: .event0)
            if change.event == .event0 { printed.append(".event0 triggered!") }
        }
        try machine.send(.event0)  // machine <-! .event0
        #expect(machine.state == .state1)
        try machine.send(.event0)
        #expect(machine.state == .state2)
        #expect(throws: MachineError.eventNotHandled(event: "event0", configuration: ["state2"])) {
            try machine.send(.event0)  // event0 doesn't have 2 => Any
        }
        #expect(machine.state == .state2)
        #expect(printed == [".event0 triggered!", ".event0 triggered!"])
    }

    @Test("SwiftState README: source arrays, conditions, .any routes; the specific route wins every run (R25)")
    func wildcardsAndConditions() throws {
        var machine = try StateMachine(Self.wildcardMachine(), context: false)
        #expect(throws: MachineError.eventNotHandled(event: "event1", configuration: ["state0"])) {
            try machine.send(.event1)  // the condition is false
        }
        machine.context = true
        try machine.send(.event1)
        #expect(machine.state == .state2)
        try machine.send(.event0)  // state2's own route, never the .any one
        #expect(machine.state == .state1)
        try machine.send(.event0)  // state1 has no route of its own: the .any route
        #expect(machine.state == .state0)
    }

    enum StrState: Hashable, Sendable { case str(String) }
    enum StrEvent: Hashable, Sendable { case str(String) }

    /// The README's route mapping: states and events are compared with `==`, associated values included.
    static func strMachine() -> Machine<StrState, StrEvent, Void> {
        Machine(initial: .str("initial")) {
            Transition(from: .str("initial"), on: .str("gogogo"), to: .str("Phase 1"))
            Transition(from: .str("Phase 1"), on: .str("gogogo"), to: .str("Phase 2"))
            Transition(from: .str("Phase 2"), on: .str("finish"), to: .str("end"))
        }
    }

    @Test("SwiftState README: route mapping for state and event enums with associated values")
    func routeMapping() throws {
        var machine = try StateMachine(Self.strMachine(), context: ())
        machine.options.throwsOnUnhandledEvent = false  // like `<-!`: a failed try changes nothing
        #expect(machine.state == .str("initial"))
        try machine.send(.str("go?"))
        #expect(machine.state == .str("initial"), "No change.")
        try machine.send(.str("gogogo"))
        #expect(machine.state == .str("Phase 1"))
        try machine.send(.str("finish"))
        #expect(machine.state == .str("Phase 1"), "No change.")
        try machine.send(.str("gogogo"))
        #expect(machine.state == .str("Phase 2"))
        try machine.send(.str("gogogo"))
        #expect(machine.state == .str("Phase 2"), "No change.")
        try machine.send(.str("finish"))
        #expect(machine.state == .str("end"))
    }

    enum Player: Hashable, Sendable { case stopped, playing }
    enum PlayerEvent: Hashable, Sendable { case play(track: String), stop }

    /// A route mapping that looks at the event's case, not its value: `On(matching:)`.
    /// The state's associated value (the track) moves to the context.
    static func playerMachine() -> Machine<Player, PlayerEvent, [String]> {
        Machine(initial: .stopped) {
            When(.stopped) {
                On(matching: { if case .play = $0 { true } else { false } }, to: .playing,
                   guard: { _, event in event != .play(track: "") }) { scope in
                    if case .play(let track) = scope.userEvent { scope.context.append(track) }
                }
            }
            When(.playing) { On(.stop, to: .stopped) }
        }
    }

    @Test("SwiftState README: a route mapping over an event case with any associated value, via On(matching:) (R5)")
    func matchingRoutes() throws {
        var machine = try StateMachine(Self.playerMachine(), context: [])
        #expect(throws: MachineError.eventNotHandled(event: "play(track: \"\")", configuration: ["stopped"])) {
            try machine.send(.play(track: ""))
        }
        try machine.send(.play(track: "Intro"))
        #expect(machine.state == .playing)
        try machine.send(.stop)
        try machine.send(.play(track: "Outro"))
        #expect(machine.context == ["Intro", "Outro"])
    }
}

// MARK: - DDStateMachine

@Suite("Migration: DDStateMachine")
struct DDStateMachineMigrationTests {
    enum SyncStatus: Hashable, Sendable { case notSynced, inProgress, synced, failed }
    enum SyncEvent: Hashable, Sendable { case sync, result(Bool), cacheExpired }

    struct SyncExtraState: Sendable {
        var expiry: Duration?  // machine time at which the cache expires; nil: expired
        var syncRuns = 0  // how often the sync work was started
    }

    static func syncMachine(initial: SyncStatus = .notSynced) -> Machine<SyncStatus, SyncEvent, SyncExtraState> {
        Machine(initial: initial) {
            When(.notSynced) {
                On(.sync, to: .inProgress)  // .by(event: .sync).immediately()
            }
            When(.inProgress) {
                OnEntry { $0.syncRuns += 1 }  // the work: start doSync(); the app sends .result(ok) when it ends
                On(.result(true), to: .synced) { scope in  // .ifResult { result } with .on { expiry = now + 30 s }
                    scope.expiry = scope.now + .seconds(30)
                }
                On(.result(false), to: .failed)  // .ifResult { !result }
            }
            When(.synced) {
                OnEntry { scope in  // the transition's action has already set the expiry (R8)
                    if let expiry = scope.expiry { scope.send(.cacheExpired, after: expiry - scope.now, id: "cache") }
                }
                On(.cacheExpired) { $0.expiry = nil }
                On(.sync, to: .inProgress, guard: { $0.expiry == nil })  // .ifCondition: the cache has expired
            }
            When(.failed) {
                On(.sync, to: .inProgress)
            }
        }
    }

    @Test("DDStateMachine README: sync, result true → synced for 30 s of machine time, then sync again (R17)")
    func syncExample() throws {
        var machine = try StateMachine(Self.syncMachine(), context: SyncExtraState())
        try machine.send(.sync)
        #expect(machine.state == .inProgress)
        try machine.advance(by: .seconds(5))
        try machine.send(.result(true))  // the sync work succeeded at t = 5 s
        #expect(machine.state == .synced)
        #expect(machine.context.expiry == .seconds(35))
        try machine.advance(by: .seconds(29))
        #expect(throws: MachineError.eventNotHandled(event: "sync", configuration: ["synced"])) {
            try machine.send(.sync)  // t = 34 s: the cache is still valid
        }
        try machine.advance(by: .seconds(1))  // t = 35 s: cacheExpired fires
        #expect(machine.context.expiry == nil)
        try machine.send(.sync)
        #expect(machine.state == .inProgress)
        try machine.send(.result(false))
        #expect(machine.state == .failed)
        try machine.send(.sync)
        #expect(machine.state == .inProgress)
        #expect(machine.context.syncRuns == 3)
    }

    @Test("DDStateMachine README: unmatched events are ignored when throwsOnUnhandledEvent is off (R18)")
    func unmatchedEventsIgnored() throws {
        var machine = try StateMachine(Self.syncMachine(), context: SyncExtraState())
        machine.options.throwsOnUnhandledEvent = false  // DDStateMachine's behaviour
        try machine.send(.result(true))  // no sync is running: ignored
        #expect(machine.state == .notSynced)
        try machine.send([.sync, .result(true), .sync])  // the last one: cache still valid, ignored
        #expect(machine.state == .synced)
        #expect(machine.context.syncRuns == 1)
    }

    @Test("DDStateMachine: an initial work state runs its work when the machine starts (R20)")
    func initialWorkStateRuns() throws {
        let machine = try StateMachine(Self.syncMachine(initial: .inProgress), context: SyncExtraState())
        #expect(machine.state == .inProgress)
        #expect(machine.context.syncRuns == 1)
    }
}

// MARK: - Stated

@Suite("Migration: Stated")
struct StatedMigrationTests {
    enum Launch: Hashable, Sendable, CaseIterable {
        case uninitialized, initialized, upgrading, indexing, loggedIn, loggedOut
    }
    enum Input: Hashable, Sendable { case initialize, upgrade, indexDatabase, logIn, logOut }
    enum Step: Hashable, Sendable { case entered(Launch), effect(String) }

    struct AppLauncher: Sendable {
        var isUpgradePending: Bool
        var canLogIn: Bool
        var steps: [Step] = []
        var visited: [Launch] { steps.compactMap { if case .entered(let state) = $0 { state } else { nil } } }
    }

    typealias SideEffect = @Sendable (inout ActionScope<Input, AppLauncher>) throws -> Void

    // MARK: Side effects
    static let initialize: SideEffect = { scope in
        scope.steps.append(.effect("initialize"))
        scope.raise(scope.isUpgradePending ? .upgrade : .indexDatabase)
    }
    static let upgrade: SideEffect = { scope in
        scope.steps.append(.effect("upgrade"))  // showUpgradeProgressController; it completes at once here
        scope.send(.indexDatabase)
    }
    static let indexDatabase: SideEffect = { scope in
        scope.steps.append(.effect("indexDatabase"))  // createSecondaryIndices; completes at once here
        scope.send(scope.canLogIn ? .logIn : .logOut)
    }
    static let logIn: SideEffect = { $0.steps.append(.effect("logIn")) }  // showLoggedInExperience
    static let logOut: SideEffect = { $0.steps.append(.effect("logOut")) }  // showLogInViewController

    static func appLauncher() -> Machine<Launch, Input, AppLauncher> {
        Machine(initial: .uninitialized) {
            // Stated's `Input | From => To | sideEffect`, one line per mapping:
            Transition(from: .uninitialized, on: .initialize, to: .initialized, action: initialize)
            Transition(from: .initialized, on: .upgrade, to: .upgrading, action: upgrade)
            Transition(from: .upgrading, on: .indexDatabase, to: .indexing, action: indexDatabase)
            Transition(from: .initialized, on: .indexDatabase, to: .indexing, action: indexDatabase)
            Transition(from: .indexing, on: .logIn, to: .loggedIn, action: logIn)
            Transition(from: .loggedOut, on: .logIn, to: .loggedIn, action: logIn)
            Transition(from: .indexing, on: .logOut, to: .loggedOut, action: logOut)
            Transition(from: .loggedIn, on: .logOut, to: .loggedOut, action: logOut)
            for state in Launch.allCases {
                When(state) { OnEntry { $0.steps.append(.entered(state)) } }
            }
        }
    }

    static let launchPaths: [(isUpgradePending: Bool, canLogIn: Bool, visited: [Launch])] = [
        (true, true, [.uninitialized, .initialized, .upgrading, .indexing, .loggedIn]),
        (true, false, [.uninitialized, .initialized, .upgrading, .indexing, .loggedOut]),
        (false, true, [.uninitialized, .initialized, .indexing, .loggedIn]),
        (false, false, [.uninitialized, .initialized, .indexing, .loggedOut]),
    ]

    @Test("Stated README: initialize runs the app launcher to loggedIn or loggedOut, upgrading when pending (R9)",
          arguments: launchPaths)
    func launch(path: (isUpgradePending: Bool, canLogIn: Bool, visited: [Launch])) throws {
        let launcher = AppLauncher(isUpgradePending: path.isUpgradePending, canLogIn: path.canLogIn)
        var machine = try StateMachine(Self.appLauncher(), context: launcher)
        try machine.send(.initialize)  // returns when the inputs sent by side effects are processed too
        #expect(machine.context.visited == path.visited)
        #expect(machine.state == path.visited.last)
    }

    @Test("Stated README: each side effect runs after leaving the old state, before entering the new one (R8)")
    func sideEffectOrder() throws {
        var machine = try StateMachine(Self.appLauncher(), context: AppLauncher(isUpgradePending: true, canLogIn: true))
        try machine.send(.initialize)
        #expect(
            machine.context.steps == [
                .entered(.uninitialized),
                .effect("initialize"), .entered(.initialized),
                .effect("upgrade"), .entered(.upgrading),
                .effect("indexDatabase"), .entered(.indexing),
                .effect("logIn"), .entered(.loggedIn),
            ])
    }

    @Test("Stated README: logOut and logIn switch between the logged-in and logged-out experiences")
    func logOutAndIn() throws {
        let launcher = AppLauncher(isUpgradePending: false, canLogIn: true)
        var machine = try StateMachine(Self.appLauncher(), context: launcher)
        try machine.send(.initialize)
        try machine.send(.logOut)
        #expect(machine.state == .loggedOut)
        try machine.send(.logIn)
        #expect(machine.state == .loggedIn)
        #expect(
            machine.context.steps.suffix(4) == [
                .effect("logOut"), .entered(.loggedOut), .effect("logIn"), .entered(.loggedIn),
            ])
    }

    @Test("Stated: an input with no mapping is a typed error, not fatalError(\"Undefined transition\") (R18)")
    func undefinedTransition() throws {
        let launcher = AppLauncher(isUpgradePending: false, canLogIn: true)
        var machine = try StateMachine(Self.appLauncher(), context: launcher)
        try machine.send(.initialize)
        #expect(throws: MachineError.eventNotHandled(event: "upgrade", configuration: ["loggedIn"])) {
            try machine.send(.upgrade)
        }
        #expect(machine.state == .loggedIn)
    }
}

// MARK: - swift-state-kit

@Suite("Migration: swift-state-kit")
struct StateKitMigrationTests {
    enum OrderState: Hashable, Sendable { case pending, onHold, confirmed, shipped, delivered }
    enum OrderEvent: Hashable, Sendable { case confirm, ship, deliver, reset, pack }

    struct Order: Sendable {
        var isPaid = true
        var emailServiceDown = false
        var trail: [String] = []
    }
    struct EmailError: Error {}

    static func orderMachine() -> Machine<OrderState, OrderEvent, Order> {
        Machine(initial: .pending) {
            Transition(from: .pending, on: .confirm, to: .confirmed, guard: { $0.isPaid }) { scope in
                if scope.emailServiceDown { throw EmailError() }
                scope.trail.append("sendConfirmationEmail")  // the side effect
            }
            Transition(from: .pending, on: .confirm, to: .onHold)  // fallback when the guard above fails
            Transition(from: .onHold, on: .confirm, to: .confirmed, guard: { $0.isPaid })
            Transition(from: .confirmed, on: .ship, to: .shipped)
            Transition(from: .shipped, on: .deliver, to: .delivered)
            Transition(fromAny: .reset, to: .pending)  // wildcard: from any state
            When(.pending) { OnExit { $0.trail.append("logOrderStart") } }  // machine.onExit(.pending)
            When(.shipped) { OnEntry { $0.trail.append("sendTrackingNotification") } }  // machine.onEnter(.shipped)
        }
    }

    @Test("swift-state-kit README: pending → confirmed → shipped → delivered; exit, side effect, entry (R8)")
    func orderFlow() throws {
        var machine = try StateMachine(Self.orderMachine(), context: Order())
        try machine.send(.confirm)
        #expect(machine.state == .confirmed)
        try machine.send(.ship)
        try machine.send(.deliver)
        #expect(machine.state == .delivered)
        #expect(machine.context.trail == ["logOrderStart", "sendConfirmationEmail", "sendTrackingNotification"])
    }

    @Test("swift-state-kit README: guards are tried in order and a failing guard falls through (R25)")
    func orderedGuards() throws {
        var machine = try StateMachine(Self.orderMachine(), context: Order(isPaid: false))
        try machine.send(.confirm)
        #expect(machine.state == .onHold)
        machine.context.isPaid = true
        try machine.send(.confirm)
        #expect(machine.state == .confirmed)
    }

    @Test("swift-state-kit README: the wildcard reset works from any state, pending included (R25, R31)")
    func wildcardReset() throws {
        var machine = try StateMachine(Self.orderMachine(), context: Order())
        try machine.send([.confirm, .ship, .deliver, .reset])
        #expect(machine.state == .pending)
        machine.context.trail.removeAll()
        try machine.send(.reset)  // a self-loop: exit actions run, then entry actions
        #expect(machine.state == .pending)
        #expect(machine.context.trail == ["logOrderStart"])
    }

    @Test("swift-state-kit README: send([events]) stops at the first event that fails; earlier ones stay (R18)")
    func batchSend() throws {
        var machine = try StateMachine(Self.orderMachine(), context: Order())
        #expect(throws: MachineError.eventNotHandled(event: "deliver", configuration: ["confirmed"])) {
            try machine.send([.confirm, .deliver, .ship])
        }
        #expect(machine.state == .confirmed)
    }

    @Test("swift-state-kit: a throwing side effect is reported, but the transition is not rolled back (R14)")
    func throwingSideEffect() throws {
        var machine = try StateMachine(Self.orderMachine(), context: Order(emailServiceDown: true))
        #expect(throws: MachineError.self) { try machine.send(.confirm) }
        #expect(machine.state == .confirmed)
        #expect(machine.context.trail == ["logOrderStart"])
    }

    enum Loading: Hashable, Sendable { case idle, loading, error }
    enum LoadEvent: Hashable, Sendable { case start, cancel, timeout }

    /// TimeoutTransition(from: .loading, after: .seconds(30), on: .timeout, to: .error)
    static func loader() -> Machine<Loading, LoadEvent, Void> {
        Machine(initial: .idle) {
            Transition(from: .idle, on: .start, to: .loading)
            Transition(from: .loading, on: .cancel, to: .idle)
            When(.loading) {
                OnEntry { $0.send(.timeout, after: .seconds(30), id: "loading.timeout") }
                OnExit { $0.cancel(sendID: "loading.timeout") }
                On(.timeout, to: .error)
            }
        }
    }

    @Test("swift-state-kit README: a timeout is armed on entry and cancelled on exit, never early (R17)")
    func timeout() throws {
        var machine = try StateMachine(Self.loader(), context: ())
        try machine.send(.start)
        try machine.advance(by: .seconds(20))
        try machine.send([.cancel, .start])  // left and entered again at t = 20 s
        try machine.advance(by: .seconds(29))  // t = 49 s: the first timer would have fired at 30 s
        #expect(machine.state == .loading)
        try machine.advance(by: .seconds(1))  // t = 50 s
        #expect(machine.state == .error)
    }

    enum Packing: Hashable, Sendable { case picking, packed }

    /// swift-state-kit's attach(child:to:) only resets the child; here the child really lives inside `confirmed`.
    static func orderWithPacking() -> Machine<OrderState, OrderEvent, Order> {
        let packing = Machine<Packing, OrderEvent, Order>(initial: .picking) {
            Transition(from: .picking, on: .pack, to: .packed)
            Final(.packed)
        }
        var order = Machine<OrderState, OrderEvent, Order>(initial: .pending) {
            Transition(from: .pending, on: .confirm, to: .confirmed)
            When(.confirmed) { OnDone(to: .shipped) }  // the child finished
            Transition(from: .shipped, on: .deliver, to: .delivered)
            Transition(fromAny: .reset, to: .pending)
        }
        order.attach(child: packing, to: .confirmed)
        return order
    }

    @Test("swift-state-kit: an attached child gets events first, bubbles the rest, finishes its parent (R21, R24)")
    func attachedChild() throws {
        var machine = try StateMachine(Self.orderWithPacking(), context: Order())
        #expect(throws: MachineError.eventNotHandled(event: "pack", configuration: ["pending"])) {
            try machine.send(.pack)  // the child does not run while its parent state is inactive
        }
        try machine.send(.confirm)
        #expect(machine.activeStateIDs == ["confirmed.picking"])
        try machine.send(.reset)  // not handled by the child: bubbles to the wildcard
        #expect(machine.state == .pending)
        #expect(!machine.isActive(Packing.picking))
        try machine.send([.confirm, .pack])  // the child handles pack, reaches its final state ...
        #expect(machine.state == .shipped)  // ... and its parent's OnDone moves on
    }
}
