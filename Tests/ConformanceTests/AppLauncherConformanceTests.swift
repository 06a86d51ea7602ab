import Statechart
import Testing

// Stated (jordanhamill) — the app launcher example of its README (seed 003), written with the
// public API of Statechart only. Each `Input | From => To | sideEffect` mapping is a `Transition`
// whose action is the side effect; a side effect that completes later (the README's `onCompletion`
// callbacks) queues work with `scope.perform`, and the input it returns is sent to the machine.

// The time limit only guards against a hang. It is wide because a limit counts from the test's
// start, and under a sanitizer the heavy synchronous suites (random walks, stress) can hold both
// cooperative threads of a 2-core machine for minutes before these tests get to run.
@Suite("Conformance: Stated README (app launcher)", .timeLimit(.minutes(10)))
struct AppLauncherConformanceTests {
    /// The six states (`UninitializedState.slot`, …).
    enum Launch: Hashable, Sendable, CaseIterable {
        case uninitialized, initialized, upgrading, indexing, loggedIn, loggedOut
    }
    /// `Inputs.initialize`, `.upgrade`, `.indexDatabase`, `.logIn`, `.logOut`.
    enum Input: Hashable, Sendable, CaseIterable { case initialize, upgrade, indexDatabase, logIn, logOut }

    struct Launcher: Sendable {
        var visited: [Launch] = []
    }

    /// The README's `upgradeService`, `apiService`, `db` and `rootViewController`, recording each call.
    actor AppServices {
        let isUpgradePending: Bool
        let canLogIn: Bool
        private(set) var calls: [String] = []

        init(isUpgradePending: Bool, canLogIn: Bool) {
            self.isUpgradePending = isUpgradePending
            self.canLogIn = canLogIn
        }

        func showUpgradeProgressController() { calls.append("showUpgradeProgressController") }
        func createSecondaryIndices() { calls.append("createSecondaryIndices") }
        func showLoggedInExperience() { calls.append("showLoggedInExperience") }
        func showLogInViewController() { calls.append("showLogInViewController") }
    }

    typealias SideEffect = @Sendable (inout ActionScope<Input, Launcher>) throws -> Void

    static func appLauncher(_ services: AppServices) -> Machine<Launch, Input, Launcher> {
        // MARK: Side effects — each sends the next input when it completes.
        let initialize: SideEffect = { scope in
            scope.perform("initialize") { services.isUpgradePending ? .upgrade : .indexDatabase }
        }
        let upgrade: SideEffect = { scope in
            scope.perform("upgrade") {
                await services.showUpgradeProgressController()  // onCompletion:
                return .indexDatabase
            }
        }
        let indexDatabase: SideEffect = { scope in
            scope.perform("indexDatabase") {
                await services.createSecondaryIndices()  // onCompletion:
                return services.canLogIn ? .logIn : .logOut
            }
        }
        let logIn: SideEffect = { scope in
            scope.perform("logIn") {
                await services.showLoggedInExperience()  // onLogOut: sent later by the user
                return nil
            }
        }
        let logOut: SideEffect = { scope in
            scope.perform("logOut") {
                await services.showLogInViewController()  // onLoggedIn: sent later by the user
                return nil
            }
        }

        return Machine("appLauncher", initial: .uninitialized) {
            // Input             |        from          =>        to          | side effect
            Transition(from: .uninitialized, on: .initialize, to: .initialized, action: initialize)
            Transition(from: .initialized, on: .upgrade, to: .upgrading, action: upgrade)
            Transition(from: .upgrading, on: .indexDatabase, to: .indexing, action: indexDatabase)
            Transition(from: .initialized, on: .indexDatabase, to: .indexing, action: indexDatabase)
            Transition(from: .indexing, on: .logIn, to: .loggedIn, action: logIn)
            Transition(from: .loggedOut, on: .logIn, to: .loggedIn, action: logIn)
            Transition(from: .indexing, on: .logOut, to: .loggedOut, action: logOut)
            Transition(from: .loggedIn, on: .logOut, to: .loggedOut, action: logOut)
            for state in Launch.allCases {
                When(state) { OnEntry { $0.visited.append(state) } }
            }
        }
    }

    typealias LauncherMachine = AsyncStateMachine<Launch, Input, Launcher>

    struct LaunchPath: Sendable, CustomTestStringConvertible {
        var isUpgradePending: Bool
        var canLogIn: Bool
        var visited: [Launch]
        var calls: [String]
        var testDescription: String { "upgrade pending: \(isUpgradePending), can log in: \(canLogIn)" }
    }

    static let launchPaths: [LaunchPath] = [
        LaunchPath(
            isUpgradePending: true, canLogIn: true,
            visited: [.uninitialized, .initialized, .upgrading, .indexing, .loggedIn],
            calls: ["showUpgradeProgressController", "createSecondaryIndices", "showLoggedInExperience"]),
        LaunchPath(
            isUpgradePending: true, canLogIn: false,
            visited: [.uninitialized, .initialized, .upgrading, .indexing, .loggedOut],
            calls: ["showUpgradeProgressController", "createSecondaryIndices", "showLogInViewController"]),
        LaunchPath(
            isUpgradePending: false, canLogIn: true,
            visited: [.uninitialized, .initialized, .indexing, .loggedIn],
            calls: ["createSecondaryIndices", "showLoggedInExperience"]),
        LaunchPath(
            isUpgradePending: false, canLogIn: false,
            visited: [.uninitialized, .initialized, .indexing, .loggedOut],
            calls: ["createSecondaryIndices", "showLogInViewController"]),
    ]

    // MARK: - Every path

    @Test(
        "Stated README: initialize runs every launch path to its end, visiting exactly these states (R1, R51)",
        arguments: launchPaths)
    func launch(path: LaunchPath) async throws {
        let services = AppServices(isUpgradePending: path.isUpgradePending, canLogIn: path.canLogIn)
        let machine = try await LauncherMachine(Self.appLauncher(services), context: Launcher(), clock: ManualClock())
        try await machine.send(.initialize)  // returns once the inputs the side effects sent are processed (R51)
        #expect(await machine.context.visited == path.visited)
        #expect(await machine.state == path.visited.last)
        #expect(await services.calls == path.calls)
    }

    // MARK: - The mappings

    @Test("Stated README: each of the six states accepts exactly the inputs its mappings name (R59)")
    func mappingTable() throws {
        // The synchronous machine leaves the side effects' work queued, so it rests in every state.
        var machine = try StateMachine(
            Self.appLauncher(AppServices(isUpgradePending: true, canLogIn: true)), context: Launcher())
        var table: [Launch: [Input]] = [machine.state: machine.validEvents]
        for input: Input in [.initialize, .upgrade, .indexDatabase, .logIn, .logOut] {
            try machine.send(input)
            table[machine.state] = machine.validEvents
        }
        #expect(Launch.allCases.count == 6)
        #expect(
            table == [
                .uninitialized: [.initialize],
                .initialized: [.upgrade, .indexDatabase],
                .upgrading: [.indexDatabase],
                .indexing: [.logIn, .logOut],
                .loggedIn: [.logOut],
                .loggedOut: [.logIn],
            ])
    }

    @Test(
        "Stated README: on the synchronous machine the caller completes each side effect and sends its input; onTransition sees every input (R30, R51)",
        arguments: launchPaths)
    func sideEffectsByHand(path: LaunchPath) async throws {
        let services = AppServices(isUpgradePending: path.isUpgradePending, canLogIn: path.canLogIn)
        var machine = try StateMachine(Self.appLauncher(services), context: Launcher())
        var onTransition: [String] = []
        machine.observe { change in onTransition.append("\(change.fromState.map { "\($0)" } ?? "-") → \(change.toState)") }
        try machine.send(.initialize)
        var pending = machine.instance.takePendingWork()  // the side effects' onCompletion callbacks
        while !pending.isEmpty {
            for item in pending {
                if let next = try await item.work() { try machine.send(next) }
            }
            pending = machine.instance.takePendingWork()
        }
        #expect(machine.context.visited == path.visited)
        #expect(onTransition == zip(path.visited, path.visited.dropFirst()).map { "\($0) → \($1)" })
        #expect(await services.calls == path.calls)
    }

    @Test("Stated README: onLogOut and onLoggedIn switch between the two experiences, each showing its screen (R51)")
    func logOutAndIn() async throws {
        let services = AppServices(isUpgradePending: false, canLogIn: true)
        let machine = try await LauncherMachine(Self.appLauncher(services), context: Launcher(), clock: ManualClock())
        try await machine.send(.initialize)
        try await machine.send(.logOut)  // onLogOut
        #expect(await machine.state == .loggedOut)
        try await machine.send(.logIn)  // onLoggedIn
        #expect(await machine.state == .loggedIn)
        #expect(
            await services.calls == [
                "createSecondaryIndices", "showLoggedInExperience", "showLogInViewController", "showLoggedInExperience",
            ])
    }

    @Test("Stated: an input with no mapping for the state is a typed error, not fatalError(\"Undefined transition\") (R18)")
    func undefinedTransition() async throws {
        let services = AppServices(isUpgradePending: false, canLogIn: true)
        let machine = try await LauncherMachine(Self.appLauncher(services), context: Launcher(), clock: ManualClock())
        try await machine.send(.initialize)
        await #expect(throws: MachineError.eventNotHandled(event: "upgrade", configuration: ["loggedIn"])) {
            try await machine.send(.upgrade)
        }
        #expect(await machine.state == .loggedIn)
        #expect(await machine.context.visited.last == .loggedIn)
    }

    @Test("Stated: the side effect's action runs between leaving the old state and entering the new one (R8)")
    func sideEffectBetweenStates() throws {
        enum Step: Hashable, Sendable { case exit(Launch), effect(Input), enter(Launch) }
        let machine = Machine<Launch, Input, [Step]>("stated", initial: .uninitialized) {
            Transition(from: .uninitialized, on: .initialize, to: .initialized) { $0.context.append(.effect(.initialize)) }
            for state in Launch.allCases {
                When(state) {
                    OnEntry { $0.context.append(.enter(state)) }
                    OnExit { $0.context.append(.exit(state)) }
                }
            }
        }
        var running = try StateMachine(machine, context: [])
        try running.send(.initialize)
        // Stated writes the new state first and runs the side effect afterwards.
        #expect(running.context == [.enter(.uninitialized), .exit(.uninitialized), .effect(.initialize), .enter(.initialized)])
    }
}
