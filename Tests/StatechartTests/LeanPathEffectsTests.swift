import Testing

@testable @_spi(Testing) import Statechart

/// The lean/general equivalence of ``LeanPathTests`` with what the runtimes add around the
/// interpreter: asynchronous guards (answers given before each external event, rule R58),
/// invoked work (R52), `perform` work (R51) and delayed sends fired by advancing the clock (R17).
/// The test plays the runtime's part by hand, identically for both machines: it gives the same
/// async guard answers, completes the same work with the same events, and advances the same time.
@Suite("Lean path with runtime effects")
struct LeanPathEffectsTests {
    /// A random chart with effects layered on: some transitions get async guards, some states
    /// invoked work, some actions queue `perform` work or delayed sends. Work's result event is
    /// its name, so that the test can complete it without running async code.
    static func make(seed: UInt64) -> ChartDefinition<String, Int> {
        var d = RandomCharts.make(seed: seed, exactEvents: true, orderedEffects: true)
        var rng = SplitMix64(seed: seed &* 65_537)
        let withInvocations = Bool.random(using: &rng)
        // A few effects per chart: the random charts' own sends can already make every event a
        // macrostep of `microstepLimit` microsteps, and effects on every transition would then
        // multiply (each firing queueing more work and timers) past what a test can walk.
        var performs = 0
        var delayedSends = 0
        for i in 0..<d.nodeCount {
            for j in d.transitionIndices(of: .init(i)) where d.transitions[j].event != nil {
                let roll = Int.random(in: 0..<10, using: &rng)
                if roll == 0 {
                    let answer = Bool.random(using: &rng)
                    d.transitions[j].asyncGuard = { _, _ in answer }
                } else if roll == 1, performs < 2 {
                    performs += 1
                    let event = RandomCharts.events.randomElement(using: &rng)!
                    d.transitions[j].actions.append(.run("perform") { $0.perform(event) { event } })
                } else if roll == 2, delayedSends < 2 {
                    delayedSends += 1
                    let event = RandomCharts.events.randomElement(using: &rng)!
                    let delay = Duration.seconds(Int.random(in: 1...3, using: &rng))
                    d.transitions[j].actions.append(.send(event, delay: delay))
                }
            }
            if case .history = d.kind(of: .init(i)) { continue }
            if withInvocations, i > 0, Int.random(in: 0..<5, using: &rng) == 0 {
                let event = RandomCharts.events.randomElement(using: &rng)!
                d.addInvocation(Invocation(event, run: { _ in event }), to: .init(i))
            }
        }
        return d
    }

    /// What the runtime sees after a step besides the snapshot: work to run, invocations to start
    /// or cancel (by name, since tokens are numbered per machine identically).
    static func effects(_ m: inout ChartInstance<String, Int>, running: inout [UInt64: String]) -> [String] {
        var seen: [String] = []
        for w in m.takePendingWork() { seen.append("work \(w.name ?? "-") from \(w.source)") }
        for r in m.takeInvocationRequests() {
            switch r {
            case .start(let token, let state, let invocation):
                running[token] = invocation.name
                seen.append("start \(token) \(invocation.name) in \(m.chart.id(of: state))")
            case .cancel(let token):
                running[token] = nil
                seen.append("cancel \(token)")
            }
        }
        return seen
    }

    enum Move { case send(String), advance(Duration), completeWork(String), finishInvocation }

    @Test("R34, R58, R52, R51, R17: lean and general paths leave the same machine, the same work and the same invocations after every step of 1,500 random walks with async guards, invoked work, perform work and timers")
    func walksWithEffects() throws {
        var compared = 0
        let seeds = RandomWalkShare.seeds(20_001...21_500)
        for seed in seeds {
            let chart = try Chart(Self.make(seed: seed))
            var rng = SplitMix64(seed: seed &* 31)
            var general = ChartInstance(chart: chart, context: 0)
            general.isTracing = true
            var lean = ChartInstance(chart: chart, context: 0)
            general.microstepLimit = 12
            lean.microstepLimit = 12
            let a0 = Result { () throws(MachineError) in try general.start() }
            let b0 = Result { () throws(MachineError) in try lean.start() }
            #expect((try? a0.get()) != nil || (try? b0.get()) == nil, "seed \(seed): start differs")
            var runningG: [UInt64: String] = [:]
            var runningL: [UInt64: String] = [:]
            var workQueue: [String] = []
            _ = Self.effects(&general, running: &runningG)
            _ = Self.effects(&lean, running: &runningL)
            for step in 0..<30 {
                let roll = Int.random(in: 0..<10, using: &rng)
                let move: Move
                if roll < 6 || (roll < 8 && workQueue.isEmpty && runningG.isEmpty) {
                    move = .send(RandomCharts.events.randomElement(using: &rng)!)
                } else if roll < 8 {
                    move = !workQueue.isEmpty ? .completeWork(workQueue.removeFirst()) : .finishInvocation
                } else {
                    move = .advance(.seconds(Int.random(in: 1...2, using: &rng)))
                }
                func apply(_ m: inout ChartInstance<String, Int>, running: [UInt64: String]) -> Result<Bool, MachineError> {
                    switch move {
                    case .send(let e):
                        // The runtime's part (rule R58): the same answers to both machines.
                        var answers: [Int32: Bool] = [:]
                        var answerRNG = SplitMix64(seed: seed &+ UInt64(step))
                        for g in m.asyncGuards(for: e) { answers[g.transition] = Bool.random(using: &answerRNG) }
                        m.setAsyncGuardResults(answers)
                        return Result { () throws(MachineError) in try m.send(e) }
                    case .completeWork(let e):
                        return Result { () throws(MachineError) in try m.send(e) }
                    case .finishInvocation:
                        guard let (_, name) = running.min(by: { $0.key < $1.key }) else { return .success(false) }
                        return Result { () throws(MachineError) in try m.send(name) }
                    case .advance(let d):
                        return Result { () throws(MachineError) in
                            try m.advance(by: d)
                            return true
                        }
                    }
                }
                guard general.isRunning || lean.isRunning else { break }
                let a = general.isRunning ? apply(&general, running: runningG) : .success(false)
                let b = lean.isRunning ? apply(&lean, running: runningL) : .success(false)
                general.trace.removeAll()
                let effectsG = Self.effects(&general, running: &runningG)
                let effectsL = Self.effects(&lean, running: &runningL)
                for e in effectsG where e.hasPrefix("work ") { workQueue.append(String(e.split(separator: " ")[1])) }
                let sameResult: Bool
                switch (a, b) {
                case (.success(let x), .success(let y)): sameResult = x == y
                case (.failure(let x), .failure(let y)): sameResult = "\(x)" == "\(y)"
                default: sameResult = false
                }
                let same = sameResult && effectsG == effectsL && general.snapshot() == lean.snapshot()
                #expect(
                    same,
                    "seed \(seed), step \(step), \(move): general \(general.activeAtomicIDs) \(a) \(effectsG), lean \(lean.activeAtomicIDs) \(b) \(effectsL)"
                )
                if !same { break }
                #expect(lean.invariantViolations().isEmpty, "seed \(seed), step \(step): \(lean.invariantViolations())")
                compared += 1
                // A delayed send whose event fires its own transition again multiplies its timers
                // at every due time; such a walk has shown what it can, and would take minutes more.
                if general.pendingDelayedSends > 200 { break }
            }
        }
        #expect(compared > seeds.count * 20)
    }
}
