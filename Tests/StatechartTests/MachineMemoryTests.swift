@testable @_spi(Testing) import Statechart
import Testing

/// The rarely used parts of a machine live in boxes created on first use and copied on write
/// (issue 16, "Memory"): copies of a machine must still never share them.
@Suite("Machine extras: copies do not share")
struct MachineMemoryTests {
    @Test("An undo log grown on a copy leaves the original's alone")
    func undoLogIsCopied() throws {
        var m = try orderWithUndo(depth: 0)
        try m.send(.confirm)
        var copy = m
        try copy.send(.authorize)
        #expect(m.history.map(\.event) == [.confirm])
        #expect(copy.history.map(\.event) == [.confirm, .authorize])
        #expect(m.undo() != nil)
        #expect(copy.history.count == 2)
    }

    @Test("An observer added to a copy is not called by the original")
    func observersAreCopied() throws {
        var m = try StateMachine(orderMachine(), context: OrderLog())
        var seen: [String] = []
        var copy = m
        copy.observe { _ in seen.append("copy") }
        try m.send(.confirm)
        #expect(seen.isEmpty)
        try copy.send(.confirm)
        #expect(seen == ["copy"])
    }

    @Test("A trace cleared on a copy stays on the original")
    func traceIsCopied() throws {
        var options = OrderMachine.Options()
        options.tracing = true
        var m = try OrderMachine(orderMachine(), context: OrderLog(), options: options)
        try m.send(.confirm)
        let recorded = m.trace.count
        var copy = m
        copy.clearTrace()
        #expect(copy.trace.isEmpty)
        #expect(m.trace.count == recorded && recorded > 0)
        try copy.send(.authorize)
        #expect(m.trace.count == recorded)
    }

    @Test("A machine that queues no work has no box: taking its (empty) work and invocation requests, as the runtimes do after every send, creates none")
    func takingNothingCreatesNoBox() throws {
        var m = try StateMachine(orderMachine(), context: OrderLog())
        try m.send(.confirm)
        #expect(m.core.extras == nil)
        #expect(m.takePendingWork().isEmpty && m.takeInvocationRequests().isEmpty)
        #expect(m.core.extras == nil)
        try m.send(.authorize)
        #expect(m.core.extras == nil)
    }
}

/// The step scratch (StepScratch.swift): made only by a machine whose steps are not all splices,
/// and never shared between copies.
@Suite("Step scratch: made on first need, copied on write")
struct StepScratchTests {
    /// `a` ⇄ `b` inside `outer`, `leave` to `away` and `back` through a shallow history of `outer`.
    func historyChart() throws -> Chart<String, Void> {
        var d = ChartDefinition<String, Void>(name: "h", initial: ["outer"], eventName: { $0 })
        let outer = d.addState("outer", kind: .state, in: d.root, initial: ["a"])
        let a = d.addState("a", in: outer)
        let b = d.addState("b", in: outer)
        let h = d.addState("h", kind: .history(.shallow), in: outer)
        d.addTransition(TransitionDefinition(on: nil, to: ["a"]), from: h)
        let away = d.addState("away", in: d.root)
        d.addTransition(TransitionDefinition(on: .event("next"), to: ["b"]), from: a)
        d.addTransition(TransitionDefinition(on: .event("next"), to: ["a"]), from: b)
        d.addTransition(TransitionDefinition(on: .event("leave"), to: ["away"]), from: outer)
        d.addTransition(TransitionDefinition(on: .event("back"), to: ["h"]), from: away)
        return try Chart(d)
    }

    @Test("A machine whose start and steps are all splices never makes it (flat, and nested without history)")
    func splicesMakeNoScratch() throws {
        var flat = ChartDefinition<String, Void>(name: "flat", initial: ["a"], eventName: { $0 })
        let states = ["a", "b", "c"].map { flat.addState($0, in: flat.root) }
        for (n, to) in ["b", "c", "a"].enumerated() {
            flat.addTransition(TransitionDefinition(on: .event("next"), to: [to]), from: states[n])
        }
        var m = ChartInstance(chart: try Chart(flat), context: ())
        try m.start()
        #expect(!m.hasStepScratch)
        for _ in 0..<4 { #expect(try m.send("next")) }
        #expect(m.activeAtomicIDs == ["b"])
        #expect(!m.hasStepScratch)

        var nested = ChartDefinition<String, Void>(name: "nested", initial: ["p"], eventName: { $0 })
        let p = nested.addState("p", in: nested.root, initial: ["p1"])
        let p1 = nested.addState("p1", in: p)
        let q = nested.addState("q", in: nested.root, initial: ["q1"])
        nested.addState("q1", in: q)
        nested.addTransition(TransitionDefinition(on: .event("go"), to: ["q"]), from: p1)
        nested.addTransition(TransitionDefinition(on: .event("go"), to: ["p"]), from: q)
        var n = ChartInstance(chart: try Chart(nested), context: ())
        try n.start()
        #expect(try n.send("go") && n.send("go"))
        #expect(n.activeAtomicIDs == ["p1"])
        #expect(!n.hasStepScratch)
    }

    @Test("A step through history makes it; a copy's steps neither use nor change the original's (R11)")
    func historyMakesScratchAndCopiesDoNotShare() throws {
        var m = ChartInstance(chart: try historyChart(), context: ())
        try m.start()
        #expect(try m.send("next"))  // b
        #expect(try m.send("leave"))  // away: history recorded
        #expect(try m.send("back"))  // b again, through history: the general microstep
        #expect(m.hasStepScratch)
        #expect(m.activeAtomicIDs == ["b"])
        var copy = m
        #expect(copy.stepScratchBox === m.stepScratchBox)
        #expect(try copy.send("next") && copy.send("leave") && copy.send("back"))
        #expect(copy.stepScratchBox !== m.stepScratchBox)
        #expect(copy.activeAtomicIDs == ["a"])
        #expect(try m.send("leave") && m.send("back"))
        #expect(m.activeAtomicIDs == ["b"])
        #expect(m.invariantViolations().isEmpty && copy.invariantViolations().isEmpty)
    }
}

/// The event queues (QueuedEvents.swift): made when the first event is queued, copied on write.
@Suite("Event queues: made on first event queued, copied on write")
struct QueuedEventsTests {
    /// `a` —go/raise bump→ `b` —bump→ `c` —back→ `a`.
    func raisingChart() throws -> Chart<String, Void> {
        var d = ChartDefinition<String, Void>(name: "q", initial: ["a"], eventName: { $0 })
        let a = d.addState("a", in: d.root)
        let b = d.addState("b", in: d.root)
        let c = d.addState("c", in: d.root)
        d.addTransition(TransitionDefinition(on: .event("go"), to: ["b"], actions: [.raise("bump")]), from: a)
        d.addTransition(TransitionDefinition(on: .event("bump"), to: ["c"]), from: b)
        d.addTransition(TransitionDefinition(on: .event("back"), to: ["a"]), from: c)
        return try Chart(d)
    }

    @Test("A machine that never queues an event never makes the box; one that raises does, and its copies do not share it (R1, R3)")
    func queuesAreMadeOnFirstUseAndCopiedOnWrite() throws {
        var m = ChartInstance(chart: try raisingChart(), context: ())
        try m.start()
        #expect(m.queueBox == nil)
        #expect(!(try m.send("bump")))  // dropped in `a`: nothing queued
        #expect(m.queueBox == nil)
        #expect(try m.send("go"))  // raises `bump`: the internal queue takes it
        #expect(m.queueBox != nil)
        #expect(m.activeAtomicIDs == ["c"])
        #expect(try m.send("back"))
        var copy = m
        #expect(copy.queueBox === m.queueBox)
        #expect(try copy.send("go"))
        #expect(copy.queueBox !== m.queueBox)
        #expect(copy.activeAtomicIDs == ["c"] && m.activeAtomicIDs == ["a"])
        #expect(try m.send(chartEvent: .event("go")))  // through the external queue
        #expect(m.activeAtomicIDs == ["c"])
        #expect(m.queuedExternalEvents.isEmpty && copy.queuedExternalEvents.isEmpty)
    }
}
