import Statechart
import Testing

// SwiftState (ReactKit) — the examples of its README (seed 001), written with the public API of
// Statechart only. SwiftState's state routes (`machine <- .s1`) are state requests along `Routes`;
// its event routes (`machine <-! .e`) are transitions; `.any` becomes `Global`, `Routes(allCases)`,
// `AnyState` or `OnAnyEvent`; handlers are observers; route mappings are `On(matching:)`.

@Suite("Conformance: SwiftState README")
struct SwiftStateConformanceTests {
    enum MyState: Hashable, Sendable, CaseIterable { case state0, state1, state2 }
    enum MyEvent: Hashable, Sendable { case event0, event1 }

    // MARK: - State routes

    /// `StateMachine<MyState, NoEvent>`: routes for state requests only.
    static func readmeMachine() -> Machine<MyState, Never, Void> {
        Machine("readme", initial: .state0) {
            When(.state0) { Routes(.state1) }  // addRoute(.state0 => .state1)
            When(.state1) {}
            Global(.state2) {  // addRoute(.any => .state2)
                Routes(MyState.allCases)  // addRoute(.state2 => .any)
            }
        }
    }

    @Test("SwiftState README: 0 => 1 => 2 => 1 succeed, 1 => 0 fails; handlers and the error handler print in order (R26, R30)")
    func stateRoutes() throws {
        var machine = try StateMachine(Self.readmeMachine(), context: ())
        var userInfo: String?
        var printed: [String] = []
        // addHandler(.state0 => .state1), and the handlers given with the .any routes.
        machine.observe { if $0.fromState == .state0 && $0.toState == .state1 { printed.append("0 => 1") } }
        machine.observe { if $0.toState == .state2 { printed.append("Any => 2, msg=\(String(describing: userInfo))") } }
        machine.observe { if $0.fromState == .state2 { printed.append("2 => Any, msg=\(String(describing: userInfo))") } }

        /// `machine <- (state, userInfo)`, with `addErrorHandler` as the catch.
        func tryState(_ state: MyState, _ info: String? = nil) throws(MachineError) {
            userInfo = info
            do {
                try machine.transition(to: state)
            } catch .illegalTransition(let from, let to) {
                printed.append("[ERROR] \(from) => \(to)")
            }
        }

        #expect(machine.state == .state0)
        try tryState(.state1)
        #expect(machine.state == .state1)
        try tryState(.state2, "Hello")
        #expect(machine.state == .state2)
        try tryState(.state1, "Bye")
        #expect(machine.state == .state1)
        try tryState(.state0)  // fail: no 1 => 0
        #expect(machine.state == .state1)
        #expect(
            printed == [
                "0 => 1", "Any => 2, msg=Optional(\"Hello\")", "2 => Any, msg=Optional(\"Bye\")",
                "[ERROR] state1 => state0",
            ])
    }

    static func arraysAndChains() -> Machine<MyState, Never, Void> {
        Machine("arrays", initial: .state0) {
            When(.state0) { Routes(.state1, .state2) }  // .state0 => [.state1, .state2]
            for state: MyState in [.state1, .state2] {
                When(state) { Routes(.state0) }  // [.state1, .state2] => .state0
            }
        }
    }

    static func chain() -> Machine<MyState, Never, Void> {
        let chain: [MyState] = [.state0, .state1, .state2]
        return Machine("chain", initial: .state0) {
            for (from, to) in zip(chain, chain.dropFirst()) {  // .state0 => .state1 => .state2
                When(from) { Routes(to) }
            }
        }
    }

    @Test("SwiftState README: arrays of states on either side of a route, and route chains (R26)")
    func arraysOfStates() throws {
        for target: MyState in [.state1, .state2] {
            var machine = try StateMachine(Self.arraysAndChains(), context: ())
            try machine.transition(to: target)
            try machine.transition(to: MyState.state0)
            #expect(machine.state == .state0)
        }
        var chained = try StateMachine(Self.chain(), context: ())
        #expect(throws: MachineError.illegalTransition(from: "state0", to: "state2")) {
            try chained.transition(to: MyState.state2)
        }
        try chained.transition(to: MyState.state1)
        try chained.transition(to: MyState.state2)
        #expect(chained.state == .state2)
    }

    struct Blacklist: Sendable {
        var denied: Set<MyState> = []
    }

    /// `.any => .any` with a condition: every route declared, a barrier refusing blacklisted targets.
    static func blacklisting() -> Machine<MyState, Never, Blacklist> {
        Machine("blacklisting", initial: .state0) {
            for state in MyState.allCases {
                When(state) {
                    Routes(MyState.allCases)
                    TransitionBarrier { $0.denied.contains(state) ? .deny : .allow }
                }
            }
        }
    }

    @Test("SwiftState README: blacklisting with .any => .any plus a condition (R26)")
    func blacklistingRoutes() throws {
        var machine = try StateMachine(Self.blacklisting(), context: Blacklist(denied: [.state1]))
        #expect(throws: MachineError.transitionDenied(to: "state1")) { try machine.transition(to: MyState.state1) }
        try machine.transition(to: MyState.state2)
        try machine.transition(to: MyState.state0)
        machine.context.denied = []
        try machine.transition(to: MyState.state1)
        #expect(machine.state == .state1)
    }

    // MARK: - Event routes

    static func eventMachine() -> Machine<MyState, MyEvent, Void> {
        Machine("events", initial: .state0) {
            // addRoutes(event: .event0, transitions: [.state0 => .state1, .state1 => .state2])
            for (from, to) in [(MyState.state0, MyState.state1), (.state1, .state2)] {
                Transition(from: from, on: .event0, to: to)
            }
        }
    }

    @Test("SwiftState README: <-! .event0 twice moves 0 → 1 → 2; a third has no route and changes nothing (R18, R59)")
    func eventRoutes() throws {
        var machine = try StateMachine(Self.eventMachine(), context: ())
        var triggered = 0
        machine.observe { if $0.event == .event0 { triggered += 1 } }  // addHandler(event: .event0)

        /// `machine <-! event`: true when the event moved the machine.
        func tryEvent(_ event: MyEvent) -> Bool {
            do {
                try machine.send(event)
                return true
            } catch {
                return false
            }
        }

        #expect(machine.canSend(.event0))  // canTryEvent
        #expect(tryEvent(.event0))
        #expect(machine.state == .state1)
        #expect(tryEvent(.event0))
        #expect(machine.state == .state2)
        #expect(!machine.canSend(.event0))
        #expect(!tryEvent(.event0))
        #expect(machine.state == .state2, "event0 doesn't have 2 => Any")
        #expect(triggered == 2)  // handlers are not invoked for a failed attempt
    }

    /// The `.any` state and the `.any` event for event routes, declared with the `.any` route
    /// first or last: a transition of the exact state always comes first.
    static func wildcards(anyStateFirst: Bool) -> Machine<MyState, MyEvent, Void> {
        Machine("wildcards", initial: .state0) {
            if anyStateFirst {
                AnyState { On(.event1, to: .state0) }  // .any => .state0 on event1
            }
            When(.state0) {
                On(.event0, to: .state1)  // the specific event ...
                OnAnyEvent(to: .state2)  // ... before addRoutes(event: .any, transitions: [.state0 => .state2])
            }
            When(.state1) { On(.event0, to: .state2) }
            When(.state2) { On(.event1, to: .state1) }  // .state2 => .state1 on event1
            if !anyStateFirst {
                AnyState { On(.event1, to: .state0) }
            }
        }
    }

    @Test(
        "SwiftState README: specific routes before .any routes; the exact state beats .any state on every run, in either declaration order (R25)",
        arguments: [true, false])
    func anyRoutes(anyStateFirst: Bool) throws {
        // SwiftState picked between `.state2 => …` and `.any => …` by Dictionary order, which changed between runs.
        for _ in 0..<10 {
            var machine = try StateMachine(Self.wildcards(anyStateFirst: anyStateFirst), context: ())
            try machine.send(.event0)  // state0: the specific event, not the .any event
            #expect(machine.state == .state1)
            try machine.send(.event1)  // state1 has no event1 of its own: the .any state route
            #expect(machine.state == .state0)
            try machine.send(.event1)  // state0's .any event route comes before the .any state route
            #expect(machine.state == .state2)
            try machine.send(.event1)  // state2's own route, never the .any state route
            #expect(machine.state == .state1)
        }
    }

    struct Door: Sendable {
        var isOpen = false
    }

    static func conditions() -> Machine<MyState, MyEvent, Door> {
        Machine("conditions", initial: .state0) {
            // addRoutes(event: .event1, transitions: [[.state0, .state1] => .state2], condition: { … })
            Transition(from: [.state0, .state1], on: .event1, to: .state2, guard: { $0.isOpen })
            Transition(from: .state0, on: .event0, to: .state1)
        }
    }

    @Test("SwiftState README: a condition that returns false fails the transition and its handlers are not invoked (R25, R30)")
    func conditionsOnRoutes() throws {
        var machine = try StateMachine(Self.conditions(), context: Door())
        var handled: [MyState] = []
        machine.observe { handled.append($0.toState) }
        #expect(!machine.canSend(.event1))
        #expect(throws: MachineError.eventNotHandled(event: "event1", configuration: ["state0"])) {
            try machine.send(.event1)
        }
        try machine.send(.event0)
        machine.context.isOpen = true
        try machine.send(.event1)  // from state1, the other source of the array
        #expect(machine.state == .state2)
        #expect(handled == [.state1, .state2])
    }

    // MARK: - Handlers

    @Test("SwiftState README: handlers run in the order they were added, after the change, all seeing the new state (R30)")
    func handlerOrder() throws {
        var machine = try StateMachine(Self.eventMachine(), context: ())
        var calls: [String] = []
        for name in ["first", "second", "third"] {
            machine.observe { calls.append("\(name): \($0.toState)") }
        }
        try machine.send(.event0)
        #expect(calls == ["first: state1", "second: state1", "third: state1"])
    }

    @Test("SwiftState README: a handler's Disposable removes it: removeObserver stops the calls (R30)")
    func removeHandler() throws {
        var machine = try StateMachine(Self.eventMachine(), context: ())
        var kept = 0
        var removed = 0
        let disposable = machine.observe { _ in removed += 1 }
        machine.observe { _ in kept += 1 }
        try machine.send(.event0)
        machine.removeObserver(disposable)  // disposable.dispose()
        try machine.send(.event0)
        #expect(removed == 1)
        #expect(kept == 2)
    }

    // MARK: - Route mappings for enums with associated values

    enum StrState: Hashable, Sendable { case str(String) }
    enum StrEvent: Hashable, Sendable { case str(String) }

    /// The README's `addRouteMapping` closure, kept as it is.
    static let routeMapping: @Sendable (StrEvent?, StrState) -> StrState? = { event, fromState in
        guard let event else { return nil }  // no route for no-event
        switch (event, fromState) {
        case (.str("gogogo"), .str("initial")): return .str("Phase 1")
        case (.str("gogogo"), .str("Phase 1")): return .str("Phase 2")
        case (.str("finish"), .str("Phase 2")): return .str("end")
        default: return nil
        }
    }

    /// `addStateRouteMapping`: from `end`, a state request may go back to `initial`.
    static let stateRouteMapping: @Sendable (StrState) -> [StrState]? = { fromState in
        fromState == .str("end") ? [.str("initial")] : nil
    }

    static let strStates: [StrState] = [.str("initial"), .str("Phase 1"), .str("Phase 2"), .str("end")]

    /// Each (from, to) pair of the mapping is one `On(matching:)`: the predicate asks the mapping.
    static func strMachine() -> Machine<StrState, StrEvent, Void> {
        Machine("routeMapping", initial: .str("initial")) {
            for from in strStates {
                When(from) {
                    for to in strStates {
                        On(matching: { routeMapping($0, from) == to }, to: to)
                    }
                    Routes(stateRouteMapping(from) ?? [])
                }
            }
        }
    }

    @Test("SwiftState README: a route mapping over state and event enums with associated values, via On(matching:) (R5)")
    func routeMappingExample() throws {
        var machine = try StateMachine(Self.strMachine(), context: ())
        machine.options.throwsOnUnhandledEvent = false  // like <-!, a failed try changes nothing
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

    @Test("SwiftState README: a state route mapping lists the states a request may go to (R26)")
    func stateRouteMappingExample() throws {
        var machine = try StateMachine(Self.strMachine(), context: ())
        #expect(throws: MachineError.illegalTransition(from: "str(\"initial\")", to: "str(\"Phase 2\")")) {
            try machine.transition(to: StrState.str("Phase 2"))
        }
        try machine.send([.str("gogogo"), .str("gogogo"), .str("finish")])
        try machine.transition(to: StrState.str("initial"))
        #expect(machine.state == .str("initial"))
    }

    enum Link: Hashable, Sendable { case offline, connecting, online, retrying }
    enum LinkEvent: Hashable, Sendable { case connect(server: String), fail(code: Int), connected }

    struct LinkLog: Sendable {
        var servers: [String] = []
    }

    static func isConnect(_ event: LinkEvent) -> Bool { if case .connect = event { true } else { false } }
    static func isFail(_ event: LinkEvent) -> Bool { if case .fail = event { true } else { false } }

    /// Routes chosen by an event's case whatever its associated values; guards read the values.
    static func link() -> Machine<Link, LinkEvent, LinkLog> {
        Machine("link", initial: .offline) {
            for state: Link in [.offline, .retrying] {
                When(state) {
                    On(
                        matching: isConnect, to: .connecting,
                        action: { scope in
                            if case .connect(let server) = scope.userEvent { scope.servers.append(server) }
                        })
                }
            }
            When(.connecting) {
                On(.connected, to: .online)
                On(matching: isFail, to: .retrying, guard: { _, event in
                    if case .fail(let code) = event { code >= 500 } else { false }
                })
                On(matching: isFail, to: .offline)  // any other code
            }
        }
    }

    @Test("SwiftState README: routes for any associated value of an event case, the values read by guards and actions (R5, R25)")
    func associatedValues() throws {
        var machine = try StateMachine(Self.link(), context: LinkLog())
        try machine.send(.connect(server: "a.example"))
        #expect(machine.state == .connecting)
        #expect(machine.canSend(.fail(code: 42)))
        try machine.send(.fail(code: 503))  // a server error: retry
        #expect(machine.state == .retrying)
        try machine.send(.connect(server: "b.example"))
        try machine.send(.fail(code: 404))  // the first guard fails: the next route
        #expect(machine.state == .offline)
        try machine.send(.connect(server: "c.example"))
        try machine.send(.connected)
        #expect(machine.state == .online)
        #expect(machine.context.servers == ["a.example", "b.example", "c.example"])
    }
}
