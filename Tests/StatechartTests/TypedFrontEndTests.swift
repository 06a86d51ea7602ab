import Testing
import Statechart

enum Login: Hashable, Sendable { case initialising, registering, loggedIn, loggedOut, banned, background }
enum LoginEvent: Hashable, Sendable { case go }

struct Session: Sendable {
    var registered = false
    var authenticated = false
    var entered: [String] = []
}

/// Machinus' user login example as a Statechart machine.
func loginMachine() -> Machine<Login, LoginEvent, Session> {
    Machine(initial: .initialising) {
        When(.initialising) { Routes(.loggedOut) }
        When(.loggedOut) {
            Routes(.loggedIn, .registering)
            OnExit { next, scope in scope.entered.append("loggedOut → \(next.map { "\($0)" } ?? "nil")") }
        }
        When(.loggedIn) {
            OnEntry { previous, scope in scope.entered.append("\(previous.map { "\($0)" } ?? "nil") → loggedIn") }
            TransitionBarrier { $0.authenticated ? .allow : .redirect(to: .loggedOut) }
            Routes(.loggedOut)
        }
        When(.registering) {
            DynamicTransition { $0.registered ? .loggedIn : .loggedOut }
            Routes(.loggedOut, .loggedIn)
        }
        FinalGlobal(.banned)
    }
}

@Suite("Typed front end")
struct TypedFrontEndTests {
    @Test("R26: requests follow declared routes; a barrier allows, redirects or denies")
    func requests() throws {
        var m = try StateMachine(loginMachine(), context: Session())
        #expect(m.state == .initialising)
        #expect(throws: MachineError.illegalTransition(from: "initialising", to: "loggedIn")) { try m.transition(to: Login.loggedIn) }
        try m.transition(to: Login.loggedOut)
        try m.transition(to: Login.loggedIn)  // not authenticated: redirected to loggedOut, already there
        #expect(m.state == .loggedOut)
        m.context.authenticated = true
        try m.transition(to: Login.loggedIn)
        #expect(m.state == .loggedIn)
        #expect(m.context.entered == ["loggedOut → loggedIn", "loggedOut → loggedIn"])
    }

    @Test("R26: a redirect cycle is a typed error, never recursion; deny fails")
    func redirectCycle() throws {
        enum S: Hashable, Sendable { case a, b, c }
        let machine = Machine<S, LoginEvent, Bool>(initial: .a) {
            When(.a) { Routes(.b, .c) }
            When(.b) {
                Routes(.c)
                TransitionBarrier { _ in .redirect(to: .c) }
            }
            When(.c) {
                Routes(.b)
                TransitionBarrier { deny in deny ? .deny : .redirect(to: .b) }
            }
        }
        var m = try StateMachine(machine, context: false)
        #expect(throws: MachineError.redirectCycle(["b", "c", "b"])) { try m.transition(to: S.b) }
        #expect(m.state == .a)
        m.context = true
        #expect(throws: MachineError.transitionDenied(to: "c")) { try m.transition(to: S.b) }
    }

    @Test("R26: global states are reachable without routes; final ones cannot be left; alreadyInState is opt-in")
    func globalFinalAlready() throws {
        var m = try StateMachine(loginMachine(), context: Session())
        try m.transition(to: Login.initialising)  // already there: nothing happens
        m.options.throwsWhenAlreadyInState = true
        #expect(throws: MachineError.alreadyInState("initialising")) { try m.transition(to: Login.initialising) }
        #expect(throws: MachineError.unknownState("background")) { try m.transition(to: Login.background) }
        try m.transition(to: Login.banned)
        #expect(m.state == .banned)
        #expect(m.isFinished)
        #expect(throws: MachineError.finished(finalState: "banned")) { try m.transition(to: Login.loggedOut) }
        try m.reset()
        #expect(m.state == .initialising)
    }

    @Test("R27: the dynamic transition requests the state its closure computes")
    func dynamicTransition() throws {
        var m = try StateMachine(loginMachine(), context: Session(registered: true, authenticated: true))
        try m.transition(to: Login.loggedOut)
        try m.transition(to: Login.registering)
        try m.transition()
        #expect(m.state == .loggedIn)
        #expect(throws: MachineError.noDynamicTransition("loggedIn")) { try m.transition() }
    }

    @Test("R27: an event transition with a computed target; an unknown target is an execution error")
    func dynamicEventTarget() throws {
        enum S: Hashable, Sendable { case a, b, c, elsewhere }
        enum E: Hashable, Sendable { case go }
        let machine = Machine<S, E, Int>(initial: .a) {
            When(.a) { On(.go, dynamic: { n, _ in n == 0 ? .b : (n == 1 ? .c : .elsewhere) }) }
            When(.b) {}
            When(.c) {}
        }
        var m = try StateMachine(machine, context: 1)
        try m.send(.go)
        #expect(m.state == .c)
        // `.elsewhere` is only mentioned by the closure: it is not a state of the chart.
        var n = try StateMachine(machine, context: 2)
        n.options.throwsOnUnhandledEvent = false
        #expect(throws: MachineError.self) { try n.send(.go) }
        #expect(n.state == .a)
    }

    @Test("R25: exact-state transitions before wildcards, guards in declaration order, flat Transition syntax")
    func wildcardsAndGuards() throws {
        enum S: Hashable, Sendable { case idle, loading, loaded, error }
        enum E: Hashable, Sendable { case start, succeed, reset }
        let machine = Machine<S, E, Bool>(initial: .idle) {
            Transition(from: .idle, on: .start, to: .loading, guard: { $0 })
            Transition(from: .idle, on: .start, to: .error)
            Transition(from: .loading, on: .succeed, to: .loaded)
            Transition(fromAny: .reset, to: .idle)
            Transition(from: .loaded, on: .reset, to: .error)
        }
        var m = try StateMachine(machine, context: false)
        try m.send(.start)
        #expect(m.state == .error)  // first guard failed: fell through
        try m.send(.reset)
        #expect(m.state == .idle)
        m.context = true
        try m.send([.start, .succeed])
        try m.send(.reset)  // the exact state's transition beats the wildcard, though declared later
        #expect(m.state == .error)
    }

    @Test("R5, R25: routes by case with associated values; any-event routes; error routes")
    func matchingEvents() throws {
        enum S: Hashable, Sendable { case idle, user, other, failed }
        enum E: Hashable, Sendable { case login(String), ping, crash }
        let machine = Machine<S, E, [String]>(initial: .idle) {
            When(.idle) {
                On(matching: { if case .login = $0 { true } else { false } }, to: .user, guard: { _, e in e != .login("") }) { scope in
                    if case .login(let name) = scope.userEvent { scope.context.append(name) }
                }
                On(.crash) { _ in throw TestError() }
                OnError(to: .failed)
                OnAnyEvent(to: .other, guard: { _, e in e == .ping })
            }
            When(.user) {}
            When(.other) {}
            When(.failed) {}
        }
        var m = try StateMachine(machine, context: [])
        m.options.throwsOnUnhandledEvent = false
        try m.send(.login(""))
        #expect(m.state == .idle)
        try m.send(.login("ada"))
        #expect(m.state == .user)
        #expect(m.context == ["ada"])
        var n = try StateMachine(machine, context: [])
        try n.send(.ping)
        #expect(n.state == .other)
        var k = try StateMachine(machine, context: [])
        #expect(throws: MachineError.self) { try k.send(.crash) }
        #expect(k.state == .failed)
    }

    @Test("R29: entry and exit actions receive the previous and next state of their level")
    func neighbours() throws {
        var m = try StateMachine(loginMachine(), context: Session(authenticated: true))
        try m.transition(to: Login.loggedOut)
        try m.transition(to: Login.loggedIn)
        #expect(m.context.entered == ["loggedOut → loggedIn", "loggedOut → loggedIn"])
    }

    @Test("R30: observers run after each send and request, in registration order, and can be removed")
    func observers() throws {
        final class Box: @unchecked Sendable { var lines: [String] = [] }
        let box = Box()
        var m = try StateMachine(orderMachine(), context: OrderLog())
        let first = m.observe { box.lines.append("1: \($0.fromState.map { "\($0)" } ?? "-") -\($0.event.map { "\($0)" } ?? "request")-> \($0.toState)") }
        m.observe { box.lines.append("2: \($0.to)") }
        try m.send(.confirm)
        m.removeObserver(first)
        try m.send(.cancel)
        #expect(box.lines == ["1: pending -confirm-> confirmed", "2: [\"confirmed.authorizing\"]", "2: [\"cancelled\"]"])
    }

    @Test("R28, R32: typed declaration errors are reported as invalidChart")
    func declarationErrors() throws {
        enum S: Hashable, Sendable { case a, b }
        let finalWithChild = Machine<S, LoginEvent, Void>(initial: .a) {
            When(.a) {}
            Final(.b) { Attach(Machine<S, LoginEvent, Void> { When(.a) {} }) }
        }
        #expect(throws: MachineError.self) { try StateMachine(finalWithChild, context: ()) }
        let misplaced = Machine<S, LoginEvent, Void>(initial: .a) {
            When(.a) {}
            AnyState { OnEntry { _ in } }
        }
        #expect(throws: MachineError.invalidChart(.invalidStructure("S", reason: "AnyState holds only transitions", location: nil))) {
            try StateMachine(misplaced, context: ())
        }
        let finalWithTransition = Machine<S, LoginEvent, Void>(initial: .a) {
            When(.a) {}
            Final(.b) { On(.go, to: .a) }
        }
        #expect(throws: MachineError.self) { try StateMachine(finalWithTransition, context: ()) }
    }
}

@Suite("Typed conveniences")
struct TypedConvenienceTests {
    @Test("R26: a top-level request can use the leading-dot syntax; machine time is readable")
    func leadingDotRequest() throws {
        var m = try StateMachine(loginMachine(), context: Session())
        try m.transition(to: .loggedOut)
        #expect(m.state == .loggedOut)
        try m.advance(by: .seconds(2))
        #expect(m.now == .seconds(2))
    }
}

@Suite("Valid events")
struct ValidEventTests {
    enum S: Hashable, Sendable { case idle, busy, done }
    enum E: Hashable, Sendable, CaseIterable { case start, stop, reset, boom }

    @Test("R59: canSend and validEvents see bubbling and guards, and change nothing")
    func peek() throws {
        let child = Machine<S, E, Int>(initial: .idle) {
            When(.idle) { On(.start, to: .busy, guard: { $0 > 0 }) }
            When(.busy) {}
        }
        let top = Machine<S, E, Int>(initial: .idle) {
            When(.idle) {
                On(.boom, guard: { _ in throw TestError() })
                On(.reset) { $0.context += 100 }
            }
            When(.busy) {}
        }.attaching(child: child, to: .idle)
        var m = try StateMachine(top, context: 0)
        #expect(m.validEvents == [.reset])  // start's guard fails; boom's guard throws: false, no error raised
        m.context = 1
        #expect(m.canSend(.start))
        #expect(m.canSend(.reset))  // handled only by the parent: bubbling counts
        #expect(!m.canSend(.stop))
        #expect(m.context == 1)  // no action ran
        #expect(m.activeStateIDs == ["idle.idle"])
    }

    /// A machine whose guards read the context and the active states, one of them throwing, an
    /// event only the parent handles, and a final state.
    static func guarded() -> Machine<S, E, Int> {
        let child = Machine<S, E, Int>(initial: .idle) {
            When(.idle) { On(.start, to: .busy, guard: { $0 > 0 }) }
            When(.busy) { On(.stop, to: .done, guard: { $0 > 1 }) }
            Final(.done)
        }
        return Machine<S, E, Int>(initial: .idle) {
            When(.idle) {
                On(.boom, guard: { _ in throw TestError() })
                On(.reset) { $0.context += 1 }
                On(.stop, to: .done, guard: { $0 > 2 })
            }
            When(.busy) {}
            Final(.done)
        }.attaching(child: child, to: .idle)
    }

    @Test("R59: the runtimes' canSend and validEvents, read out of their drivers, answer as the machine's at every step: guards on the context, a throwing guard, bubbling, and nothing after the end")
    @MainActor
    func runtimesPeek() async throws {
        var machine = try StateMachine(Self.guarded(), context: 0)
        let observable = try ObservableStateMachine(Self.guarded(), context: 0)
        let actor = try await AsyncStateMachine(Self.guarded(), context: 0)
        var answers: [[E]] = []
        for event in [E.start, .reset, .start, .stop, .reset, .stop, .reset, .stop, .start] {
            let expected = E.allCases.filter { machine.canSend($0) }
            answers.append(expected)
            #expect(E.allCases.filter { observable.canSend($0) } == expected, "before \(event)")
            var fromActor: [E] = []
            for e in E.allCases where await actor.canSend(e) { fromActor.append(e) }
            #expect(fromActor == expected, "before \(event)")
            #expect(machine.validEvents == expected && observable.validEvents == expected, "before \(event)")
            let actorValid = await actor.validEvents, actorAmong = await actor.validEvents(among: [.boom, .stop, .reset])
            #expect(actorValid == expected && actorAmong == [.stop, .reset].filter(expected.contains), "before \(event)")
            if machine.isFinished { break }
            try? machine.send(event)
            try? observable.send(event)
            try? await actor.send(event)
            #expect(observable.context == machine.context && observable.state == machine.state)
        }
        // The questions changed nothing, and each answer moved with the context and the states.
        let actorState = await actor.state
        #expect(machine.isFinished && observable.state == .done && actorState == .done)
        #expect(answers.first == [.reset])  // start's guard fails at 0; boom's throws
        #expect(answers.contains([.start, .reset]) && answers.contains([.stop, .reset]))
        #expect(answers.last == [])  // after the end: nothing
    }
}

@Suite("Observer records")
struct ObserverRecordTests {
    @Test("R30: an observer sees the top-level state before and after even when it has active children")
    func nestedFromState() throws {
        final class Box: @unchecked Sendable { var records: [MachineTransition<OrderState, OrderEvent>] = [] }
        let box = Box()
        var m = try StateMachine(orderMachine(), context: OrderLog())
        try m.send(.confirm)
        m.observe { box.records.append($0) }
        try m.send(.cancel)
        #expect(box.records.first?.fromState == .confirmed)
        #expect(box.records.first?.from == ["confirmed.authorizing"])
        #expect(box.records.first?.toState == .cancelled)
    }
}
