import Testing

@testable import Statechart

/// The estimate of a typed machine's size that the emitter reserves room for (issue 16, "Build"):
/// one state per declaration, and the estimates of the children attached to it, kept as they are
/// attached.
@Suite("Typed machine size")
struct MachineSizeTests {
    enum S: Hashable, Sendable { case a, b, c }
    enum E: Hashable, Sendable { case go, back }

    @Test("a machine's estimate counts its declarations and its attached children's; the chart is what it was")
    func countsDeclarationsAndChildren() throws {
        let child = Machine<Int, E, Void>(initial: 0) {
            for s in 0..<4 { When(s) { On(.go, to: (s + 1) % 4) } }
        }
        #expect(child.estimatedStates == 4)
        var machine = Machine<S, E, Void>("sized", initial: .a) {
            When(.a) {
                On(.go, to: .b)
                On(.back, to: .c)
            }
            When(.b) { On(.back, to: .a) }
        }
        #expect(machine.estimatedStates == 2)
        machine.attach(child: child, to: .a)
        let twice = machine.attaching(child: child, to: .b)
        #expect(machine.estimatedStates == 2 + 4)
        #expect(twice.estimatedStates == 2 + 2 * 4)
        // A machine with a child attached counts it when it is attached in turn.
        var outer = Machine<Int, E, Void>(initial: 0) { When(0) { On(.go, to: 1) } }
        outer.attach(child: twice, to: 0)
        #expect(outer.estimatedStates == 1 + 2 + 2 * 4)
        // The reservation changes nothing the chart holds: two levels of four under a and b, and
        // c, which is only a target.
        let chart = try TypedChart(twice).chart
        #expect(chart.stateCount == 1 + 3 + 2 * 4)
    }
}
