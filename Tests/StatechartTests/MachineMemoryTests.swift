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

/// The scope's lists (ScopeLists.swift): effects, exited and entered states, made on first use.
@Suite("Scope lists: made on first need, copied on write")
struct ScopeListsTests {
    /// An extended state that can hold copies of the scope its actions receive.
    struct Kept {
        var log: [String] = []
        var scopes: [ActionScope<String, Kept>] = []
    }

    @Test("A machine whose steps are splices running no actions never makes the box; a step that runs actions does (R1, R8)")
    func splicesMakeNoLists() throws {
        var d = ChartDefinition<String, Void>(name: "flat", initial: ["a"], eventName: { $0 })
        let a = d.addState("a", in: d.root)
        let b = d.addState("b", in: d.root)
        let c = d.addState("c", in: d.root)
        d.addTransition(TransitionDefinition(on: .event("next"), to: ["b"]), from: a)
        d.addTransition(TransitionDefinition(on: .event("next"), to: ["a"]), from: b)
        d.addTransition(TransitionDefinition(on: .event("raise"), to: ["c"], actions: [.raise("bump")]), from: a)
        d.addTransition(TransitionDefinition(on: .event("bump"), to: ["a"]), from: c)
        var m = ChartInstance(chart: try Chart(d), context: ())
        try m.start()
        for _ in 0..<3 { #expect(try m.send("next")) }
        #expect(m.activeAtomicIDs == ["b"])
        #expect(!m.scope.hasLists)
        #expect(try m.send("next") && m.send("raise"))
        #expect(m.activeAtomicIDs == ["a"])  // c, then `bump` back to a
        #expect(m.scope.hasLists)
    }

    @Test("An action that keeps a copy of its scope and then raises leaves the step's exit list whole (R8, R29)")
    func keptScopeCopiesOnWrite() throws {
        var d = ChartDefinition<String, Kept>(name: "kept", initial: ["outer"], eventName: { $0 })
        let outer = d.addState("outer", in: d.root, initial: ["a"])
        let a = d.addState("a", in: outer)
        let away = d.addState("away", in: d.root)
        d.addState("done", in: d.root)
        d.addOnExit(
            [.run("keep and raise") { scope in
                scope.context.scopes.append(scope)  // the lists' box is now shared
                scope.raise("bump")  // so this write copies it
                scope.context.log.append("a sees \(scope.exitedStates.map { scope.id(of: $0) })")
            }], to: a)
        d.addOnExit(
            [.run("read") { scope in
                scope.context.log.append("outer sees \(scope.exitedStates.map { scope.id(of: $0) })")
            }], to: outer)
        d.addTransition(TransitionDefinition(on: .event("leave"), to: ["away"]), from: outer)
        d.addTransition(TransitionDefinition(on: .event("bump"), to: ["done"]), from: away)
        var m = ChartInstance(chart: try Chart(d), context: Kept())
        try m.start()
        #expect(try m.send("leave"))
        #expect(m.activeAtomicIDs == ["done"])
        #expect(m.context.log == ["a sees [\"a\", \"outer\"]", "outer sees [\"a\", \"outer\"]"])
        // The kept copy has the lists as they were when it was taken, and its own box.
        let kept = try #require(m.context.scopes.first)
        #expect(kept.listsBox !== m.scope.listsBox)
        #expect(kept.exitedStates.map { kept.id(of: $0) } == ["a", "outer"])
        #expect(!kept.hasEffects)
    }
}

/// The states an action sees exited and entered on a step that runs actions in a splice of the
/// configuration (``ChartInstance/takeStaticTransition(_:)``): before this was checked, that path
/// left the lists of an earlier step in place.
@Suite("Exited and entered states on every path")
struct StepListsTests {
    enum Light: Hashable, Sendable { case red, green, amber }
    enum Change: Hashable, Sendable { case next }

    @Test("A typed action that receives its neighbour sees the state left and the state entered on an event's step (R29)")
    func neighboursOnEventSteps() throws {
        let machine = Machine<Light, Change, [String]>("light", initial: .red) {
            When(.red) {
                OnExit { next, scope in scope.context.append("red → \(next.map { "\($0)" } ?? "nil")") }
                On(.next, to: .green)
            }
            When(.green) {
                OnEntry { previous, scope in scope.context.append("green ← \(previous.map { "\($0)" } ?? "nil")") }
                On(.next, to: .amber)
            }
            When(.amber) {
                OnEntry { previous, scope in scope.context.append("amber ← \(previous.map { "\($0)" } ?? "nil")") }
                On(.next, to: .red)
            }
        }
        var m = try StateMachine(machine, context: [])
        for _ in 0..<4 { try m.send(.next) }
        #expect(m.context == ["red → green", "green ← red", "amber ← green", "red → green", "green ← red"])
    }

    @Test("exitedStates and enteredStates name the step's states in exit and entry order; a targetless step has none (R8, R29)")
    func listsOnStaticSteps() throws {
        var d = ChartDefinition<String, [String]>(name: "lists", initial: ["p"], eventName: { $0 })
        let p = d.addState("p", in: d.root, initial: ["p1"])
        let p1 = d.addState("p1", in: p)
        let q = d.addState("q", in: d.root, initial: ["q1"])
        d.addState("q1", in: q)
        let report: Action<String, [String]> = .run("report") { scope in
            let names = scope.ids
            let ids = { (list: [ChartStateID]) in list.map { names[Int($0.index)] }.joined(separator: ",") }
            let state = scope.state.map { names[Int($0.index)] } ?? "-"
            scope.context.append("\(state): out \(ids(scope.exitedStates)) in \(ids(scope.enteredStates))")
        }
        d.addOnExit([report], to: p1)
        d.addOnEntry([report], to: q)
        d.addTransition(TransitionDefinition(on: .event("go"), to: ["q"]), from: p1)
        d.addTransition(TransitionDefinition(on: .event("stay"), actions: [report]), from: q)
        var m = ChartInstance(chart: try Chart(d), context: [])
        try m.start()
        #expect(try m.send("go") && m.send("stay"))
        #expect(m.context == ["p1: out p1,p in q,q1", "q: out p1,p in q,q1", "q: out  in "])
    }
}
