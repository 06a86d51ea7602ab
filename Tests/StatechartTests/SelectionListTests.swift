import Testing

@testable import Statechart

/// The selection list keeps the transitions after the first in a buffer of its own that a step
/// makes unique once, at its first such transition, and then appends to with a store each
/// (``SelectionList``). These tests hold it to being a value, as the array it replaced was: a copy
/// is never changed by what is done to the original, in the list and in a machine copied between
/// steps that select several transitions (parallel regions, rule R5).
@Suite("Selection list")
struct SelectionListTests {
    @Test("a copied selection list keeps its transitions whatever its original selects next; growth, setting and truncating keep the others")
    func copiesAreValues() {
        var a = SelectionList()
        for t: Int32 in [1, 2, 3, 4] { a.append(t) }
        let b = a
        a.removeAll()
        for t: Int32 in [10, 20, 30] { a.append(t) }
        #expect(Array(a) == [10, 20, 30])
        #expect(Array(b) == [1, 2, 3, 4])
        // Setting an element of a shared buffer copies it first.
        var c = b
        c[2] = 99
        #expect(Array(c) == [1, 2, 99, 4])
        #expect(Array(b) == [1, 2, 3, 4])
        // Growing past the buffer's room keeps every element.
        var d = SelectionList()
        for t in 0..<50 { d.append(Int32(t)) }
        #expect(Array(d) == (0..<50).map { Int32($0) })
        #expect(d.contains(0) && d.contains(49) && !d.contains(50))
        d.truncate(to: 3)
        #expect(Array(d) == [0, 1, 2])
        d.truncate(to: 0)
        #expect(d.isEmpty && !d.contains(0))
    }

    @Test("each transition keeps the hint it was appended with through copies and growth; one written in place has none")
    func hintsFollowTheirTransitions() {
        var a = SelectionList()
        for t in 0..<40 { a.append(Int32(t), hint: Int32(100 + t)) }
        let b = a
        a[5] = 77
        a.append(41)
        #expect((0..<40).allSatisfy { b[hint: $0] == Int32(100 + $0) })
        #expect(a[hint: 0] == 100 && a[hint: 4] == 104 && a[hint: 5] == 0 && a[hint: 6] == 106)
        #expect(a[hint: 40] == 0 && a[40] == 41)
        a[0] = 9
        #expect(a[hint: 0] == 0 && b[hint: 0] == 100)
    }

    @Test("an exchange finds each old state at its hint, and searches for it when the hint is missing, wrong or out of the list")
    func exchangeChecksItsHints() {
        var configuration = Configuration(stateCount: 64, bound: 8)
        for s: Int32 in [1, 2, 5, 9, 20, 33] { configuration.insert(s) }
        // Hints are positions plus one: 5 is at position 2 (hint 3).
        let pairs: [(old: Int32, new: Int32, hint: Int32)] = [
            (2, 3, 2),  // right
            (5, 6, 5),  // wrong: position 4 holds 20
            (20, 21, 0),  // none
            (33, 34, 99),  // past the list
        ]
        #expect(configuration.exchange(count: pairs.count) { pairs[$0] } == 4)
        #expect(Array(configuration.list) == [1, 3, 6, 9, 21, 34])
        #expect([1, 3, 6, 9, 21, 34].allSatisfy { configuration.contains($0) })
        #expect(![2, 5, 20, 33].contains { configuration.contains($0) })
        // A pair that is `nil` stops the exchanges, and says how many were made.
        #expect(configuration.exchange(count: 2) { $0 == 0 ? (1, 0, 1) : nil } == 1)
        #expect(Array(configuration.list) == [0, 3, 6, 9, 21, 34])
    }

    /// `p ∥ {r1 ⊃ {a1, b1}, r2 ⊃ {a2, b2}, r3 ⊃ {a3, b3}}`: `go` moves every region, `one` only the first.
    static func chart() throws -> Chart<String, Void> {
        var d = ChartDefinition<String, Void>(name: "regions", eventName: { $0 })
        let p = d.addState("p", kind: .parallel, in: d.root)
        for r in 1...3 {
            let region = d.addState("r\(r)", in: p)
            let a = d.addState("a\(r)", in: region)
            let b = d.addState("b\(r)", in: region)
            d.addTransition(TransitionDefinition(on: .event("go"), to: ["b\(r)"]), from: a)
            d.addTransition(TransitionDefinition(on: .event("go"), to: ["a\(r)"]), from: b)
            if r == 1 { d.addTransition(TransitionDefinition(on: .event("one"), to: ["a1"]), from: b) }
        }
        return try Chart(d)
    }

    @Test("R5: machines copied between steps that each take three transitions go on independently")
    func machinesCopiedBetweenSteps() throws {
        var original = ChartInstance(chart: try Self.chart(), context: ())
        try original.start()
        _ = try original.send("go")
        #expect(original.activeAtomicIDs == ["b1", "b2", "b3"])
        var copy = original
        _ = try copy.send("go")
        _ = try copy.send("one")
        #expect(copy.activeAtomicIDs == ["a1", "a2", "a3"])
        #expect(original.activeAtomicIDs == ["b1", "b2", "b3"])
        _ = try original.send("one")
        #expect(original.activeAtomicIDs == ["a1", "b2", "b3"])
        _ = try original.send("go")
        _ = try copy.send("go")
        #expect(original.activeAtomicIDs == ["b1", "a2", "a3"])
        #expect(copy.activeAtomicIDs == ["b1", "b2", "b3"])
    }
}
