import Statechart
import StatechartECMAScript
import Testing

/// Rule R94: the syntax of ECMAScript 2015 and after that scripts are written in — template
/// literals, spread, destructuring, default and rest parameters, shorthand methods and computed
/// keys. The expected values are what a browser's engine gives for the same scripts.
@Suite struct ModernSyntaxTests {
    @Test("R94: template literals write each expression's value as a string between their texts")
    func templates() throws {
        #expect(try eval("`plain`") == "plain")
        #expect(try eval("`a${1 + 1}b${'c'}`") == "a2bc")
        #expect(try run("var order = {id: 7, items: [1, 2]}; result = `order ${order.id}: ${order.items.length} items`")
            == "order 7: 2 items")
        #expect(try eval("`${null} ${undefined} ${true} ${[1, 2]} ${{}}`") == "null undefined true 1,2 [object Object]")
        #expect(try eval("`nested ${`inner ${1 + 2}`} and ${ {a: 1}.a }`") == "nested inner 3 and 1")
        #expect(try eval("`line one\nline two`") == "line one\nline two")
        #expect(try eval("`tab\\t\\u0041\\x42 \\` \\${x} $ {}`") == "tab\tAB ` ${x} $ {}")
        #expect(try run("function f(x) { return `<${x}>` } result = [1, 2].map(x => `#${f(x)}`).join()") == "#<1>,#<2>")
        // A `}` closes the expression only at its own depth.
        #expect(try eval("`${(function () { return {k: 'v'} })().k}`") == "v")
        // The value is converted as String() does, calling toString.
        #expect(try run("var o = {toString: function () { return 'T' }}; result = `${o}`") == "T")
        // Lines after a template are counted from its line breaks.
        #expect(scriptFailure("var s = `a\nb\nc`;\nundefinedName") == ScriptError(.reference, "'undefinedName' is not defined", line: 4))
    }

    @Test("R94: a template that is not closed, or is empty inside ${}, is a SyntaxError; tagged templates are refused")
    func templateErrors() throws {
        #expect(failure("`open")?.message == "unterminated template literal")
        #expect(failure("`a ${1 + 1`")?.message == "unterminated template literal")
        #expect(failure("`a ${}`")?.message == "an empty ${} in a template literal")
        #expect(failure("`a ${1 2}`")?.kind == .syntax)
        #expect(failure("String.raw`x`")?.kind == .unsupported)
        let deep = String(repeating: "`${", count: 300) + "1" + String(repeating: "}`", count: 300)
        #expect(failure(deep)?.kind == .nesting)
    }
}
