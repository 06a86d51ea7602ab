import Testing

@testable import Statechart

/// The estimate of a typed machine's size that the emitter reserves room for (issue 16, "Build"):
/// every declared state and transition, and those of the children attached to it, counted once
/// when each is attached.
@Suite("Typed machine size")
struct MachineSizeTests {
    enum S: Hashable, Sendable { case a, b, c }
    enum E: Hashable, Sendable { case go, back }

    @Test("states and transitions are counted with the attached children's; the chart is what it was")
    func countsDeclarationsAndChildren() throws {
        let child = Machine<Int, E, Void>(initial: 0) {
            for s in 0..<4 { When(s) { On(.go, to: (s + 1) % 4) } }
        }
        var machine = Machine<S, E, Void>("sized", initial: .a) {
            When(.a) {
                On(.go, to: .b)
                On(.back, to: .c)
            }
            When(.b) { On(.back, to: .a) }
        }
        #expect(machine.declaredSize.states == 2 && machine.declaredSize.transitions == 3)
        machine.attach(child: child, to: .a)
        machine.attach(child: child, to: .b)
        #expect(machine.declaredSize.states == 2 + 2 * 4)
        #expect(machine.declaredSize.transitions == 3 + 2 * 4)
        // The reservation changes nothing the chart holds: two levels of four under a and b, and
        // c, which is only a target.
        let chart = try TypedChart(machine).chart
        #expect(chart.stateCount == 1 + 3 + 2 * 4)
        #expect(chart.transitionCount >= 3 + 2 * 4)
    }
}
