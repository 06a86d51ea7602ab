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

    @Test("R94: spread copies an array's or a string's items into an array or an argument list, and an object's properties")
    func spread() throws {
        #expect(try eval("[0, ...[1, 2], ...'ab', 3]") == [0, 1, 2, "a", "b", 3])
        #expect(try eval("Math.max(...[3, 9, 4])") == 9)
        #expect(try run("function f(a, b, c) { return a + b + c } result = f(...[1, 2], 3)") == 6)
        #expect(try eval("[...'😀é']") == ["😀", "é"])  // code points, not UTF-16 units
        #expect(try eval("({...{a: 1, b: 2}, b: 3, ...null, ...undefined})") == ["a": 1, "b": 3])
        #expect(try eval("({a: 1, ...{a: 2}}).a") == 2)
        #expect(try run("var base = {x: 1}; var copy = {...base}; copy.x = 2; result = [base.x, copy.x]") == [1, 2])
        #expect(failure("[...5]") == ScriptError(.type, "number is not iterable (arrays and strings are)", line: 1))
        #expect(failure("Math.max(...{})")?.kind == .type)
    }

    @Test("R94: destructuring declarations take objects and arrays apart, with defaults, renames, holes and rests")
    func destructuring() throws {
        #expect(try run("const {a, b: renamed, c = 3} = {a: 1, b: 2}; result = [a, renamed, c]") == [1, 2, 3])
        #expect(try run("let [x, , y = 5, ...others] = [1, 2, undefined, 4, 5]; result = [x, y, others]") == [1, 5, [4, 5]])
        #expect(try run("var {p: {q: [first]}} = {p: {q: ['deep']}}; result = first") == "deep")
        #expect(try run("const {id, ...rest} = {id: 1, name: 'n', total: 2}; result = rest") == ["name": "n", "total": 2])
        #expect(try run("const key = 'k'; const {[key]: value} = {k: 'v'}; result = value") == "v")
        #expect(try run("const [a, b] = 'hé'; result = a + b") == "hé")
        #expect(try run("let n = 0; const {v = ++n} = {v: 0}; const {w = ++n} = {}; result = [v, w, n]") == [0, 1, 1])
        // A `var` pattern is hoisted like a `var` name.
        #expect(try run("result = typeof later; var {later} = {later: 1}") == "undefined")
        #expect(scriptFailure("const {a} = null") == ScriptError(.type, "cannot destructure null: it has no properties", line: 1))
        #expect(scriptFailure("const [a] = 1")?.kind == .type)
        #expect(scriptFailure("const {a}")?.message == "a destructuring declaration needs a value")
        #expect(scriptFailure("const {a} = {a: 1}; a = 2")?.kind == .type)
        // Destructuring assignment (without a declaration) stays refused by name.
        #expect(scriptFailure("var a, b; [a, b] = [1, 2]")?.kind == .unsupported)
    }

    @Test("R94: for … of and for … in heads, catch and parameters bind patterns")
    func patternsElsewhere() throws {
        #expect(try run("var total = 0; for (const [k, v] of [['a', 1], ['b', 2]]) { total += v } result = total") == 3)
        #expect(try run("var names = []; for (let {name} of [{name: 'x'}, {name: 'y'}]) names.push(name); result = names") == ["x", "y"])
        #expect(try run("var s = ''; for (const [i, c] = [0, 'abc']; i < 0;) {} for (const ch of 'a😀') s += '[' + ch + ']'; result = s") == "[a][😀]")
        #expect(try run("try { throw {code: 7, detail: 'x'} } catch ({code}) { result = code }") == 7)
        #expect(try run("function f({a, b = 2}, [c] = [3], ...more) { return [a, b, c, more] } result = f({a: 1})") == [1, 2, 3, []])
        #expect(try run("function f(a, b = a * 2) { return b } result = [f(1), f(1, 5), f(1, undefined), f.length]") == [2, 5, 2, 1])
        #expect(try run("const sum = (...xs) => xs.reduce((t, x) => t + x, 0); result = [sum(1, 2, 3), sum()]") == [6, 0])
        #expect(try run("const pick = ({x, y}) => x * y; result = pick({x: 2, y: 3})") == 6)
        #expect(try run("function f(...args) { return arguments.length + args.length } result = f(1, 2)") == 4)
    }

    @Test("R94: shorthand methods and computed keys in object literals; getters and setters are refused")
    func objectLiterals() throws {
        #expect(try run("var counter = {n: 0, add(k = 1) { this.n += k; return this } }; result = counter.add().add(2).n") == 3)
        #expect(try run("var k = 'dyn'; var o = {[k + 1]: 'a', ['x']: 'b'}; result = [o.dyn1, o.x]") == ["a", "b"])
        #expect(try run("var o = {get: 1, set() { return 2 }}; result = [o.get, o.set()]") == [1, 2])
        #expect(try run("var o = {greet() { return 'hi' }}; result = o.greet.name") == "greet")
        #expect(scriptFailure("var o = {get x() { return 1 }}")?.kind == .unsupported)
    }

    @Test("R94: a for (let …) loop gives each iteration its own binding, which a closure made in it keeps")
    func perIterationBindings() throws {
        #expect(try run("var fs = []; for (let i = 0; i < 3; i++) { fs.push(() => i) } result = fs.map(f => f())") == [0, 1, 2])
        #expect(try run("var fs = []; for (var i = 0; i < 3; i++) { fs.push(() => i) } result = fs.map(f => f())") == [3, 3, 3])
        // A closure that changes its iteration's binding changes that one only; the next
        // iteration starts from the value the update gave.
        #expect(try run("var fs = []; for (let i = 0; i < 6; i++) { fs.push(() => i += 10); i++ } result = [fs[0](), fs[0](), fs[1]()]")
            == [11, 21, 13])
        #expect(try run("var fs = []; for (const x of [1, 2]) fs.push(function () { return x }); result = [fs[0](), fs[1]()]") == [1, 2])
        // Functions made in the update or inside a template's ${…} see their iteration's binding too.
        #expect(try run("var fs = []; for (let i = 0; i < 2; fs.push(() => i), i++) {} result = fs.map(f => f())") == [1, 2])
        #expect(try run("var fs = []; for (let i = 0; i < 2; i++) { `${fs.push(() => i)}` } result = fs.map(f => f())") == [0, 1])
    }

    @Test("R94: the built-ins of ECMAScript 2015 and after that scripts reach for")
    func laterBuiltins() throws {
        #expect(try eval("[Array.isArray([]), Array.isArray({length: 0}), Array.isArray('a')]") == [true, false, false])
        #expect(try eval("Array.from('a😀')") == ["a", "😀"])
        #expect(try eval("Array.from([1, 2, 3], (x, k) => x * 10 + k)") == [10, 21, 32])
        #expect(try eval("Array.from({length: 3}, (_, k) => k * k)") == [0, 1, 4])
        #expect(try eval("Array.from({length: 2, 0: 'a', 1: 'b'})") == ["a", "b"])
        #expect(try eval("Array.of(7, 8)") == [7, 8])
        #expect(try eval("[[1, 2, 3].at(-1), [1, 2, 3].at(0), [1].at(5)]") == [3, 1, .undefined])
        #expect(try eval("[1, 2, 3, 4].fill(0, 1, 3)") == [1, 0, 0, 4])
        #expect(try eval("[1, [2, [3, [4]]]].flat()") == [1, 2, [3, [4]]])
        #expect(try eval("[1, [2, [3, [4]]]].flat(Infinity)") == [1, 2, 3, 4])
        #expect(try eval("[1, 2].flatMap(x => [x, x * 2])") == [1, 2, 2, 4])
        #expect(try eval("[[1, 5, 2, 6].findLast(x => x < 5), [1, 5, 2, 6].findLastIndex(x => x > 9)]") == [2, -1])
        #expect(try eval("['a', 'b', 'c'].reduceRight((t, x) => t + x)") == "cba")
        #expect(try eval("[Number.isInteger(5), Number.isInteger(5.5), Number.isInteger('5'), Number.isSafeInteger(2 ** 53), Number.isNaN(NaN), Number.isNaN('x'), Number.isFinite('1')]") == [true, false, false, false, true, false, false])
        #expect(try eval("[Number.MAX_SAFE_INTEGER, Number.EPSILON > 0, Number.parseFloat('1.5x'), Number.parseInt('ff', 16)]") == [9007199254740991, true, 1.5, 255])
        #expect(try eval("[String.fromCharCode(72, 105), String.fromCodePoint(128512), '😀'.codePointAt(0), 'a'.codePointAt(3)]") == ["Hi", "😀", 128512, .undefined])
        #expect(try eval("Object.fromEntries([['a', 1], ['b', [2]]])") == ["a": 1, "b": [2]])
        #expect(try eval("Object.fromEntries(Object.entries({x: 1, y: 2}).map(([k, v]) => [k, v * 2]))") == ["x": 2, "y": 4])
        #expect(failure("Array.from(5)")?.kind == .type)
        #expect(failure("String.fromCodePoint(-1)")?.kind == .range)
        #expect(failure("[].reduceRight((a, b) => a)")?.kind == .type)
        #expect(try eval("[[[[[[1]]]]]].flat(Infinity)") == [1])
    }

    @Test("R94: deep patterns and arrays meet the nesting limit, large spreads the memory budget")
    func limits() throws {
        let deepPattern = "const " + String(repeating: "[", count: 300) + "x" + String(repeating: "]", count: 300) + " = 1"
        #expect(scriptFailure(deepPattern)?.kind == .nesting)
        #expect(scriptFailure("var a = 1; for (let k = 0; k < 500; k++) a = [a]; result = a.flat(Infinity)")?.kind == .nesting)
        let small = ScriptLimits(maximumMemory: 1 << 20)
        #expect(scriptFailure("var s = 'x'.repeat(200000); result = [...s, ...s]", limits: small)?.kind == .memoryBudget)
        #expect(scriptFailure("var fs = []; for (let i = 0; i < 100000; i++) { fs.push(() => i) }", limits: small)?.kind == .memoryBudget)
    }
}
