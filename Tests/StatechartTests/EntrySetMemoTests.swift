import Testing

@testable @_spi(Testing) import Statechart

/// Entry sets that depend on history are remembered with the history values they read
/// (`EntrySetMemo`), and steps whose exits or entries run nothing move the configuration in one
/// pass. A traced machine always computes and always enters state by state, so each test runs
/// the same events on a traced and an untraced machine and requires the same machine after
/// every step.
@Suite("Entry sets remembered")
struct EntrySetMemoTests {
    /// `room`: `inside` holds `step` (`first`, `second`, which holds `detail`: `start`, `end`)
    /// with a history state `h` of the given kind; `outside` beside it. `inside` enters through
    /// `h`. `again` is a self-transition of `inside` (exits and re-enters it in one microstep:
    /// the history it records is the one its entry reads); `reset` goes back to `first`.
    static func chart(deep: Bool, entryActions: Bool) throws -> Chart<String, [String]> {
        var d = ChartDefinition<String, [String]>(name: "room", eventName: { $0 })
        let inside = d.addState("inside", in: d.root)
        let outside = d.addState("outside", in: d.root)
        let history = d.addState("h", kind: .history(deep ? .deep : .shallow), in: inside)
        let first = d.addState("first", in: inside)
        let second = d.addState("second", in: inside)
        let start = d.addState("start", in: second)
        let end = d.addState("end", in: second)
        d.setInitial(["h"], of: inside)
        d.addTransition(TransitionDefinition(on: nil, to: ["first"]), from: history)
        d.addTransition(TransitionDefinition(on: .event("advance"), to: ["second"]), from: first)
        d.addTransition(TransitionDefinition(on: .event("advance"), to: ["end"]), from: start)
        d.addTransition(TransitionDefinition(on: .event("reset"), to: ["first"]), from: inside)
        d.addTransition(TransitionDefinition(on: .event("again"), to: ["inside"]), from: inside)
        d.addTransition(TransitionDefinition(on: .event("leave"), to: ["outside"]), from: inside)
        d.addTransition(TransitionDefinition(on: .event("back"), to: ["inside"]), from: outside)
        if entryActions {
            for (node, name) in [(inside, "inside"), (second, "second"), (start, "start"), (end, "end")] {
                d.addOnEntry([.run("enter \(name)") { $0.context.append("enter \(name)") }], to: node)
            }
            d.setInitial(["start"], actions: [.run("default start") { $0.context.append("default start") }], of: second)
        }
        _ = (first, end)
        return try Chart(d)
    }

    static let walk = [
        "advance", "leave", "back", "leave", "back", "advance", "leave", "back", "again", "again",
        "reset", "leave", "back", "advance", "again", "leave", "back", "leave", "back",
    ]

    /// Runs `walk` on a traced and an untraced machine; returns the untraced one.
    static func compare(_ chart: Chart<String, [String]>) throws -> ChartInstance<String, [String]> {
        var traced = ChartInstance(chart: chart, context: [String]())
        traced.isTracing = true
        var plain = ChartInstance(chart: chart, context: [String]())
        try traced.start()
        try plain.start()
        for (step, event) in walk.enumerated() {
            let a = try traced.send(event)
            let b = try plain.send(event)
            traced.trace.removeAll()
            #expect(a == b && traced.snapshot() == plain.snapshot(), "step \(step), \(event): traced \(traced.activeAtomicIDs) \(traced.context), untraced \(plain.activeAtomicIDs) \(plain.context)")
            #expect(plain.invariantViolations().isEmpty, "step \(step): \(plain.invariantViolations())")
        }
        return plain
    }

    @Test(
        "R11: deep and shallow history re-entered from memory, with and without entry actions, leave the machine a traced one leaves after every step, as the history changes between visits and a self-transition records the history its entry reads",
        arguments: [(true, false), (true, true), (false, false), (false, true)])
    func rememberedEntrySetsMatchComputedOnes(deep: Bool, entryActions: Bool) throws {
        let chart = try Self.chart(deep: deep, entryActions: entryActions)
        var machine = try Self.compare(chart)
        // The untraced machine remembered the transitions that enter through the history state:
        // the start (the root's initial transition, the root's id is ""), `again` and `back`.
        let remembered = machine.stepScratch.pointee.entryMemo.records.map { chart.ids[Int(chart.transitions[Int($0.transition)].source)] }
        #expect(Set(remembered) == ["", "inside", "outside"] && remembered.count == 3)
    }

    @Test("R11: a remembered entry set is replaced once the history it read changes, and one kept per transition")
    func rememberedSetFollowsHistory() throws {
        let chart = try Self.chart(deep: true, entryActions: false)
        var m = ChartInstance(chart: chart, context: [String]())
        try m.start()
        for e in ["advance", "advance", "leave", "back"] { _ = try m.send(e) }
        #expect(m.activeAtomicIDs == ["end"])
        for e in ["reset", "leave", "back"] { _ = try m.send(e) }
        #expect(m.activeAtomicIDs == ["first"])
        let backs = m.stepScratch.pointee.entryMemo.records.filter { chart.ids[Int(chart.transitions[Int($0.transition)].source)] == "outside" }
        #expect(backs.count == 1)
        #expect(backs.first.map { $0.entries.map { chart.ids[Int($0)] } } == ["inside", "first"])
        for e in ["advance", "leave", "back"] { _ = try m.send(e) }
        #expect(m.activeAtomicIDs == ["start"])
    }

    enum Screen: Hashable, Sendable { case home, settings, profile }
    enum Pane: Hashable, Sendable { case general, advanced }
    enum Tap: Hashable, Sendable { case next }

    @Test("R26, R11: a state request's entry set is remembered by the requested state, and computed again once the history it read changes")
    func requestsRemembered() throws {
        // An `Int` context: snapshots compare when the context does.
        let panes = Machine<Pane, Tap, Int>(initial: .general) {
            When(.general) { On(.next, to: .advanced) }
            When(.advanced)
        }
        let screens = Machine<Screen, Tap, Int>(initial: .home) {
            Global(.home)
            Global(.settings)
            Global(.profile)
        }.attaching(child: panes, to: .settings, history: .deep)
        var plain = try StateMachine(screens, context: 0)
        var traced = try StateMachine(screens, context: 0)
        traced.core.isTracing = true
        let steps: [(Screen?, String)] = [
            (.settings, "settings.general"), (nil, "settings.advanced"), (.home, "home"),
            (.settings, "settings.advanced"), (.profile, "profile"), (.settings, "settings.advanced"),
            (.home, "home"), (.profile, "profile"), (.home, "home"), (.settings, "settings.advanced"),
        ]
        for (n, (request, expected)) in steps.enumerated() {
            if let request {
                try plain.transition(to: request)
                try traced.transition(to: request)
            } else {
                try plain.send(.next)
                try traced.send(.next)
            }
            traced.core.trace.removeAll()
            #expect(plain.activeStateIDs == [expected], "step \(n)")
            #expect(traced.core.snapshot() == plain.core.snapshot(), "step \(n): traced \(traced.activeStateIDs)")
        }
        // One record per requested state; the one for `settings` holds the set entered through
        // the history the last request read.
        let chart = plain.typed.chart
        let records = plain.core.stepScratch.pointee.entryMemo.records
        #expect(Set(records.map { chart.ids[Int($0.target)] }) == ["home", "settings", "profile"] && records.count == 3)
        let settings = records.first { chart.ids[Int($0.target)] == "settings" }
        #expect(settings.map { $0.entries.map { chart.ids[Int($0)] } } == ["settings", "settings.advanced"])
    }
}
