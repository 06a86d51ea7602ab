import Foundation
import Statechart
import StatechartInterchange
import Testing

@Suite("Notifications")
struct NotificationTests {
    enum S: Hashable, Sendable { case off, on }
    enum E: Hashable, Sendable { case toggle }

    @Test("R30: posting notifications is an opt-in observer, kept out of the core, and removable")
    func posting() throws {
        let machine = Machine<S, E, Void>(initial: .off) {
            When(.off) { On(.toggle, to: .on) }
            When(.on) { On(.toggle, to: .off) }
        }
        final class Box: @unchecked Sendable { var received: [[String]] = [] }
        let box = Box()
        let center = NotificationCenter()
        let token = center.addObserver(forName: .statechartDidTransition, object: nil, queue: nil) { note in
            box.received.append(note.userInfo?[StatechartNotificationKey.to] as? [String] ?? [])
        }
        defer { center.removeObserver(token) }
        var m = try StateMachine(machine, context: ())
        let posting = m.postNotifications(center: center)
        try m.send(.toggle)
        m.removeObserver(posting)
        try m.send(.toggle)
        #expect(box.received == [["on"]])
    }
}
