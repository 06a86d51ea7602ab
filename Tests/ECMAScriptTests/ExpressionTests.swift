import Statechart
import StatechartECMAScript
import Testing

/// The expression part of the subset: literals, operators with ECMAScript's coercions, member
/// access, calls (issue 14 §2).
@Suite struct ExpressionTests {
    @Test func literals() throws {
        #expect(try eval("1") == 1)
        #expect(try eval("'a' + \"b\"") == "ab")
        #expect(try eval("true") == true)
        #expect(try eval("null") == .null)
        #expect(try eval("undefined") == .undefined)
        #expect(try eval("[1, 'x', [true]]") == [1, "x", [true]])
        #expect(try eval("({a: 1, 'b c': [2]})") == ["a": 1, "b c": [2]])
        #expect(try eval("0x1F + .5 + 1e2") == 131.5)
        #expect(try eval("'\\u0041\\x42\\n'") == "AB\n")
    }

    @Test func numbersPrintAsECMAScriptDoes() throws {
        #expect(try eval("'' + 1") == "1")
        #expect(try eval("'' + 1.5") == "1.5")
        #expect(try eval("'' + 0.1 + 0.2") == "0.10.2")
        #expect(try eval("'' + (0.1 + 0.2)") == "0.30000000000000004")
        #expect(try eval("'' + 1e21") == "1e+21")
        #expect(try eval("'' + 123456789012345680000") == "123456789012345680000")
        #expect(try eval("'' + 0.000001") == "0.000001")
        #expect(try eval("'' + 1e-7") == "1e-7")
        #expect(try eval("'' + -0") == "0")
        #expect(try eval("'' + 1/0") == "Infinity")
        #expect(try eval("'' + (0/0)") == "NaN")
        #expect(try eval("String(2.5e-10)") == "2.5e-10")
        #expect(try eval("(1.005).toFixed(2)") == "1.00")
        #expect(try eval("(2.5).toFixed(0)") == "3")
        #expect(try eval("(255).toString(16)") == "ff")
    }

    @Test func additionConcatenatesWhenEitherSideIsAString() throws {
        #expect(try eval("1 + 2") == 3)
        #expect(try eval("'1' + 2") == "12")
        #expect(try eval("1 + '2'") == "12")
        #expect(try eval("1 + 2 + '3'") == "33")
        #expect(try eval("[1, 2] + ''") == "1,2")
        #expect(try eval("({}) + ''") == "[object Object]")
        #expect(try eval("true + 1") == 2)
        #expect(try eval("null + 1") == 1)
        #expect(try eval("'5' * '2'") == 10)
        #expect(try eval("'5' - 2") == 3)
    }

    @Test func looseAndStrictEquality() throws {
        #expect(try eval("1 == '1'") == true)
        #expect(try eval("1 === '1'") == false)
        #expect(try eval("null == undefined") == true)
        #expect(try eval("null === undefined") == false)
        #expect(try eval("0 == false") == true)
        #expect(try eval("'' == 0") == true)
        #expect(try eval("NaN == NaN") == false)
        #expect(try eval("[] == []") == false)
        #expect(try eval("1 != 2") == true)
        #expect(try eval("'a' !== 'a'") == false)
    }

    @Test func objectsCompareByIdentity() throws {
        let session = ScriptSession()
        try session.declare("a", ["x": 1])
        try session.run(ScriptProgram("var b = a; var c = {x: 1}"))
        #expect(try eval("a == b", in: session) == true)
        #expect(try eval("a == c", in: session) == false)
        #expect(try eval("a === b", in: session) == true)
    }

    @Test func relationalOperators() throws {
        #expect(try eval("1 < 2 && 2 <= 2 && 3 > 2 && 3 >= 3") == true)
        #expect(try eval("'a' < 'b'") == true)
        #expect(try eval("'10' < '9'") == true)  // strings compare as strings
        #expect(try eval("'10' < 9") == false)  // a number on one side compares numbers
        #expect(try eval("NaN < 1 || NaN >= 1") == false)
        #expect(try eval("'name' in {name: 1}") == true)
        #expect(try eval("0 in [5]") == true)
        #expect(try eval("[] instanceof Array") == true)
    }

    @Test func typeofNeverFailsOnAnUndeclaredName() throws {
        #expect(try eval("typeof x") == "undefined")
        #expect(try eval("typeof x === 'undefined'") == true)
        #expect(try eval("typeof 1") == "number")
        #expect(try eval("typeof 'a'") == "string")
        #expect(try eval("typeof null") == "object")
        #expect(try eval("typeof {}") == "object")
        #expect(try eval("typeof []") == "object")
        #expect(try eval("typeof function () {}") == "function")
        #expect(try eval("typeof Math.floor") == "function")
    }

    @Test func logicalOperatorsShortCircuitAndReturnOperands() throws {
        #expect(try eval("0 || 'x'") == "x")
        #expect(try eval("1 && 'x'") == "x")
        #expect(try eval("0 && undefinedName") == 0)
        #expect(try eval("1 || undefinedName") == 1)
        #expect(try eval("null ?? 'd'") == "d")
        #expect(try eval("!''") == true)
        #expect(try eval("1 ? 'a' : 'b'") == "a")
    }

    @Test func memberAccess() throws {
        let session = ScriptSession()
        try session.declare("o", ["a": ["b": [10, 20]], "k": "v"])
        #expect(try eval("o.a.b[1]", in: session) == 20)
        #expect(try eval("o['k']", in: session) == "v")
        #expect(try eval("o.missing", in: session) == .undefined)
        #expect(try eval("o.a.b.length", in: session) == 2)
        #expect(try eval("'héllo'.length", in: session) == 5)
        #expect(try eval("o?.x?.y", in: session) == .undefined)
        #expect(failure("o.missing.deeper", in: session)?.kind == .type)
    }

    @Test func undeclaredNamesAreReferenceErrors() {
        let e = failure("foo.bar.baz")
        #expect(e?.kind == .reference)
        #expect(e?.message.contains("foo") == true)
    }

    /// test224's `conf:varPrefix`: an immediately invoked function with `if`, `return`, `String`,
    /// `.slice` and `.length`.
    @Test func immediatelyInvokedFunctionOfW3CTest224() throws {
        let session = ScriptSession()
        try session.declare("Var1", "s0.platform.123")
        try session.declare("Var2", "s0.")
        let source = """
            (function(str, starts){if (starts === '') return true;if (str == null || starts == null) return false;
             str = String(str); starts = String(starts);return str.length >= starts.length &&
             str.slice(0, starts.length) === starts;})(Var1, Var2)
            """
        #expect(try session.evaluate(ScriptExpression(source)) == true)
        try session.declare("Var2", "s1.")
        #expect(try session.evaluate(ScriptExpression(source)) == false)
    }

    @Test func syntaxErrorsAreKeptAndThrownAtEvaluation() {
        for text in ["return", "\"foo", "'continue'x", "1 +", "a b", "(1"] {
            let e = ScriptExpression(text)
            #expect(e.syntaxError != nil, "\(text)")
            #expect(failure(text)?.kind == .syntax || failure(text)?.kind == .unsupported, "\(text)")
        }
        #expect(ScriptExpression("Var1 == 1").syntaxError == nil)
    }

    @Test func errorsNameTheLine() {
        let e = failure("1 +\n\n foo")
        #expect(e?.line == 3)
        #expect(e?.description == "ReferenceError: 'foo' is not defined (line 3)")
    }

    @Test func unsupportedConstructsAreRefusedByName() {
        #expect(ScriptExpression("/ab+c/.test(x)").syntaxError == nil)  // supported since rule R92
        #expect(ScriptExpression("/(?<=a)b/u.test(x)").syntaxError == nil)  // lookbehind and u since 2026-12-06
        #expect(ScriptExpression("/\\p{Script=Greek}/u.test(x)").syntaxError?.kind == .unsupported)
        #expect(ScriptExpression("/a/v.test(x)").syntaxError?.kind == .unsupported)
        #expect(ScriptExpression("`template`").syntaxError == nil)  // rule R94
        #expect(ScriptExpression("class A {}").syntaxError?.kind == .unsupported)
        #expect(ScriptProgram("with (o) { x }").syntaxError?.kind == .unsupported)
        #expect(ScriptExpression("[...a]").syntaxError == nil)  // rule R94
        #expect(ScriptExpression("({get x() { return 1 }})").syntaxError?.kind == .unsupported)
    }

    @Test func locations() {
        #expect(ScriptExpression("a").isLocation)
        #expect(ScriptExpression("a.b[0]").isLocation)
        #expect(!ScriptExpression("a + 1").isLocation)
        #expect(!ScriptExpression("f()").isLocation)
    }
}
