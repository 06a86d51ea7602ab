import Statechart
import Testing

/// A context holding any datamodel, as a chart loaded in another expression language would.
private struct Modeled<Model: DataModel>: Sendable {
    var model: Model
    /// What the operations that ran inside actions threw, in order.
    var failures: [String] = []
}

/// A guard over the context's datamodel, written once for every ``DataModel``.
private func condition<M: DataModel>(_ expression: M.Expression, _ source: String) -> Guard<String, Modeled<M>> {
    .expression(source) { context, environment in try context.model.evaluateCondition(expression, in: environment) }
}

@Suite("The DataModel seam and the null data model (R88)")
struct NullDataModelTests {
    /// a ─go [cond]→ b, a ─go→ c (the fallback), with `probe` run on entering a.
    private func machine(
        _ cond: NullDataModel.Condition, probe: @escaping @Sendable (inout Modeled<NullDataModel>, ChartEnvironment<String>) -> Void = { _, _ in }
    ) throws -> ChartInstance<String, Modeled<NullDataModel>> {
        var definition = ChartDefinition<String, Modeled<NullDataModel>>(name: "null", initial: ["p"], eventName: { $0 })
        let p = definition.addState("p", kind: .parallel, in: definition.root)
        let left = definition.addState("left", in: p)
        definition.addState("right", in: p)
        let a = definition.addState("a", in: left)
        definition.addState("b", in: left)
        definition.addState("c", in: left)
        definition.addOnEntry([.content("probe") { scope, environment in probe(&scope.context, environment) }], to: a)
        definition.addTransition(TransitionDefinition(on: .names(["go"]), guard: condition(cond, "cond"), to: ["b"]), from: a)
        definition.addTransition(TransitionDefinition(on: .names(["go"]), to: ["c"]), from: a)
        var instance = ChartInstance(chart: try Chart(definition), context: Modeled(model: NullDataModel()))
        try instance.start()
        return instance
    }

    @Test("R88: null data model conditions are In() combined with not, and, or; they answer from the configuration")
    func conditions() throws {
        var yes = try machine(.all([.isActive("right"), .not(.isActive("b")), .any([.isActive("zzz"), .isActive("a")])]))
        try yes.send("go")
        #expect(yes.activeAtomicIDs == ["b", "right"])

        var no = try machine(.any([.isActive("unknown"), .all([.isActive("a"), .isActive("c")])]))
        try no.send("go")
        #expect(no.activeAtomicIDs == ["c", "right"])

        // The empty conjunction is true, the empty disjunction false.
        var always = try machine(.all([]))
        try always.send("go")
        #expect(always.activeAtomicIDs == ["b", "right"])
        var never = try machine(.any([]))
        try never.send("go")
        #expect(never.activeAtomicIDs == ["c", "right"])
    }

    @Test("R88: every operation that needs data throws noData naming it; binding and the snapshot are empty")
    func operationsNeedingData() throws {
        let instance = try machine(.all([])) { context, environment in
            func record(_ body: () throws -> Void) {
                do { try body() } catch { context.failures.append((error as? DataModelError)?.description ?? "\(error)") }
            }
            record { _ = try context.model.evaluate(.isActive("a"), in: environment) }
            record { _ = try context.model.evaluateString(.isActive("a"), in: environment) }
            record { try context.model.assign(.isActive("a"), from: .isActive("b"), in: environment) }
            record { try context.model.assign(.isActive("a"), 1) }
            record { _ = try context.model.elements(of: .isActive("a"), in: environment) }
            record { try context.model.declare("x", 1, readOnly: false) }
            record { try context.model.bindEvent(["name": "go"]) }
            record { try context.model.bindSystemVariables(SystemVariables(sessionID: "s", name: "n")) }
        }
        let prefix = "the null data model has no data: "
        let suffix = " needs a datamodel such as ecmascript"
        #expect(
            instance.context.failures
                == ["evaluating a value", "evaluating a string", "<assign>", "<assign>", "<foreach>", "declaring 'x'"].map {
                    prefix + $0 + suffix
                })
        let model = instance.context.model
        #expect(!model.isDeclared("_event"))
        #expect(try model.value(of: "_sessionid") == nil)
        #expect(try model.snapshot() == DataModelValues())
        #expect(throws: DataModelError.noData(operation: "restoring the variable 'a'")) {
            try NullDataModel(restoring: DataModelValues(variables: ["b": 1, "a": 2]))
        }
        #expect(try NullDataModel(restoring: DataModelValues()) == NullDataModel())
    }

    @Test("R88: the errors of the seam say what is wrong and name the variable")
    func errorDescriptions() {
        #expect(DataModelError.unknownVariable("count").description == "no variable named 'count' is declared")
        #expect(DataModelError.readOnlyVariable("_event").description == "the variable '_event' is read-only")
        #expect(
            DataModelError.typeMismatch(variable: "n", reason: "expected a number").description
                == "the variable 'n': expected a number")
        #expect(
            DataModelError.invalidValue(variable: "n", reason: "too big").description
                == "the variable 'n' cannot hold this value: too big")
    }
}
