/// Built-ins of ECMAScript 2015 and after that scripts reach for: `Array.isArray`, `Array.from`,
/// `Array.of`, `Number`'s predicates and constants, `String.fromCharCode`/`fromCodePoint`,
/// `Object.fromEntries`, and the array and string methods below.

/// Array methods after ECMAScript 5 (merged into ``arrayMethods``).
let laterArrayMethods: [String: BuiltinMethod] = [
    "at": { (i, this, a) throws(ScriptError) in
        let e = try arrayReceiver(this).elements
        let n = try i.toInteger(a[argument: 0])
        let k = n < 0 ? Double(e.count) + n : n
        return k >= 0 && k < Double(e.count) ? e[Int(k)] : .undefined
    },
    "fill": { (i, this, a) throws(ScriptError) in
        let o = try arrayReceiver(this)
        let (start, end) = try sliceBounds(i, Array(a.dropFirst()), count: o.elements.count)
        if start < end { for k in start..<end { o.elements[k] = a[argument: 0] } }
        return this
    },
    "flat": { (i, this, a) throws(ScriptError) in
        let e = try arrayReceiver(this).elements
        let depth = a[argument: 0] == .undefined ? 1 : try i.toInteger(a[0])
        return try i.makeArray(try i.flattened(e, depth: depth), line: 0)
    },
    "flatMap": { (i, this, a) throws(ScriptError) in
        let (e, f) = try arrayCallback(this, a)
        var mapped: [ScriptValue] = []
        for (n, v) in e.enumerated() { mapped.append(try i.call(f, this: a[argument: 1], [v, .number(Double(n)), this], line: 0)) }
        return try i.makeArray(try i.flattened(mapped, depth: 1), line: 0)
    },
    "findLast": { (i, this, a) throws(ScriptError) in
        let (e, f) = try arrayCallback(this, a)
        for n in e.indices.reversed() where try i.call(f, this: .undefined, [e[n], .number(Double(n)), this], line: 0).truthy {
            return e[n]
        }
        return .undefined
    },
    "findLastIndex": { (i, this, a) throws(ScriptError) in
        let (e, f) = try arrayCallback(this, a)
        for n in e.indices.reversed() where try i.call(f, this: .undefined, [e[n], .number(Double(n)), this], line: 0).truthy {
            return .number(Double(n))
        }
        return .number(-1)
    },
    "reduceRight": { (i, this, a) throws(ScriptError) in
        let (e, f) = try arrayCallback(this, a)
        var index = e.count - 1
        var accumulator: ScriptValue
        if a.count > 1 {
            accumulator = a[1]
        } else {
            guard !e.isEmpty else { throw ScriptError(.type, "reduceRight of an empty array with no initial value") }
            accumulator = e[index]
            index -= 1
        }
        while index >= 0 {
            accumulator = try i.call(f, this: .undefined, [accumulator, e[index], .number(Double(index)), this], line: 0)
            index -= 1
        }
        return accumulator
    },
]

/// String methods after ECMAScript 5 (merged into ``stringMethods``).
let laterStringMethods: [String: BuiltinMethod] = [
    "codePointAt": { (i, this, a) throws(ScriptError) in
        let u = Array(try i.toStringValue(this, line: 0).utf16)
        let p = try i.toInteger(a[argument: 0])
        guard p >= 0 && p < Double(u.count) else { return .undefined }
        let k = Int(p)
        if isLeadingSurrogate(u[k]), k + 1 < u.count, isTrailingSurrogate(u[k + 1]) {
            return .number(Double(regExpCodePoint(u[k], u[k + 1])))
        }
        return .number(Double(u[k]))
    },
]

extension Interpreter {
    /// The items of `elements`, arrays among them spread `depth` levels deep (`flat`). Bounded
    /// by the nesting limit, not by `depth` (`flat(Infinity)`).
    func flattened(_ elements: [ScriptValue], depth: Double) throws(ScriptError) -> [ScriptValue] {
        var out: [ScriptValue] = []
        try flatten(elements, depth: depth, into: &out)
        try charge(16 * out.count, line: 0)
        return out
    }

    private func flatten(_ elements: [ScriptValue], depth: Double, into out: inout [ScriptValue]) throws(ScriptError) {
        try enter(0)
        defer { leave() }
        for v in elements {
            if depth >= 1, case .object(let o) = v, o.isArray {
                try flatten(o.elements, depth: depth - 1, into: &out)
            } else {
                out.append(v)
            }
        }
    }

    /// `Array.isArray`, `Array.from`, `Array.of`, `Number`'s statics, `String.fromCharCode` and
    /// `fromCodePoint`, `Object.fromEntries`: set on the constructors ``installBuiltins()`` made.
    func installLaterStatics() {
        addStatics("Array", [
            ("isArray", { (_, _, a) in
                if case .object(let o) = a[argument: 0], o.isArray { return .boolean(true) }
                return .boolean(false)
            }),
            ("from", { (i, _, a) throws(ScriptError) in
                // An array or a string (their items), or an array-like object (`{length: 3}`).
                var items: [ScriptValue]
                let source = a[argument: 0]
                if case .object(let o) = source, !o.isArray {
                    let length = try i.toInteger(try i.property(of: source, "length", line: 0))
                    let count = clampedInt(length, 0...Int(UInt32.max))
                    try i.charge(16 * count, line: 0)
                    items = []
                    for k in 0..<count { items.append(try i.property(of: source, String(k), line: 0)) }
                } else {
                    items = try i.iterableItems(source, line: 0)
                }
                if case .object(let f) = a[argument: 1], f.isCallable {
                    for k in items.indices { items[k] = try i.call(f, this: .undefined, [items[k], .number(Double(k))], line: 0) }
                } else if a[argument: 1] != .undefined {
                    throw ScriptError(.type, "Array.from: \(a[1].displayString) is not a function")
                }
                return try i.makeArray(items, line: 0)
            }),
            ("of", { (i, _, a) throws(ScriptError) in try i.makeArray(a, line: 0) }),
        ])
        addStatics("Number", [
            ("isInteger", { (_, _, a) in
                guard case .number(let n) = a[argument: 0] else { return .boolean(false) }
                return .boolean(n.isFinite && n == n.rounded(.towardZero))
            }),
            ("isSafeInteger", { (_, _, a) in
                guard case .number(let n) = a[argument: 0] else { return .boolean(false) }
                return .boolean(n.isFinite && n == n.rounded(.towardZero) && abs(n) <= 9_007_199_254_740_991)
            }),
            ("isFinite", { (_, _, a) in
                guard case .number(let n) = a[argument: 0] else { return .boolean(false) }
                return .boolean(n.isFinite)
            }),
            ("isNaN", { (_, _, a) in
                guard case .number(let n) = a[argument: 0] else { return .boolean(false) }
                return .boolean(n.isNaN)
            }),
        ])
        for (name, value) in [
            ("parseFloat", builtins["parseFloat"]), ("parseInt", builtins["parseInt"]), ("EPSILON", .number(Double.ulpOfOne)),
            ("MAX_SAFE_INTEGER", .number(9_007_199_254_740_991)), ("MIN_SAFE_INTEGER", .number(-9_007_199_254_740_991)),
            ("MAX_VALUE", .number(Double.greatestFiniteMagnitude)), ("MIN_VALUE", .number(Double.leastNonzeroMagnitude)),
            ("POSITIVE_INFINITY", .number(.infinity)), ("NEGATIVE_INFINITY", .number(-.infinity)), ("NaN", .number(.nan)),
        ] {
            if case .object(let number)? = builtins["Number"], let value { number.set(name, value) }
        }
        addStatics("String", [
            ("fromCharCode", { (i, _, a) throws(ScriptError) in
                var units: [UInt16] = []
                for v in a { units.append(UInt16(truncatingIfNeeded: Int64(clampedInt(try i.toInteger(v), Int.min...Int.max)))) }
                return try i.makeString(String(decoding: units, as: UTF16.self), line: 0)
            }),
            ("fromCodePoint", { (i, _, a) throws(ScriptError) in
                var text = String.UnicodeScalarView()
                for v in a {
                    let n = try i.toNumber(v, line: 0)
                    guard n >= 0, n <= 0x10FFFF, n == n.rounded(.towardZero) else {
                        throw ScriptError(.range, "invalid code point \(formatNumber(n))")
                    }
                    // A lone surrogate cannot be in a string of the subset.
                    text.append(Unicode.Scalar(UInt32(n)) ?? "\u{FFFD}")
                }
                return try i.makeString(String(text), line: 0)
            }),
        ])
        addStatics("Object", [
            ("fromEntries", { (i, _, a) throws(ScriptError) in
                let o = try i.makeObject(line: 0)
                for entry in try i.iterableItems(a[argument: 0], line: 0) {
                    guard case .object = entry else { throw ScriptError(.type, "Object.fromEntries: an entry is not an object") }
                    let key = try i.toPropertyKey(try i.property(of: entry, "0", line: 0), line: 0)
                    try i.charge(32 + key.utf8.count, line: 0)
                    o.set(key, try i.property(of: entry, "1", line: 0))
                }
                return .object(o)
            }),
        ])
    }

    private func addStatics(_ constructor: String, _ statics: [(String, NativeFunction)]) {
        guard case .object(let c)? = builtins[constructor] else { return }
        for (name, body) in statics { c.set(name, native(name, body)) }
    }
}
