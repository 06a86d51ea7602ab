import Testing

@testable import Statechart

/// The assembly attaches to each compiled transition what its declaration has — descriptor, guard,
/// closures, actions, location — and nothing else (issue 16: it tells most transitions, which have
/// none of these, by three tests, without copying the declaration).
@Suite("Chart assembly")
struct ChartAssemblyTests {
    /// One chart with a transition of each kind the assembly tells apart.
    static func definition() -> ChartDefinition<String, Void> {
        var d = ChartDefinition<String, Void>(name: "parts")
        let c = d.addState("c", in: d.root, location: SourceLocation(line: 2, column: 1))
        let a = d.addState("a", in: c)
        let b = d.addState("b", in: c)
        let h = d.addState("h", kind: .history(.shallow), in: c)
        d.setInitial(["a"], actions: [.log(label: "initial")], of: c)
        d.addTransition(TransitionDefinition(on: .event("plain"), to: ["b"]), from: a)
        d.addTransition(TransitionDefinition(on: .event("located"), to: ["b"], location: SourceLocation(line: 7, column: 3)), from: a)
        d.addTransition(TransitionDefinition(on: .event("guarded"), guard: .inState("a"), to: ["b"], actions: [.raise("x")]), from: a)
        d.addTransition(TransitionDefinition(on: .matching { $0.hasPrefix("dyn") }, dynamicTargets: { _, _ in ["a"] }), from: b)
        var waiting = TransitionDefinition<String, Void>(on: .event("wait"), to: ["a"])
        waiting.asyncGuard = { _, _ in true }
        d.addTransition(waiting, from: b)
        d.addTransition(TransitionDefinition(on: nil, guard: .not(.inState("a")), to: ["a"]), from: b)
        // A history default (no event and no guard: the compiler refuses them there) with actions.
        d.addTransition(TransitionDefinition(on: nil, to: ["b"], actions: [.raise("y")]), from: h)
        return d
    }

    @Test("each transition keeps its descriptor, guard, closures, actions and location, and only those")
    func partsByTransition() throws {
        let chart = try Chart(Self.definition())
        func index(_ id: String) -> Int32 { chart.indexByID[id]! }
        func selectable(_ id: String, _ ordinal: Int32) -> Int {
            (0..<chart.transitions.count).first {
                !chart.transitions[$0].isPseudo && chart.transitions[$0].source == index(id) && chart.transitions[$0].ordinal == ordinal
            }!
        }
        let plain = selectable("a", 0), located = selectable("a", 1), guarded = selectable("a", 2)
        let dynamic = selectable("b", 0), waiting = selectable("b", 1), eventless = selectable("b", 2)
        let initial = Int(chart.states[Int(index("c"))].initialTransition)
        let historyDefault = Int(chart.states[Int(index("h"))].initialTransition)

        func exactEvent(_ k: Int) -> String? {
            if case .event(let e)? = chart.matchers[k] { return e }
            return nil
        }
        #expect(exactEvent(plain) == "plain")
        #expect(exactEvent(located) == "located")
        #expect(exactEvent(guarded) == "guarded")
        #expect(exactEvent(waiting) == "wait")
        if case .matching? = chart.matchers[dynamic] {} else { Issue.record("the dynamic transition lost its descriptor") }
        for k in [eventless, initial, historyDefault] { #expect(chart.matchers[k] == nil, "transition \(k)") }

        let withGuard = Set([guarded, eventless])
        let conditional = Set([guarded, dynamic, waiting, eventless])
        let withActions = Set([guarded, initial, historyDefault])
        for k in 0..<chart.transitions.count {
            #expect(chart.guards.hasValue(at: k) == withGuard.contains(k), "guard of transition \(k)")
            #expect(chart.lean[k].flags.contains(.conditional) == conditional.contains(k), "conditional \(k)")
            #expect(!chart.transitionActions[k].isEmpty == withActions.contains(k), "actions of transition \(k)")
            #expect(chart.lean[k].flags.contains(.hasActions) == withActions.contains(k), "hasActions \(k)")
            #expect(chart.dynamicTargets.hasValue(at: k) == (k == dynamic), "dynamic targets of \(k)")
            #expect(chart.asyncGuards.hasValue(at: k) == (k == waiting), "asynchronous guard of \(k)")
        }
        #expect(chart.hasAsyncGuards)
        // A declared location, or for an initial transition its state's.
        #expect(chart.transitionLocations[located] == SourceLocation(line: 7, column: 3))
        #expect(chart.transitionLocations[initial] == SourceLocation(line: 2, column: 1))
        #expect(chart.transitionLocations[plain] == nil)

        // The candidates: an exact descriptor inline, any other matched through its matcher.
        var inline: [String: String?] = [:]
        for n in 0..<chart.leanCandidates.count {
            let candidate = chart.leanCandidates[n]
            let transition = chart.transitions[Int(candidate.transition)]
            inline["\(transition.ordinal)@\(chart.ids[Int(transition.source)])"] = candidate.event
            #expect(candidate.conditional == conditional.contains(Int(candidate.transition)))
        }
        #expect(inline["0@a"] == .some("plain"))
        #expect(inline["0@b"] == .some(nil))
        #expect(inline["1@b"] == .some("wait"))
    }
}
