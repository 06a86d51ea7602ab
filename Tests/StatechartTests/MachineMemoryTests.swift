@testable import Statechart
import Testing

/// The rarely used parts of a machine live in boxes created on first use and copied on write
/// (issue 16, "Memory"): copies of a machine must still never share them.
@Suite("Machine extras: copies do not share")
struct MachineMemoryTests {
    @Test("An undo log grown on a copy leaves the original's alone")
    func undoLogIsCopied() throws {
        var m = try orderWithUndo(depth: 0)
        try m.send(.confirm)
        var copy = m
        try copy.send(.authorize)
        #expect(m.history.map(\.event) == [.confirm])
        #expect(copy.history.map(\.event) == [.confirm, .authorize])
        #expect(m.undo() != nil)
        #expect(copy.history.count == 2)
    }

    @Test("An observer added to a copy is not called by the original")
    func observersAreCopied() throws {
        var m = try StateMachine(orderMachine(), context: OrderLog())
        var seen: [String] = []
        var copy = m
        copy.observe { _ in seen.append("copy") }
        try m.send(.confirm)
        #expect(seen.isEmpty)
        try copy.send(.confirm)
        #expect(seen == ["copy"])
    }

    @Test("A trace cleared on a copy stays on the original")
    func traceIsCopied() throws {
        var options = OrderMachine.Options()
        options.tracing = true
        var m = try OrderMachine(orderMachine(), context: OrderLog(), options: options)
        try m.send(.confirm)
        let recorded = m.trace.count
        var copy = m
        copy.clearTrace()
        #expect(copy.trace.isEmpty)
        #expect(m.trace.count == recorded && recorded > 0)
        try copy.send(.authorize)
        #expect(m.trace.count == recorded)
    }

    @Test("A machine that queues no work has no box: taking its (empty) work and invocation requests, as the runtimes do after every send, creates none")
    func takingNothingCreatesNoBox() throws {
        var m = try StateMachine(orderMachine(), context: OrderLog())
        try m.send(.confirm)
        #expect(m.core.extras == nil)
        #expect(m.takePendingWork().isEmpty && m.takeInvocationRequests().isEmpty)
        #expect(m.core.extras == nil)
        try m.send(.authorize)
        #expect(m.core.extras == nil)
    }
}
