import Testing

@testable import Statechart
@testable import StatechartECMAScript

/// A context holding a data model, as the SCXML loader's does.
private struct Scripted: Sendable {
    var model = ECMAScriptDataModel()
}

/// a ─go [count < 2]→ a: a guarded self-transition, the data-model benchmark's chart.
private func guardedMachine() throws -> ChartInstance<String, Scripted> {
    var definition = ChartDefinition<String, Scripted>(name: "guarded", initial: ["a"], eventName: { $0 })
    let a = definition.addState("a", in: definition.root)
    let expression = ScriptExpression("count < 2")
    let condition = Guard<String, Scripted>.expression("count < 2") { context, environment in
        try context.model.evaluateCondition(expression, in: environment)
    }
    definition.addTransition(TransitionDefinition(on: .names(["go"]), guard: condition, to: ["a"]), from: a)
    var context = Scripted()
    try context.model.declare("count", 0)
    var instance = ChartInstance(chart: try Chart(definition), context: context)
    try instance.start()
    return instance
}

private let noStates = ActiveStateSet(bits: [0], ids: [""])

@Suite("The data model's session is reused, not copied, while nothing shares it")
struct SessionReuseTests {
    @Test("Evaluating a guard on a model that nothing shares keeps its session (it was copied at every evaluation)")
    func guardsDoNotCopyTheSession() throws {
        var instance = try guardedMachine()
        let session = try #require(instance.context.model.storage).session
        for _ in 0..<5 { #expect(try instance.send("go")) }
        #expect(instance.context.model.storage?.session === session)
        // A copy shares the session until one of them evaluates: then that one copies it.
        var copy = instance
        #expect(try copy.send("go"))
        #expect(copy.context.model.storage?.session !== session)
        #expect(instance.context.model.storage?.session === session)
    }

    @Test("The active states are not kept after an evaluation (they would share the machine's configuration)")
    func activeStatesAreDropped() throws {
        var instance = try guardedMachine()
        #expect(try instance.send("go"))
        #expect(instance.context.model.storage?.activeStates == nil)
    }

    @Test("_event is rebuilt only when the value it is bound from changes")
    func eventIsReboundOnlyOnChange() throws {
        var model = ECMAScriptDataModel()
        try model.declare("saved", .undefined)
        try model.bindEvent(["name": "go"])
        try model.assign(ScriptExpression("saved"), from: ScriptExpression("_event"), activeStates: noStates)
        try model.bindEvent(["name": "go"])
        #expect(try model.evaluateCondition(ScriptExpression("saved === _event"), activeStates: noStates))
        try model.bindEvent(["name": "stop"])
        #expect(try model.evaluateCondition(ScriptExpression("saved !== _event && _event.name == 'stop'"), activeStates: noStates))
        // The host's own key is what is recorded.
        let key = BoundEventValue(["name": "stop"])
        try model.bindEvent(["name": "stop"], key: key)
        #expect(model.boundEventKey === key)
    }

    @Test("Names: equal texts are equal keys, and a scope with many variables finds every one")
    func namesAsKeys() throws {
        #expect(Name("count") == Name("count"))
        #expect(Name("count") != Name("counts"))
        #expect(Set([Name("a"), Name("a"), Name("b")]).count == 2)
        let session = ScriptSession()
        for i in 0..<2_000 { try session.declare("v\(i)", .number(Double(i))) }
        try session.run(ScriptProgram("v1999 = v0 + v1 + v1998"))
        #expect(try session.value(of: "v1999") == 1_999)
        #expect(try session.evaluateCondition(ScriptExpression("v1000 === 1000 && v42 < v43")))
        session.remove("v7")
        #expect(session.isDeclared("v7") == false)
        #expect(try session.value(of: "v8") == 8)
    }

    @Test("Assignment still refuses system variables and constants after the single-lookup change")
    func assignmentChecks() throws {
        let session = ScriptSession()
        try session.declare("_sessionid", "s1", readOnly: true)
        try session.declare("n", 1)
        #expect(throws: ScriptError.self) { try session.run(ScriptProgram("_sessionid = 'x'")) }
        #expect(throws: ScriptError.self) { try session.run(ScriptProgram("undeclared = 1")) }
        try session.run(ScriptProgram("n = n + 1"))
        #expect(try session.value(of: "n") == 2)
    }
}

@Suite("An identifier remembers its global slot, and the guess is always checked")
struct SlotHintTests {
    @Test("One parsed expression, sessions that declared their globals in other orders: each reads its own values")
    func hintsAreCheckedAcrossSessions() throws {
        let difference = ScriptExpression("a - b")
        let first = ScriptSession()
        try first.declare("a", 10)
        try first.declare("b", 1)
        let second = ScriptSession()
        try second.declare("b", 2)
        try second.declare("x", 0)
        try second.declare("a", 30)
        for _ in 0..<3 {
            #expect(try first.evaluate(difference) == 9)
            #expect(try second.evaluate(difference) == 28)
        }
        // Assignment through the hint, in both sessions.
        try first.run(ScriptProgram("a = a + 1"))
        try second.run(ScriptProgram("a = a + 1"))
        let assign = ScriptExpression("a")
        try first.assign(assign, 5)
        #expect(try first.evaluate(difference) == 4)
        #expect(try second.evaluate(difference) == 29)
    }

    @Test("A removed global moves another into its slot: a hint to either slot looks the name up again")
    func removalMovesSlots() throws {
        let session = ScriptSession()
        try session.declare("a", 1)
        try session.declare("b", 2)
        try session.declare("c", 3)
        let readA = ScriptExpression("a")
        let readC = ScriptExpression("c")
        #expect(try session.evaluate(readA) == 1)
        #expect(try session.evaluate(readC) == 3)
        session.remove("a")
        // `c` now sits where `a` was.
        #expect(throws: ScriptError.self) { try session.evaluate(readA) }
        #expect(try session.evaluate(readC) == 3)
        try session.declare("a", 4)
        #expect(try session.evaluate(readA) == 4)
        #expect(try session.variables() == ["a": 4, "b": 2, "c": 3])
    }
}
