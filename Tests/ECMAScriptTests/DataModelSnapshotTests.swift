import Foundation
import Statechart
import StatechartECMAScript
import Testing

/// A model with data, read-only system variables and a bound `_event`, as a started SCXML chart has.
private func sessionModel() throws -> ECMAScriptDataModel {
    var model = ECMAScriptDataModel()
    try model.bindSystemVariables(SystemVariables(sessionID: "s-1", name: "cart", ioProcessors: DataObject([("scxml", ["location": "#_scxml_s-1"])])))
    try model.declare("count", 3)
    try model.declare("$price", ["net": 2.5, "tags": ["a", .null, .undefined]])
    try model.declare("note", .xml("<b>hi</b>"))
    try model.bindEvent(["name": "add", "data": ["qty": 2]])
    return model
}

/// Generic over the seam: what the SCXML layer does to bind a `<data>` (declare, then assign).
private func bindData<M: DataModel>(_ name: String, _ value: DataValue, in model: inout M) throws(M.Failure) {
    try model.declare(name, .undefined, readOnly: false)
    try model.declare(name, value, readOnly: false)
}

@Suite("ECMAScript datamodel snapshots (R88, R89)")
struct DataModelSnapshotTests {
    @Test("R89: a snapshot keeps every variable and which are read-only; restoring gives the same model")
    func snapshotRoundTrip() throws {
        let model = try sessionModel()
        let values = try model.snapshot()
        #expect(values.readOnly == ["_sessionid", "_name", "_ioprocessors", "_event"])
        #expect(values.variables["count"] == 3)
        #expect(values.variables["_event"] == ["name": "add", "data": ["qty": 2]])
        var restored = try ECMAScriptDataModel(restoring: values)
        #expect(restored == model)
        #expect(try restored.snapshot() == values)
        // Read-only stays read-only: scripts and the host cannot assign a system variable or _event.
        #expect(restored.isReadOnly("_sessionid") && restored.isReadOnly("_event") && !restored.isReadOnly("count"))
        #expect(throws: ScriptError.self) { try restored.assign(ScriptExpression("_sessionid"), "forged") }
        #expect(throws: ScriptError.self) { try restored.assign(ScriptExpression("_event"), 1) }
        #expect(try restored.value(of: "_sessionid") == "s-1")
        try restored.assign(ScriptExpression("count"), 4)
        #expect(try restored.value(of: "count") == 4)
        #expect(try model.value(of: "count") == 3)
    }

    @Test("R89: JSON round trip of the model, budgets included; a `$` variable name survives")
    func codableRoundTrip() throws {
        var model = ECMAScriptDataModel(limits: ScriptLimits(maximumSteps: 500))
        try model.declare("$weird", ["$undefined": true])
        try model.declare("n", .number(.infinity))
        let json = try JSONEncoder().encode(model)
        let decoded = try JSONDecoder().decode(ECMAScriptDataModel.self, from: json)
        #expect(decoded == model)
        #expect(decoded.limits.maximumSteps == 500)
        #expect(try decoded.value(of: "$weird") == ["$undefined": true])
        #expect(try decoded.value(of: "n") == .number(.infinity))

        let session = try sessionModel()
        let again = try JSONDecoder().decode(ECMAScriptDataModel.self, from: try JSONEncoder().encode(session))
        #expect(try again.snapshot() == session.snapshot())
        #expect(again.limits == ScriptLimits())
        // An empty model encodes without a session and decodes to an empty one.
        let empty = try JSONDecoder().decode(ECMAScriptDataModel.self, from: try JSONEncoder().encode(ECMAScriptDataModel()))
        #expect(try empty.snapshot() == DataModelValues())
    }

    @Test("R89: a function is not data: the snapshot and the encoding fail naming the variable and where")
    func functionsRefused() throws {
        var direct = ECMAScriptDataModel()
        try direct.declare("double", .undefined)
        try direct.assign(ScriptExpression("double"), from: ScriptExpression("function (x) { return 2 * x; }"), in: Self.environment())
        #expect(throws: ScriptError(.conversion, "the variable 'double' holds a function, which is not plain data: it cannot be snapshotted")) {
            try direct.snapshot()
        }
        try direct.declare("handlers", ["list": [1, 2]])
        try direct.assign(ScriptExpression("double"), 0)
        try direct.assign(ScriptExpression("handlers.list[1]"), from: ScriptExpression("function () {}"), in: Self.environment())
        #expect(throws: ScriptError(.conversion, "the variable 'handlers' holds a function (at handlers.list[1]), which is not plain data: it cannot be snapshotted")) {
            try direct.snapshot()
        }
        do {
            _ = try JSONEncoder().encode(direct)
            Issue.record("encoding a model holding a function succeeded")
        } catch EncodingError.invalidValue(_, let context) {
            #expect(context.debugDescription.contains("the variable 'handlers' holds a function (at handlers.list[1])"))
        }
        // variables() stays lenient (JSON.stringify's rule), as before.
        #expect(try direct.variables()["handlers"] == ["list": [1, .null]])
    }

    @Test("R89: a read-only name that is not a variable, or variables that are not an object, fail to decode")
    func malformedDecoding() throws {
        let stray = Data(#"{"variables": {"a": 1}, "readOnly": ["b"]}"#.utf8)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(ECMAScriptDataModel.self, from: stray) }
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(DataModelValues.self, from: stray) }
        let notObject = Data(#"{"variables": [1], "readOnly": []}"#.utf8)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(ECMAScriptDataModel.self, from: notObject) }
        let fine = try JSONDecoder().decode(DataModelValues.self, from: Data(#"{"variables": {"a": 1}, "readOnly": ["a"]}"#.utf8))
        #expect(fine == DataModelValues(variables: ["a": 1], readOnly: ["a"]))
    }

    @Test("R88: the ECMAScript model works through the generic DataModel seam")
    func genericSeam() throws {
        var model = ECMAScriptDataModel()
        try bindData("total", 7, in: &model)
        #expect(model.isDeclared("total"))
        #expect(try model.value(of: "total") == 7)
        let environment = Self.environment()
        #expect(try model.evaluateCondition(ScriptExpression("total > 5"), in: environment))
        #expect(try model.elements(of: ScriptExpression("[total, 1]"), in: environment) == [7, 1])
    }

    /// A real environment, taken from a one-state chart's guard (its initializer is the engine's).
    static func environment() -> ChartEnvironment<String> {
        struct Box: Sendable { var seen: ChartEnvironment<String>? }
        var definition = ChartDefinition<String, Box>(name: "env", initial: ["a"], eventName: { $0 })
        let a = definition.addState("a", in: definition.root)
        definition.addTransition(
            TransitionDefinition(
                on: .names(["go"]),
                guard: .expression("capture") { box, environment in
                    box.seen = environment
                    return false
                }), from: a)
        var instance = ChartInstance(chart: try! Chart(definition), context: Box())
        try! instance.start()
        _ = try! instance.send("go")
        return instance.context.seen!
    }
}
