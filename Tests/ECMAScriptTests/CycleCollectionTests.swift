import Statechart
@testable import StatechartECMAScript
import Testing

/// Scripts make reference cycles; the session frees them (CycleCollector.swift).
@Suite struct CycleCollectionTests {
    @Test func cyclesMadeByEveryCallAreFreedBetweenEvaluations() throws {
        let session = ScriptSession()
        try session.run(ScriptProgram("function make() { var o = {}; o.self = o; var f = function () { return o }; o.f = f; return 1 }"))
        for _ in 0..<200 {
            try session.run(ScriptProgram("for (var i = 0; i < 100; i++) make()"))
        }
        // 20,000 cycles were made; what stays registered is bounded by the collection threshold.
        #expect(session.interpreter.registry.count < 10_000)
        #expect(session.interpreter.registry.filter { $0.object != nil }.count < 10_000)
    }

    @Test func reachableObjectsSurviveACollection() throws {
        let session = ScriptSession()
        try session.run(ScriptProgram("var keep = {}; keep.self = keep; keep.list = [keep, 1]; function g() { return keep.list[1] }"))
        session.interpreter.collectCycles()
        #expect(try session.evaluate(ScriptExpression("keep.self.self.list[1] + g()")) == 2)
    }

    @Test func endingTheSessionFreesItsCycles() throws {
        weak var leaked: ScriptObject?
        do {
            let session = ScriptSession()
            try session.run(ScriptProgram("var o = {}; o.self = o; function f() { return o } o.f = f"))
            leaked = session.interpreter.global.binding("o")?.value.asObject
            #expect(leaked != nil)
        }
        #expect(leaked == nil)
    }
}
