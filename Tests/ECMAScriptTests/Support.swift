import Statechart
import StatechartECMAScript
import Testing

/// Evaluates `source` in a fresh session (or `session`) and returns plain data.
func eval(_ source: String, in session: ScriptSession = ScriptSession()) throws(ScriptError) -> DataValue {
    try session.evaluate(ScriptExpression(source))
}

/// Runs `script` in a fresh session and returns the value of `result`.
func run(_ script: String, result: String = "result", limits: ScriptLimits = ScriptLimits()) throws(ScriptError) -> DataValue {
    let session = ScriptSession(limits: limits)
    try session.declare(result, .undefined)
    try session.run(ScriptProgram(script))
    return try session.value(of: result) ?? .undefined
}

/// The error that evaluating `source` throws, or `nil`.
func failure(_ source: String, in session: ScriptSession = ScriptSession()) -> ScriptError? {
    do throws(ScriptError) {
        _ = try session.evaluate(ScriptExpression(source))
        return nil
    } catch {
        return error
    }
}

/// The error that running `script` throws, or `nil`.
func scriptFailure(_ script: String, limits: ScriptLimits = ScriptLimits()) -> ScriptError? {
    do throws(ScriptError) {
        _ = try run(script, limits: limits)
        return nil
    } catch {
        return error
    }
}
