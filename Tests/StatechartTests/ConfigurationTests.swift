@testable @_spi(Testing) import Statechart
import Testing

/// The configuration keeps its bits and its sorted list in one buffer with room for the chart's
/// bound (issue 16, "Memory"). These tests check its operations against a plain model, and the
/// bound against a direct computation and against the configurations random walks reach.
@Suite("Configuration: one buffer, sized by the chart's bound")
struct ConfigurationTests {
    /// A sorted run of distinct states below `limit`, none of them in `taken`.
    static func states(_ n: Int, below limit: Int32, avoiding taken: Set<Int32>, _ rng: inout SplitMix64) -> [Int32] {
        var free = (0..<limit).filter { !taken.contains($0) }
        free.shuffle(using: &rng)
        return free.prefix(n).sorted()
    }

    /// Checks the list against the model and the bits against the list, for every state.
    static func check(_ c: Configuration, _ model: [Int32], stateCount: Int32, _ what: String) {
        #expect(Array(c.list) == model, "\(what)")
        #expect(c.count == model.count && c.isEmpty == model.isEmpty, "\(what)")
        let members = Set(model)
        for s in 0..<stateCount where c.contains(s) != members.contains(s) {
            Issue.record("\(what): state \(s) is \(c.contains(s) ? "" : "not ")in the bits")
        }
    }

    @Test("every operation keeps the list sorted and the bits equal to it (random operations against a model, 70 states across three words), cutting the tail and appending a last state included")
    func operationsAgainstAModel() {
        let stateCount: Int32 = 70
        for seed in UInt64(1)...60 {
            var rng = SplitMix64(seed: seed)
            // A small bound, so that the list must grow past it: growing is kept correct.
            var c = Configuration(stateCount: Int(stateCount), bound: 2)
            var model: [Int32] = []
            for step in 0..<80 {
                let what = "seed \(seed), step \(step)"
                switch Int.random(in: 0..<10, using: &rng) {
                case 0:
                    let s = Int32.random(in: 0..<stateCount, using: &rng)
                    c.insert(s)
                    if !model.contains(s) { model = (model + [s]).sorted() }
                case 1:
                    let s = model.randomElement(using: &rng) ?? 0
                    c.remove(s)
                    model.removeAll { $0 == s }
                case 2:
                    let gone = model.filter { _ in Bool.random(using: &rng) }
                    gone.withUnsafeBufferPointer { c.remove(all: $0) }
                    model.removeAll { gone.contains($0) }
                case 3:
                    // Some new states, sometimes one already active (the one-by-one case).
                    var added = Self.states(Int.random(in: 0...4, using: &rng), below: stateCount, avoiding: Set(model), &rng)
                    if let s = model.first, Bool.random(using: &rng) { added = (added + [s]).sorted() }
                    added.withUnsafeBufferPointer { c.insert(sorted: $0) }
                    model = Array(Set(model + added)).sorted()
                case 4:
                    // The tail from a position, replaced by states after those kept.
                    let position = Int.random(in: 0...model.count, using: &rng)
                    let floor = position > 0 ? model[position - 1] + 1 : 0
                    let entries = (floor..<stateCount).shuffled(using: &rng).prefix(Int.random(in: 0...5, using: &rng)).sorted()
                    let table = ChartTable([9, 9] + entries)
                    c.replaceTail(from: position, with: table, in: 2..<Int32(2 + entries.count))
                    table.free()
                    model = Array(model.prefix(position)) + entries
                case 5:
                    // A run replaced by states between its neighbours (longer, shorter or as long).
                    guard !model.isEmpty else { continue }
                    let start = Int.random(in: 0..<model.count, using: &rng)
                    let end = Int.random(in: start...model.count, using: &rng)
                    let low = start > 0 ? model[start - 1] + 1 : 0
                    let high = end < model.count ? model[end] : stateCount
                    guard low < high else { continue }
                    let entries = (low..<high).shuffled(using: &rng).prefix(Int.random(in: 0...4, using: &rng)).sorted()
                    let table = ChartTable(entries)
                    c.replace(run: start..<end, with: table, in: 0..<Int32(entries.count))
                    table.free()
                    model = Array(model[..<start]) + entries + Array(model[end...])
                case 6:
                    let copy = c
                    c.insert(Int32.random(in: 0..<stateCount, using: &rng))
                    // A copy is a value: changing one leaves the other as it was.
                    #expect(Array(copy.list) == model, "\(what): the copy changed")
                    c = copy
                case 7:
                    // The tail cut from a position (a chain's exits before its actions run).
                    let position = Int.random(in: 0...model.count, using: &rng)
                    c.removeTail(from: position)
                    model = Array(model.prefix(position))
                case 8:
                    // A state after every active one (a chain's entries, one by one).
                    let floor = (model.last ?? -1) + 1
                    guard floor < stateCount else { continue }
                    let s = Int32.random(in: floor..<stateCount, using: &rng)
                    c.append(last: s)
                    model.append(s)
                default:
                    if Int.random(in: 0..<4, using: &rng) == 0 {
                        c.removeAll()
                        model = []
                    }
                }
                Self.check(c, model, stateCount: stateCount, what)
            }
        }
    }

    @Test("equal configurations compare equal whatever their spare room holds")
    func equality() {
        var a = Configuration(stateCount: 40, bound: 3)
        var b = Configuration(stateCount: 40, bound: 8)
        for s: Int32 in [3, 35, 7] { a.insert(s) }
        for s: Int32 in [1, 3, 7, 35] { b.insert(s) }
        b.remove(1)
        #expect(a == b)
        b.remove(35)
        #expect(a != b)
    }

    /// The bound computed directly: the largest configuration below `s` (a parallel state's
    /// regions add up, a compound state takes its largest child, history is never active).
    static func largest<E, C>(below s: Int32, in chart: Chart<E, C>) -> Int {
        let sizes = chart.states.children(of: s).filter { !chart.states[Int($0)].kind.isHistory }
            .map { 1 + largest(below: $0, in: chart) }
        return chart.states[Int(s)].kind == .parallel ? sizes.reduce(0, +) : (sizes.max() ?? 0)
    }

    @Test("a chart's configuration bound is its largest legal configuration: computed directly, and never passed or grown by a random walk")
    func boundHolds() throws {
        var d = ChartDefinition<String, Void>(name: "bound")
        let p = d.addState("p", kind: .parallel, in: d.root)
        let left = d.addState("left", in: p)
        d.addState("l1", in: left)
        d.addState("h", kind: .history(.deep), in: left)
        let deep = d.addState("l2", in: left)
        d.addState("l2a", in: deep)
        d.addState("right", in: p)
        d.addState("other", in: d.root)
        // p, left, l2, l2a, right.
        #expect(try Chart(d).configurationBound == 5)

        for seed in UInt64(1)...150 {
            guard let chart = try? Chart(RandomCharts.make(seed: seed)) else { continue }
            #expect(chart.configurationBound == Self.largest(below: 0, in: chart), "seed \(seed)")
            var m = ChartInstance(chart: chart, context: 0)
            m.microstepLimit = 30
            let room = m.configuration.storage.count
            guard (try? m.start()) != nil else { continue }
            var rng = SplitMix64(seed: seed &* 7_919)
            for _ in 0..<30 {
                _ = try? m.send(RandomCharts.events.randomElement(using: &rng)!)
                #expect(m.configuration.count <= chart.configurationBound, "seed \(seed)")
            }
            #expect(m.configuration.storage.count == room, "seed \(seed): the configuration grew")
        }
    }

    @Test("a bound past the room a configuration makes at first: the list grows when the machine gets there")
    func largeBoundGrows() throws {
        var d = ChartDefinition<String, Void>(name: "wide", eventName: { $0 })
        let idle = d.addState("idle", in: d.root)
        let wide = d.addState("wide", kind: .parallel, in: d.root)
        let regions = Configuration.roomLimit + 10
        for i in 0..<regions { d.addState("r\(i)", in: wide) }
        d.addTransition(TransitionDefinition(on: .event("open"), to: ["wide"]), from: idle)
        d.addTransition(TransitionDefinition(on: .event("close"), to: ["idle"]), from: wide)
        let chart = try Chart(d)
        #expect(chart.configurationBound == regions + 1)
        var m = ChartInstance(chart: chart, context: ())
        try m.start()
        #expect(m.configuration.storage.count == Int(m.configuration.listStart) + Configuration.roomLimit)
        #expect(try m.send("open"))
        #expect(m.activeStates.count == regions + 1)
        #expect(m.invariantViolations().isEmpty)
        #expect(try m.send("close"))
        #expect(m.activeAtomicIDs == ["idle"])
        #expect(m.invariantViolations().isEmpty)
    }

    @Test("a flat machine, whose transitions all have precomputed entry sets, never allocates the entry-set builder's marks")
    func noMarksForStaticEntries() throws {
        var d = ChartDefinition<String, Void>(name: "flat", initial: ["a"], eventName: { $0 })
        let states = ["a", "b", "c"].map { d.addState($0, in: d.root) }
        for (n, to) in ["b", "c", "a"].enumerated() {
            d.addTransition(TransitionDefinition(on: .event("next"), to: [to]), from: states[n])
        }
        var m = ChartInstance(chart: try Chart(d), context: ())
        try m.start()
        for _ in 0..<4 { #expect(try m.send("next")) }
        #expect(m.activeAtomicIDs == ["b"])
        let marksEmpty = m.stepScratchBox?.withUnsafeMutablePointerToHeader {
            $0.pointee.entrySet.marks.isEmpty && $0.pointee.entrySet.defaultMarks.isEmpty
        }
        #expect(marksEmpty ?? true)
    }
}
