import Testing

@testable @_spi(Testing) import Statechart

/// A chart boxes its blocks of closure actions and its predicate guards once, so that the
/// interpreter calls them without reference counting (`Model/ClosureBlocks.swift`, issue 16).
/// These tests check what that must not change: the boxes go with the chart, a block that throws
/// stops where the general block does, and what is boxed and what is not.
@Suite("Boxed closure actions and guards")
struct ClosureBlockTests {
    final class Witness: Sendable {}

    @Test("the boxed closures are released with the chart: nothing they capture outlives it")
    func boxesGoWithTheChart() throws {
        weak var captured: Witness?
        do {
            let witness = Witness()
            captured = witness
            var d = ChartDefinition<String, Int>(name: "boxes", eventName: { $0 })
            let a = d.addState("a", in: d.root)
            let b = d.addState("b", in: d.root)
            d.addOnEntry([.run("enter") { _ = witness; $0.context += 1 }], to: b)
            d.addOnExit([.run("exit") { _ = witness; $0.context += 10 }], to: a)
            d.addTransition(
                TransitionDefinition(on: .event("go"), guard: .predicate { _, _ in _ = witness; return true }, to: ["b"],
                    actions: [.run(nil) { _ = witness; $0.context += 100 }]),
                from: a)
            var m = ChartInstance(chart: try Chart(d), context: 0)
            try m.start()
            #expect(try m.send("go"))
            #expect(m.context == 111)
            #expect(m.chart.closures.pool.count == 3 && m.chart.closures.guards.filter { $0 != nil }.count == 1)
        }
        #expect(captured == nil, "a boxed closure kept what it captured alive after its chart went")
    }

    struct Refused: Error {}

    @Test("R14: in a boxed block, an action that throws skips the rest of its block, raises error.execution naming the action, and the other blocks still run; a throwing boxed guard counts as false")
    func throwingBoxedActions() throws {
        var d = ChartDefinition<String, [String]>(name: "throws", eventName: { $0 })
        let a = d.addState("a", in: d.root)
        let b = d.addState("b", in: d.root)
        let failed = d.addState("failed", in: d.root)
        d.addTransition(
            TransitionDefinition(on: .event("go"), to: ["b"], actions: [
                .run("first") { $0.context.append("first") },
                .run("refuses") { _ in throw Refused() },
                .run("skipped") { $0.context.append("skipped") },
            ]),
            from: a)
        d.addOnEntry([.run(nil) { $0.context.append("enter b") }], to: b)
        d.addTransition(TransitionDefinition(on: .error, to: ["failed"]), from: b)
        d.addTransition(TransitionDefinition(on: .event("try"), guard: .predicate { _, _ in throw Refused() }, to: ["a"]), from: failed)
        let chart = try Chart(d)
        // Every block here is closures only: all of them are boxed.
        #expect(chart.closures.transitions.contains { $0.exists } && chart.closures.entries[Int(chart.state(withID: "b")!.index)].exists)
        for traced in [false, true] {
            var m = ChartInstance(chart: chart, context: [String]())
            m.isTracing = traced
            try m.start()
            let error = #expect(throws: MachineError.self) { try m.send("go") }
            #expect(m.context == ["first", "enter b"], "traced \(traced): \(m.context)")
            #expect(m.activeAtomicIDs == ["failed"], "traced \(traced)")
            #expect("\(error.map { "\($0)" } ?? "")".contains("refuses"), "traced \(traced): \(String(describing: error))")
            // The throwing guard: not taken, and its error is raised.
            #expect(throws: MachineError.self) { try m.send("try") }
            #expect(m.activeAtomicIDs == ["failed"])
        }
    }

    @Test("only blocks of closures are boxed: a block with another action, or a state with two entry blocks, keeps the general path")
    func whatIsBoxed() throws {
        var d = ChartDefinition<String, Int>(name: "mixed", eventName: { $0 })
        let a = d.addState("a", in: d.root)
        let b = d.addState("b", in: d.root)
        let c = d.addState("c", in: d.root)
        d.addTransition(TransitionDefinition(on: .event("go"), to: ["b"], actions: [.run(nil) { $0.context += 1 }, .raise("next")]), from: a)
        d.addTransition(TransitionDefinition(on: .event("next"), guard: .inState("b"), to: ["c"], actions: [.run(nil) { $0.context += 2 }]), from: b)
        d.addOnEntry([.run(nil) { $0.context += 4 }], to: c)
        d.addOnEntry([.run(nil) { $0.context += 8 }], to: c)
        d.addOnEntry([.run(nil) { $0.context += 16 }], to: b)
        let chart = try Chart(d)
        let index = { (id: String) in Int(chart.state(withID: id)!.index) }
        #expect(!chart.closures.entries[index("c")].exists && chart.closures.entries[index("b")].exists)
        var boxedTransitions = 0
        for t in 0..<chart.closures.transitions.count where chart.closures.transitions[t].exists { boxedTransitions += 1 }
        #expect(boxedTransitions == 1)
        var m = ChartInstance(chart: chart, context: 0)
        try m.start()
        #expect(try m.send("go"))
        #expect(m.activeAtomicIDs == ["c"] && m.context == 1 + 16 + 2 + 4 + 8)
    }
}
