import Statechart
import StatechartECMAScript

/// libFuzzer's entry point for the ECMAScript subset: the input, as text, is parsed as an
/// expression and as a program, then run in a session with small budgets. Every outcome must be
/// a value or a typed ``ScriptError`` with a description — never a trap, a hang past the step
/// budget (libFuzzer's -timeout) or memory past the budget (-rss_limit_mb). A value that comes
/// back must be plain data that can be declared again and reads back equal (JSON-like values
/// survive the bridge), and evaluating the same expression in a fresh session gives the same
/// outcome (no state leaks between sessions; `Math.random` aside).
@_cdecl("LLVMFuzzerTestOneInput")
public func scriptFuzzTestOneInput(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    func require(_ condition: Bool, _ message: @autoclosure () -> String) {
        if !condition { fatalError(message()) }
    }
    let bytes = start.map { Array(UnsafeBufferPointer(start: $0.assumingMemoryBound(to: UInt8.self), count: count)) } ?? []
    let source = String(decoding: bytes, as: UTF8.self)
    let limits = ScriptLimits(maximumSteps: 20_000, maximumMemory: 8 << 20)

    func outcome(_ body: (ScriptSession) throws(ScriptError) -> DataValue) -> String {
        let session = ScriptSession(limits: limits)
        do throws(ScriptError) {
            try session.declare("data", ["list": [1, 2, 3], "name": "x", "nested": ["a": ["b": nil]]])
            try session.declare("_sessionid", "s1", readOnly: true)
            session.defineFunction("In") { (a) throws(ScriptError) in .boolean(a.first == "s1") }
            let value = try body(session)
            // A value read back must cross into a session and out again unchanged.
            try session.declare("copy", value)
            let again = try session.value(of: "copy")
            if case .number(let n) = value, n.isNaN {
                require(again.map { if case .number(let m) = $0 { return m.isNaN } else { return false } } == true, "NaN changed")
            } else {
                require(again == value, "\(value) came back as \(String(describing: again))")
            }
            return "value \(value)"
        } catch {
            require(!error.description.isEmpty, "an empty error description")
            if let line = error.line { require(line >= 0, "line \(line)") }
            return "error \(error.kind)"
        }
    }

    let expression = ScriptExpression(source, limits: limits)
    let first = outcome { (s) throws(ScriptError) in try s.evaluate(expression) }
    if !source.contains("random") {
        let second = outcome { (s) throws(ScriptError) in try s.evaluate(expression) }
        require(first == second, "the same expression gave \(first), then \(second)")
    }
    let program = ScriptProgram(source, limits: limits)
    _ = outcome { (s) throws(ScriptError) in
        try s.run(program)
        return try s.value(of: "data") ?? .undefined
    }
    return 0
}
