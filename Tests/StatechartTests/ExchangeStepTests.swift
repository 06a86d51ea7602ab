import Testing

@testable @_spi(Testing) import Statechart

/// The step that exchanges one active atomic state for another (``LeanTransition/Flags/exchangesSource``):
/// which transitions the compiler marks, and that taking them on the lean path leaves the machine
/// the general path leaves — in a chain (the state at the list's end), in one region of a parallel
/// state (found by bisection) and in every region at once (found forward, in selection order).
@Suite("Exchange step")
struct ExchangeStepTests {
    /// `top ⊃ {a, b, c ⊃ {c1}}`, `p ∥ {r1 ⊃ {x, y}, r2 ⊃ {u, v}}`, `f` final, `q` with an exit action.
    static func definition() -> ChartDefinition<String, [String]> {
        var d = ChartDefinition<String, [String]>(name: "exchange", eventName: { $0 })
        let top = d.addState("top", in: d.root)
        let a = d.addState("a", in: top)
        let b = d.addState("b", in: top)
        let c = d.addState("c", in: top)
        d.addState("c1", in: c)
        let p = d.addState("p", kind: .parallel, in: d.root)
        let r1 = d.addState("r1", in: p)
        let x = d.addState("x", in: r1)
        let y = d.addState("y", in: r1)
        let r2 = d.addState("r2", in: p)
        let u = d.addState("u", in: r2)
        let v = d.addState("v", in: r2)
        d.addState("f", kind: .final, in: top)
        let q = d.addState("q", in: top)
        d.addOnExit([.run("exit q") { $0.context.append("exit q") }], to: q)
        // Exchanges: sibling to sibling, an external and an internal self-transition of an atomic state.
        d.addTransition(TransitionDefinition(on: .event("next"), to: ["b"]), from: a)
        d.addTransition(TransitionDefinition(on: .event("self"), to: ["b"]), from: b)
        d.addTransition(TransitionDefinition(on: .event("inner"), to: ["b"], kind: .internal), from: b)
        d.addTransition(TransitionDefinition(on: .event("tick"), to: ["y"]), from: x)
        d.addTransition(TransitionDefinition(on: .event("tick"), to: ["x"]), from: y)
        d.addTransition(TransitionDefinition(on: .event("tock"), to: ["v"]), from: u)
        d.addTransition(TransitionDefinition(on: .event("tick"), to: ["u"]), from: v)
        d.addTransition(TransitionDefinition(on: .event("side"), to: ["y"]), from: x)
        // Not exchanges: into a compound state, out of the parent, with actions, into a final
        // state, from a state with an exit action, from a compound state.
        d.addTransition(TransitionDefinition(on: .event("deep"), to: ["c"]), from: b)
        d.addTransition(TransitionDefinition(on: .event("out"), to: ["p"]), from: b)
        d.addTransition(
            TransitionDefinition(on: .event("act"), to: ["a"], actions: [.run("act") { $0.context.append("act") }]), from: b)
        d.addTransition(TransitionDefinition(on: .event("end"), to: ["f"]), from: a)
        d.addTransition(TransitionDefinition(on: .event("leave"), to: ["a"]), from: q)
        d.addTransition(TransitionDefinition(on: .event("back"), to: ["q"]), from: c)
        d.addTransition(TransitionDefinition(on: .event("reset"), to: ["a"]), from: top)
        // An ancestor's transition, a candidate of both regions' atomic states: taken once.
        d.addTransition(
            TransitionDefinition(on: .event("all"), to: ["a"], actions: [.run("all") { $0.context.append("all") }]), from: p)
        _ = (x, y, u, v)
        return d
    }

    @Test("R8: a static transition without actions from an atomic state to a sibling in a compound parent is marked as an exchange; no other is")
    func compilerMarksExchanges() throws {
        let chart = try Chart(Self.definition())
        func marked(_ event: String, from source: String) -> Bool {
            let s = chart.state(withID: source)!.index
            let state = chart.states[Int(s)]
            for t in state.transitionStart..<state.transitionEnd {
                if case .event(let e)? = chart.matchers[Int(t)], e == event {
                    return chart.lean[Int(t)].flags.contains(.exchangesSource)
                }
            }
            Issue.record("no transition on \(event) from \(source)")
            return false
        }
        #expect(marked("next", from: "a") && marked("self", from: "b") && marked("inner", from: "b"))
        #expect(marked("tick", from: "x") && marked("tick", from: "y") && marked("tock", from: "u") && marked("tick", from: "v"))
        #expect(!marked("deep", from: "b") && !marked("out", from: "b") && !marked("act", from: "b"))
        #expect(!marked("end", from: "a") && !marked("leave", from: "q") && !marked("back", from: "c") && !marked("reset", from: "top"))
        // Every marked transition is also a splice: static, plain entry, no actions.
        for lean in chart.lean.withUnsafeBufferPointer({ Array($0) }) where lean.flags.contains(.exchangesSource) {
            #expect(lean.flags.isSuperset(of: .splice) && !lean.flags.contains(.hasActions))
        }
    }

    /// A started instance that takes the lean path and one that traces, which keeps it on the
    /// general path: the pair every test here compares step by step.
    static func startedPair(
        _ definition: ChartDefinition<String, [String]>
    ) throws -> (lean: ChartInstance<String, [String]>, general: ChartInstance<String, [String]>) {
        let chart = try Chart(definition)
        var lean = ChartInstance(chart: chart, context: [String]())
        var general = ChartInstance(chart: chart, context: [String]())
        general.isTracing = true
        try lean.start()
        try general.start()
        return (lean, general)
    }

    @Test("R8, R34: exchanges in a chain, in one region and in every region leave the machine the general path leaves")
    func exchangesMatchTheGeneralPath() throws {
        var (lean, general) = try Self.startedPair(Self.definition())
        let events = [
            "next", "self", "inner", "act", "next", "deep", "back", "leave", "reset", "next", "out",
            "tick", "tock", "side", "tick", "tock", "tick", "tick", "tock", "next", "all",
        ]
        var visited: Set<[String]> = []
        for (step, event) in events.enumerated() {
            let a = try general.send(event)
            let b = try lean.send(event)
            general.trace.removeAll()
            #expect(a == b, "step \(step), \(event)")
            #expect(general.snapshot() == lean.snapshot(), "step \(step), \(event): \(general.activeAtomicIDs) / \(lean.activeAtomicIDs)")
            #expect(lean.invariantViolations().isEmpty, "step \(step), \(event): \(lean.invariantViolations())")
            visited.insert(lean.activeAtomicIDs)
        }
        // The walk went through the chain's and the regions' configurations it was written for.
        #expect(visited.isSuperset(of: [["b"], ["c1"], ["q"], ["x", "u"], ["y", "u"], ["y", "v"], ["x", "v"]]))
        #expect(lean.activeAtomicIDs == ["a"] && lean.context == general.context)
        #expect(lean.context.filter { $0 == "all" }.count == 1)
    }

    /// `p ∥ {r1 ⊃ {x, y, z ⊃ {z1}}, r2 ⊃ {u, v}, r3 ⊃ {m, n ⊃ {n1}}}`: `go` is an exchange in r1
    /// and r2 and enters a compound state in r3, whose actions record the states the step exits;
    /// `mix` enters one in r1 and is an exchange in r2.
    static func mixedRegions() -> ChartDefinition<String, [String]> {
        var d = ChartDefinition<String, [String]>(name: "mixed", eventName: { $0 })
        let p = d.addState("p", kind: .parallel, in: d.root)
        let r1 = d.addState("r1", in: p)
        let x = d.addState("x", in: r1)
        let y = d.addState("y", in: r1)
        let z = d.addState("z", in: r1)
        d.addState("z1", in: z)
        let r2 = d.addState("r2", in: p)
        let u = d.addState("u", in: r2)
        let v = d.addState("v", in: r2)
        let r3 = d.addState("r3", in: p)
        let m = d.addState("m", in: r3)
        let n = d.addState("n", in: r3)
        d.addState("n1", in: n)
        d.addTransition(TransitionDefinition(on: .event("go"), to: ["y"]), from: x)
        d.addTransition(TransitionDefinition(on: .event("go"), to: ["v"]), from: u)
        // What r3's transition sees exited: the states the step leaves, which the exchanges
        // before it must not have replaced yet.
        d.addTransition(
            TransitionDefinition(
                on: .event("go"), to: ["n"],
                actions: [.run("sees") { scope in scope.context.append("exited \(scope.exitedStates.map { scope.id(of: $0) })") }]),
            from: m)
        d.addTransition(TransitionDefinition(on: .event("back"), to: ["x"]), from: y)
        d.addTransition(TransitionDefinition(on: .event("back"), to: ["x"]), from: z)
        d.addTransition(TransitionDefinition(on: .event("back"), to: ["u"]), from: v)
        d.addTransition(TransitionDefinition(on: .event("back"), to: ["m"]), from: n)
        d.addTransition(TransitionDefinition(on: .event("mix"), to: ["z"]), from: x)
        d.addTransition(TransitionDefinition(on: .event("mix"), to: ["v"]), from: u)
        return d
    }

    @Test("R8, R34: a step whose exchanges come before a transition that is not one gives their slots back and takes the general microstep")
    func mixedStepGivesExchangesBack() throws {
        var (lean, general) = try Self.startedPair(Self.mixedRegions())
        // go: two exchanges, then r3's entry into n (given back after two); back: r1 and r2 exchange,
        // r3 leaves a compound state; mix: r1's entry into z first (nothing exchanged yet), then r2's exchange.
        let steps: [(event: String, atomic: [String])] = [
            ("go", ["y", "v", "n1"]), ("back", ["x", "u", "m"]), ("mix", ["z1", "v", "m"]), ("back", ["x", "u", "m"]),
        ]
        for (event, atomic) in steps {
            #expect(try general.send(event) && lean.send(event), "\(event)")
            general.trace.removeAll()
            #expect(lean.activeAtomicIDs == atomic, "\(event): \(lean.activeAtomicIDs)")
            #expect(general.snapshot() == lean.snapshot(), "\(event): \(general.activeAtomicIDs) / \(lean.activeAtomicIDs)")
            #expect(lean.invariantViolations().isEmpty, "\(event): \(lean.invariantViolations())")
        }
        // The step exited the states active before it, deepest and latest first (R29).
        #expect(lean.context == ["exited [\"m\", \"u\", \"x\"]"] && lean.context == general.context)
    }

    @Test("R5: a candidate is its atomic state's own transition exactly when that state is its source; only an ancestor's is checked for being selected twice")
    func candidatesKnowTheirOwner() throws {
        let chart = try Chart(Self.definition())
        var checked = 0
        for (s, state) in chart.states.withUnsafeBufferPointer({ Array($0) }).enumerated() where state.kind.isAtomic {
            for k in state.candidateStart..<state.candidateEnd {
                let candidate = chart.leanCandidates[Int(k)]
                #expect(candidate.own == (chart.transitions[Int(candidate.transition)].source == Int32(s)), "\(chart.ids[s]): \(k)")
                checked += 1
            }
        }
        // x's own tick and side, p's all, the root's none: ancestors' candidates are listed too.
        let x = Int(chart.state(withID: "x")!.index)
        let own = (chart.states[x].candidateStart..<chart.states[x].candidateEnd).filter { chart.leanCandidates[Int($0)].own }
        #expect(own.count == 2 && checked > 10)
    }
}
