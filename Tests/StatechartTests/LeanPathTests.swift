import Testing

@testable @_spi(Testing) import Statechart

/// The interpreter has a lean path for the common case (Sources/Statechart/Interpreter/LeanStep.swift)
/// and the general SCXML path, which tracing always takes. These tests run the same random walks
/// on both and require the same machine after every step: configuration, history values, queues,
/// context (which records the order every action ran in) and the result of each send.
@Suite("Lean path")
struct LeanPathTests {
    /// One random walk on two machines, one traced (general path) and one not (lean path).
    /// Returns the number of steps compared, or records an issue and stops at the first difference.
    static func compareWalk(seed: UInt64, exactEvents: Bool) throws -> Int {
        let chart = try Chart(RandomCharts.make(seed: seed, exactEvents: exactEvents, orderedEffects: true))
        var rng = SplitMix64(seed: seed &* 104_729)
        var general = ChartInstance(chart: chart, context: 0)
        general.isTracing = true
        var lean = ChartInstance(chart: chart, context: 0)
        for m in [0, 1] {
            if m == 0 { general.microstepLimit = 30 } else { lean.microstepLimit = 30 }
        }
        let started = (Result { () throws(MachineError) in try general.start() }, Result { () throws(MachineError) in try lean.start() })
        #expect((try? started.0.get()) != nil || (try? started.1.get()) == nil, "seed \(seed): start differs")
        var steps = 0
        for step in 0..<30 {
            let event = RandomCharts.events.randomElement(using: &rng)!
            let a = Result { () throws(MachineError) in try general.send(event) }
            let b = Result { () throws(MachineError) in try lean.send(event) }
            general.trace.removeAll()
            let sameResult: Bool
            switch (a, b) {
            case (.success(let x), .success(let y)): sameResult = x == y
            case (.failure(let x), .failure(let y)): sameResult = "\(x)" == "\(y)"
            default: sameResult = false
            }
            let same = sameResult && general.snapshot() == lean.snapshot()
            #expect(same, "seed \(seed), step \(step), event \(event): general \(general.activeAtomicIDs) ctx \(general.context) \(a), lean \(lean.activeAtomicIDs) ctx \(lean.context) \(b)")
            if !same { return steps }
            #expect(lean.invariantViolations().isEmpty, "seed \(seed), step \(step): \(lean.invariantViolations())")
            steps += 1
        }
        return steps
    }

    /// In eight parts, which Swift Testing runs in parallel: walked in one test, these seeds ran
    /// about 100 s on one core after every other test of a debug run had finished.
    @Test("R1–R16: the lean path and the general path leave the same machine after every step of 2,000 random walks with exact descriptors (typed events)", arguments: 0..<8)
    func exactDescriptors(part: Int) throws {
        var steps = 0
        let seeds = RandomWalkShare.seeds(1...2_000, part: part, of: 8)
        for seed in seeds { steps += try Self.compareWalk(seed: seed, exactEvents: true) }
        #expect(steps == seeds.count * 30)
    }

    @Test("the parts of a random-walk test's seeds are disjoint and together are its share")
    func partsOfTheSeedsAreTheShare() {
        for range in [UInt64(1)...2_000, 5_001...5_001, 7...20] {
            for parts in [1, 3, 8] {
                let walked = (0..<parts).flatMap { RandomWalkShare.seeds(range, part: $0, of: parts) }
                #expect(walked.sorted() == Array(RandomWalkShare.seeds(range)), "\(range) in \(parts) parts")
                #expect(Set(walked).count == walked.count, "\(range) in \(parts) parts")
            }
        }
    }

    @Test("R1–R16: the lean path and the general path leave the same machine after every step of 1,000 random walks with SCXML descriptors")
    func scxmlDescriptors() throws {
        var steps = 0
        let seeds = RandomWalkShare.seeds(5_001...6_000)
        for seed in seeds { steps += try Self.compareWalk(seed: seed, exactEvents: false) }
        #expect(steps == seeds.count * 30)
    }

    @Test("R8: a chain step with no actions only moves the configuration; one with exit actions, history or entry actions runs them in order")
    func chainStepsRunWhatTheyMust() throws {
        var d = ChartDefinition<String, [String]>(name: "chain", eventName: { $0 })
        let top = d.addState("top", in: d.root)
        let a = d.addState("a", in: top)
        let b = d.addState("b", in: top)
        let c = d.addState("c", in: d.root)
        d.addTransition(TransitionDefinition(on: .event("go"), to: ["b"]), from: a)
        d.addTransition(TransitionDefinition(on: .event("go"), to: ["c"]), from: b)
        d.addTransition(TransitionDefinition(on: .event("back"), to: ["top"]), from: c)
        d.addOnExit([.run("exit b") { $0.context.append("exit b") }], to: b)
        d.addOnEntry([.run("enter top") { $0.context.append("enter top") }], to: top)
        _ = c
        var m = ChartInstance(chart: try Chart(d), context: [String]())
        try m.start()
        #expect(m.activeAtomicIDs == ["a"] && m.context == ["enter top"])
        #expect(try m.send("go"))  // plain: a → b
        #expect(m.activeAtomicIDs == ["b"] && m.context == ["enter top"])
        #expect(try m.send("go"))  // b's exit action runs
        #expect(m.activeAtomicIDs == ["c"] && m.context == ["enter top", "exit b"])
        #expect(try m.send("back"))  // top's entry action runs, a entered by default
        #expect(m.activeAtomicIDs == ["a"] && m.context == ["enter top", "exit b", "enter top"])
        #expect(try !m.send("nothing"))
        #expect(m.invariantViolations().isEmpty)
    }

    @Test("R8, R34: one static transition with exit, transition and entry actions: each exit action sees its state still active, the transition's actions see neither side, each entry action sees its state and not the ones entered after it — on the lean path as on the general one")
    func actionsSeeTheMicrostepsConfiguration() throws {
        var d = ChartDefinition<String, [String]>(name: "seen", eventName: { $0 })
        let a = d.addState("a", in: d.root)
        let a1 = d.addState("a1", in: a)
        let b = d.addState("b", in: d.root)
        let b1 = d.addState("b1", in: b)
        func observe(_ label: String) -> Action<String, [String]> {
            .content(label) { scope, environment in
                let active = ["a", "a1", "b", "b1"].filter { environment.isActive($0) }
                scope.context.append("\(label): \(active.joined(separator: " "))")
            }
        }
        d.addOnExit([observe("exit a")], to: a)
        d.addOnExit([observe("exit a1")], to: a1)
        d.addOnEntry([observe("enter b")], to: b)
        d.addOnEntry([observe("enter b1")], to: b1)
        d.addTransition(TransitionDefinition(on: .event("go"), to: ["b1"], actions: [observe("go")]), from: a1)
        d.addTransition(TransitionDefinition(on: .event("back"), to: ["a1"]), from: b1)
        let chart = try Chart(d)
        var runs: [[String]] = []
        for traced in [false, true] {
            var m = ChartInstance(chart: chart, context: [String]())
            m.isTracing = traced
            try m.start()
            m.context.removeAll()
            #expect(try m.send("go"))
            #expect(try m.send("back"))
            #expect(m.invariantViolations().isEmpty)
            runs.append(m.context)
        }
        #expect(runs[0] == ["exit a1: a a1", "exit a: a", "go: ", "enter b: b", "enter b1: b b1"], "lean: \(runs[0])")
        #expect(runs[0] == runs[1], "lean \(runs[0]) / general \(runs[1])")
    }

    @Test("R59, R4: canHandle predicts what send does at every step of 1,000 random walks (exact and SCXML descriptors, guards included)")
    func canHandlePredictsSend() throws {
        // Selection and the query are one walk (`SelectionWalk.swift`); this checks that they
        // cannot drift apart: the guards of these charts are pure, so the prediction is exact.
        var steps = 0
        for seed in UInt64(9_001)...10_000 {
            let chart = try Chart(RandomCharts.make(seed: seed, exactEvents: seed % 2 == 0, orderedEffects: true))
            var rng = SplitMix64(seed: seed &* 7_919)
            var m = ChartInstance(chart: chart, context: 0)
            m.microstepLimit = 30
            guard (try? m.start()) != nil else { continue }
            for step in 0..<20 where m.isRunning {
                let event = RandomCharts.events.randomElement(using: &rng)!
                let predicted = m.canHandle(event)
                let handled = Result { () throws(MachineError) in try m.send(event) }
                guard case .success(let enabled) = handled else { break }
                #expect(predicted == enabled, "seed \(seed), step \(step), event \(event)")
                steps += 1
            }
        }
        #expect(steps > 10_000)
    }
}
