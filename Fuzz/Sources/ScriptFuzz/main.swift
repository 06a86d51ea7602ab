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

    // A value, or an error's kind: values are compared with `same`, not by their descriptions,
    // which print a dictionary whose order differs from one instance to the next.
    func outcome(_ body: (ScriptSession) throws(ScriptError) -> DataValue) -> Result<DataValue, ScriptError> {
        let session = ScriptSession(limits: limits)
        do throws(ScriptError) {
            try session.declare(
                "data",
                [
                    "list": [1, 2, 3], "name": "x", "nested": ["a": ["b": nil]],
                    // An XML value, read through its DOM (rule R82).
                    "doc": .xml("<books><book title=\"a &amp; b\">one<i/></book><!-- c --><book/><![CDATA[<x>]]></books>"),
                ])
            try session.declare("_sessionid", "s1", readOnly: true)
            session.defineFunction("In") { (a) throws(ScriptError) in .boolean(a.first == "s1") }
            let value = try body(session)
            // A value read back must cross into a session and out again unchanged.
            try session.declare("copy", value)
            let again = try session.value(of: "copy")
            require(again.map { same($0, value) } == true, "\(value) came back as \(String(describing: again))")
            return .success(value)
        } catch {
            require(!error.description.isEmpty, "an empty error description")
            if let line = error.line { require(line >= 0, "line \(line)") }
            return .failure(ScriptError(error.kind, ""))
        }
    }

    let expression = ScriptExpression(source, limits: limits)
    let first = outcome { (s) throws(ScriptError) in try s.evaluate(expression) }
    if !source.contains("random") {
        let second = outcome { (s) throws(ScriptError) in try s.evaluate(expression) }
        let agree: Bool
        switch (first, second) {
        case (.success(let a), .success(let b)): agree = same(a, b)
        case (.failure(let a), .failure(let b)): agree = a.kind == b.kind
        default: agree = false
        }
        require(agree, "the same expression gave \(first), then \(second)")
    }
    let program = ScriptProgram(source, limits: limits)
    _ = outcome { (s) throws(ScriptError) in
        try s.run(program)
        return try s.value(of: "data") ?? .undefined
    }
    return 0
}

/// Whether two values are the same data, NaN being the same as NaN wherever it is (`==` says a
/// value holding NaN, at any depth, is not equal to itself).
private func same(_ a: DataValue, _ b: DataValue) -> Bool {
    switch (a, b) {
    case (.number(let x), .number(let y)): return x == y || (x.isNaN && y.isNaN)
    case (.array(let x), .array(let y)): return x.count == y.count && zip(x, y).allSatisfy { same($0, $1) }
    case (.object(let x), .object(let y)):
        return x.keys == y.keys && x.keys.allSatisfy { k in x[k].flatMap { v in y[k].map { same(v, $0) } } == true }
    default: return a == b
    }
}
