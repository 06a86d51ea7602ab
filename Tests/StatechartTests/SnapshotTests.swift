import Foundation
import Statechart
import Testing

// MARK: - Codable fixtures (the shared fixture types are declared elsewhere, so no synthesis)

extension OrderEvent: Codable {
    static let all: [OrderEvent] = [.confirm, .ship, .deliver, .cancel, .reset, .authorize, .capture, .decline, .retry]

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let name = try container.decode(String.self)
        guard let event = Self.all.first(where: { "\($0)" == name }) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "unknown OrderEvent '\(name)'")
        }
        self = event
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode("\(self)")
    }
}

extension OrderLog: Codable, Equatable {
    enum CodingKeys: String, CodingKey { case entries, paid, attempts }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init()
        entries = try c.decode([String].self, forKey: .entries)
        paid = try c.decode(Bool.self, forKey: .paid)
        attempts = try c.decode(Int.self, forKey: .attempts)
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(entries, forKey: .entries)
        try c.encode(paid, forKey: .paid)
        try c.encode(attempts, forKey: .attempts)
    }

    static func == (a: Self, b: Self) -> Bool { a.entries == b.entries && a.paid == b.paid && a.attempts == b.attempts }
}

extension Log: Codable, Equatable {
    enum CodingKeys: String, CodingKey { case lines, flag, count }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init()
        lines = try c.decode([String].self, forKey: .lines)
        flag = try c.decode(Bool.self, forKey: .flag)
        count = try c.decode(Int.self, forKey: .count)
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(lines, forKey: .lines)
        try c.encode(flag, forKey: .flag)
        try c.encode(count, forKey: .count)
    }

    static func == (a: Self, b: Self) -> Bool { a.lines == b.lines && a.flag == b.flag && a.count == b.count }
}

/// A small deterministic generator (SplitMix64), so that a failing walk can be replayed from its seed.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// A chart with parallel regions, deep and shallow history and delayed sends:
///
///     idle            go → work; deep → [hA, hB]
///     work (parallel) entry: send tick after 2 s (id t); tick: count += 1, send tick after 3 s (id t)
///                     pause → paused; stop → done
///       A             deep history hA (default A1)
///         A1          A1a —next→ A1b —next→ A2
///         A2          next → A1; eventless when count ≥ 4 → A1 (count = 0)
///       B             shallow history hB (default B1)
///         B1          flip → B2
///         B2          B2x ⇄ B2y on inner; flip → B1
///     paused          entry: send wake after 5 s (id w); resume, wake → [hA, hB]; go → work; cancel: cancel w
///     done (final)
func workshopChart() -> TestChart {
    var d = TestChart.test("workshop")
    let idle = d.state("idle")
    let work = d.state("work", .parallel)
    let a = d.state("A", in: work, initial: ["A1"])
    let hA = d.addState("hA", kind: .history(.deep), in: a)
    d.addTransition(TransitionDefinition(on: nil, to: ["A1"]), from: hA)
    let a1 = d.state("A1", in: a)
    let a1a = d.state("A1a", in: a1)
    let a1b = d.state("A1b", in: a1)
    let a2 = d.state("A2", in: a)
    let b = d.state("B", in: work, initial: ["B1"])
    let hB = d.addState("hB", kind: .history(.shallow), in: b)
    d.addTransition(TransitionDefinition(on: nil, to: ["B1"]), from: hB)
    let b1 = d.state("B1", in: b)
    let b2 = d.state("B2", in: b)
    let b2x = d.state("B2x", in: b2)
    let b2y = d.state("B2y", in: b2)
    let paused = d.state("paused")
    d.state("done", .final)

    d.on(idle, "go", to: ["work"])
    d.on(idle, "deep", to: ["hA", "hB"])
    d.addOnEntry([.send("tick", delay: .seconds(2), id: "t")], to: work)
    d.on(work, "tick", actions: [.run("count") { $0.count += 1 }, .send("tick", delay: .seconds(3), id: "t")])
    d.on(work, "pause", to: ["paused"])
    d.on(work, "stop", to: ["done"])
    d.on(a1a, "next", to: ["A1b"])
    d.on(a1b, "next", to: ["A2"])
    d.on(a2, "next", to: ["A1"])
    d.on(a2, nil, to: ["A1"], guard: .predicate { context, _ in context.count >= 4 }, actions: [.run("zero") { $0.count = 0 }])
    d.on(b1, "flip", to: ["B2"])
    d.on(b2, "flip", to: ["B1"])
    d.on(b2x, "inner", to: ["B2y"])
    d.on(b2y, "inner", to: ["B2x"])
    d.addOnEntry([.send("wake", delay: .seconds(5), id: "w")], to: paused)
    d.on(paused, "resume wake", to: ["hA", "hB"])
    d.on(paused, "go", to: ["work"])
    d.on(paused, "cancel", actions: [.cancel(id: "w")])
    return d
}

func jsonRoundTrip<E: Hashable & Sendable & Codable, C: Codable>(_ snapshot: ChartSnapshot<E, C>) throws -> ChartSnapshot<E, C> {
    try JSONDecoder().decode(ChartSnapshot<E, C>.self, from: JSONEncoder().encode(snapshot))
}

@Suite("Snapshots")
struct SnapshotTests {
    // MARK: Round trips over random walks

    enum OrderStep: CustomStringConvertible {
        case send(OrderEvent)
        case reset
        var description: String {
            switch self {
            case .send(let e): return "send(.\(e))"
            case .reset: return "reset()"
            }
        }
    }

    /// Every event, the ones that move an order forward twice as often.
    static let weightedEvents = OrderEvent.all + [.confirm, .authorize, .capture, .deliver]

    static func randomOrderStep(_ rng: inout SplitMix64) -> OrderStep {
        let k = Int(rng.next() % 20)
        return k == 0 ? .reset : .send(weightedEvents[Int(rng.next() % UInt64(weightedEvents.count))])
    }

    static func apply(_ step: OrderStep, to m: inout StateMachine<OrderState, OrderEvent, OrderLog>) -> MachineError? {
        do {
            switch step {
            case .send(let e): try m.send(e)
            case .reset: try m.reset()
            }
            return nil
        } catch {
            return error
        }
    }

    @Test("R40: round trip over 400 random walks of the order chart with its payment child: the restored machine answers every further event exactly like the original")
    func orderRandomWalks() throws {
        let baseSeed: UInt64 = 0x5EED_0040
        var seen: Set<String> = []
        for walk in 0..<400 {
            let seed = baseSeed &+ UInt64(walk)
            var rng = SplitMix64(seed: seed)
            let history: AttachmentHistory = [.none, .shallow, .deep][walk % 3]
            var m = try StateMachine(orderMachine(history: history), context: OrderLog())
            var steps: [String] = []
            for _ in 0..<Int(rng.next() % 16) {
                let step = Self.randomOrderStep(&rng)
                steps.append(step.description)
                _ = Self.apply(step, to: &m)
            }
            let taken = m.snapshot()
            seen.formUnion(taken.activeStates + taken.history.keys.map { "history " + $0 } + (taken.finalState.map { ["final " + $0] } ?? []))
            let decoded = try jsonRoundTrip(taken)
            // Every other walk recompiles the chart: the fingerprint does not depend on the compilation.
            var n =
                walk % 2 == 0
                ? try StateMachine(typed: m.typed, restoring: decoded)
                : try StateMachine(orderMachine(history: history), restoring: decoded)
            let replay = "walk \(walk), seed \(seed), history \(history), prefix \(steps)"
            #expect(n.snapshot() == m.snapshot(), "restored snapshot differs — \(replay)")
            for k in 0..<25 {
                let step = Self.randomOrderStep(&rng)
                let a = Self.apply(step, to: &m)
                let b = Self.apply(step, to: &n)
                guard a == b, m.snapshot() == n.snapshot(), m.activeStateIDs == n.activeStateIDs,
                    m.state == n.state, m.isFinished == n.isFinished
                else {
                    Issue.record("diverged at step \(k) (\(step)): \(String(describing: a)) vs \(String(describing: b)), \(m.activeStateIDs) vs \(n.activeStateIDs) — \(replay)")
                    break
                }
            }
        }
        // The snapshots taken covered every kind of situation the chart has.
        for expected in [
            "confirmed.authorizing", "confirmed.authorized", "confirmed.failed", "shipped", "cancelled",
            "history confirmed.history", "final delivered",
        ] {
            #expect(seen.contains(expected), "no walk snapshot covered \(expected)")
        }
    }

    enum WorkshopStep: CustomStringConvertible {
        case send(String)
        case advance(Duration)
        case reset
        static let events = ["go", "deep", "pause", "stop", "tick", "next", "flip", "inner", "resume", "wake", "cancel", "bogus"]
        var description: String {
            switch self {
            case .send(let e): return "send(\(e))"
            case .advance(let d): return "advance(\(d))"
            case .reset: return "reset()"
            }
        }
    }

    static func randomWorkshopStep(_ rng: inout SplitMix64) -> WorkshopStep {
        let k = Int(rng.next() % 32)
        switch k {
        case 0: return .reset
        case 1..<8: return .advance(.milliseconds(250 * Int64(rng.next() % 16)))
        default: return .send(WorkshopStep.events[k % WorkshopStep.events.count])
        }
    }

    static func apply(_ step: WorkshopStep, to m: inout TestInstance) -> Result<Bool, MachineError> {
        do throws(MachineError) {
            switch step {
            case .send(let e): return .success(try m.send(e))
            case .advance(let d):
                try m.advance(by: d)
                return .success(true)
            case .reset:
                try m.reset()
                return .success(true)
            }
        } catch {
            return .failure(error)
        }
    }

    @Test("R40: round trip over 400 random walks of a chart with parallel regions, deep and shallow history and delayed sends")
    func workshopRandomWalks() throws {
        let chart = try Chart(workshopChart())
        let baseSeed: UInt64 = 0xC4A7_0040
        var seen: Set<String> = []
        for walk in 0..<400 {
            let seed = baseSeed &+ UInt64(walk)
            var rng = SplitMix64(seed: seed)
            var m = TestInstance(chart: chart, context: Log())
            try m.start()
            var steps: [String] = []
            for _ in 0..<Int(rng.next() % 16) {
                let step = Self.randomWorkshopStep(&rng)
                steps.append(step.description)
                _ = Self.apply(step, to: &m)
            }
            let taken = m.snapshot()
            seen.formUnion(taken.activeStates + taken.history.keys.map { "history " + $0 } + (taken.finalState.map { ["final " + $0] } ?? []))
            if !taken.pendingSends.isEmpty { seen.insert("pending \(taken.pendingSends.count)") }
            let decoded = try jsonRoundTrip(taken)
            var n = try TestInstance(chart: chart, restoring: decoded)
            let replay = "walk \(walk), seed \(seed), prefix \(steps)"
            #expect(n.snapshot() == m.snapshot(), "restored snapshot differs — \(replay)")
            for k in 0..<30 {
                let step = Self.randomWorkshopStep(&rng)
                let a = Self.apply(step, to: &m)
                let b = Self.apply(step, to: &n)
                guard a == b, m.snapshot() == n.snapshot(), m.activeAtomicIDs == n.activeAtomicIDs,
                    m.nextDueTime == n.nextDueTime, m.now == n.now
                else {
                    Issue.record("diverged at step \(k) (\(step)): \(a) vs \(b), \(m.activeAtomicIDs) vs \(n.activeAtomicIDs) — \(replay)")
                    break
                }
            }
        }
        for expected in ["A1a", "A1b", "A2", "B1", "B2x", "B2y", "paused", "history hA", "history hB", "final done", "pending 1", "pending 2"] {
            #expect(seen.contains(expected), "no walk snapshot covered \(expected)")
        }
    }

    // MARK: What a snapshot holds

    @Test("R40: a snapshot holds the configuration at every level, history values, context, clock and pending sends with their remaining time")
    func contents() throws {
        var m = try start(workshopChart())
        try m.send("go")
        try m.send("next")
        try m.send("flip")
        try m.send("inner")
        try m.send("pause")  // records hA (deep) and hB (shallow); paused sends wake after 5 s
        try m.advance(by: .milliseconds(1500))
        let s = m.snapshot()
        #expect(s.activeStates == ["paused"])
        #expect(s.history == ["hA": ["A1b"], "hB": ["B2"]])
        #expect(s.now == .milliseconds(1500))
        #expect(s.pendingSends == [
            SnapshotPendingSend(remaining: .milliseconds(500), event: .event("tick"), id: "t"),
            SnapshotPendingSend(remaining: .milliseconds(3500), event: .event("wake"), id: "w"),
        ])
        #expect(s.isRunning && s.hasStarted && s.finalState == nil)
        #expect(s.queuedEvents.isEmpty)
        #expect(s.suspension == nil)
        #expect(s.fingerprint == m.chart.fingerprint)
        #expect(s.chartName == "workshop")
        #expect(s.context.lines == m.context.lines)

        var n = try TestInstance(chart: m.chart, restoring: s)
        try n.advance(by: .milliseconds(3500))  // tick (dropped in paused), then wake → deep history
        #expect(n.atomic == ["A1b", "B2x"])
        #expect(n.now == .seconds(5))
        #expect(n.activeStates.map { n.chart.id(of: $0) } == ["work", "A", "A1", "A1b", "B", "B2", "B2x"])
    }

    @Test("R40: restoring runs no action — no entry, exit, transition or eventless transition")
    func restoreRunsNothing() throws {
        var m = try StateMachine(orderMachine(), context: OrderLog())
        try m.send([.confirm, .authorize])
        var s = m.snapshot()
        s.context.entries = ["restored"]
        var options = StateMachine<OrderState, OrderEvent, OrderLog>.Options()
        options.tracing = true
        var n = try StateMachine(orderMachine(), restoring: s, options: options)
        #expect(n.context.entries == ["restored"])
        #expect(n.trace.isEmpty)
        #expect(n.activeStateIDs == ["confirmed.authorized"])
        #expect(n.isActive(PaymentState.authorized))
        #expect(n.activeState(of: PaymentState.self) == .authorized)
        try m.restore(from: s)
        #expect(m.context.entries == ["restored"])
        try n.send(.capture)
        #expect(n.state == .shipped)
        #expect(n.context.entries == ["restored", "exit authorized", "enter captured", "exit confirmed"])
    }

    @Test("R40: the snapshot of a finished machine restores a finished machine")
    func finishedRoundTrip() throws {
        var m = try StateMachine(orderMachine(), context: OrderLog())
        try m.send([.confirm, .authorize, .capture, .deliver])
        #expect(m.isFinished)
        let s = try jsonRoundTrip(m.snapshot())
        #expect(s.finalState == "delivered" && !s.isRunning && s.activeStates.isEmpty)
        var n = try StateMachine(orderMachine(), restoring: s)
        #expect(n.isFinished && n.state == .delivered)
        #expect(throws: MachineError.finished(finalState: "delivered")) { try n.send(.confirm) }
        try n.reset()
        #expect(n.state == .pending)
    }

    @Test("R40: an instance that was never started restores as not started")
    func notStartedRoundTrip() throws {
        let chart = try Chart(workshopChart())
        let m = TestInstance(chart: chart, context: Log())
        var n = try TestInstance(chart: chart, restoring: try jsonRoundTrip(m.snapshot()))
        #expect(!n.hasStarted && !n.isRunning)
        try n.start()
        #expect(n.atomic == ["idle"])
    }

    @Test("R40: the fingerprint is the same in every process: FNV-1a over ids, kinds and parents, not hashValue")
    func fingerprintIsStable() throws {
        var d = TestChart.test("fp")
        d.state("a")
        let b = d.state("b", .parallel)
        let r = d.state("r", in: b)
        d.addState("h", kind: .history(.deep), in: r)
        d.state("r1", in: r)
        d.state("s", in: b)
        d.state("z", .final)
        let chart = try Chart(d)
        #expect(chart.ids == ["", "a", "b", "r", "h", "r1", "s", "z"])
        // Computed independently (Python) from "id␟kind␟parent␞" for each state in document order.
        #expect(chart.fingerprint == "f36c69aff7331ba4")
        #expect(try Chart(d).fingerprint == chart.fingerprint)
        #expect(try Chart(workshopChart()).fingerprint != chart.fingerprint)
    }

    // MARK: Validation

    func orderSnapshot(_ events: [OrderEvent] = [.confirm]) throws -> ChartSnapshot<OrderEvent, OrderLog> {
        var m = try StateMachine(orderMachine(), context: OrderLog())
        try m.send(events)
        return m.snapshot()
    }

    func restoreError(_ s: ChartSnapshot<OrderEvent, OrderLog>) -> String? {
        do {
            _ = try StateMachine(orderMachine(), restoring: s)
            return nil
        } catch {
            guard case .invalidSnapshot(let message) = error else { return "unexpected \(error)" }
            return message
        }
    }

    @Test("R40: a snapshot of another chart is refused by its fingerprint")
    func differentChart() throws {
        var m = try StateMachine(orderMachine(history: .deep), context: OrderLog())
        try m.send(.confirm)
        let message = restoreError(m.snapshot())
        #expect(message?.contains("fingerprint") == true)
        #expect(message?.contains("not from chart 'order'") == true)
    }

    @Test("R40: an unknown state id is refused, naming it")
    func unknownState() throws {
        var s = try orderSnapshot()
        s.activeStates = ["confirmed", "confirmed.refunding"]
        #expect(restoreError(s) == "activeStates names unknown state 'confirmed.refunding'")
        s = try orderSnapshot()
        s.history = ["nowhere": ["pending"]]
        #expect(restoreError(s) == "history names unknown state 'nowhere'")
        s = try orderSnapshot()
        s.pendingSends = [SnapshotPendingSend(remaining: .seconds(1), event: .done(state: "ghost"))]
        #expect(restoreError(s) == "pendingSends names unknown state 'ghost'")
        s = try orderSnapshot()
        s.activeStates = ["", "pending"]
        #expect(restoreError(s) == "activeStates names unknown state ''")
    }

    @Test("R40: a configuration that is not legal for the chart is refused")
    func illegalConfigurations() throws {
        var s = try orderSnapshot()
        s.activeStates = ["confirmed", "confirmed.authorizing", "confirmed.authorized"]
        #expect(restoreError(s) == "activeStates is not a legal configuration: the compound state 'confirmed' has 2 active children ('confirmed.authorizing', 'confirmed.authorized'); exactly one is required")
        s.activeStates = ["confirmed"]
        #expect(restoreError(s) == "activeStates is not a legal configuration: the compound state 'confirmed' has 0 active children; exactly one is required")
        s.activeStates = ["confirmed.authorizing"]
        #expect(restoreError(s) == "activeStates is not a legal configuration: 'confirmed.authorizing' is active without its parent 'confirmed'")
        s.activeStates = ["pending", "shipped"]
        #expect(restoreError(s) == "activeStates is not a legal configuration: the top level has 2 active children ('pending', 'shipped'); exactly one is required")
        s.activeStates = []
        #expect(restoreError(s) == "activeStates is not a legal configuration: the top level has 0 active children; exactly one is required")
        s.activeStates = ["delivered"]
        #expect(restoreError(s)?.contains("top-level final state 'delivered'") == true)
        s.activeStates = ["pending", "pending"]
        #expect(restoreError(s) == "activeStates names 'pending' twice")

        let chart = try Chart(workshopChart())
        var m = TestInstance(chart: chart, context: Log())
        try m.start()
        try m.send("go")
        var w = m.snapshot()
        w.activeStates = ["work", "A", "A1", "A1a"]
        #expect(throws: MachineError.invalidSnapshot("activeStates is not a legal configuration: the parallel state 'work' is missing its region 'B'")) {
            _ = try TestInstance(chart: chart, restoring: w)
        }
        w.activeStates = ["work", "A", "hA", "A1", "A1a", "B", "B1"]
        #expect(throws: MachineError.invalidSnapshot("activeStates names the history state 'hA', which is never active")) {
            _ = try TestInstance(chart: chart, restoring: w)
        }
    }

    @Test("R40: history values a history state could not have recorded are refused")
    func illegalHistory() throws {
        let chart = try Chart(workshopChart())
        var m = TestInstance(chart: chart, context: Log())
        try m.start()
        let good = m.snapshot()
        func error(_ history: [String: [String]]) -> MachineError? {
            var s = good
            s.history = history
            do {
                _ = try TestInstance(chart: chart, restoring: s)
                return nil
            } catch {
                return error
            }
        }
        #expect(error(["hA": ["A1b"], "hB": ["B2"]]) == nil)
        #expect(error(["A": ["A1b"]]) == .invalidSnapshot("history names 'A', which is not a history state"))
        #expect(error(["hA": ["A1"]]) == .invalidSnapshot("the history value of 'hA' is not legal: 'A1' is not an atomic state (deep history remembers atomic states)"))
        #expect(error(["hA": ["A1a", "A2"]]) == .invalidSnapshot("the history value of 'hA' is not legal: the compound state 'A' has 2 active children ('A1', 'A2'); exactly one is required"))
        #expect(error(["hA": ["B1"]]) == .invalidSnapshot("the history value of 'hA' is not legal: 'B1' is not inside 'A'"))
        #expect(error(["hB": ["B2x"]]) == .invalidSnapshot("the history value of 'hB' is not legal: 'B2x' is not a child of 'B'"))
        #expect(error(["hB": []]) == .invalidSnapshot("the history value of 'hB' is not legal: it is empty"))
    }

    @Test("R40: inconsistent lifecycle flags, negative remaining times and unknown format versions are refused")
    func otherInconsistencies() throws {
        var s = try orderSnapshot()
        s.pendingSends = [SnapshotPendingSend(remaining: .seconds(-1), event: .event(.ship), id: nil)]
        #expect(restoreError(s) == "pendingSends holds a send with negative remaining time -1.0 seconds")
        s = try orderSnapshot()
        s.formatVersion = 3
        #expect(restoreError(s) == "unsupported format version 3 (this library reads versions 1 to 2)")
        s = try orderSnapshot()
        s.hasStarted = false
        #expect(restoreError(s) == "a machine cannot be running without having started")
        s = try orderSnapshot()
        s.finalState = "delivered"
        #expect(restoreError(s) == "finalState 'delivered' is set but the machine is running")
        s.isRunning = false
        s.activeStates = []
        s.finalState = "pending"
        #expect(restoreError(s) == "finalState 'pending' is not a top-level final state")
        s.finalState = nil
        s.activeStates = ["pending"]
        #expect(restoreError(s) == "a machine that is not running has no active states, but activeStates lists 'pending'")
    }

    @Test("R40: a failed restore leaves the machine unchanged")
    func failedRestoreChangesNothing() throws {
        var m = try StateMachine(orderMachine(), context: OrderLog())
        try m.send([.confirm, .authorize])
        let before = m.snapshot()
        var bad = before
        bad.activeStates = ["confirmed", "confirmed.nope"]
        #expect(throws: MachineError.self) { try m.restore(from: bad) }
        #expect(m.snapshot() == before)
    }

    @Test("R40: a ChartInstance refuses a snapshot holding a suspension; a StateMachine takes it")
    func instanceRefusesSuspension() throws {
        var s = try orderSnapshot()
        s.suspension = SnapshotSuspension(background: "cancelled", activeStates: ["pending"], pausedSends: [])
        let typed = try TypedChart(orderMachine())
        #expect(throws: MachineError.self) { _ = try ChartInstance(chart: typed.chart, restoring: s) }
        let m = try StateMachine<OrderState, OrderEvent, OrderLog>(typed: typed, restoring: s)
        #expect(m.isSuspended)
        #expect(m.suspendedStateIDs == ["pending"])
    }

    // MARK: The Codable layer

    @Test("R40: corrupted, truncated or foreign JSON fails to decode with a DecodingError")
    func corruptedJSON() throws {
        let data = try JSONEncoder().encode(try orderSnapshot([.confirm, .authorize]))
        typealias S = ChartSnapshot<OrderEvent, OrderLog>
        #expect(throws: DecodingError.self) { _ = try JSONDecoder().decode(S.self, from: data.prefix(data.count / 2)) }
        #expect(throws: DecodingError.self) { _ = try JSONDecoder().decode(S.self, from: Data(#"{"name":"other","states":[1,2]}"#.utf8)) }
        #expect(throws: DecodingError.self) { _ = try JSONDecoder().decode(S.self, from: Data("not json".utf8)) }
        // An event the event type does not know: the event's own decoder refuses it.
        var withQueued = try orderSnapshot()
        withQueued.queuedEvents = [.event(.authorize)]
        let queued = String(decoding: try JSONEncoder().encode(withQueued), as: UTF8.self)
            .replacingOccurrences(of: "\"authorize\"", with: "\"teleport\"")
        #expect(throws: DecodingError.self) { _ = try JSONDecoder().decode(S.self, from: Data(queued.utf8)) }
        // Well-formed JSON whose fields are of the wrong type.
        let wrongType = String(decoding: data, as: UTF8.self).replacingOccurrences(of: "\"isRunning\":true", with: "\"isRunning\":\"yes\"")
        #expect(wrongType != String(decoding: data, as: UTF8.self))
        #expect(throws: DecodingError.self) { _ = try JSONDecoder().decode(S.self, from: Data(wrongType.utf8)) }
    }

    @Test("R40: decoded JSON that does not fit the chart is refused by restore with invalidSnapshot")
    func decodedButInvalid() throws {
        let data = try JSONEncoder().encode(try orderSnapshot([.confirm, .authorize]))
        let edited = String(decoding: data, as: UTF8.self).replacingOccurrences(of: "confirmed.authorized", with: "confirmed.refunded")
        let s = try JSONDecoder().decode(ChartSnapshot<OrderEvent, OrderLog>.self, from: Data(edited.utf8))
        #expect(restoreError(s) == "activeStates names unknown state 'confirmed.refunded'")
    }
}
