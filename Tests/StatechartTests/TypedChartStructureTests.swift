import Testing
import Statechart

/// Events of the large typed charts below.
enum TypedStructureEvent: Hashable, Sendable { case next, jump, far }

/// The typed builder's chart for a large machine, compared with the chart written out by hand:
/// ids, kinds, parents, document order, initial transitions and every transition. The emitter
/// numbers each level's values and works on ordinals and node indices; this checks that it still
/// produces exactly the chart the declarations describe.
@Suite("TypedChart structure at scale")
struct TypedChartStructureTests {
    static let groups = 300

    /// `groups` top states, each with a nine-state child: most plain, every 50th (from 7) with
    /// shallow history, every 50th (from 13) with two children (parallel regions). State 5 also
    /// targets 1000, declared nowhere (rule R65: added after 6, the order of first mention).
    static func machine() -> Machine<Int, TypedStructureEvent, Void> {
        let child = Machine<Int, TypedStructureEvent, Void>(initial: 0) {
            for s in 0..<9 { When(s) { On(.next, to: (s + 1) % 9) } }
        }
        let left = Machine<Int, TypedStructureEvent, Void>("left", initial: 1) {
            When(0) { On(.next, to: 1) }
            Final(1)
        }
        var machine = Machine<Int, TypedStructureEvent, Void>("big", initial: 0) {
            for g in 0..<groups {
                When(g) {
                    On(.jump, to: (g + 1) % groups)
                    if g == 5 { On(.far, to: 1000) }
                }
            }
        }
        for g in 0..<groups {
            if g % 50 == 7 {
                machine.attach(child: child, to: g, history: .shallow)
            } else if g % 50 == 13 {
                machine.attach(child: left, to: g)
                machine.attach(child: child, to: g)
            } else {
                machine.attach(child: child, to: g)
            }
        }
        return machine
    }

    /// One line per state in document order: id, kind, parent, initial targets, transitions.
    static func render(_ chart: Chart<TypedStructureEvent, Void>) -> [String] {
        (0..<chart.stateCount).map { i in
            let s = ChartStateID(Int32(i))
            let parent = chart.parent(of: s).map { chart.id(of: $0) } ?? "-"
            let initial = chart.initialTransition(of: s).map { $0.targets.map { chart.id(of: $0) } } ?? []
            let transitions = chart.transitions(of: s).map { t in
                "\(t.events.map { "\($0)" } ?? "eventless")->\(t.targets.map { chart.id(of: $0) })"
            }
            let list = "[" + transitions.joined(separator: ", ") + "]"
            return "\(chart.id(of: s)) \(chart.kind(of: s)) in \(parent) initial \(initial) \(list)"
        }
    }

    /// The same lines, written from the declarations.
    static func expected() -> [String] {
        var lines = [#" compound in - initial ["0"] []"#]
        func childLines(prefix: String, parent: String) -> [String] {
            (0..<9).map { s in
                #"\#(prefix).\#(s) atomic in \#(parent) initial [] [event("next")->["\#(prefix).\#((s + 1) % 9)"]]"#
            }
        }
        var top = Array(0..<groups)
        top.insert(1000, at: 7)
        for g in top {
            guard g != 1000 else {
                lines.append(#"1000 atomic in  initial [] []"#)
                continue
            }
            var transitions = [#"event("jump")->["\#((g + 1) % groups)"]"#]
            if g == 5 { transitions.append(#"event("far")->["1000"]"#) }
            let own = "[" + transitions.joined(separator: ", ") + "]"
            if g % 50 == 7 {
                lines.append(#"\#(g) compound in  initial ["\#(g).history"] \#(own)"#)
                lines += childLines(prefix: "\(g)", parent: "\(g)")
                lines.append(#"\#(g).history shallowHistory in \#(g) initial ["\#(g).0"] []"#)
            } else if g % 50 == 13 {
                lines.append(#"\#(g) parallel in  initial [] \#(own)"#)
                lines.append(#"\#(g).left compound in \#(g) initial ["\#(g).left.1"] []"#)
                lines.append(#"\#(g).left.0 atomic in \#(g).left initial [] [event("next")->["\#(g).left.1"]]"#)
                lines.append(#"\#(g).left.1 final in \#(g).left initial [] []"#)
                lines.append(#"\#(g).region2 compound in \#(g) initial ["\#(g).region2.0"] []"#)
                lines += childLines(prefix: "\(g).region2", parent: "\(g).region2")
            } else {
                lines.append(#"\#(g) compound in  initial ["\#(g).0"] \#(own)"#)
                lines += childLines(prefix: "\(g)", parent: "\(g)")
            }
        }
        return lines
    }

    @Test("a large typed machine compiles to the chart its declarations describe")
    func structure() throws {
        let typed = try TypedChart(Self.machine())
        let rendered = Self.render(typed.chart)
        let expected = Self.expected()
        #expect(rendered.count == expected.count)
        for (r, e) in zip(rendered, expected) where r != e {
            Issue.record("state differs:\n  got      \(r)\n  expected \(e)")
            break
        }
    }

    @Test("values, indices by value and levels map the large chart's states back to their values")
    func valuesAndLevels() throws {
        let typed = try TypedChart(Self.machine())
        let chart = typed.chart
        let g42 = try #require(chart.state(withID: "42"))
        #expect(typed.value(of: g42) == AnyHashable(42))
        #expect(typed.value(of: try #require(chart.state(withID: "57.history"))) == nil)
        #expect(typed.value(of: try #require(chart.state(withID: "13.region2"))) == nil)
        // 3 is a top state and a state of every child: all listed, in index order.
        let threes = typed.states(for: 3).map(\.index)
        #expect(threes == threes.sorted())
        #expect(threes.contains(try #require(chart.state(withID: "3")).index))
        #expect(threes.contains(try #require(chart.state(withID: "13.region2.3")).index))
        #expect(threes.count == 1 + Self.groups)  // the top state and every nine-state child's; "left" has no 3
        // Mentioned only: warned about, once.
        let undeclared = typed.validate().filter { $0.code == .undeclaredState }
        #expect(undeclared.map(\.states) == [["1000"]])
        // The runtime finds each state's level: the top state moves, the child restarts.
        var m = try StateMachine(Self.machine(), context: ())
        #expect(m.state == 0)
        try m.send(.next)
        #expect(m.activeStateIDs == ["0.1"])
        try m.send(.jump)
        #expect(m.state == 1)
        #expect(m.activeStateIDs == ["1.0"])
    }

    /// Two values that describe themselves alike.
    struct Twin: Hashable, Sendable, CustomStringConvertible {
        let n: Int
        var description: String { "twin" }
    }

    @Test("a child machine attached in several places is gathered once: ids, errors and its own attachments per place")
    func childAttachedInSeveralPlaces() throws {
        // The same child under two parents, and a copy of it with a child of its own (gathered afresh).
        let leaf = Machine<Int, TypedStructureEvent, Void>(initial: 0) {
            When(0) { On(.next, to: 1) }
            When(1) { On(.next, to: 0) }
        }
        let nested = leaf.attaching(child: leaf, to: 1)
        var top = Machine<Int, TypedStructureEvent, Void>(initial: 0) {
            When(0) { On(.jump, to: 1) }
            When(1) { On(.jump, to: 2) }
            When(2) { On(.jump, to: 0) }
        }
        top.attach(child: leaf, to: 0)
        top.attach(child: leaf, to: 1)
        top.attach(child: nested, to: 2)
        let chart = try TypedChart(top).chart
        #expect(chart.ids == ["", "0", "0.0", "0.1", "1", "1.0", "1.1", "2", "2.0", "2.1", "2.1.0", "2.1.1"])
        // Descriptions that collide are an error wherever the child is attached; the id names the first place.
        let twins = Machine<Twin, TypedStructureEvent, Void>(initial: Twin(n: 0)) {
            When(Twin(n: 0))
            When(Twin(n: 1))
        }
        var twice = Machine<Int, TypedStructureEvent, Void>(initial: 0) {
            When(0)
            When(1)
        }
        twice.attach(child: twins, to: 0)
        twice.attach(child: twins, to: 1)
        #expect(throws: ChartError.duplicateStateID("0.twin", first: nil, second: nil)) { try TypedChart(twice) }
    }

    @Test("values are found by their own type, boxed, and across integer widths as AnyHashable compares them, in every place of a machine with attachments")
    func valueLookups() throws {
        let inner = Machine<Int, TypedStructureEvent, Void>(initial: 0) {
            When(0) { On(.next, to: 1) }
            When(1) { On(.next, to: 0) }
        }
        // A machine with a child of its own, attached at two places.
        let middle = Machine<Phase, TypedStructureEvent, Void>(initial: .idle) {
            When(.idle) { On(.next, to: .busy) }
            When(.busy)
        }.attaching(child: inner, to: .busy)
        var top = Machine<String, TypedStructureEvent, Void>(initial: "a") {
            When("a") { On(.jump, to: "b") }
            When("b") { On(.jump, to: "a") }
        }
        top.attach(child: middle, to: "a")
        top.attach(child: middle, to: "b")
        let typed = try TypedChart(top)
        let chart = typed.chart
        func ids(_ states: [ChartStateID]) -> [String] { states.map { chart.id(of: $0) } }
        #expect(ids(typed.states(for: Phase.busy)) == ["a.busy", "b.busy"])
        // An optional is a value of another type: `AnyHashable` finds `Optional(.busy)` and
        // `.busy` unequal, and so does the lookup (a cast would have unwrapped it).
        #expect(typed.states(for: Optional(Phase.busy)).isEmpty)
        // `AnyHashable` finds numbers equal across integer and floating-point types.
        #expect(ids(typed.states(for: 1.0)) == ["a.busy.1", "b.busy.1"])
        #expect(ids(typed.states(for: 1)) == ["a.busy.1", "b.busy.1"])
        // `AnyHashable` finds integers of different types equal; a `String` is never a `Phase`,
        // even one spelled as its description.
        #expect(ids(typed.states(for: Int8(1))) == ["a.busy.1", "b.busy.1"])
        #expect(ids(typed.states(for: UInt(0))) == ["a.busy.0", "b.busy.0"])
        #expect(typed.states(for: "busy").isEmpty)
        #expect(typed.states(for: 2).isEmpty)
        #expect(ids(typed.states(for: "a")) == ["a"])
        #expect(typed.value(of: try #require(chart.state(withID: "b.busy.1"))) == AnyHashable(1))
        #expect(typed.value(of: try #require(chart.state(withID: "b.idle"))) == AnyHashable(Phase.idle))
        // The runtime's queries read the same tables.
        var m = try StateMachine(top, context: ())
        #expect(m.state == "a")
        #expect(m.isActive(Phase.idle) && !m.isActive(Phase.busy) && !m.isActive(0))
        try m.send(.next)
        #expect(m.isActive(Phase.busy) && m.isActive(0) && m.isActive(Int8(0)) && !m.isActive(1) && !m.isActive("busy"))
        #expect(m.activeStates(of: Phase.self) == [.busy])
        #expect(m.activeStates(of: Int.self) == [0])
        try m.send(.jump)
        #expect(m.state == "b")
        #expect(m.activeStateIDs == ["b.idle"])
    }

    /// A state type whose description is its own, and one that prints through reflection.
    enum Phase: String, Hashable, Sendable { case idle, busy }
    struct Labelled: Hashable, Sendable, CustomStringConvertible {
        let n: Int
        var description: String { "label-\(n)" }
    }

    /// The ids of a machine's states, in order, for a machine of any state type: top states and
    /// the states of a child attached to the first.
    static func ids<S: Hashable & Sendable>(_ values: [S]) throws -> [String] {
        let child = Machine<S, TypedStructureEvent, Void>(initial: values[0]) {
            for v in values { When(v) }
        }
        var top = Machine<S, TypedStructureEvent, Void>(initial: values[0]) {
            for v in values { When(v) { On(.jump, to: values[0]) } }
        }
        top.attach(child: child, to: values[0])
        return try TypedChart(top).chart.ids
    }

    @Test("state ids are the values' descriptions, whatever the state type (Int and String made directly, the others interpolated)")
    func idsAreDescriptions() throws {
        // Gathered in the caller (the top machine) and in the library (the attached child).
        #expect(try Self.ids([0, -7, Int.max]) == ["", "0", "0.0", "0.-7", "0.\(Int.max)", "-7", "\(Int.max)"])
        #expect(try Self.ids(["a", "b c", "é"]) == ["", "a", "a.a", "a.b c", "a.é", "b c", "é"])
        #expect(try Self.ids([Phase.idle, .busy]) == ["", "idle", "idle.idle", "idle.busy", "busy"])
        #expect(try Self.ids([Labelled(n: 1), Labelled(n: 2)]) == ["", "label-1", "label-1.label-1", "label-1.label-2", "label-2"])
        // Not Int: an optional prints as one, and a narrower integer as a number.
        #expect(try Self.ids([Int?.some(1), nil]) == ["", "Optional(1)", "Optional(1).Optional(1)", "Optional(1).nil", "nil"])
        #expect(try Self.ids([Int8(3), -1]) == ["", "3", "3.3", "3.-1", "-1"])
    }
}
