import Statechart
import StatechartECMAScript
import Testing

/// A chart's context holding an ECMAScript datamodel, as the SCXML loader's does.
private struct Scripted: Sendable {
    var model = ECMAScriptDataModel()
}

private typealias Definition = ChartDefinition<String, Scripted>

/// A condition written in ECMAScript, evaluated on the context's model.
private func cond(_ source: String) -> Guard<String, Scripted> {
    let expression = ScriptExpression(source)
    return .expression(source) { context, environment in
        try context.model.evaluateCondition(expression, in: environment)
    }
}

/// A `<script>` block.
private func script(_ source: String) -> Action<String, Scripted> {
    let program = ScriptProgram(source)
    return .content("<script>\(source)</script>") { scope, environment in
        try scope.context.model.run(program, in: environment)
    }
}

/// a ─go [guard]→ b, a ─tick→ a (internal, running `tick`), with `entry` run when a is entered.
private func machine(
    guard source: String, entry: String, tick: String = "", variables: [String] = []
) throws -> ChartInstance<String, Scripted> {
    var definition = Definition(name: "scripted", initial: ["a"], eventName: { $0 })
    let a = definition.addState("a", in: definition.root)
    definition.addState("b", in: definition.root)
    definition.addOnEntry([script(entry)], to: a)
    definition.addTransition(TransitionDefinition(on: .names(["go"]), guard: cond(source), to: ["b"]), from: a)
    definition.addTransition(
        TransitionDefinition(on: .names(["tick"]), kind: .internal, actions: [script(tick)]), from: a)
    var context = Scripted()
    for name in ["count"] + variables { try context.model.declare(name, name == "count" ? 0 : .undefined) }
    var instance = ChartInstance(chart: try Chart(definition), context: context)
    try instance.start()
    return instance
}

@Suite("Datamodel seam (R81)")
struct DataModelSeamTests {
    @Test("R81: an expression guard sees the data and the active states through In()")
    func guardSeesDataAndConfiguration() throws {
        var instance = try machine(guard: "In('a') && count < 2", entry: "count = count + 1")
        #expect(try instance.context.model.value(of: "count") == 1)
        #expect(try instance.send("go"))
        #expect(instance.activeAtomicIDs == ["b"])

        var blocked = try machine(guard: "In('b') || count > 1", entry: "count = count + 1")
        #expect(try blocked.send("go") == false)
        #expect(blocked.activeAtomicIDs == ["a"])
    }

    @Test("R81: canHandle evaluates an expression guard on a copy: its side effects never reach the machine")
    func canHandleHasNoSideEffects() throws {
        var instance = try machine(guard: "(count = count + 10) > 5", entry: "")
        #expect(instance.canHandle("go"))
        #expect(instance.canHandle("go"))
        #expect(try instance.context.model.value(of: "count") == 0)
        #expect(try instance.send("go"))
        #expect(try instance.context.model.value(of: "count") == 10)
    }

    @Test("R81: a copied machine owns its data: objects, aliasing and closures are copied, not shared")
    func copiesAreIndependent() throws {
        let entry = """
            a = {x: 1}; b = a;
            counter = (function () { var n = 0; return function () { n = n + 1; return n; }; })();
            """
        var original = try machine(
            guard: "false", entry: entry, tick: "last = counter(); b.x = last * 100",
            variables: ["a", "b", "counter", "last"])
        #expect(try original.send("tick"))
        var copy = original
        #expect(try copy.send("tick"))
        #expect(try copy.send("tick"))
        #expect(try original.send("tick"))
        // The copy's closure went on from 1; the original's too, separately.
        #expect(try copy.context.model.value(of: "last") == 3)
        #expect(try original.context.model.value(of: "last") == 2)
        // `b` and `a` are still one object inside each copy, and different objects across them.
        #expect(try copy.context.model.value(of: "a") == ["x": 300])
        #expect(try original.context.model.value(of: "a") == ["x": 200])
    }

    @Test("R81: content sees the configuration of its moment: a transition's content runs after the exits, before the entries")
    func contentSeesTheMomentsConfiguration() throws {
        var definition = Definition(name: "moment", initial: ["a"], eventName: { $0 })
        let a = definition.addState("a", in: definition.root)
        let b = definition.addState("b", in: definition.root)
        definition.addTransition(
            TransitionDefinition(on: .names(["go"]), to: ["b"], actions: [script("during = [In('a'), In('b')]")]), from: a)
        definition.addOnEntry([script("entering = [In('a'), In('b')]")], to: b)
        definition.addOnExit([script("leaving = [In('a'), In('b')]")], to: a)
        var context = Scripted()
        for name in ["during", "entering", "leaving"] { try context.model.declare(name, .undefined) }
        var instance = ChartInstance(chart: try Chart(definition), context: context)
        try instance.start()
        #expect(try instance.send("go"))
        let model = instance.context.model
        #expect(try model.value(of: "leaving") == [true, false])
        #expect(try model.value(of: "during") == [false, false])
        #expect(try model.value(of: "entering") == [false, true])
    }

    @Test("R81, R14: a condition that throws is false and raises error.execution; a script that throws skips the rest of its block")
    func errorsBecomeErrorExecution() throws {
        var definition = Definition(name: "errors", initial: ["a"], eventName: { $0 })
        let a = definition.addState("a", in: definition.root)
        definition.addState("b", in: definition.root)
        let failed = definition.addState("failed", in: definition.root)
        definition.addTransition(TransitionDefinition(on: .names(["go"]), guard: cond("undefinedName > 1"), to: ["b"]), from: a)
        definition.addTransition(TransitionDefinition(on: .names(["error.execution"]), to: ["failed"]), from: a)
        definition.addOnEntry([script("x = 1"), script("missing()"), script("y = 2")], to: failed)
        var context = Scripted()
        for name in ["x", "y"] { try context.model.declare(name, "unset") }
        var instance = ChartInstance(chart: try Chart(definition), context: context)
        try instance.start()
        // The failures are reported to the caller after the run, which completed (R14).
        #expect(throws: MachineError.self) { _ = try instance.send("go") }
        #expect(instance.activeAtomicIDs == ["failed"])
        #expect(try instance.context.model.value(of: "x") == 1)
        #expect(try instance.context.model.value(of: "y") == "unset")
    }
}
