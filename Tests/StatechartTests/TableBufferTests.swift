import Testing

@testable import Statechart

/// The compiler's states are built in memory that becomes the chart's table (issue 16, "Build"):
/// what is appended reads back and changes in place, handing over moves the elements without a
/// copy, and a buffer never handed over (a compile that failed) releases its elements.
@Suite("Table buffer")
struct TableBufferTests {
    final class Tracked {
        let value: Int
        init(_ value: Int) { self.value = value }
    }

    @Test("appended elements read back, change in place, and become the table without a copy")
    func handOver() {
        let buffer = TableBuffer<Int>(capacity: 4)
        for v in [3, 1, 4] { buffer.append(v) }
        buffer[1] += 10
        #expect(Array(buffer.elements) == [3, 11, 4])
        let filled = buffer.base
        let table = buffer.takeTable()
        #expect(table.base == filled)
        #expect(Array(table) == [3, 11, 4])
        // The buffer is left empty, with memory of its own: handing it over again gives an
        // empty table, and freeing both frees each memory once.
        #expect(buffer.count == 0 && buffer.base != filled)
        let again = buffer.takeTable()
        #expect(again.isEmpty)
        again.free()
        table.free()
    }

    @Test("a buffer made too small moves its elements to more room")
    func grows() {
        let buffer = TableBuffer<String>(capacity: 1)
        for i in 0..<5 { buffer.append("s\(i)") }
        buffer[0] += "!"
        #expect(Array(buffer.elements) == ["s0!", "s1", "s2", "s3", "s4"])
        let table = buffer.takeTable()
        #expect(Array(table) == ["s0!", "s1", "s2", "s3", "s4"])
        table.free()
    }

    @Test("a buffer that is not handed over releases its elements; a handed-over one leaves them to the table")
    func ownership() {
        weak var dropped: Tracked?
        weak var kept: Tracked?
        do {
            let buffer = TableBuffer<Tracked>(capacity: 2)
            let t = Tracked(1)
            dropped = t
            buffer.append(t)
        }
        #expect(dropped == nil)
        var table: ChartTable<Tracked>?
        do {
            let buffer = TableBuffer<Tracked>(capacity: 1)
            let t = Tracked(2)
            kept = t
            buffer.append(t)
            table = buffer.takeTable()
        }
        #expect(kept?.value == 2)
        table?.free()
        #expect(kept == nil)
    }

    @Test("a chart whose compiling fails frees the states built so far, and a compiled chart reads them")
    func compiledChart() throws {
        var bad = ChartDefinition<String, Void>(name: "bad")
        bad.addState("a", in: bad.root)
        bad.addState("a", in: bad.root)
        #expect(throws: ChartError.self) { try Chart(bad) }
        var good = ChartDefinition<String, Void>(name: "good")
        let a = good.addState("a", in: good.root)
        good.addState("b", in: a)
        let chart = try Chart(good)
        #expect(chart.stateCount == 3)
        #expect(chart.states[1].kind == .compound && chart.states[2].parent == 1 && chart.states[0].end == 3)
    }
}
