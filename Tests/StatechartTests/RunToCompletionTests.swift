import Testing
import Statechart

@Suite("Run to completion")
struct RunToCompletionTests {
    @Test("R1, R9: an event sent from an action is its own macrostep, after the current one")
    func sendIsQueued() throws {
        var d = TestChart.test()
        let a = d.state("a")
        d.state("b")
        let c = d.state("c")
        d.state("d")
        d.on(a, "go", to: ["b"], actions: [.send("next"), log("after send")])
        d.on(c, "next", to: ["d"])
        var m = try start(d)
        // b handles nothing: 'next' reaches the external queue and is dropped in b.
        m.context.lines.removeAll()
        #expect(try m.send("go"))
        #expect(m.context.lines == ["exit a", "after send", "enter b"])
        #expect(m.trace.contains(.dropped("next")))
        #expect(m.atomic == ["b"])
    }

    @Test("R1, R9: a sent event is processed only after the raised ones of the current macrostep")
    func sendAfterRaise() throws {
        var d = TestChart.test()
        let a = d.state("a")
        let b = d.state("b")
        let c = d.state("c")
        d.state("d")
        d.on(a, "go", to: ["b"], actions: [.send("ext"), .raise("int")])
        d.on(b, "int", to: ["c"])
        d.on(b, "ext", to: ["d"])
        d.on(c, "ext", to: ["d"], actions: [log("ext in c")])
        var m = try start(d)
        try m.send("go")
        #expect(m.atomic == ["d"])
        #expect(m.context.lines.contains("ext in c"))
    }

    @Test("R2: eventless transitions are taken before the next internal event")
    func eventlessBeforeInternal() throws {
        var d = TestChart.test()
        let a = d.state("a")
        let b = d.state("b")
        let c = d.state("c")
        d.state("d")
        d.state("e")
        d.on(a, "go", to: ["b"], actions: [.raise("int")])
        d.on(b, nil, to: ["c"])
        d.on(b, "int", to: ["d"])
        d.on(c, "int", to: ["e"])
        var m = try start(d)
        try m.send("go")
        #expect(m.atomic == ["e"])
    }

    @Test("R3: internal events are processed in FIFO order and unmatched ones are dropped")
    func internalFIFO() throws {
        var d = TestChart.test()
        let a = d.state("a")
        let b = d.state("b")
        d.state("c")
        d.state("x")
        d.on(a, "go", to: ["b"], actions: [.raise("nothing"), .raise("one"), .raise("two")])
        d.on(b, "one", to: ["c"])
        d.on(b, "two", to: ["x"])
        var m = try start(d)
        try m.send("go")
        #expect(m.atomic == ["c"])
        #expect(m.trace.contains(.dropped("nothing")))
        #expect(m.trace.contains(.dropped("two")))
    }

    @Test("R20: start enters the initial configuration with entry actions and runs to completion")
    func startRunsEntries() throws {
        var d = TestChart.test()
        let p = d.state("p")
        d.state("p1", in: p)
        let q = d.state("q")
        d.on(p, nil, to: ["q"], guard: .predicate { c, _ in c.flag })
        _ = q
        let m = try start(d)
        #expect(m.context.lines == ["enter p", "enter p1"])
        #expect(m.atomic == ["p1"])
    }

    @Test("R19: reset exits (exit actions run), forgets history and pending sends, keeps context, starts again")
    func reset() throws {
        var d = TestChart.test()
        let p = d.state("p")
        d.addState("h", kind: .history(.deep), in: p)
        let p1 = d.state("p1", in: p)
        d.state("p2", in: p)
        let q = d.state("q")
        d.on(p1, "next", to: ["p2"], actions: [.send("late", delay: .seconds(5))])
        d.on(p, "out", to: ["q"])
        d.on(q, "back", to: ["h"])
        var m = try start(d)
        try m.send("next")
        try m.send("out")
        m.context.count = 7
        #expect(m.pendingDelayedSends == 1)
        m.context.lines.removeAll()
        try m.reset()
        #expect(m.context.lines == ["exit q", "enter p", "enter p1"])
        #expect(m.context.count == 7)
        #expect(m.pendingDelayedSends == 0)
        try m.send("out")
        try m.send("back")
        #expect(m.atomic == ["p1"])  // history was forgotten: default entry
    }

    @Test("R15: a top-level final ends the machine; remaining states exit; further sends throw")
    func topLevelFinal() throws {
        var d = TestChart.test()
        let par = d.state("par", .parallel)
        let r1 = d.state("r1", in: par)
        d.state("r1a", in: r1)
        let r2 = d.state("r2", in: par)
        let r2a = d.state("r2a", in: r2)
        d.state("end", .final)
        d.on(r2a, "stop", to: ["end"], actions: [.raise("ignored")])
        var m = try start(d)
        m.context.lines.removeAll()
        try m.send("stop")
        #expect(!m.isRunning)
        #expect(m.activeAtomicIDs == ["end"])
        #expect(m.context.lines == ["exit r2a", "exit r2", "exit r1a", "exit r1", "exit par", "enter end", "exit end"])
        #expect(throws: MachineError.finished(finalState: "end")) { try m.send("stop") }
        try m.reset()
        #expect(m.atomic == ["r1a", "r2a"])
    }
}
