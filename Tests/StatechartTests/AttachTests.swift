import Testing
import Statechart

@Suite("attach(child:to:)")
struct AttachTests {
    @Test("R21: the child is entered with its parent, at its initial state, after the parent's entry actions")
    func childEnteredWithParent() throws {
        var m = try StateMachine(orderMachine(), context: OrderLog())
        #expect(m.state == .pending)
        try m.send(.confirm)
        #expect(m.state == .confirmed)
        #expect(m.isActive(PaymentState.authorizing))
        #expect(m.activeState(of: PaymentState.self) == .authorizing)
        #expect(m.activeStateIDs == ["confirmed.authorizing"])
        #expect(m.context.entries == ["enter pending", "exit pending", "enter confirmed", "enter authorizing"])
    }

    @Test("R21: events go to the child first; what it does not handle bubbles to the parent")
    func bubbling() throws {
        var m = try StateMachine(orderMachine(), context: OrderLog())
        try m.send(.confirm)
        try m.send(.authorize)
        #expect(m.activeState(of: PaymentState.self) == .authorized)
        m.context.entries.removeAll()
        try m.send(.cancel)  // no payment state handles cancel: it bubbles to the order's any-state route
        #expect(m.state == .cancelled)
        #expect(!m.isActive(PaymentState.authorized))
        // R8: exited innermost first.
        #expect(m.context.entries == ["exit authorized", "exit confirmed", "enter cancelled"])
    }

    @Test("R24: a child reaching a final state raises the parent's done event")
    func doneEvent() throws {
        var m = try StateMachine(orderMachine(), context: OrderLog())
        try m.send([.confirm, .authorize, .capture])
        #expect(m.state == .shipped)
        #expect(m.context.paid)
        try m.send(.deliver)
        #expect(m.isFinished)
        #expect(m.state == .delivered)
        #expect(throws: MachineError.finished(finalState: "delivered")) { try m.send(.reset) }
    }

    @Test("R18: an event nobody handles throws and changes nothing")
    func unhandled() throws {
        var m = try StateMachine(orderMachine(), context: OrderLog())
        #expect(throws: MachineError.eventNotHandled(event: "ship", configuration: ["pending"])) { try m.send(.ship) }
        #expect(m.state == .pending)
        m.options.throwsOnUnhandledEvent = false
        try m.send(.ship)
        #expect(m.state == .pending)
    }

    @Test("R23: deep history re-enters the child where it was; without history it restarts")
    func history() throws {
        let withHistory = Machine<OrderState, OrderEvent, OrderLog>(initial: .pending) {
            When(.pending) { On(.confirm, to: .confirmed) }
            When(.confirmed) { On(.ship, to: .pending) }
        }.attaching(child: paymentMachine(), to: .confirmed, history: .deep)
        var m = try StateMachine(withHistory, context: OrderLog())
        try m.send([.confirm, .authorize, .ship, .confirm])
        #expect(m.activeState(of: PaymentState.self) == .authorized)

        let without = Machine<OrderState, OrderEvent, OrderLog>(initial: .pending) {
            When(.pending) { On(.confirm, to: .confirmed) }
            When(.confirmed) { On(.ship, to: .pending) }
        }.attaching(child: paymentMachine(), to: .confirmed)
        var n = try StateMachine(without, context: OrderLog())
        try n.send([.confirm, .authorize, .ship, .confirm])
        #expect(n.activeState(of: PaymentState.self) == .authorizing)
    }

    @Test("R22: several children attached to one state run as parallel regions")
    func parallelChildren() throws {
        enum Light: Hashable, Sendable { case off, on }
        enum Fan: Hashable, Sendable { case still, spinning }
        enum Room: Hashable, Sendable { case empty, occupied }
        enum E: Hashable, Sendable { case enter, leave, toggle, spin }
        let light = Machine<Light, E, Void>("light", initial: .off) {
            When(.off) { On(.toggle, to: .on) }
            When(.on) { On(.toggle, to: .off) }
        }
        let fan = Machine<Fan, E, Void>("fan") {
            When(.still) { On(.spin, to: .spinning) }
            When(.spinning) {}
        }
        var room = Machine<Room, E, Void>(initial: .empty) {
            When(.empty) { On(.enter, to: .occupied) }
            When(.occupied) { On(.leave, to: .empty) }
        }
        room.attach(child: light, to: .occupied)
        room.attach(child: fan, to: .occupied)
        var m = try StateMachine(room, context: ())
        try m.send(.enter)
        #expect(m.activeStateIDs == ["occupied.light.off", "occupied.fan.still"])
        try m.send(.toggle)
        try m.send(.spin)
        #expect(m.activeStates(of: Light.self) == [.on])
        #expect(m.activeStates(of: Fan.self) == [.spinning])
        try m.send(.leave)
        #expect(m.activeStateIDs == ["empty"])
    }

    @Test("R21: three levels deep, with the innermost handling first and history at every level")
    func threeLevels() throws {
        enum A: Hashable, Sendable { case idle, busy }
        enum B: Hashable, Sendable { case loading, ready }
        enum C: Hashable, Sendable { case fetch, parse }
        enum E: Hashable, Sendable { case start, next, stop, pause }
        let c = Machine<C, E, Void>(initial: .fetch) {
            When(.fetch) { On(.next, to: .parse) }
            When(.parse) {}
        }
        let b = Machine<B, E, Void>(initial: .loading) {
            When(.loading) { On(.next, to: .ready) }  // shadowed by C while C handles next
            When(.ready) {}
        }.attaching(child: c, to: .loading, history: .shallow)
        let a = Machine<A, E, Void>(initial: .idle) {
            When(.idle) { On(.start, to: .busy) }
            When(.busy) { On(.stop, to: .idle) }
        }.attaching(child: b, to: .busy, history: .deep)
        var m = try StateMachine(a, context: ())
        try m.send(.start)
        #expect(m.activePaths == [[AnyHashable(A.busy), AnyHashable(B.loading), AnyHashable(C.fetch)]])
        try m.send(.next)  // C handles it first
        #expect(m.isActive(C.parse))
        try m.send(.next)  // C.parse does not: it bubbles to B.loading
        #expect(m.isActive(B.ready))
        try m.send(.stop)
        try m.send(.start)  // deep history brings back B.ready
        #expect(m.isActive(B.ready))
        #expect(m.activeStateIDs == ["busy.ready"])
    }

    enum Level: Hashable, Sendable { case working, done }
    enum Stage: Hashable, Sendable { case early, late }
    enum Move: Hashable, Sendable { case next, finish }

    /// Three levels: `Level` holds `Stage`, whose `.early` holds numbered steps.
    static func threeLevels() -> Machine<Level, Move, Void> {
        let steps = Machine<Int, Move, Void>(initial: 0) {
            When(0) { On(.next, to: 1) }
            When(1)
        }
        let stages = Machine<Stage, Move, Void>(initial: .early) {
            When(.early) { On(.next, to: .late) }
            When(.late)
        }.attaching(child: steps, to: .early)
        return Machine<Level, Move, Void>(initial: .working) {
            When(.working) { On(.finish, to: .done) }
            Final(.done)
        }.attaching(child: stages, to: .working)
    }

    @Test("R21: isActive finds a value at any level, by its own type or one AnyHashable finds equal, and after the end the final state")
    func isActiveAtEveryLevel() throws {
        // The innermost level's states are numbers: `AnyHashable` finds `1.0` and `UInt8(1)`
        // equal to `1`; an enum value is never looked for in their table.
        var m = try StateMachine(Self.threeLevels(), context: ())
        #expect(m.isActive(Level.working) && m.isActive(Stage.early) && m.isActive(0))
        #expect(m.isActive(0.0) && m.isActive(UInt8(0)) && !m.isActive(1.0))
        #expect(!m.isActive(1) && !m.isActive(Stage.late) && !m.isActive(Level.done))
        // `AnyHashable` finds an optional enum unequal to its value, an optional number equal to
        // it; a description is never the value.
        #expect(!m.isActive(Optional(Stage.early)) && m.isActive(Optional(0)) && !m.isActive("early"))
        try m.send(.next)  // the steps take it
        #expect(m.isActive(1) && m.isActive(1.0) && !m.isActive(0) && m.isActive(Stage.early))
        try m.send(.next)  // it bubbles to the stages: the steps are left
        #expect(m.isActive(Stage.late) && !m.isActive(1) && !m.isActive(0))
        try m.send(.finish)
        #expect(m.isFinished)
        #expect(m.isActive(Level.done))
        #expect(!m.isActive(Level.working) && !m.isActive(Stage.late))
    }

    @Test("R21: a level of optional values whose first is nil is still compared as AnyHashable compares it")
    func isActiveWithOptionalLevel() throws {
        // `AnyHashable` finds `Optional(0)` equal to `0`, and `nil` unequal to every number: a
        // level of `Int?` states is looked in by the `Int` and `Double` values it may equal,
        // whichever value comes first in it.
        let slots = Machine<Int?, Move, Void>(initial: nil) {
            When(nil) { On(.next, to: 0) }
            When(0)
        }
        let top = Machine<Level, Move, Void>(initial: .working) {
            When(.working) { On(.finish, to: .done) }
            Final(.done)
        }.attaching(child: slots, to: .working)
        var m = try StateMachine(top, context: ())
        #expect(m.isActive(Int?.none) && !m.isActive(0) && !m.isActive(Optional(0)))
        try m.send(.next)
        #expect(m.isActive(0) && m.isActive(0.0) && m.isActive(Optional(0)) && !m.isActive(Int?.none))
        #expect(m.activeStates(of: Int?.self) == [0] && m.activeStates(of: Int.self) == [0])
        #expect(m.activeStates(of: Double.self).isEmpty)
    }

    class Screen: Hashable, @unchecked Sendable {
        let name: String
        init(_ name: String) { self.name = name }
        static func == (a: Screen, b: Screen) -> Bool { a.name == b.name }
        func hash(into hasher: inout Hasher) { hasher.combine(name) }
    }
    final class Home: Screen, @unchecked Sendable {}

    @Test("R21: activeStates(of:) returns the active values that cast to the type, in document order, and after the end the final state")
    func activeStatesByType() throws {
        var m = try StateMachine(Self.threeLevels(), context: ())
        #expect(m.activeStates(of: Level.self) == [.working] && m.activeState(of: Stage.self) == .early)
        #expect(m.activeStates(of: Int.self) == [0] && m.activeState(of: Int.self) == 0)
        // A cast, as `as?` makes it: no other type's value becomes a number or an enum; an
        // optional takes the values of its wrapped type.
        #expect(m.activeStates(of: Double.self).isEmpty && m.activeStates(of: String.self).isEmpty)
        #expect(m.activeStates(of: Stage?.self) == [.early] && m.activeStates(of: Int?.self) == [0])
        #expect(m.activeState(of: Stage?.self) == .some(.early))
        try m.send(.finish)
        #expect(m.isFinished && m.state == .done)
        #expect(m.activeStates(of: Level.self) == [.done] && m.activeState(of: Level.self) == .done)
        #expect(m.activeStates(of: Stage.self).isEmpty && m.activeStates(of: Level?.self) == [.done])
    }

    @Test("R21: activeStates(of:) of a class finds the states whose values are of a subclass")
    func activeStatesOfSubclass() throws {
        let home = Home("home")
        let screens = Machine<Screen, Move, Void>(initial: Screen("start")) {
            When(Screen("start")) { On(.next, to: home) }
            When(home)
        }
        var m = try StateMachine(screens, context: ())
        #expect(m.activeStates(of: Screen.self) == [Screen("start")] && m.activeStates(of: Home.self).isEmpty)
        try m.send(.next)
        #expect(m.activeStates(of: Home.self).map(\.name) == ["home"] && m.activeState(of: Screen.self) == home)
    }
}

@Suite("Cross-level targets")
struct CrossLevelTargetTests {
    enum Top: Hashable, Sendable { case idle, working, broken }
    enum Step: Hashable, Sendable { case one, two, three }
    enum E: Hashable, Sendable { case skip, fail, resume }

    @Test("R6, R21: a parent transition can target a child's state, and a child's transition a parent-level state")
    func stateRefs() throws {
        let steps = Machine<Step, E, Void>(initial: .one) {
            When(.one) { On(.fail, to: .state(Top.broken)) }
            When(.two) {}
            When(.three) {}
        }
        let top = Machine<Top, E, Void>(initial: .idle) {
            When(.idle) {
                On(.skip, to: .path(Top.working, Step.three))
                On(.resume, to: .working)
            }
            When(.working) {}
            When(.broken) { On(.resume, to: .state(Step.two)) }
        }.attaching(child: steps, to: .working)
        var m = try StateMachine(top, context: ())
        try m.send(.skip)
        #expect(m.activeStateIDs == ["working.three"])
        var n = try StateMachine(top, context: ())
        try n.send(.resume)
        #expect(n.activeStateIDs == ["working.one"])
        try n.send(.fail)  // the child's transition leaves its own machine for a parent-level state
        #expect(n.state == .broken)
        try n.send(.resume)  // and the parent enters the child at a chosen state
        #expect(n.activeStateIDs == ["working.two"])
    }

    @Test("R32: an ambiguous or unknown reference is a chart error")
    func badRefs() {
        let unknown = Machine<Top, E, Void>(initial: .idle) {
            When(.idle) { On(.skip, to: .state(Step.three)) }
        }
        #expect(throws: MachineError.invalidChart(.unknownTarget("three", from: "idle", location: nil))) {
            try StateMachine(unknown, context: ())
        }
        let steps = Machine<Step, E, Void>(initial: .one) { When(.one) {} }
        let twice = Machine<Top, E, Void>(initial: .idle) {
            When(.idle) { On(.skip, to: .state(Step.one)) }
            When(.working) {}
            When(.broken) {}
        }.attaching(child: steps, to: .working).attaching(child: steps, to: .broken)
        #expect(throws: MachineError.invalidChart(.ambiguousTarget("one", candidates: ["broken.one", "working.one"]))) {
            try StateMachine(twice, context: ())
        }
    }
}
