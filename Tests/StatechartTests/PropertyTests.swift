import Testing
@_spi(Testing) import Statechart


/// Random charts through the public `ChartDefinition` API: nesting, parallel regions, shallow and
/// deep history, guards on the extended state, eventless transitions, raised and sent events,
/// internal transitions, final states.
enum RandomCharts {
    static let events = ["a", "b", "c", "d", "e.x", "e.y"]

    /// A random chart. `exactEvents` declares single-name descriptors as `.event(e)` (what the
    /// typed builder emits) instead of SCXML names; `orderedEffects` makes every action fold a
    /// distinct number into the context, so that the context records the order actions ran in.
    static func make(seed: UInt64, exactEvents: Bool = false, orderedEffects: Bool = false) -> ChartDefinition<String, Int> {
        var rng = SplitMix64(seed: seed)
        var d = ChartDefinition<String, Int>(name: "random\(seed)", eventName: { $0 })
        var ids: [String] = []
        var historyIDs: [String] = []
        var finals: Set<String> = []
        var counter = 0
        func newID() -> String {
            counter += 1
            return "s\(counter)"
        }
        // Builds the subtree of `node`: children for compound/parallel states, depth-limited.
        func grow(_ node: ChartDefinition<String, Int>.Node, kind: StateKind, depth: Int) {
            guard kind == .state || kind == .parallel else { return }
            let count = kind == .parallel ? Int.random(in: 2...3, using: &rng) : Int.random(in: 1...3, using: &rng)
            for i in 0..<count {
                let roll = Int.random(in: 0..<10, using: &rng)
                var childKind: StateKind = .state
                var hasChildren = false
                if kind == .parallel {
                    hasChildren = true  // regions are compound
                } else if depth < 3 && roll < 3 {
                    hasChildren = true
                } else if depth < 3 && roll == 3 {
                    childKind = .parallel
                } else if i > 0 && roll >= 8 {
                    childKind = .final
                }
                let id = newID()
                let child = d.addState(id, kind: childKind, in: node)
                ids.append(id)
                if childKind == .final { finals.insert(id) }
                if childKind == .parallel || hasChildren {
                    grow(child, kind: childKind, depth: depth + 1)
                    if childKind == .state && Bool.random(using: &rng) {
                        let h = newID()
                        let history = d.addState(h, kind: .history(Bool.random(using: &rng) ? .deep : .shallow), in: child)
                        historyIDs.append(h)
                        let firstChild = d.children(of: child).first { if case .history = d.kind(of: $0) { false } else { true } }
                        if let firstChild, Bool.random(using: &rng) {
                            d.addTransition(TransitionDefinition(on: nil, to: [d.id(of: firstChild)]), from: history)
                        }
                    }
                }
            }
        }
        grow(d.root, kind: .state, depth: 0)
        // Transitions, from every non-final, non-history state (and the root).
        var sources: [ChartDefinition<String, Int>.Node] = [d.root]
        var stack = [d.root]
        while let n = stack.popLast() {
            for c in d.children(of: n) {
                if case .history = d.kind(of: c) { continue }
                if d.kind(of: c) != .final { sources.append(c) }
                stack.append(c)
            }
        }
        for source in sources {
            for _ in 0..<Int.random(in: 0...3, using: &rng) {
                let eventless = Int.random(in: 0..<10, using: &rng) == 0
                var targets: [String] = []
                let roll = Int.random(in: 0..<10, using: &rng)
                if roll < 7 {
                    targets = [ids.randomElement(using: &rng)!]
                } else if roll == 7, let h = historyIDs.randomElement(using: &rng) {
                    targets = [h]
                }
                let modulus = Int.random(in: 2...3, using: &rng)
                let residue = Int.random(in: 0..<modulus, using: &rng)
                let guarded = eventless || Int.random(in: 0..<3, using: &rng) == 0
                let mark = Int.random(in: 1..<1_000, using: &rng)
                var actions: [Action<String, Int>] = [
                    orderedEffects ? .run("mark") { $0.context = ($0.context &* 31 &+ mark) & 0xFFFF } : .run("count") { $0.context += 1 }
                ]
                if orderedEffects && Int.random(in: 0..<3, using: &rng) == 0 { actions.append(observing(ids, &rng)) }
                if Int.random(in: 0..<5, using: &rng) == 0 { actions.append(.raise(events.randomElement(using: &rng)!)) }
                if Int.random(in: 0..<8, using: &rng) == 0 { actions.append(.send(events.randomElement(using: &rng)!)) }
                d.addTransition(
                    TransitionDefinition(
                        on: eventless ? nil : descriptor(events.randomElement(using: &rng)!, exact: exactEvents),
                        guard: guarded ? .predicate { count, _ in count % modulus == residue } : nil, to: targets,
                        kind: Bool.random(using: &rng) ? .internal : .external, actions: actions),
                    from: source)
            }
            if source != d.root && Int.random(in: 0..<4, using: &rng) == 0 {
                let mark = Int.random(in: 1..<1_000, using: &rng)
                d.addOnEntry(
                    [orderedEffects ? .run("enter") { $0.context = ($0.context &* 37 &+ mark) & 0xFFFF } : .run("enter") { $0.context += 2 }],
                    to: source)
                if orderedEffects && Bool.random(using: &rng) { d.addOnEntry([observing(ids, &rng)], to: source) }
            }
            if orderedEffects && source != d.root && Int.random(in: 0..<4, using: &rng) == 0 {
                let mark = Int.random(in: 1..<1_000, using: &rng)
                d.addOnExit([.run("exit") { $0.context = ($0.context &* 41 &+ mark) & 0xFFFF }], to: source)
                if Bool.random(using: &rng) { d.addOnExit([observing(ids, &rng)], to: source) }
            }
        }
        return d
    }

    /// Content that folds into the context whether two random states are active while it runs
    /// (SCXML's `In()`), so that a walk records which states each action saw active: the
    /// microstep's order of exits, removals, actions and entries (rule R8), not only the order
    /// actions ran in.
    static func observing(_ ids: [String], _ rng: inout SplitMix64) -> Action<String, Int> {
        let watched = [ids.randomElement(using: &rng)!, ids.randomElement(using: &rng)!]
        return .content("observe") { scope, environment in
            for id in watched { scope.context = (scope.context &* 43 &+ (environment.isActive(id) ? 7 : 3)) & 0xFFFF }
        }
    }

    /// `.event(e)` for a plain name when `exact`, else the SCXML descriptor.
    static func descriptor(_ name: String, exact: Bool) -> EventDescriptor<String> {
        exact && !name.contains(".") ? .event(name) : .names([name])
    }
}

/// How many random charts the property test walks (each 30 steps).
let propertySeeds = 2_000

@Suite("Properties")
struct PropertyTests {
    @Test("invariants hold after every step of random walks over 2,000 random charts; a snapshot/restore round trip at a random step changes nothing that follows")
    func randomWalks() throws {
        var checkedSteps = 0
        let seeds = RandomWalkShare.seeds(1...UInt64(propertySeeds))
        for seed in seeds {
            let chart = try Chart(RandomCharts.make(seed: seed))
            var rng = SplitMix64(seed: seed &* 7919)
            var m = ChartInstance(chart: chart, context: 0)
            m.microstepLimit = 30
            _ = try? m.start()
            #expect(m.invariantViolations().isEmpty, "seed \(seed): \(m.invariantViolations())")
            let split = Int.random(in: 0..<30, using: &rng)
            var twin: ChartInstance<String, Int>?
            for step in 0..<30 {
                if step == split {
                    var restored = try ChartInstance(chart: chart, restoring: m.snapshot())
                    restored.microstepLimit = m.microstepLimit  // a setting, not part of the running state
                    twin = restored
                }
                let event = RandomCharts.events.randomElement(using: &rng)!
                let result = Result { () throws(MachineError) in try m.send(event) }
                let problems = m.invariantViolations()
                #expect(problems.isEmpty, "seed \(seed), step \(step), event \(event): \(problems)")
                if !problems.isEmpty { return }
                if var t = twin {
                    let twinResult = Result { () throws(MachineError) in try t.send(event) }
                    twin = t
                    let same = t.activeAtomicIDs == m.activeAtomicIDs && t.context == m.context
                        && (try? twinResult.get()) == (try? result.get())
                    #expect(same, "seed \(seed), step \(step): the restored machine diverged")
                    if !same { return }
                }
                checkedSteps += 1
            }
        }
        #expect(checkedSteps == seeds.count * 30)
    }
}
