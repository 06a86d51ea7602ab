import Testing
import Statechart

/// Charts built in Swift that once hung the compiler or the interpreter, or cost quadratic time:
/// Docs/Reliability.md, H11 (history default cycles) and H12 (deep chains, wide parallels).
@Suite("Engine robustness")
struct EngineRobustnessTests {
    // MARK: H11 — history default cycles are compile errors

    @Test("H11: a compound state whose initial is its own history without a default is refused")
    func initialIsOwnHistory() {
        var d = TestChart.test()
        let b = d.state("b", initial: ["hb"])
        d.addState("hb", kind: .history(.shallow), in: b)
        d.state("b1", in: b)
        #expect(throws: ChartError.historyDefaultCycle(["hb", "hb"], location: nil)) { try Chart(d) }
    }

    @Test("H11: two history states whose defaults target each other are refused, naming the cycle")
    func historiesTargetingEachOther() {
        var d = TestChart.test()
        let b = d.state("b")
        d.state("b1", in: b)
        let h1 = d.addState("h1", kind: .history(.deep), in: b)
        let h2 = d.addState("h2", kind: .history(.shallow), in: b)
        d.on(h1, nil, to: ["h2"])
        d.on(h2, nil, to: ["h1"])
        #expect(throws: ChartError.historyDefaultCycle(["h1", "h2", "h1"], location: nil)) { try Chart(d) }
    }

    @Test("H11: a history default that targets itself is refused, in a compound or a parallel state")
    func historyTargetingItself() {
        for parallel in [false, true] {
            var d = TestChart.test()
            let p = d.state("p", parallel ? .parallel : .state)
            d.state("r1", in: p)
            d.state("r2", in: p)
            let h = d.addState("h", kind: .history(.shallow), in: p)
            d.on(h, nil, to: ["h"])
            #expect(throws: ChartError.historyDefaultCycle(["h", "h"], location: nil)) { try Chart(d) }
        }
    }

    @Test("H11: the error names the cycle and where it was declared")
    func cycleDescription() {
        let error = ChartError.historyDefaultCycle(["h1", "h2", "h1"], location: SourceLocation(line: 7))
        #expect(error.description.contains("h1 → h2 → h1"))
        #expect(error.description.contains("line 7"))
    }

    @Test("H11: chains of history defaults that end in a state are legal and enter that state")
    func historyChainsWithoutCycles() throws {
        var d = TestChart.test()
        let a = d.state("a")
        let b = d.state("b", initial: ["h1"])
        d.state("b1", in: b)
        d.state("b2", in: b)
        let h1 = d.addState("h1", kind: .history(.shallow), in: b)
        let h2 = d.addState("h2", kind: .history(.deep), in: b)
        d.on(h1, nil, to: ["h2"])
        d.on(h2, nil, to: ["b2"])
        d.on(a, "go", to: ["b"])
        d.on(a, "viaH2", to: ["h2"])
        var m = try start(d)
        try m.send("go")
        #expect(m.atomic == ["b2"])
        m = try start(d)
        try m.send("viaH2")
        #expect(m.atomic == ["b2"])
    }

    // MARK: H12 — deep chains and wide parallels cost linear time

    /// A chain s0 ⊃ s1 ⊃ … ⊃ s(depth-1), with a sibling `out` of s0 and transitions
    /// leaf → out and out → s0 (which enters the whole chain by default).
    func chain(depth: Int) -> TestChart { chainWithNodes(depth: depth).definition }

    func chainWithNodes(depth: Int) -> (definition: TestChart, nodes: [TestChart.Node]) {
        var d = TestChart.test()
        var nodes: [TestChart.Node] = []
        var parent = d.root
        var leaf = d.root
        for i in 0..<depth {
            leaf = d.addState("s\(i)", kind: .state, in: parent)
            nodes.append(leaf)
            parent = leaf
        }
        let out = d.addState("out", kind: .state, in: d.root)
        d.on(leaf, "leave", to: ["out"])
        d.on(out, "back", to: ["s0"])
        d.on(out, "deep", to: ["s\(depth - 1)"])
        return (d, nodes)
    }

    @Test("H12: a chain 50,000 states deep compiles, starts, leaves and re-enters (no quadratic precomputation)")
    func deepChain() throws {
        let depth = 50_000
        var m = TestInstance(chart: try Chart(chain(depth: depth)), context: Log())
        try m.start()
        #expect(m.activeStates.count == depth)  // the chain (the root is not listed)
        #expect(m.atomic == ["s\(depth - 1)"])
        try m.send("leave")
        #expect(m.atomic == ["out"])
        try m.send("back")
        #expect(m.activeStates.count == depth)
        try m.send("leave")
        try m.send("deep")
        #expect(m.atomic == ["s\(depth - 1)"])
    }

    @Test("H12, R8: entry sets too large to precompute are computed when taken, in the same order")
    func largeEntrySetOrder() throws {
        // 100 levels: more than the compiler keeps precomputed.
        let depth = 100
        var (d, nodes) = chainWithNodes(depth: depth)
        for (i, node) in nodes.enumerated() {
            d.addOnEntry([log("enter s\(i)")], to: node)
        }
        var m = TestInstance(chart: try Chart(d), context: Log())
        try m.start()
        #expect(m.context.lines == (0..<depth).map { "enter s\($0)" })
        try m.send("leave")
        m.context.lines.removeAll()
        try m.send("back")
        #expect(m.context.lines == (0..<depth).map { "enter s\($0)" })
        try m.send("leave")
        m.context.lines.removeAll()
        try m.send("deep")  // explicit target at the bottom: ancestors entered outermost first
        #expect(m.context.lines == (0..<depth).map { "enter s\($0)" })
    }

    @Test("H12: a parallel state with 100,000 regions compiles, starts, leaves and re-enters (linear entry)")
    func wideParallel() throws {
        let regions = 100_000
        var d = TestChart.test()
        let p = d.addState("p", kind: .parallel, in: d.root)
        for i in 0..<regions {
            let r = d.addState("r\(i)", kind: .state, in: p)
            d.addState("r\(i).a", kind: .state, in: r)
        }
        let out = d.addState("out", kind: .state, in: d.root)
        d.on(p, "leave", to: ["out"])
        d.on(out, "back", to: ["p"])
        d.on(out, "one", to: ["r\(regions / 2).a"])
        var m = TestInstance(chart: try Chart(d), context: Log())
        try m.start()
        #expect(m.activeAtomicStates.count == regions)
        try m.send("leave")
        #expect(m.atomic == ["out"])
        try m.send("back")
        #expect(m.activeAtomicStates.count == regions)
        try m.send("leave")
        try m.send("one")  // one region by target, all the others by default
        #expect(m.activeAtomicStates.count == regions)
        #expect(m.activeStates.count == 1 + 2 * regions)
    }
}
