import Testing
import Statechart

@Suite("Faults and bounds")
struct FaultTests {
    @Test("R14: a throwing action skips the rest of its block, raises error.execution, the microstep completes")
    func throwingAction() throws {
        var d = TestChart.test()
        let a = d.state("a")
        let b = d.state("b")
        d.state("failed")
        d.on(a, "go", to: ["b"], actions: [log("before"), .run("boom") { _ in throw TestError() }, log("skipped")])
        d.addOnEntry([log("second block")], to: b)
        d.on(b, "error.execution", to: ["failed"])
        var m = try start(d)
        m.context.lines.removeAll()
        #expect(throws: MachineError.self) { try m.send("go") }
        #expect(m.context.lines == ["exit a", "before", "enter b", "second block", "exit b", "enter failed"])
        #expect(m.atomic == ["failed"])
    }

    @Test("R14: the caller gets executionFailed naming the action and its state")
    func reportedToCaller() throws {
        var d = TestChart.test()
        let a = d.state("a")
        d.on(a, "go", actions: [.run("charge") { _ in throw TestError() }])
        var m = try start(d)
        do {
            try m.send("go")
            Issue.record("expected a failure")
        } catch {
            guard case .executionFailed(let messages) = error else { Issue.record("\(error)"); return }
            #expect(messages.count == 1)
            #expect(messages[0].contains("'charge'") && messages[0].contains("'a'") && messages[0].contains("boom"))
        }
        // The machine is still usable: the same failure is reported again, nothing else changed.
        #expect(throws: MachineError.self) { try m.send("go") }
        #expect(m.atomic == ["a"])
    }

    @Test("R14: a throwing guard counts as false and raises error.execution")
    func throwingGuard() throws {
        var d = TestChart.test()
        let a = d.state("a")
        d.state("b")
        d.state("c")
        d.on(a, "go", to: ["b"], guard: .predicate { _, _ in throw TestError() })
        d.on(a, "go", to: ["c"])
        var m = try start(d)
        #expect(throws: MachineError.self) { try m.send("go") }
        #expect(m.atomic == ["c"])
        #expect(m.trace.contains { if case .error = $0 { true } else { false } })
    }

    @Test("R16: an endless macrostep stops at the limit with a typed error; the machine stays legal and keeps working")
    func microstepLimit() throws {
        var d = TestChart.test()
        let a = d.state("a")
        let b = d.state("b")
        let c = d.state("c")
        d.state("d")
        d.on(a, "loop", to: ["b"])
        d.on(b, nil, to: ["c"])
        d.on(c, nil, to: ["b"])
        d.on(b, "escape", to: ["d"])
        d.on(c, "escape", to: ["d"])
        var m = TestInstance(chart: try Chart(d), context: Log())
        m.microstepLimit = 100
        try m.start()
        do {
            try m.send("loop")
            Issue.record("expected the limit")
        } catch {
            guard case .microstepLimitExceeded(let limit, let states, _) = error else { Issue.record("\(error)"); return }
            #expect(limit == 100)
            #expect(Set(states) == ["b", "c"])
        }
        #expect(m.atomic == ["b"] || m.atomic == ["c"])
        #expect(m.activeStates.count == 1)
        // Still working: the next event is processed normally.
        try m.send("escape")
        #expect(m.atomic == ["d"])
    }

    @Test("R16: raised events that keep re-enabling each other hit the limit too")
    func raiseLoop() throws {
        var d = TestChart.test()
        let a = d.state("a")
        d.on(a, "ping", actions: [.raise("ping")])
        var m = TestInstance(chart: try Chart(d), context: Log())
        m.microstepLimit = 50
        try m.start()
        #expect(throws: MachineError.microstepLimitExceeded(limit: 50, states: ["a"], events: ["ping"])) { try m.send("ping") }
    }
}

@Suite("Delayed sends")
struct DelayedSendTests {
    @Test("R17: delayed sends fire in due order at their due time; ties keep send order; cancel removes")
    func dueOrder() throws {
        var d = TestChart.test()
        let a = d.state("a")
        d.on(a, "go", actions: [
            .send("late", delay: .milliseconds(300)), .send("early", delay: .milliseconds(100)),
            .send("tie1", delay: .milliseconds(200)), .send("tie2", delay: .milliseconds(200)),
            .send("cancelled", delay: .milliseconds(150), id: "x"), .cancel(id: "x"),
        ])
        for e in ["late", "early", "tie1", "tie2", "cancelled"] {
            d.on(a, e, actions: [.run(e) { [e] s in s.lines.append("\(e)@\(s.now)") }])
        }
        var m = try start(d)
        m.context.lines.removeAll()
        try m.send("go")
        try m.advance(by: .milliseconds(250))
        #expect(m.context.lines == ["early@0.1 seconds", "tie1@0.2 seconds", "tie2@0.2 seconds"])
        try m.advance(by: .milliseconds(50))
        #expect(m.context.lines.last == "late@0.3 seconds")
        #expect(m.pendingDelayedSends == 0)
    }

    @Test("R17: a delay set while processing a fired send counts from that send's due time")
    func chainedDelays() throws {
        var d = TestChart.test()
        let a = d.state("a")
        d.on(a, "tick", actions: [.run("tick") { s in s.count += 1; if s.count < 3 { s.send("tick", after: .milliseconds(100)) } }])
        var m = try start(d)
        try m.send("tick")
        try m.advance(by: .milliseconds(250))
        #expect(m.context.count == 3)
        #expect(m.now == .milliseconds(250))
    }

    @Test("R17: leaving the machine (reset) drops pending sends")
    func resetDrops() throws {
        var d = TestChart.test()
        let a = d.state("a")
        d.on(a, "go", actions: [.send("later", delay: .seconds(1))])
        d.on(a, "later", actions: [log("fired")])
        var m = try start(d)
        try m.send("go")
        try m.reset()
        try m.advance(by: .seconds(2))
        #expect(!m.context.lines.contains("fired"))
    }
}

@Suite("Chart validation")
struct ChartValidationTests {
    @Test("R32: invalid charts are typed errors naming the states involved")
    func invalidCharts() {
        var dup = TestChart.test()
        dup.state("a")
        dup.state("a")
        #expect(throws: ChartError.duplicateStateID("a", first: nil, second: nil)) { try Chart(dup) }

        var unknown = TestChart.test()
        let a = unknown.state("a")
        unknown.on(a, "go", to: ["nowhere"])
        #expect(throws: ChartError.unknownTarget("nowhere", from: "a", location: nil)) { try Chart(unknown) }

        var history = TestChart.test()
        history.addState("h", kind: .history(.deep), in: history.root)
        history.state("a")
        #expect(throws: ChartError.historyOutsideCompound("h", location: nil)) { try Chart(history) }

        let empty = TestChart.test("empty")
        #expect(throws: ChartError.missingInitialState("empty", location: nil)) { try Chart(empty) }

        var badInitial = TestChart.test()
        let p = badInitial.state("p", initial: ["q"])
        badInitial.state("p1", in: p)
        badInitial.state("q")
        #expect(throws: ChartError.invalidInitialTarget("q", of: "p", location: nil)) { try Chart(badInitial) }

        var finalOut = TestChart.test()
        let f = finalOut.state("f", .final)
        finalOut.on(f, "go", to: ["f"])
        #expect(throws: ChartError.self) { try Chart(finalOut) }
    }
}

@Suite("Endless sends")
struct EndlessSendTests {
    @Test("R16: actions that keep sending external events are stopped after microstepLimit macrosteps; the machine keeps working")
    func sendLoop() throws {
        var d = TestChart.test()
        let a = d.state("a")
        d.state("b")
        d.on(a, "ping", actions: [.send("ping")])
        d.on(a, "leave", to: ["b"])
        var m = TestInstance(chart: try Chart(d), context: Log())
        m.microstepLimit = 50
        try m.start()
        #expect(throws: MachineError.microstepLimitExceeded(limit: 50, states: ["a"], events: ["ping"])) { try m.send("ping") }
        #expect(m.queuedExternalEvents.isEmpty)
        try m.send("leave")
        #expect(m.atomic == ["b"])
    }
}
