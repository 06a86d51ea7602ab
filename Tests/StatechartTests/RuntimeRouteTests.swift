import Statechart
import Testing

/// Routes added and removed at run time, and ordered observers (rule R66; SwiftState's
/// `addRoute`, `Disposable` and `addHandler(order:)`).
@Suite("Runtime routes and ordered observers")
struct RuntimeRouteTests {
    enum S: Hashable, Sendable { case s0, s1, s2 }
    enum E: Hashable, Sendable { case e0 }

    static func machine() -> Machine<S, E, Bool> {
        Machine(initial: .s0) {
            When(.s0) { Routes(.s1); On(.e0, to: .s1) }
            When(.s1) { On(.e0, to: .s2) }
            When(.s2) { On(.e0, to: .s0) }
        }
    }

    @Test("R66: a route added at run time allows the request; removed, the request is illegal again")
    func addAndRemoveRoute() throws {
        var m = try StateMachine(Self.machine(), context: true)
        try m.transition(to: .s1)
        #expect(throws: MachineError.illegalTransition(from: "s1", to: "s0")) { try m.transition(to: .s0) }
        let route = m.addRoute(from: .s1, to: .s0)
        try m.transition(to: .s0)
        #expect(m.state == .s0)
        try m.transition(to: .s1)
        m.removeRoute(route)
        #expect(throws: MachineError.illegalTransition(from: "s1", to: "s0")) { try m.transition(to: .s0) }
        m.removeRoute(route)  // twice: nothing happens
        #expect(m.state == .s1)
    }

    @Test("R66: any-state routes (.any => .s2, .s2 => .any) and a route condition on the context")
    func wildcardAndConditionRoutes() throws {
        var m = try StateMachine(Self.machine(), context: false)
        m.addRoute(to: .s2)  // .any => .s2
        m.addRoute(from: .s2, condition: { $0 })  // .s2 => .any, only while the context is true
        try m.transition(to: .s2)
        #expect(throws: MachineError.illegalTransition(from: "s2", to: "s1")) { try m.transition(to: .s1) }
        m.context = true
        try m.transition(to: .s1)
        #expect(m.state == .s1)
    }

    @Test("R66: observers run by order, lower first, ties in registration order; removed ones stop")
    func orderedObservers() throws {
        var m = try StateMachine(Self.machine(), context: true)
        var calls: [String] = []
        m.observe { _ in calls.append("default-1") }
        let late = m.observe(order: 200) { _ in calls.append("200") }
        m.observe(order: 10) { _ in calls.append("10") }
        m.observe { _ in calls.append("default-2") }
        m.observe(order: 0) { _ in calls.append("0") }
        try m.send(.e0)
        #expect(calls == ["0", "10", "default-1", "default-2", "200"])
        calls.removeAll()
        m.removeObserver(late)
        try m.send(.e0)
        #expect(calls == ["0", "10", "default-1", "default-2"])
    }

    @Test("R66: handlers for one route or one event (addHandler(.s0 => .s1), addHandler(event:))")
    func filteredObservers() throws {
        var m = try StateMachine(Self.machine(), context: true)
        var calls: [String] = []
        m.observe(from: .s0, to: .s1) { _ in calls.append("0 => 1") }
        m.observe(from: nil, to: .s2, order: 1) { _ in calls.append("any => 2") }
        m.observe(event: .e0, order: 200) { c in calls.append("e0 \(c.toState)") }
        try m.send(.e0)
        try m.send(.e0)
        m.addRoute(from: .s2, to: .s0)
        try m.transition(to: .s0)  // a request: no event
        #expect(calls == ["0 => 1", "e0 s1", "any => 2", "e0 s2"])
    }
}
