import Statechart
import StatechartTesting
import Testing

@Suite("Model paths")
struct ModelPathsTests {
    enum Door: Hashable, Sendable { case closed, opened, locked }
    enum DoorEvent: Hashable, Sendable, CaseIterable { case open, close, lock, unlock }

    static let door = Machine<Door, DoorEvent, Void>(initial: .closed) {
        When(.closed) {
            On(.open, to: .opened)
            On(.lock, to: .locked)
        }
        When(.opened) { On(.close, to: .closed) }
        When(.locked) { On(.unlock, to: .closed) }
    }

    @Test("every transition of a chart is covered in one line")
    func coverage() throws {
        let result = try ModelPaths.checkCoverage(Self.door, context: (), events: DoorEvent.allCases)
        let paths = result.coveringPaths.count
        #expect(paths >= 2)
    }

    @Test("a transition no event sequence can take is reported")
    func uncovered() throws {
        let stuck = Machine<Door, DoorEvent, Void>(initial: .closed) {
            When(.closed) { On(.open, to: .opened) }
            When(.opened) {}
            When(.locked) { On(.unlock, to: .closed) }
        }
        withKnownIssue {
            try ModelPaths.checkCoverage(stuck, context: (), events: DoorEvent.allCases)
        }
    }
}
