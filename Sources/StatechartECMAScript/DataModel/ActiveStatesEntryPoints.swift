import Statechart

// The evaluations of ``ECMAScriptDataModel`` with the active states passed as they are, not in a
// `ChartEnvironment<Event>`. The public methods are generic over the event and other modules
// call them unspecialized: reading `environment.activeStates` there looks up the generic
// metadata of `ChartEnvironment<Event>` at every call, which cost more than evaluating
// `count < 2`. A host that knows its event type (SCXML) reads the active states in its own,
// specialized code and comes here.
extension ECMAScriptDataModel {
    /// ``evaluate(_:in:)`` with the active states of the evaluation.
    package mutating func evaluate(_ expression: ScriptExpression, activeStates: ActiveStateSet) throws(ScriptError) -> DataValue {
        try withSession(activeStates) { (s) throws(ScriptError) in try s.evaluate(expression) }
    }

    /// ``evaluateCondition(_:in:)`` with the active states of the evaluation.
    package mutating func evaluateCondition(_ expression: ScriptExpression, activeStates: ActiveStateSet) throws(ScriptError) -> Bool {
        try withSession(activeStates) { (s) throws(ScriptError) in try s.evaluateCondition(expression) }
    }

    /// ``evaluateString(_:in:)`` with the active states of the evaluation.
    package mutating func evaluateString(_ expression: ScriptExpression, activeStates: ActiveStateSet) throws(ScriptError) -> String {
        try withSession(activeStates) { (s) throws(ScriptError) in try s.evaluateString(expression) }
    }

    /// ``assign(_:from:in:)`` with the active states of the evaluation.
    package mutating func assign(
        _ location: ScriptExpression, from expression: ScriptExpression, activeStates: ActiveStateSet
    ) throws(ScriptError) {
        try withSession(activeStates) { (s) throws(ScriptError) in try s.assign(location, from: expression) }
    }

    /// ``run(_:in:)`` with the active states of the evaluation.
    package mutating func run(_ program: ScriptProgram, activeStates: ActiveStateSet) throws(ScriptError) {
        try withSession(activeStates) { (s) throws(ScriptError) in try s.run(program) }
    }

    /// ``elements(of:in:)`` with the active states of the evaluation.
    package mutating func elements(of expression: ScriptExpression, activeStates: ActiveStateSet) throws(ScriptError) -> [DataValue] {
        try withSession(activeStates) { (s) throws(ScriptError) in try s.elements(of: expression) }
    }
}
