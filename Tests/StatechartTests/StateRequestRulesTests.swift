import Testing

@testable import Statechart

/// The checks of a state request read by chart index (`RequestRules`, issue 16): these requests
/// go to machines attached in several places, whose levels declare globals, finals, routes and
/// barriers of their own, so that an index read from the wrong level would show.
@Suite("State request rules by index")
struct StateRequestRulesTests {
    enum Top: Hashable, Sendable { case home, left, right }
    enum Step: Hashable, Sendable { case first, second, third, done }

    /// `Step`'s machine, attached to `left` and to `right`: `first` routes to `second` only,
    /// `third` is global, `done` is final, and `second`'s barrier redirects to `third` while the
    /// context says so.
    static func machine() -> Machine<Top, LoginEvent, Bool> {
        let steps = Machine<Step, LoginEvent, Bool>(initial: .first) {
            When(.first) { Routes(.second) }
            When(.second) {
                Routes(.done)
                TransitionBarrier { redirect in redirect ? .redirect(to: .third) : .allow }
            }
            Global(.third)
            Final(.done)
        }
        var top = Machine<Top, LoginEvent, Bool>(initial: .home) {
            Global(.home)
            Global(.left)
            Global(.right)
        }
        top.attach(child: steps, to: .left)
        top.attach(child: steps, to: .right)
        return top
    }

    @Test("R26: a value of a machine attached in two places is requested where its level runs, with that level's rules")
    func attachedTwice() throws {
        var m = try StateMachine(Self.machine(), context: false)
        // Neither place runs: the first place's state, refused because its level is inactive.
        #expect(throws: MachineError.illegalTransition(from: "left (inactive)", to: "left.second")) {
            try m.transition(to: Step.second)
        }
        try m.transition(to: Top.right)
        #expect(m.activeStateIDs.contains("right.first"))
        // `first` routes to `second` only: `done` is not reachable from it.
        #expect(throws: MachineError.illegalTransition(from: "right.first", to: "right.done")) {
            try m.transition(to: Step.done)
        }
        try m.transition(to: Step.second)
        #expect(m.activeStateIDs.contains("right.second"))
        // A global state of the child's level, from anywhere in it.
        try m.transition(to: Step.third)
        #expect(m.activeStateIDs.contains("right.third"))
        try m.transition(to: Top.left)
        m.context = true
        // In the other place, the barrier of its own `second` redirects to its own `third`.
        try m.transition(to: Step.second)
        #expect(m.activeStateIDs.contains("left.third"))
        #expect(!m.activeStateIDs.contains { $0.hasPrefix("right.") })
    }

    @Test("R26: a final state of an attached level cannot be left by a request; the top level still can be")
    func finalInAttachedLevel() throws {
        var m = try StateMachine(Self.machine(), context: false)
        try m.transition(to: Top.left)
        try m.transition(to: Step.second)
        try m.transition(to: Step.done)
        #expect(m.activeStateIDs.contains("left.done"))
        #expect(throws: MachineError.finalState("left.done")) { try m.transition(to: Step.third) }
        try m.transition(to: Top.right)
        #expect(m.activeStateIDs.contains("right.first"))
    }
}
