import Statechart
import StatechartTesting
import Testing

/// The app launcher example checked exhaustively with StatechartTesting's `TestStore`. The
/// synchronous machine queues the side effects' work without running it, so the test sends the
/// inputs their completions would send, and checks every step of each.
@Suite("Conformance: Stated README (app launcher), step by step")
struct AppLauncherTestStoreTests {
    typealias Example = AppLauncherConformanceTests

    @Test("TestStore: initialize → index → log in → log out → log in, each side effect between exit and entry (R8)")
    func launchPath() throws {
        let services = Example.AppServices(isUpgradePending: false, canLogIn: true)
        var store = try TestStore(Example.appLauncher(services), context: Example.Launcher()) {
            $0.entered(.uninitialized)
            $0.ran("action")  // visited.append
        }
        // Input | from => to | side effect: the side effect runs between the exit and the entry.
        let path: [(Example.Input, Example.Launch, Example.Launch)] = [
            (.initialize, .uninitialized, .initialized), (.indexDatabase, .initialized, .indexing),
            (.logIn, .indexing, .loggedIn), (.logOut, .loggedIn, .loggedOut), (.logIn, .loggedOut, .loggedIn),
        ]
        for (input, from, to) in path {
            try store.send(input) {
                $0.exited(from)
                $0.ran("action")  // the side effect, which queues its work
                $0.entered(to)
                $0.ran("action")  // visited.append
            }
        }
        #expect(store.context.visited == [.uninitialized, .initialized, .indexing, .loggedIn, .loggedOut, .loggedIn])
        // Inputs with no mapping from the current state change nothing (R18).
        #expect(throws: MachineError.self) { try store.send(.upgrade) }
    }
}
