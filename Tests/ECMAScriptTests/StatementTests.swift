import Statechart
import StatechartECMAScript
import Testing

/// `<script>`: declarations, control flow, functions, closures (issue 14 §2).
@Suite struct StatementTests {
    @Test func varInAScriptDeclaresAGlobal() throws {
        let session = ScriptSession()
        try session.run(ScriptProgram("var Var1 = 1"))
        #expect(try session.value(of: "Var1") == 1)
        // Redeclaring an existing variable assigns it (W3C test303).
        try session.run(ScriptProgram("var Var1 = 2;"))
        #expect(try session.value(of: "Var1") == 2)
    }

    @Test func assignmentOperators() throws {
        #expect(try run("result = 1; result += 2; result *= 3; result -= 1; result /= 2; result %= 3") == 1)
        #expect(try run("var x = 5; result = x++ + ++x") == 12)
        #expect(try run("result = 'a'; result += 1") == "a1")
        #expect(try run("result = null; result ??= 4; result ||= 5; result &&= 6") == 6)
    }

    @Test func controlFlow() throws {
        #expect(try run("result = 0; for (var i = 0; i < 10; i++) { if (i % 2) continue; result += i }") == 20)
        #expect(try run("result = 0; var i = 0; while (true) { if (++i > 5) break; result += i }") == 15)
        #expect(try run("result = 0; do { result++ } while (result < 3)") == 3)
        #expect(try run("result = []; for (var k in {a: 1, b: 2}) result.push(k)") == ["a", "b"])
        #expect(try run("result = 0; for (const v of [1, 2, 3]) result += v") == 6)
        #expect(try run("switch (2) { case 1: result = 'one'; break; case 2: result = 'two'; break; default: result = 'd' }") == "two")
        #expect(try run("switch (3) { case 1: result = 'one'; break; default: result = 'd' }") == "d")
        #expect(try run("if (0) result = 1; else if ('') result = 2; else result = 3") == 3)
    }

    @Test func functionsAndClosures() throws {
        #expect(try run("function add(a, b) { return a + b } result = add(2, 3)") == 5)
        #expect(try run("result = square(4); function square(x) { return x * x }") == 16)  // hoisted
        #expect(
            try run(
                """
                function counter() { var n = 0; return function () { n += 1; return n } }
                var c = counter(); c(); c(); result = c()
                """) == 3)
        #expect(try run("var f = x => x * 2; result = [1, 2].map(f)") == [2, 4])
        #expect(try run("function fact(n) { return n <= 1 ? 1 : n * fact(n - 1) } result = fact(10)") == 3_628_800)
        #expect(try run("function F(x) { this.x = x } result = new F(3).x") == 3)
        #expect(try run("function f() { return arguments.length } result = f(1, 2, 3)") == 3)
    }

    @Test func letAndConstAreBlockScoped() throws {
        #expect(try run("var x = 1; { let x = 2 } result = x") == 1)
        #expect(scriptFailure("const k = 1; k = 2")?.kind == .type)
        #expect(try run("result = []; for (let i = 0; i < 3; i++) { let j = i * 2; result.push(j) }") == [0, 2, 4])
    }

    @Test func tryCatchFinallyAndThrow() throws {
        #expect(try run("try { throw 'boom' } catch (e) { result = e }") == "boom")
        #expect(try run("try { null.x } catch (e) { result = e.name }") == "TypeError")
        #expect(try run("try { undefinedName } catch (e) { result = e instanceof Error }") == true)
        #expect(try run("result = 0; try { result = 1 } finally { result += 1 }") == 2)
        let e = scriptFailure("throw new Error('bad')")
        #expect(e?.kind == .thrown)
        #expect(e?.message == "Error: bad")
    }

    @Test func assigningAnUndeclaredVariableIsAnError() {
        let e = scriptFailure("notDeclared = 1")
        #expect(e?.kind == .reference)
        #expect(e?.message.contains("notDeclared") == true)
    }

    @Test func systemVariablesAreReadOnly() throws {
        let session = ScriptSession()
        try session.declare("_sessionid", "abc", readOnly: true)
        #expect(throws: ScriptError.self) { try session.run(ScriptProgram("_sessionid = 'x'")) }
        #expect(throws: ScriptError.self) { try session.assign(ScriptExpression("_sessionid"), "x") }
        #expect(throws: ScriptError.self) { try session.run(ScriptProgram("var _sessionid = 'x'")) }
        #expect(try session.value(of: "_sessionid") == "abc")
    }

    @Test func assignToLocations() throws {
        let session = ScriptSession()
        try session.declare("o", ["list": [1, 2]])
        try session.assign(ScriptExpression("o.list[2]"), 3)
        try session.assign(ScriptExpression("o.name"), "n")
        #expect(try session.value(of: "o") == ["list": [1, 2, 3], "name": "n"])
        #expect(throws: ScriptError.self) { try session.assign(ScriptExpression("foo.bar.baz"), 1) }
        #expect(throws: ScriptError.self) { try session.assign(ScriptExpression("1 + 1"), 1) }
    }

    @Test func foreachTakesAShallowCopyOfAnArray() throws {
        let session = ScriptSession()
        try session.declare("a", [1, 2, 3])
        #expect(try session.elements(of: ScriptExpression("a")) == [1, 2, 3])
        #expect(throws: ScriptError.self) { try session.elements(of: ScriptExpression("'abc'")) }
    }

    @Test func hostFunctions() throws {
        let session = ScriptSession()
        let active: Set<String> = ["s1"]
        session.defineFunction("In") { (arguments) throws(ScriptError) in
            guard case .string(let id) = arguments.first else { throw ScriptError(.type, "In() takes a state id") }
            return .boolean(active.contains(id))
        }
        #expect(try session.evaluateCondition(ScriptExpression("In('s1') && !In('s2')")))
        #expect(throws: ScriptError.self) { try session.run(ScriptProgram("In = 1")) }
    }
}
