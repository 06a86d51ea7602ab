#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension Array where Element == ScriptValue {
    /// The argument at `i`, or `undefined`.
    subscript(argument i: Int) -> ScriptValue { i < count ? self[i] : .undefined }
}

func native(_ name: String, _ body: @escaping NativeFunction) -> ScriptValue {
    .object(ScriptObject(.function(.native(name: name, body))))
}

/// A read-only namespace object (`Math`, `JSON`).
func namespace(_ members: [(String, ScriptValue)]) -> ScriptValue {
    let o = ScriptObject()
    for (k, v) in members { o.set(k, v) }
    o.frozen = true
    return .object(o)
}

extension Interpreter {
    /// The global functions and namespaces. Nothing here reaches the host: no files, network,
    /// processes, environment or clock beyond `Math.random`.
    func installBuiltins() {
        builtins["NaN"] = .number(.nan)
        builtins["Infinity"] = .number(.infinity)
        builtins["String"] = native("String") { (i, _, a) throws(ScriptError) in
            a.isEmpty ? .string("") : .string(try i.toStringValue(a[0], line: 0))
        }
        builtins["Number"] = native("Number") { (i, _, a) throws(ScriptError) in
            a.isEmpty ? .number(0) : .number(try i.toNumber(a[0], line: 0))
        }
        builtins["Boolean"] = native("Boolean") { (_, _, a) in .boolean(a[argument: 0].truthy) }
        builtins["Array"] = native("Array") { (i, _, a) throws(ScriptError) in try i.constructBuiltin("Array", nil, a, line: 0) }
        builtins["Object"] = objectConstructor()
        builtins["RegExp"] = native("RegExp") { (i, _, a) throws(ScriptError) in try i.constructBuiltin("RegExp", nil, a, line: 0) }
        builtins["Function"] = native("Function") { (_, _, _) throws(ScriptError) in
            throw ScriptError(.unsupported, "the Function constructor is not supported")
        }
        for name in ["Error", "TypeError", "RangeError", "ReferenceError", "SyntaxError"] {
            builtins[name] = native(name) { (i, _, a) throws(ScriptError) in try i.constructBuiltin(name, nil, a, line: 0) }
        }
        builtins["isNaN"] = native("isNaN") { (i, _, a) throws(ScriptError) in .boolean(try i.toNumber(a[argument: 0], line: 0).isNaN) }
        builtins["isFinite"] = native("isFinite") { (i, _, a) throws(ScriptError) in
            .boolean(try i.toNumber(a[argument: 0], line: 0).isFinite)
        }
        builtins["parseInt"] = native("parseInt") { (i, _, a) throws(ScriptError) in
            .number(parseInteger(try i.toStringValue(a[argument: 0], line: 0), radix: try i.toNumber(a[argument: 1], line: 0)))
        }
        builtins["parseFloat"] = native("parseFloat") { (i, _, a) throws(ScriptError) in
            .number(parseFloatPrefix(try i.toStringValue(a[argument: 0], line: 0)))
        }
        builtins["eval"] = native("eval") { (i, _, a) throws(ScriptError) in
            guard case .string(let source) = a[argument: 0] else { return a[argument: 0] }
            return try i.evaluateSource(source)
        }
        builtins["Math"] = mathNamespace()
        builtins["JSON"] = namespace([
            ("stringify", native("stringify") { (i, _, a) throws(ScriptError) in
                try i.stringify(a[argument: 0], indent: a[argument: 2]).map(ScriptValue.string) ?? .undefined
            }),
            ("parse", native("parse") { (i, _, a) throws(ScriptError) in
                try i.parseJSON(try i.toStringValue(a[argument: 0], line: 0))
            }),
        ])
        installLaterStatics()
    }

    /// `eval(source)`: parsed and run in the same sandbox and global scope, with the same
    /// budgets; its value is that of the last expression statement.
    func evaluateSource(_ source: String) throws(ScriptError) -> ScriptValue {
        var parser = try Parser(source: source, maximumNesting: limits.maximumNesting)
        let program = try parser.parseProgram()
        for name in hoistedVarNames(program) where global.binding(name) == nil { global.declare(name, .undefined) }
        guard case .expression(let last)? = program.last else {
            _ = try execute(program, global)
            return .undefined
        }
        _ = try execute(Array(program.dropLast()), global)
        return try evaluate(last, global)
    }

    /// `new Array(…)`, `new Object()`, `new Error(…)`, `new RegExp(…)` and the same called
    /// without `new` (`f` is the constructor when called with `new`).
    func constructBuiltin(_ name: String, _ f: ScriptObject?, _ a: [ScriptValue], line: Int) throws(ScriptError) -> ScriptValue {
        switch name {
        case "Array":
            if a.count == 1, case .number(let n) = a[0] {
                guard n >= 0, n == n.rounded(.towardZero), n < 4_294_967_296 else {
                    throw ScriptError(.range, "invalid array length", line: line)
                }
                try charge(16 * Int(n), line: line)
                return try makeArray(Array(repeating: .undefined, count: Int(n)), line: line)
            }
            return try makeArray(a, line: line)
        case "Object":
            if case .object = a[argument: 0] { return a[0] }
            return .object(try makeObject(line: line))
        case "Error", "TypeError", "RangeError", "ReferenceError", "SyntaxError":
            let o = track(ScriptObject(.error))
            o.set("name", .string(name))
            o.set("message", .string(a.isEmpty || a[0] == .undefined ? "" : try toStringValue(a[0], line: line)))
            return .object(o)
        case "RegExp":
            return try constructRegExp(a, isNew: f != nil, line: line)
        case "String", "Number", "Boolean":
            throw ScriptError(.unsupported, "'new \(name)(…)' wrapper objects are not supported; call \(name)(…) instead", line: line)
        default:
            throw typeError("\(name) is not a constructor", line: line)
        }
    }

    private func objectConstructor() -> ScriptValue {
        let constructor = ScriptObject(.function(.native(name: "Object") { (i, _, a) throws(ScriptError) in
            try i.constructBuiltin("Object", nil, a, line: 0)
        }))
        let statics: [(String, NativeFunction)] = [
            ("keys", { (i, _, a) throws(ScriptError) in
                guard case .object(let o) = a[argument: 0] else { throw ScriptError(.type, "Object.keys needs an object") }
                return try i.makeArray(o.ownKeys.map(ScriptValue.string), line: 0)
            }),
            ("values", { (i, _, a) throws(ScriptError) in
                guard case .object(let o) = a[argument: 0] else { throw ScriptError(.type, "Object.values needs an object") }
                var values: [ScriptValue] = []
                for k in o.ownKeys { values.append(try i.property(of: .object(o), k, line: 0)) }
                return try i.makeArray(values, line: 0)
            }),
            ("entries", { (i, _, a) throws(ScriptError) in
                guard case .object(let o) = a[argument: 0] else { throw ScriptError(.type, "Object.entries needs an object") }
                var entries: [ScriptValue] = []
                for k in o.ownKeys { entries.append(try i.makeArray([.string(k), try i.property(of: .object(o), k, line: 0)], line: 0)) }
                return try i.makeArray(entries, line: 0)
            }),
            ("assign", { (i, _, a) throws(ScriptError) in
                guard case .object(let target) = a[argument: 0] else { throw ScriptError(.type, "Object.assign needs an object") }
                for source in a.dropFirst() { try i.copyOwnProperties(of: source, to: .object(target), line: 0) }
                return a[0]
            }),
            ("freeze", { (_, _, a) in
                if case .object(let o) = a[argument: 0] { o.frozen = true }
                return a[argument: 0]
            }),
        ]
        for (name, body) in statics { constructor.set(name, native(name, body)) }
        return .object(constructor)
    }

    private func mathNamespace() -> ScriptValue {
        func unary(_ name: String, _ f: @escaping (Double) -> Double) -> (String, ScriptValue) {
            (name, native(name) { (i, _, a) throws(ScriptError) in .number(f(try i.toNumber(a[argument: 0], line: 0))) })
        }
        return namespace([
            ("PI", .number(Double.pi)), ("E", .number(M_E)), ("LN2", .number(M_LN2)), ("LN10", .number(M_LN10)),
            ("LOG2E", .number(M_LOG2E)), ("LOG10E", .number(M_LOG10E)), ("SQRT2", .number(2.0.squareRoot())),
            ("SQRT1_2", .number(0.5.squareRoot())),
            unary("abs") { Swift.abs($0) }, unary("floor") { $0.rounded(.down) }, unary("ceil") { $0.rounded(.up) },
            unary("trunc") { $0.rounded(.towardZero) },
            unary("round") { x in
                guard x.isFinite else { return x }
                let r = x.rounded(.down)
                return x - r >= 0.5 ? r + 1 : r
            },
            unary("sign") { $0.isNaN ? .nan : $0 > 0 ? 1 : $0 < 0 ? -1 : $0 },
            unary("sqrt") { $0.squareRoot() }, unary("cbrt") { cbrt($0) }, unary("exp") { exp($0) },
            unary("log") { log($0) }, unary("log2") { log2($0) }, unary("log10") { log10($0) },
            unary("sin") { sin($0) }, unary("cos") { cos($0) }, unary("tan") { tan($0) }, unary("asin") { asin($0) },
            unary("acos") { acos($0) }, unary("atan") { atan($0) },
            ("atan2", native("atan2") { (i, _, a) throws(ScriptError) in
                .number(atan2(try i.toNumber(a[argument: 0], line: 0), try i.toNumber(a[argument: 1], line: 0)))
            }),
            ("pow", native("pow") { (i, _, a) throws(ScriptError) in
                .number(power(try i.toNumber(a[argument: 0], line: 0), try i.toNumber(a[argument: 1], line: 0)))
            }),
            ("min", native("min") { (i, _, a) throws(ScriptError) in
                var result = Double.infinity
                for v in a {
                    let n = try i.toNumber(v, line: 0)
                    if n.isNaN { return .number(.nan) }
                    if n < result || (n == 0 && result == 0 && n.sign == .minus) { result = n }
                }
                return .number(result)
            }),
            ("max", native("max") { (i, _, a) throws(ScriptError) in
                var result = -Double.infinity
                for v in a {
                    let n = try i.toNumber(v, line: 0)
                    if n.isNaN { return .number(.nan) }
                    if n > result || (n == 0 && result == 0 && n.sign == .plus) { result = n }
                }
                return .number(result)
            }),
            ("random", native("random") { (_, _, _) in .number(Double.random(in: 0..<1)) }),
        ])
    }
}

/// `parseInt`: leading white space, a sign, an optional `0x`, then as many digits as parse.
func parseInteger(_ text: String, radix r: Double) -> Double {
    var s = Substring(text.trimmingScriptWhitespace())
    var sign = 1.0
    if s.first == "-" { sign = -1; s = s.dropFirst() } else if s.first == "+" { s = s.dropFirst() }
    var radix = r.isNaN || r == 0 ? 10 : Int(toInt32(r))
    if radix == 16 || (r.isNaN || r == 0), s.lowercased().hasPrefix("0x") {
        s = s.dropFirst(2)
        radix = 16
    }
    guard (2...36).contains(radix) else { return .nan }
    var value = 0.0
    var digits = 0
    for c in s {
        guard let d = c.hexDigitValue ?? (c.isLetter && c.isASCII ? Int(c.lowercased().unicodeScalars.first!.value) - 87 : nil),
            d < radix
        else { break }
        value = value * Double(radix) + Double(d)
        digits += 1
    }
    return digits == 0 ? .nan : sign * value
}

/// `parseFloat`: the longest prefix that is a decimal literal.
func parseFloatPrefix(_ text: String) -> Double {
    let u = Array(text.trimmingScriptWhitespace().utf8)
    var p = 0
    var sign = 1.0
    if p < u.count && (u[p] == UInt8(ascii: "-") || u[p] == UInt8(ascii: "+")) {
        if u[p] == UInt8(ascii: "-") { sign = -1 }
        p += 1
    }
    if u[p...].starts(with: "Infinity".utf8) { return sign * .infinity }
    let start = p
    var digits = 0
    while p < u.count && u[p] >= 0x30 && u[p] <= 0x39 { p += 1; digits += 1 }
    if p < u.count && u[p] == UInt8(ascii: ".") {
        p += 1
        while p < u.count && u[p] >= 0x30 && u[p] <= 0x39 { p += 1; digits += 1 }
    }
    guard digits > 0 else { return .nan }
    var end = p
    if p < u.count && (u[p] | 0x20) == UInt8(ascii: "e") {
        var q = p + 1
        if q < u.count && (u[q] == UInt8(ascii: "-") || u[q] == UInt8(ascii: "+")) { q += 1 }
        if q < u.count && u[q] >= 0x30 && u[q] <= 0x39 {
            while q < u.count && u[q] >= 0x30 && u[q] <= 0x39 { q += 1 }
            end = q
        }
    }
    var literal = String(decoding: u[start..<end], as: UTF8.self)
    if literal.hasPrefix(".") { literal = "0" + literal }
    return sign * (Double(literal) ?? .nan)
}
