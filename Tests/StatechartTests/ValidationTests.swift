import Testing
import Statechart

@Suite("Static validation")
struct ValidationTests {
    func codes(_ d: TestChart) throws -> [ChartDiagnostic.Code] {
        try Chart(d).validate().map(\.code)
    }

    @Test("an unreachable state is reported")
    func unreachable() throws {
        var d = TestChart.test()
        let a = d.state("a")
        d.state("b")
        d.state("island")
        d.on(a, "go", to: ["b"])
        let diagnostics = try Chart(d).validate()
        #expect(diagnostics.contains { $0.code == .unreachableState && $0.states == ["island"] })
    }

    @Test("a transition shadowed by an earlier unguarded one of the same state, and a duplicate")
    func shadowedAndDuplicate() throws {
        var d = TestChart.test()
        let a = d.state("a")
        d.state("b")
        d.state("c")
        d.on(a, "go", to: ["b"])
        d.on(a, "go.fast", to: ["c"])  // 'go' matches 'go.fast' by prefix: never taken
        d.on(a, "go", to: ["b"])  // the same transition again
        let diagnostics = try Chart(d).validate()
        #expect(diagnostics.contains { $0.code == .shadowedTransition && $0.transitions.map(\.description) == ["a[0]", "a[1]"] })
        #expect(diagnostics.contains { $0.code == .duplicateTransition && $0.transitions.map(\.description) == ["a[0]", "a[2]"] })
    }

    @Test("a guarded earlier transition shadows nothing")
    func guardedDoesNotShadow() throws {
        var d = TestChart.test()
        let a = d.state("a")
        let b = d.state("b")
        d.on(a, "go", to: ["b"], guard: .predicate { c, _ in c.flag })
        d.on(a, "go", to: ["b"])
        d.on(b, "back", to: ["a"])
        #expect(try codes(d).isEmpty)
    }

    @Test("an event raised or sent that no transition handles")
    func unhandledEvent() throws {
        var d = TestChart.test()
        let a = d.state("a")
        let b = d.state("b")
        d.on(a, "go", to: ["b"], actions: [.raise("ping"), .send("nobody.listens")])
        d.on(b, "ping", to: ["a"])
        let diagnostics = try Chart(d).validate()
        #expect(diagnostics.filter { $0.code == .unhandledEvent }.map(\.message) == [
            "'nobody.listens' is raised or sent by 'a' but no transition handles it"
        ])
    }

    @Test("an unguarded eventless cycle is an error")
    func eventlessCycle() throws {
        var d = TestChart.test()
        let a = d.state("a")
        let b = d.state("b")
        let c = d.state("c")
        d.on(a, "go", to: ["b"])
        d.on(b, nil, to: ["c"])
        d.on(c, nil, to: ["b"])
        let diagnostics = try Chart(d).validate()
        #expect(diagnostics.first?.severity == .error)
        #expect(diagnostics.first?.code == .eventlessCycle)
        #expect(diagnostics.first?.states == ["b", "c"])
    }

    @Test("a history whose parent is never exited; a parallel with one region; a terminal non-final state")
    func structure() throws {
        var d = TestChart.test()
        let p = d.state("p")
        d.addState("h", kind: .history(.deep), in: p)
        let p1 = d.state("p1", in: p)
        let par = d.state("par", .parallel, in: p)
        let r = d.state("r", in: par)
        d.state("r1", in: r)
        d.on(p1, "go", to: ["par"])
        let codes = try codes(d)
        #expect(codes.contains(.historyNeverRecorded))
        #expect(codes.contains(.singleRegionParallel))
        #expect(codes.contains(.terminalState))
    }

    @Test("the documented examples validate without findings")
    func examplesAreClean() throws {
        let order = try TypedChart(orderMachine()).validate()
        #expect(order.filter { $0.code != .terminalState } == [], "\(order)")
        #expect(try TypedChart(loginMachine()).validate() == [])
    }
}
