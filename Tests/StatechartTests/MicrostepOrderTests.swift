import Testing
import Statechart

@Suite("Microstep order")
struct MicrostepOrderTests {
    /// root
    ///   A  (deep history hA)
    ///     A1 (parallel)
    ///       R1: R1a (R1a1, R1a2), R1b
    ///       R2: R2a, R2b
    ///   B
    ///     B1 (parallel)
    ///       S1: S1a
    ///       S2: S2a (S2a1)
    func chart() -> TestChart {
        var d = TestChart.test()
        let a = d.state("A")
        d.addState("hA", kind: .history(.deep), in: a)
        let a1 = d.state("A1", .parallel, in: a)
        let r1 = d.state("R1", in: a1)
        let r1a = d.state("R1a", in: r1)
        let r1a1 = d.state("R1a1", in: r1a)
        d.state("R1a2", in: r1a)
        d.state("R1b", in: r1)
        let r2 = d.state("R2", in: a1)
        let r2a = d.state("R2a", in: r2)
        d.state("R2b", in: r2)
        let b = d.state("B")
        let b1 = d.state("B1", .parallel, in: b)
        let s1 = d.state("S1", in: b1)
        d.state("S1a", in: s1)
        let s2 = d.state("S2", in: b1)
        let s2a = d.state("S2a", in: s2)
        d.state("S2a1", in: s2a)
        d.on(r1a1, "step", to: ["R1a2"])
        d.on(r2a, "step", to: ["R2b"])
        d.on(r1a, "cross", to: ["S2a1"], actions: [log("t1"), log("t2")])
        d.on(b, "back", to: ["hA"], actions: [log("t3")])
        return d
    }

    @Test("R8, R11, R12: exits in reverse document order, history recorded, transition actions, entries in document order — across three levels with parallel regions")
    func exhaustiveOrder() throws {
        var m = try start(chart())
        #expect(m.context.lines == ["enter A", "enter A1", "enter R1", "enter R1a", "enter R1a1", "enter R2", "enter R2a"])
        try m.send("step")  // both regions move: R1a1 → R1a2 and R2a → R2b
        #expect(m.atomic == ["R1a2", "R2b"])
        m.context.lines.removeAll()
        m.trace.removeAll()
        try m.send("cross")
        #expect(m.context.lines == [
            "exit R2b", "exit R2", "exit R1a2", "exit R1a", "exit R1", "exit A1", "exit A",
            "t1", "t2",
            "enter B", "enter B1", "enter S1", "enter S1a", "enter S2", "enter S2a", "enter S2a1",
        ])
        #expect(m.historyValue(of: m.chart.state(withID: "hA")!)?.map { m.chart.id(of: $0) } == ["R1a2", "R2b"])
        m.context.lines.removeAll()
        try m.send("back")
        // R12: deep history restores the exact configuration, not the initial states.
        #expect(m.context.lines == [
            "exit S2a1", "exit S2a", "exit S2", "exit S1a", "exit S1", "exit B1", "exit B",
            "t3",
            "enter A", "enter A1", "enter R1", "enter R1a", "enter R1a2", "enter R2", "enter R2b",
        ])
    }

    @Test("R11, R12: shallow history restores the children only; their own children start fresh")
    func shallowHistory() throws {
        var d = TestChart.test()
        let p = d.state("P")
        d.addState("h", kind: .history(.shallow), in: p)
        let p1 = d.state("P1", in: p)
        let p1a = d.state("P1a", in: p1)
        d.state("P1b", in: p1)
        d.state("P2", in: p)
        let q = d.state("Q")
        d.on(p1a, "next", to: ["P1b"])
        d.on(p, "out", to: ["Q"])
        d.on(q, "back", to: ["h"])
        var m = try start(d)
        try m.send("next")
        try m.send("out")
        try m.send("back")
        #expect(m.atomic == ["P1a"])
    }

    @Test("R12: a history state without a stored value takes its default transition; its actions run after the parent's entry")
    func historyDefault() throws {
        var d = TestChart.test()
        let q = d.state("Q")
        let p = d.state("P")
        let h = d.addState("h", kind: .history(.shallow), in: p)
        d.addTransition(TransitionDefinition(on: nil, to: ["P2"], actions: [log("history default")]), from: h)
        d.state("P1", in: p)
        d.state("P2", in: p)
        d.on(q, "go", to: ["h"])
        var m = try start(d)
        m.context.lines.removeAll()
        try m.send("go")
        #expect(m.context.lines == ["exit Q", "enter P", "history default", "enter P2"])
    }

    @Test("R10: initial transition actions run after the compound state's entry actions, before its child's")
    func initialActions() throws {
        var d = TestChart.test()
        let p = d.state("P")
        d.state("P1", in: p)
        d.state("P2", in: p)
        d.setInitial(["P2"], actions: [log("initial action")], of: p)
        let m = try start(d)
        #expect(m.context.lines == ["enter P", "initial action", "enter P2"])
    }

    @Test("R6, R31: an external self-transition exits and re-enters; an internal one does not exit the source; a targetless one changes nothing")
    func selfTransitions() throws {
        var d = TestChart.test()
        let p = d.state("P")
        let p1 = d.state("P1", in: p)
        d.state("P2", in: p)
        d.on(p, "ext", to: ["P"])
        d.on(p, "int", to: ["P2"], type: .internal)
        d.on(p, "extchild", to: ["P2"])
        d.on(p, "none", actions: [log("targetless")])
        _ = p1
        var m = try start(d)
        m.context.lines.removeAll()
        try m.send("ext")
        #expect(m.context.lines == ["exit P1", "exit P", "enter P", "enter P1"])
        m.context.lines.removeAll()
        try m.send("int")
        #expect(m.context.lines == ["exit P1", "enter P2"])
        m.context.lines.removeAll()
        try m.send("extchild")
        #expect(m.context.lines == ["exit P2", "exit P", "enter P", "enter P2"])
        m.context.lines.removeAll()
        try m.send("none")
        #expect(m.context.lines == ["targetless"])
    }

    @Test("R6: the domain is never a parallel: moving inside one region exits and re-enters the whole parallel")
    func lccaNeverParallel() throws {
        var d = TestChart.test()
        let par = d.state("Par", .parallel)
        let r1 = d.state("R1", in: par)
        let a = d.state("a", in: r1)
        d.state("b", in: r1)
        let r2 = d.state("R2", in: par)
        d.state("c", in: r2)
        d.on(a, "go", to: ["b"])
        d.on(par, "self", to: ["R1"])
        var m = try start(d)
        m.context.lines.removeAll()
        try m.send("go")
        #expect(m.context.lines == ["exit a", "enter b"])  // LCCA is R1 (compound): only a exits
        m.context.lines.removeAll()
        try m.send("self")  // target R1 inside Par: the LCCA is the root, so Par exits and re-enters
        #expect(m.context.lines == ["exit c", "exit R2", "exit b", "exit R1", "exit Par", "enter Par", "enter R1", "enter a", "enter R2", "enter c"])
    }

    @Test("R13: entering a final child raises done.state.parent; all regions final raises the parallel's")
    func doneEvents() throws {
        var d = TestChart.test()
        let par = d.state("Par", .parallel)
        let r1 = d.state("R1", in: par)
        let a = d.state("a", in: r1)
        d.state("af", .final, in: r1)
        let r2 = d.state("R2", in: par)
        let c = d.state("c", in: r2)
        d.state("cf", .final, in: r2)
        d.state("out")
        d.on(a, "done1", to: ["af"])
        d.on(c, "done2", to: ["cf"])
        d.on(par, "done.state.Par", to: ["out"])
        d.on(par, "done.state.R1", actions: [log("R1 done")])
        var m = try start(d)
        try m.send("done1")
        #expect(m.context.lines.last == "R1 done")
        #expect(m.trace.contains(.raised("done.state.R1")))
        try m.send("done2")
        #expect(m.atomic == ["out"])
        #expect(m.trace.contains(.raised("done.state.Par")))
    }
}

@Suite("Selection")
struct SelectionTests {
    @Test("R4: the innermost state's transition wins over its ancestors'; document order inside a state")
    func innermostFirst() throws {
        var d = TestChart.test()
        let p = d.state("P")
        let p1 = d.state("P1", in: p)
        d.state("X")
        d.state("Y")
        d.state("Z")
        d.on(p, "e", to: ["X"])
        d.on(p1, "e", to: ["Y"])
        d.on(p1, "e", to: ["Z"])
        var m = try start(d)
        try m.send("e")
        #expect(m.atomic == ["Y"])
    }

    @Test("R4, R25: a failing guard falls through to the next candidate, then to the parent")
    func guardsFallThrough() throws {
        var d = TestChart.test()
        let p = d.state("P")
        let p1 = d.state("P1", in: p)
        d.state("X")
        d.state("Y")
        d.on(p1, "e", to: ["X"], guard: .predicate { c, _ in c.flag })
        d.on(p, "e", to: ["Y"])
        var m = try start(d)
        try m.send("e")
        #expect(m.atomic == ["Y"])
    }

    @Test("R5: SCXML descriptors match by token prefix; * matches everything; foo.* means foo")
    func descriptors() throws {
        var d = TestChart.test()
        let a = d.state("a")
        let b = d.state("b")
        let c = d.state("c")
        d.state("d")
        d.on(a, "error", to: ["b"])
        d.on(b, "foo.*", to: ["c"])
        d.on(c, "*", to: ["d"])
        var m = try start(d)
        try m.send("errors")  // not a token prefix match
        #expect(m.atomic == ["a"])
        try m.send("error.execution.deep")
        #expect(m.atomic == ["b"])
        try m.send("foo.bar")
        #expect(m.atomic == ["c"])
        try m.send("anything")
        #expect(m.atomic == ["d"])
    }

    @Test("R7: in parallel regions the first selected wins a conflict; a descendant source preempts")
    func conflicts() throws {
        var d = TestChart.test()
        let par = d.state("Par", .parallel)
        let r1 = d.state("R1", in: par)
        let a = d.state("a", in: r1)
        let r2 = d.state("R2", in: par)
        let c = d.state("c", in: r2)
        d.state("X")
        d.state("Y")
        d.on(a, "e", to: ["X"])
        d.on(c, "e", to: ["Y"])  // conflicts with a's (both exit Par): a's wins
        d.on(a, "f", actions: [log("a targetless")])
        d.on(c, "f", actions: [log("c targetless")])  // targetless: no conflict, both run
        var m = try start(d)
        try m.send("f")
        #expect(Array(m.context.lines.suffix(2)) == ["a targetless", "c targetless"])
        try m.send("e")
        #expect(m.atomic == ["X"])
    }
}
