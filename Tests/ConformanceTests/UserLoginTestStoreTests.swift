import Statechart
import StatechartTesting
import Testing

/// The user login example checked exhaustively with StatechartTesting's `TestStore`: every exit,
/// entry, action and configuration of each step is stated, and anything else fails the test.
@Suite("Conformance: Machinus README (user login), step by step")
struct UserLoginTestStoreTests {
    typealias Example = UserLoginConformanceTests

    @Test("TestStore: start, log out to the login screen, log in to the home screen, open the settings, log out (R8, R21, R26)")
    func loginJourney() throws {
        var store = try TestStore(Example.userMachine(), context: Example.UserSession()) {
            $0.entered(.initialising)
            $0.ran("action")
        }
        try store.transition(to: .loggedOut) {
            $0.exited(.initialising)
            $0.entered(.loggedOut)
            $0.ran("action")
        }
        store.context.userIsLoggedIn = true  // the barrier of loggedIn now allows the request
        try store.transition(to: .loggedIn) {
            $0.exited(.loggedOut)
            $0.ran("action")
            $0.entered(.loggedIn)
            $0.ran("action")
            $0.entered(Example.Screen.home)
            $0.ran("action")
            $0.configuration(["loggedIn.home"])
        }
        try store.send(.openSettings) {
            $0.exited(Example.Screen.home)
            $0.ran("action")
            $0.entered(Example.Screen.settings)
            $0.ran("action")
        }
        try store.send(.logOut) {  // not handled by the screens: bubbles to loggedIn (R4)
            $0.exited(Example.Screen.settings)
            $0.ran("action")
            $0.exited(.loggedIn)
            $0.ran("action")
            $0.entered(.loggedOut)
            $0.ran("action")
            $0.configuration(["loggedOut"])
        }
        #expect(
            store.context.screens == [
                "reloadConfiguration", "displayLoginScreen", "hideLoginScreen", "displayUsersHomeScreen", "enter home",
                "exit home", "enter settings", "exit settings", "leaveUsersHome", "displayLoginScreen",
            ])
    }
}
