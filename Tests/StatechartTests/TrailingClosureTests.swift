import Statechart
import Testing

/// A trailing closure after `On(…)` is the transition's action, whatever the target form (rule R70).
@Suite("Trailing closures bind to the action")
struct TrailingClosureTests {
    enum Top: Hashable, Sendable { case a, b }
    enum Ev: Hashable, Sendable { case go }
    struct Marker: Error {}

    static func run(_ on: On<Top, Ev, Int>) throws -> (Top, MachineError?) {
        let m = Machine<Top, Ev, Int>(initial: .a) {
            When(.a) { on }
            When(.b) {}
        }
        var machine = try StateMachine(m, context: 0)
        do {
            try machine.send(.go)
            return (machine.state, nil)
        } catch {
            return (machine.state, error)
        }
    }

    @Test("R70: On(.e, to: .state(X)) { … } runs the closure as the action, as On(.e, to: .b) { … } does")
    func stateRefTrailingClosureIsTheAction() throws {
        // A closure that type-checks both as a guard and as an action: as a guard it would throw
        // (guard false, nothing taken); as the action the transition is taken and the action fails.
        let (plain, _) = try Self.run(On(.go, to: .b) { _ in throw Marker() })
        let (byRef, error) = try Self.run(On(.go, to: .state(Top.b)) { _ in throw Marker() })
        #expect(plain == .b)
        #expect(byRef == .b)
        guard case .executionFailed(let messages)? = error else {
            Issue.record("expected executionFailed, got \(String(describing: error))")
            return
        }
        #expect(!messages.contains { $0.contains("guard") }, "\(messages)")
    }

    @Test("R70: a dynamic target's trailing closure is the action too; guards keep their label")
    func dynamicTrailingClosureIsTheAction() throws {
        let (dynamic, _) = try Self.run(On(.go, dynamic: { _, _ in .b }) { _ in throw Marker() })
        #expect(dynamic == .b)
        let (guarded, _) = try Self.run(On(.go, to: .state(Top.b), guard: { _ in false }) { $0.context += 1 })
        #expect(guarded == .a)
        let (counted, _) = try Self.run(On(.go, to: .state(Top.b), guard: { $0 == 0 }) { $0.context += 1 })
        #expect(counted == .b)
    }
}
