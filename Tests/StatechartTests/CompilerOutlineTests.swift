import Testing

@testable import Statechart

/// The compiler works on a definition's outline (no generics) and skips entry sets it knows will
/// not be kept (issue 16). These tests hold it to what it computed before: every static entry set
/// equals a direct computation with the interpreter's ``EntrySetBuilder`` for every transition.
@Suite("Compiler outline")
struct CompilerOutlineTests {
    /// The static entry sets as computed without any skipping: one builder run per transition.
    /// Each kept set is the entries followed, after a `-1`, by the compound states among them
    /// entered by default: the compiler's fast path for one target below the domain builds both.
    static func reference<E, C>(_ chart: Chart<E, C>) -> [[Int32]?] {
        var builder = EntrySetBuilder(stateCount: chart.states.count)
        builder.limit = ChartCompiler.staticEntryLimit
        var out: [[Int32]?] = Array(repeating: nil, count: chart.transitions.count)
        for (k, t) in chart.transitions.enumerated() {
            guard t.domain >= 0, t.targetCount > 0, !(t.isPseudo && chart.states[Int(t.source)].kind.isHistory) else { continue }
            builder.clear()
            chart.states.withUnsafeBufferPointer { states in
                builder.add(targets: chart.targets(of: Int32(k)), domain: t.domain, states: states, transitions: chart)
            }
            builder.finish()
            let keep = builder.entries.count <= ChartCompiler.staticEntryLimit && !builder.touchedHistory
            let defaults = builder.entries.array.filter { builder.isDefaultEntered($0) }
            builder.clearDefaultMarks()
            if keep { out[k] = builder.entries.array + [-1] + defaults }
        }
        return out
    }

    /// The static entry sets the chart kept, by transition.
    static func kept<E, C>(_ chart: Chart<E, C>) -> [[Int32]?] {
        (0..<chart.transitions.count).map { k in
            guard let entries = chart.staticEntrySet(of: k) else { return nil }
            let range = chart.staticDefaults[k]
            return entries + [-1] + (Int(range.start)..<Int(range.end)).map { chart.staticDefaultEntries[$0] }
        }
    }

    /// A chain `depth` deep with a parallel state and a history state part way down, and
    /// transitions from the leaf to several levels.
    static func chain(depth: Int) -> ChartDefinition<String, Void> {
        var d = ChartDefinition<String, Void>(name: "chain")
        var parent = d.root
        var leaf = parent
        for i in 0..<depth {
            let kind: StateKind = i == depth / 2 ? .parallel : .state
            leaf = d.addState("c\(i)", kind: kind, in: parent)
            if kind == .parallel {
                let side = d.addState("side\(i)", in: leaf)
                d.addState("side\(i).a", in: side)
            }
            if i == depth / 3 { d.addState("h\(i)", kind: .history(.deep), in: leaf) }
            parent = leaf
        }
        for target in ["c0", "c\(depth - 70)", "c\(depth - 10)", "h\(depth / 3)", "side\(depth / 2).a"] {
            d.addTransition(TransitionDefinition(on: .event(target), to: [target]), from: leaf)
        }
        return d
    }

    @Test("static entry sets of deep chains equal a direct computation for every transition", arguments: [70, 100, 300])
    func chainStaticEntries(depth: Int) throws {
        let chart = try Chart(Self.chain(depth: depth))
        let kept = Self.kept(chart)
        #expect(kept == Self.reference(chart))
        // Some are kept (near the leaf), some are not (near the root): both cases are exercised.
        #expect(kept.contains { $0 != nil })
        #expect(kept.contains { $0 == nil })
    }

    @Test("static entry sets of random charts equal a direct computation for every transition")
    func randomStaticEntries() throws {
        for seed in UInt64(1)...200 {
            guard let chart = try? Chart(RandomCharts.make(seed: seed)) else { continue }
            #expect(Self.kept(chart) == Self.reference(chart), "seed \(seed)")
        }
    }

    @Test("targets resolve to the same states whether they are near the source (tried first) or not")
    func nearAndFarTargets() throws {
        // a ⊃ {a1, a2 ⊃ {a21}}, b: next sibling, parent's first child, own first child, self,
        // cousins, the parent and an ancestor's sibling.
        var d = ChartDefinition<String, Void>(name: "near")
        let a = d.addState("a", in: d.root)
        let a1 = d.addState("a1", in: a)
        let a2 = d.addState("a2", in: a)
        d.addState("a21", in: a2)
        let b = d.addState("b", in: d.root)
        let cases: [(String, ChartDefinition<String, Void>.Node)] = [
            ("a2", a1), ("a1", a2), ("a21", a2), ("a2", a2), ("a21", a1), ("a", a1), ("b", a1), ("a", b), ("a1", b),
        ]
        for (k, (target, source)) in cases.enumerated() {
            d.addTransition(TransitionDefinition(on: .event("e\(k)"), to: [target]), from: source)
        }
        let chart = try Chart(d)
        let declared = chart.transitions.indices.filter { !chart.transitions[$0].isPseudo }
        // Transitions in document order of their sources: a1's, a2's, then b's.
        let expected = cases.enumerated().sorted { ($0.element.1.rawValue, $0.offset) < ($1.element.1.rawValue, $1.offset) }
            .map { chart.state(withID: $0.element.0)!.index }
        #expect(declared.map { chart.targets(of: Int32($0)).array } == expected.map { [$0] })
        // An id that is none of the near states' and no state's at all is still an unknown target.
        d.addTransition(TransitionDefinition(on: .event("x"), to: ["a3"]), from: a1)
        #expect(throws: ChartError.self) { try Chart(d) }
    }

    @Test("children and transitions keep the order they were added in, whatever the node order")
    func outlineOrder() throws {
        var d = ChartDefinition<String, Void>(name: "order")
        let a = d.addState("a", in: d.root)
        let b = d.addState("b", in: d.root)
        let a1 = d.addState("a1", in: a)
        d.addTransition(TransitionDefinition(on: .event("x"), to: ["b"]), from: a1)
        d.addTransition(TransitionDefinition(on: .event("y"), to: ["a"]), from: b)
        let a2 = d.addState("a2", in: a)
        d.addTransition(TransitionDefinition(on: .event("z"), to: ["a2"]), from: a1)
        #expect(d.children(of: d.root) == [a, b])
        #expect(d.children(of: a) == [a1, a2])
        #expect(d.transitionIndices(of: a1).map { d.transitions[$0].targets } == [["b"], ["a2"]])
        let chart = try Chart(d)
        // Document order: a, a1, a2, b — a's children come before b even though b was added first.
        #expect(chart.ids == ["", "a", "a1", "a2", "b"])
        let a1Index = Int(chart.state(withID: "a1")!.index)
        let own = chart.states[a1Index].transitionStart..<chart.states[a1Index].transitionEnd
        #expect(own.map { chart.targets(of: $0).array } == [[4], [3]])
    }

    @Test("a state's children, walked by subtree ranges, are the states whose parent it is, in document order")
    func childrenFromSubtreeRanges() throws {
        // Issue 16, "Build": the chart keeps no list of children per state; `ChildStates` walks
        // the siblings by their subtree ends. Checked against the parent of every state, over
        // random charts with nesting, parallel regions, history and final states.
        for seed: UInt64 in 1...40 {
            let chart = try Chart(RandomCharts.make(seed: seed))
            for s in 0..<Int32(chart.stateCount) {
                let expected = (0..<Int32(chart.stateCount)).filter { $0 > 0 && chart.states[Int($0)].parent == s }
                #expect(Array(chart.states.children(of: s)) == expected, "seed \(seed), state \(s)")
                #expect(chart.children(of: ChartStateID(s)).map(\.index) == expected)
            }
        }
    }

    @Test("a chart built without locations keeps none; one with locations keeps each")
    func locationsStoredWhenPresent() throws {
        var d = ChartDefinition<String, Void>(name: "locations")
        let a = d.addState("a", in: d.root)
        _ = d.addState("b", in: d.root)
        let bare = try Chart(d)
        #expect(bare.locations.isEmpty)
        #expect(bare.location(of: bare.state(withID: "a")!) == nil)
        _ = d.addState("a1", in: a, location: SourceLocation(line: 7, column: 3))
        let located = try Chart(d)
        #expect(!located.locations.isEmpty)
        #expect(located.location(of: located.state(withID: "a1")!) == SourceLocation(line: 7, column: 3))
        #expect(located.location(of: located.state(withID: "b")!) == nil)
    }

    @Test("R26: request routes added by id and by node keep their first route per target, and the routes of a container share one transition; a route by id outside its container is refused naming the target")
    func requestRoutesByIdAndNode() throws {
        var d = ChartDefinition<String, Void>(name: "routes", eventName: { $0 })
        let a = d.addState("a", in: d.root)
        let x = d.addState("a.x", in: a)
        let y = d.addState("a.y", in: a)
        _ = d.addState("b", in: d.root)
        d.addRequestRoute(to: "a.y", within: a)
        d.addRequestRoute(toNode: x, within: a)
        d.addRequestRoute(toNode: y, within: d.root)  // a second route to a.y: the first is kept
        d.reserveTypedTables(states: 10)
        #expect(d.outline.requestRoutes.count == 3 && d.outline.requestRouteTargets == ["a.y"])
        #expect(MemoryLayout<RequestRoute>.stride == 12)
        let chart = try Chart(d)
        let ay = try #require(chart.state(withID: "a.y")), ax = try #require(chart.state(withID: "a.x"))
        let toY = try #require(chart.requestTransitions[ay.index]), toX = try #require(chart.requestTransitions[ax.index])
        // One transition for the container's routes, after every other: the second route to a.y
        // (within the root) is not kept, so the root has none.
        #expect(toY == toX, "the routes of a container share its request transition")
        #expect(chart.requestTransitions.first == toY && chart.transitionCount == Int(toY) + 1)
        #expect(chart.requestTransitions.contains(toY) && !chart.requestTransitions.contains(toY - 1))
        #expect(chart.transitions[Int(toY)].source == chart.state(withID: "a")!.index)
        #expect(chart.transitions[Int(toY)].targetCount == 0 && chart.transitions[Int(toY)].isInternal)
        var m = ChartInstance(chart: chart, context: ())
        try m.start()
        #expect(m.activeAtomicIDs == ["a.x"])
        #expect(try m.performRequest(to: ay))
        #expect(m.activeAtomicIDs == ["a.y"])
        #expect(try m.performRequest(to: ax))
        #expect(m.activeAtomicIDs == ["a.x"])
        #expect(try m.performRequest(to: ay))
        #expect(m.activeAtomicIDs == ["a.y"])
        #expect(try !m.performRequest(to: chart.state(withID: "b")!), "b has no route")

        var bad = ChartDefinition<String, Void>(name: "bad", eventName: { $0 })
        let p = bad.addState("p", in: bad.root)
        _ = bad.addState("p.q", in: p)
        _ = bad.addState("r", in: bad.root)
        bad.addRequestRoute(to: "r", within: p)
        #expect {
            _ = try Chart(bad)
        } throws: { error in
            guard case ChartError.invalidStructure(let id, let reason, _) = error else { return false }
            return id == "r" && reason.contains("request route")
        }
    }

    @Test("R91: the ids a guard and a done descriptor name are resolved in order, guard first; an unknown one is unknownTarget")
    func guardAndDoneReferences() throws {
        func chart(guardID: String, doneID: String) -> ChartDefinition<String, Void> {
            var d = ChartDefinition<String, Void>(name: "refs", eventName: { $0 })
            let a = d.addState("a", in: d.root)
            let b = d.addState("b", in: d.root)
            d.addState("b1", in: b)
            d.addTransition(
                TransitionDefinition(on: .done(doneID), guard: .all([.inState("a"), .not(.inState(guardID))]), to: ["b"]), from: a)
            return d
        }
        // Both known: compiles, and the outline keeps the guard's ids, then the done id.
        var known = chart(guardID: "b", doneID: "b")
        _ = try Chart(known)
        known.outline.transitions[0].doneReference = "b1"
        #expect(known.outline.transitions[0].references == ["a", "b", "b1"])
        known.outline.transitions[0].doneReference = nil
        #expect(known.outline.transitions[0].references == ["a", "b"] && known.outline.transitions[0].doneReference == nil)
        // The guard's unknown id is reported before the done descriptor's.
        #expect(throws: ChartError.unknownTarget("ghost", from: "a", location: nil)) { try Chart(chart(guardID: "ghost", doneID: "spook")) }
        #expect(throws: ChartError.unknownTarget("spook", from: "a", location: nil)) { try Chart(chart(guardID: "b", doneID: "spook")) }
    }

    @Test("R32: a history state with an entry or exit block, even an empty one, or invoked work is refused; a state with invoked work is marked")
    func blocksAndInvocationsOfNodes() throws {
        enum Addition: CaseIterable { case emptyEntry, exitAction, invocation }
        for addition in Addition.allCases {
            var d = ChartDefinition<String, Void>(name: "blocks", eventName: { $0 })
            let p = d.addState("p", in: d.root)
            let h = d.addState("h", kind: .history(.shallow), in: p)
            d.addState("a", in: p)
            switch addition {
            case .emptyEntry: d.addOnEntry([], to: h)
            case .exitAction: d.addOnExit([.run("x") { _ in }], to: h)
            case .invocation: d.addInvocation(Invocation("work", run: { _ in "done" }), to: h)
            }
            #expect(throws: ChartError.invalidStructure("h", reason: "a history state has no entry or exit actions", location: nil), "\(addition)") {
                try Chart(d)
            }
        }
        var d = ChartDefinition<String, Void>(name: "work", eventName: { $0 })
        let a = d.addState("a", in: d.root)
        d.addState("b", in: d.root)
        #expect(try !Chart(d).hasInvocations)
        d.addInvocation(Invocation("work", run: { _ in "done" }), to: a)
        #expect(try Chart(d).hasInvocations)
    }

    @Test("a definition's per-state and per-transition records stay small; locations clamp to 32 bits")
    func definitionRecordSizes() {
        // Issue 16, "Memory": a 1,000,000-state document's definition holds these by the million,
        // alive together with the document's tree at the loader's peak.
        #expect(MemoryLayout<Statechart.SourceLocation?>.size <= 9)
        #expect(MemoryLayout<TransitionDefinition<String, Void>>.stride <= 72)
        #expect(MemoryLayout<TransitionOutline>.stride <= 40)
        #expect(MemoryLayout<NodeOutline>.stride <= 72)
        // And the chart's own record per transition: the compiler's, 32 bytes, with the event
        // descriptor beside it (`Chart.matchers`) and the guard and actions in sparse tables.
        // It was a generic record of 64 bytes built from the compiler's 36 (both mapped at every
        // compile); 120 before its dynamic targets, asynchronous guard and location moved to
        // sparse tables and its targets became a range of the chart's pool; 136 before that.
        #expect(MemoryLayout<CompiledTransition>.stride <= 32)
        #expect(MemoryLayout<Chart<String, Void>.Transition>.stride == MemoryLayout<CompiledTransition>.stride)
        #expect(MemoryLayout<EventMatcher<String>?>.stride <= 24)
        // A state's record: 52 bytes. Not 48 (its kind beside its flags, tried): a stride of 52
        // is one multiply where 48 is two instructions, and every state the step reads paid one
        // more (`flat` 241 → 244, `parallel` 686 → 700 instructions an event).
        #expect(MemoryLayout<CompiledState>.stride == 52)
        var location = Statechart.SourceLocation(line: 12, column: 7)
        #expect(location.line == 12 && location.column == 7 && location.description == "line 12, column 7")
        location.line = Int(UInt32.max) + 1
        location.column = -3
        #expect(location.line == Int(UInt32.max) && location.column == 0)
        #expect(Statechart.SourceLocation(line: 3) == Statechart.SourceLocation(line: 3, column: 0))
        #expect(Statechart.SourceLocation(line: 3) != Statechart.SourceLocation(line: 4))
    }
}

extension CompilerOutlineTests {
    /// Two states whose children are re-entered through their history, and a third plain one.
    enum Room: Hashable, Sendable { case hall, left, right }
    enum Spot: Hashable, Sendable { case door, desk, lamp }

    @Test("R26, R23: the states of a level share one request transition, its target given by each request: through history, traced or not, alternately")
    func requestsShareTheirContainersTransition() throws {
        let inner = Machine<Spot, OrderEvent, Int>(initial: .door) {
            When(.door) { On(.confirm, to: .desk) }
            When(.desk) { On(.confirm, to: .lamp) }
            When(.lamp) { On(.confirm, to: .door) }
        }
        let top = Machine<Room, OrderEvent, Int>(initial: .hall) {
            Global(.hall)
            Global(.left)
            Global(.right)
        }
        .attaching(child: inner, to: .left, history: .shallow)
        .attaching(child: inner, to: .right, history: .deep)
        let typed = try TypedChart(top)
        let chart = typed.chart
        let ids = ["hall", "left", "right"].map { chart.state(withID: $0)!.index }
        let shared = chart.requestTransitions[ids[0]]
        #expect(shared != nil)
        #expect(ids.allSatisfy { chart.requestTransitions[$0] == shared })
        #expect(chart.requestTransitions[chart.state(withID: "left.desk")!.index] != shared, "each level has its own")
        for tracing in [false, true] {
            var options = StateMachine<Room, OrderEvent, Int>.Options()
            options.tracing = tracing
            var m = try StateMachine(typed: typed, context: 0, options: options)
            try m.transition(to: .left)
            #expect(m.activeStateIDs == ["left.door"])
            try m.send(.confirm)
            try m.transition(to: .right)
            #expect(m.activeStateIDs == ["right.door"])
            try m.send(.confirm)
            try m.send(.confirm)
            // Each history restores its own child: one transition, two targets, two histories.
            try m.transition(to: .left)
            #expect(m.activeStateIDs == ["left.desk"], "tracing: \(tracing)")
            try m.transition(to: .right)
            #expect(m.activeStateIDs == ["right.lamp"], "tracing: \(tracing)")
            try m.transition(to: .left)
            #expect(m.activeStateIDs == ["left.desk"], "tracing: \(tracing)")
            try m.transition(to: .hall)
            #expect(m.activeStateIDs == ["hall"])
            try m.transition(to: .right)
            #expect(m.activeStateIDs == ["right.lamp"], "tracing: \(tracing)")
        }
    }

    /// `isAtomic` is one comparison of the kind's raw value (the selection walk asks it of every
    /// active state it passes, issue 16): the kinds that can be a configuration's leaves come first.
    @Test("R4: exactly atomic and final states are atomic; the walk selects from them in document order, from every region")
    func atomicKinds() throws {
        for kind in [CompiledStateKind.atomic, .final, .compound, .parallel, .shallowHistory, .deepHistory] {
            #expect(kind.isAtomic == (kind == .atomic || kind == .final), "\(kind)")
            #expect(kind.isHistory == (kind == .shallowHistory || kind == .deepHistory), "\(kind)")
        }
        // `p ∥ {r1 ⊃ {a1, f1 (final)}, r2 ⊃ {a2 ⊃ {x2}, h2 (deep history)}}`: every leaf takes
        // `go` from its own candidates or its ancestors', each selected once, in document order.
        var d = ChartDefinition<String, Void>(name: "kinds", eventName: { $0 })
        let p = d.addState("p", kind: .parallel, in: d.root)
        let r1 = d.addState("r1", in: p)
        let a1 = d.addState("a1", in: r1)
        d.addState("f1", kind: .final, in: r1)
        let r2 = d.addState("r2", in: p)
        let a2 = d.addState("a2", in: r2)
        d.addState("x2", in: a2)
        d.addState("h2", kind: .history(.deep), in: r2)
        d.addTransition(TransitionDefinition(on: .event("go"), to: ["f1"]), from: a1)
        d.addTransition(TransitionDefinition(on: .event("go"), to: ["a2"]), from: a2)
        d.addTransition(TransitionDefinition(on: .event("stop"), to: ["x2"]), from: p)
        var m = ChartInstance(chart: try Chart(d), context: ())
        try m.start()
        #expect(m.activeAtomicIDs == ["a1", "x2"])
        #expect(try m.send("go"))
        #expect(m.activeAtomicIDs == ["f1", "x2"])
        // Both leaves select their parallel ancestor's transition: a final state's candidates
        // include its ancestors' as an atomic state's do.
        #expect(try m.send("stop"))
        #expect(m.activeAtomicIDs == ["a1", "x2"])
    }
}

extension CompilerOutlineTests {
    @Test("R27, R58: a declared transition's dynamic targets and asynchronous guard, boxed together, are set, replaced and cleared one without the other; a copy keeps its own; the compiled chart routes by them")
    func dynamicTargetsAndAsyncGuardOfADeclaredTransition() throws {
        var t = TransitionDefinition<String, Void>(on: .event("go"), to: ["a"])
        #expect(t.dynamicTargets == nil && t.asyncGuard == nil && t.closures == nil)
        t.dynamicTargets = { _, _ in ["c"] }
        let withTargetsOnly = t
        t.asyncGuard = { _, _ in true }
        #expect(t.dynamicTargets?((), nil) == ["c"] && t.asyncGuard != nil)
        // The copy made before the guard was set does not see it: a set makes a new box.
        #expect(withTargetsOnly.asyncGuard == nil && withTargetsOnly.dynamicTargets?((), nil) == ["c"])
        t.dynamicTargets = nil
        #expect(t.dynamicTargets == nil && t.asyncGuard != nil)
        t.asyncGuard = nil
        #expect(t.closures == nil, "a transition with neither holds no box")

        // Compiled: the dynamic transition goes where its closure says (R27); the guarded one is
        // reported to the asynchronous runtime (R58) and not taken by a synchronous send.
        var definition = ChartDefinition<String, Void>(name: "boxed")
        let a = definition.addState("a", in: definition.root)
        _ = definition.addState("b", in: definition.root)
        _ = definition.addState("c", in: definition.root)
        var guarded = TransitionDefinition<String, Void>(on: .event("wait"), to: ["b"])
        guarded.asyncGuard = { _, _ in true }
        definition.addTransition(guarded, from: a)
        definition.addTransition(withTargetsOnly, from: a)
        var instance = ChartInstance(chart: try Chart(definition), context: ())
        try instance.start()
        #expect(instance.asyncGuards(for: "wait").map(\.transition) == [0])
        #expect(instance.asyncGuards(for: "go").isEmpty)
        #expect(try instance.send("wait") == false && instance.activeAtomicIDs == ["a"])
        #expect(try instance.send("go") && instance.activeAtomicIDs == ["c"])
    }
}
