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

    @Test("R26: a request finds its state by its own type's table, and by a value of another type that AnyHashable finds equal")
    func valueOfAnotherType() throws {
        let machine = Machine<Int, LoginEvent, Void>(initial: 1) {
            Global(1)
            Global(2)
            Global(3)
        }
        var m = try StateMachine(machine, context: ())
        try m.transition(to: 2)
        #expect(m.state == 2)
        // `AnyHashable(3.0) == AnyHashable(3)`: the Int level's table is asked through its
        // equality, not its dictionary.
        try m.transition(to: 3.0)
        #expect(m.state == 3)
        #expect(throws: MachineError.unknownState("2.5")) { try m.transition(to: 2.5) }
        #expect(throws: MachineError.unknownState("two")) { try m.transition(to: "two") }
    }
}

/// `StateMachine.state` read in place from the configuration (issue 16): the first active state
/// after the root is the top-level one, whatever is active inside it.
@Suite("Reading the top-level state")
struct TopLevelStateTests {
    enum Top: Hashable, Sendable { case home, away, done }
    enum Move: Hashable, Sendable { case inner, leave, finish }

    @Test("state is the top-level state while a child runs inside it, the final state after the end, the initial after a reset")
    func readsTheTopLevel() throws {
        let inner = Machine<StateRequestRulesTests.Step, Move, Void>(initial: .first) {
            When(.first) { On(.inner, to: .second) }
            Global(.second)
        }
        var top = Machine<Top, Move, Void>(initial: .home) {
            When(.home) { On(.leave, to: .away) }
            When(.away) { On(.finish, to: .done) }
            Final(.done)
        }
        top.attach(child: inner, to: .home)
        var m = try StateMachine(top, context: ())
        #expect(m.state == .home)
        try m.send(.inner)  // handled inside: the child moves, the top level stays
        #expect(m.activeStateIDs.contains("home.second"))
        #expect(m.state == .home)
        try m.send(.leave)
        #expect(m.state == .away)
        try m.send(.finish)
        #expect(m.isFinished)
        #expect(m.state == .done)
        try m.reset()
        #expect(m.state == .home)
    }
}
