import Statechart
import StatechartECMAScript
import Testing

/// The built-ins real charts call (Qt's calculator and sudoku examples, the W3C tests).
@Suite struct BuiltinTests {
    @Test func stringMethods() throws {
        #expect(try eval("'hello'.slice(1, 3)") == "el")
        #expect(try eval("'hello'.slice(-3)") == "llo")
        #expect(try eval("'hello'.substr(1, 3)") == "ell")
        #expect(try eval("'hello'.substring(3, 1)") == "el")
        #expect(try eval("'a-b-c'.split('-')") == ["a", "b", "c"])
        #expect(try eval("'abcabc'.indexOf('c')") == 2)
        #expect(try eval("'abcabc'.lastIndexOf('c')") == 5)
        #expect(try eval("'abc'.concat(1, 'd')") == "abc1d")
        #expect(try eval("' x '.trim()") == "x")
        #expect(try eval("'Ab'.toUpperCase() + 'Ab'.toLowerCase()") == "ABab")
        #expect(try eval("'a.b.c'.replace('.', '/')") == "a/b.c")
        #expect(try eval("'a.b.c'.replaceAll('.', '/')") == "a/b/c")
        #expect(try eval("'5'.padStart(3, '0')") == "005")
        #expect(try eval("'abc'.charAt(1) + 'abc'[2]") == "bc")
        #expect(try eval("'abc'.startsWith('ab') && 'abc'.endsWith('bc') && 'abc'.includes('b')") == true)
    }

    @Test func arrayMethods() throws {
        #expect(try eval("[].concat([1, 2], [4])") == [1, 2, 4])
        #expect(try run("result = [1]; result.push(2, 3)") == [1, 2, 3])
        #expect(try eval("[1, 2, 3].indexOf(2)") == 1)
        #expect(try eval("[1, 2, 3].slice(1)") == [2, 3])
        #expect(try eval("[3, 1, 2].sort()") == [1, 2, 3])
        #expect(try eval("[3, 1, 10].sort(function (a, b) { return a - b })") == [1, 3, 10])
        #expect(try eval("[1, 2, 3].filter(x => x > 1).map(x => x * 10)") == [20, 30])
        #expect(try eval("[1, 2, 3].reduce((a, b) => a + b, 0)") == 6)
        #expect(try eval("[1, 2, 3].join('-')") == "1-2-3")
        #expect(try run("result = [1, 2, 3, 4]; result.splice(1, 2, 'x')") == [1, "x", 4])
        #expect(try run("var a = [1, 2]; result = a.pop() + a.length") == 3)
    }

    @Test func conversions() throws {
        #expect(try eval("String(12)") == "12")
        #expect(try eval("Number('12.5')") == 12.5)
        #expect(try eval("Number('')") == 0)
        #expect(try eval("isNaN(Number('x'))") == true)
        #expect(try eval("Boolean('')") == false)
        #expect(try eval("parseInt('42px')") == 42)
        #expect(try eval("parseInt('ff', 16)") == 255)
        #expect(try eval("parseFloat('3.5e2x')") == 350)
    }

    @Test func math() throws {
        #expect(try eval("Math.floor(2.7) + Math.ceil(2.1) + Math.round(2.5) + Math.abs(-1)") == 9)
        #expect(try eval("Math.max(1, 5, 3) - Math.min(4, 2)") == 3)
        #expect(try eval("Math.pow(2, 10)") == 1024)
        #expect(try eval("2 ** 10") == 1024)
        #expect(try eval("Math.sqrt(16)") == 4)
        #expect(try eval("Math.round(-2.5)") == -2)
        let r = try eval("Math.random()")
        guard case .number(let n) = r else {
            Issue.record("Math.random() returned \(r)")
            return
        }
        #expect(n >= 0 && n < 1)
        #expect(failure("Math.PI = 3")?.kind == .type)
    }

    @Test func json() throws {
        #expect(try eval("JSON.stringify({a: [1, 'x', true, null], b: undefined})") == #"{"a":[1,"x",true,null]}"#)
        #expect(try eval("JSON.stringify('q\"')") == #""q\"""#)
        #expect(try eval(#"JSON.parse('{"x": [1, 2.5, "s", false, null]}')"#) == ["x": [1, 2.5, "s", false, nil]])
        #expect(try eval("JSON.stringify({a: 1}, null, 2)") == "{\n  \"a\": 1\n}")
        #expect(failure("JSON.parse('{x: 1}')")?.kind == .syntax)
        #expect(scriptFailure("var o = {}; o.self = o; result = JSON.stringify(o)")?.kind == .type)
    }

    /// Qt's calculator example evaluates the display with `eval`; it runs in the same sandbox.
    @Test func evalRunsInTheSameSandbox() throws {
        #expect(try eval("eval('1 + 2 * 3')") == 7)
        #expect(try run("var x = 2; result = eval('x * 21')") == 42)
        #expect(failure("eval('while (true) {}')")?.kind == .stepBudget)
        #expect(failure("eval('1 +')")?.kind == .syntax)
    }

    /// No host access: the names a script would use to reach files, processes, the network or the
    /// environment do not exist.
    @Test func nothingOutsideTheSandbox() {
        for name in ["require", "process", "fetch", "XMLHttpRequest", "globalThis", "window", "Deno", "import('fs')", "setTimeout"] {
            let e = failure("\(name)")
            #expect(e != nil, "\(name) should not exist")
        }
        #expect(failure("Function('return 1')()")?.kind == .unsupported)
    }

    /// Reliability.md finding 14: a number past `Int`'s range where a built-in wants an integer
    /// trapped in `Int(_:)` (`JSON.stringify(v, null, 1e300)`, found by ScriptFuzz). Each is now
    /// clamped as a double first, and gives what ECMAScript gives.
    @Test func hugeIntegerArgumentsAreClampedNotTrapped() throws {
        #expect(try eval("JSON.stringify([1], null, 1e300)") == "[\n          1\n]")
        #expect(try eval("JSON.stringify([1], null, -Infinity)") == "[1]")
        #expect(failure("(5).toString(1e300)")?.kind == .range)
        #expect(failure("(5).toString(-Infinity)")?.kind == .range)
        #expect(try run("result = [1, 2, 3]; result.splice(1, -1e300)") == [1, 2, 3])
        #expect(try run("result = [1, 2, 3]; result.splice(1, 1e300)") == [1])
        #expect(try eval("'a'.padStart(-Infinity) + 'b'.padEnd(-1e300, 'x')") == "ab")
        #expect(try eval("''.repeat(1e20)") == "")
        #expect(try run("var r = /a/g; r.lastIndex = -1e300; result = [r.test('a'), r.lastIndex]") == [true, 1])
        #expect(try run("var r = /a/y; r.lastIndex = -Infinity; result = r.test('a')") == true)
    }
}
