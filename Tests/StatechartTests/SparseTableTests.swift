import Testing

@testable import Statechart

/// The table of what few states or transitions have (issue 16, "Build"): nothing is stored until
/// one index has a value, and every index reads as it was set.
@Suite("Sparse table")
struct SparseTableTests {
    @Test("absent values store nothing; the first value fills the table, and every index reads back")
    func storesOnlyOnceNeeded() {
        var lists = SparseTable<[Int]>()
        lists.set([], at: 3, count: 10)
        #expect(lists.isEmpty)
        #expect(lists[3] == [])
        lists.set([7, 8], at: 4, count: 10)
        #expect(!lists.isEmpty)
        lists.set([], at: 5, count: 10)
        lists.set([9], at: 9, count: 10)
        #expect((0..<10).map { lists[$0] } == [[], [], [], [], [7, 8], [], [], [], [], [9]])

        var optionals = SparseTable<String?>()
        optionals.set(nil, at: 0, count: 3)
        #expect(optionals.isEmpty && !optionals.hasValue(at: 2))
        optionals.set("b", at: 1, count: 3)
        #expect((0..<3).map { optionals[$0] } == [nil, "b", nil])
        #expect((0..<3).map { optionals.hasValue(at: $0) } == [false, true, false])
    }

    @Test("a chart built in code keeps no per-state lists or transition closures; one with them reads each back")
    func chartTables() throws {
        var plain = ChartDefinition<String, Void>(name: "plain")
        let a = plain.addState("a", in: plain.root)
        plain.addState("b", in: plain.root)
        plain.addTransition(TransitionDefinition(on: .event("go"), to: ["b"]), from: a)
        let chart = try Chart(plain)
        #expect(chart.entryActions.isEmpty && chart.exitActions.isEmpty && chart.invocations.isEmpty)
        #expect(chart.dynamicTargets.isEmpty && chart.asyncGuards.isEmpty && chart.transitionLocations.isEmpty)
        #expect(chart.guards.isEmpty && chart.transitionActions.isEmpty)

        var rich = plain
        rich.addOnEntry([.run("enter") { _ in }], to: a)
        var dynamic = TransitionDefinition<String, Void>(on: .event("jump"))
        dynamic.dynamicTargets = { _, _ in ["a"] }
        dynamic.location = Statechart.SourceLocation(line: 4, column: 2)
        rich.addTransition(dynamic, from: a)
        rich.addTransition(
            TransitionDefinition(on: .event("guarded"), guard: .predicate { _, _ in true }, to: ["b"], actions: [.run("act") { _ in }]),
            from: a)
        let full = try Chart(rich)
        let ai = Int(try #require(full.state(withID: "a")).index)
        #expect(full.entryActions[ai].count == 1 && full.exitActions[ai].isEmpty)
        let jump = full.states[ai].transitionStart + 1
        #expect(full.dynamicTargets.hasValue(at: Int(jump)) && !full.dynamicTargets.hasValue(at: Int(jump) - 1))
        #expect(full.transitionLocations[Int(jump)] == Statechart.SourceLocation(line: 4, column: 2))
        #expect(full.transitionLocations[Int(jump) - 1] == nil)
        let guarded = jump + 1
        #expect(full.guardCondition(of: guarded) != nil && full.guardCondition(of: jump) == nil)
        #expect(full.actions(of: guarded).count == 1 && full.actions(of: jump).isEmpty)
    }
}
