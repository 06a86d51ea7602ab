import Testing

@testable import Statechart

/// The compiler numbers states in document order and says whether that kept the definition's
/// node order (`Chart.numberedAsDeclared`): a typed chart reads its tables by node index when it
/// did, and looks each state up by id when it did not (issue 16: comparing every id to find out
/// cost a million-state chart 1 % of its build).
@Suite("Chart numbering")
struct ChartNumberingTests {
    @Test("a definition whose nodes come in document order keeps its numbering")
    func documentOrderIsKept() throws {
        var d = ChartDefinition<String, Void>(name: "ordered")
        let c = d.addState("c", in: d.root)
        _ = d.addState("c.x", in: c)
        _ = d.addState("d", in: d.root)
        let chart = try Chart(d)
        #expect(chart.numberedAsDeclared)
        #expect(chart.ids == ["", "c", "c.x", "d"])
    }

    @Test("a state added to an earlier parent after a later sibling is numbered in document order, and said to be")
    func laterChildOfEarlierParent() throws {
        var d = ChartDefinition<String, Void>(name: "reordered")
        let c = d.addState("c", in: d.root)
        _ = d.addState("d", in: d.root)
        _ = d.addState("c.x", in: c)
        let chart = try Chart(d)
        #expect(!chart.numberedAsDeclared)
        #expect(chart.ids == ["", "c", "c.x", "d"])
    }

    @Test("a typed chart with attached children keeps the emitter's numbering, and maps each state to its value")
    func typedChartKeepsItsNumbering() throws {
        enum Top: Hashable, Sendable { case a, b }
        enum Inner: Hashable, Sendable { case x, y }
        enum E: Hashable, Sendable { case go }
        let child = Machine<Inner, E, Void>(initial: .x) { When(.x) { On(.go, to: .y) } }
        var machine = Machine<Top, E, Void>(initial: .a) {
            When(.a) { On(.go, to: .b) }
            When(.b) { On(.go, to: .a) }
        }
        machine.attach(child: child, to: .a)
        machine.attach(child: child, to: .b)
        let typed = try TypedChart(machine)
        #expect(typed.chart.numberedAsDeclared)
        #expect(typed.chart.ids == ["", "a", "a.x", "a.y", "b", "b.x", "b.y"])
        let values = typed.chart.ids.indices.map { typed.value(of: ChartStateID(Int32($0))) }
        let expected: [AnyHashable?] = [nil, Top.a, Inner.x, Inner.y, Top.b, Inner.x, Inner.y]
        #expect(values == expected)
    }
}
