import Testing
import Statechart

@Suite("Model-based paths")
struct PathExplorerTests {
    @Test("shortest paths reach every reachable configuration; covering paths take every transition")
    func explore() throws {
        var d = TestChart.test()
        let a = d.state("a")
        let p = d.state("p")
        d.addState("h", kind: .history(.shallow), in: p)
        let p1 = d.state("p1", in: p)
        let p2 = d.state("p2", in: p)
        let b = d.state("b")
        d.state("island")
        d.on(a, "go", to: ["p"])
        d.on(p1, "next", to: ["p2"])
        d.on(p2, "next", to: ["p1"])
        d.on(p, "out", to: ["b"])
        d.on(b, "back", to: ["h"])
        d.on(b, "later", actions: [.cancel(id: "t"), .send("tick", delay: .seconds(1), id: "t")])
        d.on(b, "tick", to: ["a"])
        let m = try start(d)
        let result = PathExplorer.explore(from: m, alphabet: ["go", "next", "out", "back", "later"])
        let limited = result.reachedLimit
        #expect(!limited)
        let reached = Set(result.shortestPaths.map { $0.configurations.last ?? $0.initial })
        #expect(reached.isSuperset(of: [["a"], ["p1"], ["p2"], ["b"]]))
        #expect(!reached.contains(["island"]))
        let covered = result.coveredTransitions
        let all = result.allTransitions
        #expect(covered == all)
        // Coverage: replaying the covering paths takes every transition.
        var taken: Set<String> = []
        for path in result.coveringPaths { taken.formUnion(path.transitions) }
        #expect(taken == all)
        // A delayed send is explored by waiting for it.
        let waits = result.coveringPaths.contains { $0.steps.contains(.wait(.seconds(1))) }
        #expect(waits)
    }

    @Test("exploration is bounded and says so")
    func bounded() throws {
        var d = TestChart.test()
        let a = d.state("a")
        d.on(a, "tick", actions: [.send("tock", delay: .seconds(1))])
        d.on(a, "tock")
        let m = try start(d)
        let result = PathExplorer.explore(from: m, alphabet: ["tick", "tock"], limit: 5)
        let limited = result.reachedLimit
        let count = result.shortestPaths.count
        #expect(limited)
        #expect(count == 5)
    }
}
