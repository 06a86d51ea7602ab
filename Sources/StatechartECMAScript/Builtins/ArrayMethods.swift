/// Methods of arrays. Callbacks (`map`, `filter`, `sort`, …) are script or native functions,
/// called through the interpreter so that budgets apply to them.
private let es5ArrayMethods: [String: BuiltinMethod] = [
    "push": { (i, this, a) throws(ScriptError) in
        let o = try arrayReceiver(this)
        try i.charge(16 * a.count, line: 0)
        o.elements.append(contentsOf: a)
        return .number(Double(o.elements.count))
    },
    "pop": { (_, this, _) throws(ScriptError) in
        let o = try arrayReceiver(this)
        return o.elements.popLast() ?? .undefined
    },
    "shift": { (_, this, _) throws(ScriptError) in
        let o = try arrayReceiver(this)
        return o.elements.isEmpty ? .undefined : o.elements.removeFirst()
    },
    "unshift": { (i, this, a) throws(ScriptError) in
        let o = try arrayReceiver(this)
        try i.charge(16 * a.count, line: 0)
        o.elements.insert(contentsOf: a, at: 0)
        return .number(Double(o.elements.count))
    },
    "slice": { (i, this, a) throws(ScriptError) in
        let e = try arrayReceiver(this).elements
        let (start, end) = try sliceBounds(i, a, count: e.count)
        return try i.makeArray(start < end ? Array(e[start..<end]) : [], line: 0)
    },
    "splice": { (i, this, a) throws(ScriptError) in
        let o = try arrayReceiver(this)
        var e = o.elements
        let (start, _) = try sliceBounds(i, [a[argument: 0]], count: e.count)
        let deleteCount = a.count < 2 ? e.count - start : clampedInt(try i.toInteger(a[1]), 0...(e.count - start))
        let removed = Array(e[start..<start + deleteCount])
        e.replaceSubrange(start..<start + deleteCount, with: a.dropFirst(2))
        try i.charge(16 * max(0, a.count - 2), line: 0)
        o.elements = e
        return try i.makeArray(removed, line: 0)
    },
    "concat": { (i, this, a) throws(ScriptError) in
        var e = try arrayReceiver(this).elements
        for v in a {
            if case .object(let o) = v, o.isArray { e.append(contentsOf: o.elements) } else { e.append(v) }
        }
        return try i.makeArray(e, line: 0)
    },
    "indexOf": { (i, this, a) throws(ScriptError) in
        let e = try arrayReceiver(this).elements
        let from = clamp(try i.toInteger(a[argument: 1]), e.count)
        return .number(Double(e[from...].firstIndex { strictEquals($0, a[argument: 0]) } ?? -1))
    },
    "lastIndexOf": { (_, this, a) throws(ScriptError) in
        let e = try arrayReceiver(this).elements
        return .number(Double(e.lastIndex { strictEquals($0, a[argument: 0]) } ?? -1))
    },
    "includes": { (_, this, a) throws(ScriptError) in
        .boolean(try arrayReceiver(this).elements.contains { sameValueZero($0, a[argument: 0]) })
    },
    "join": { (i, this, a) throws(ScriptError) in
        let e = try arrayReceiver(this).elements
        let separator = a[argument: 0] == .undefined ? "," : try i.toStringValue(a[0], line: 0)
        var parts: [String] = []
        for v in e { parts.append(v.isNullish ? "" : try i.toStringValue(v, line: 0)) }
        return try i.makeString(parts.joined(separator: separator), line: 0)
    },
    "reverse": { (_, this, _) throws(ScriptError) in
        let o = try arrayReceiver(this)
        o.elements.reverse()
        return this
    },
    "sort": { (i, this, a) throws(ScriptError) in
        let o = try arrayReceiver(this)
        var e = o.elements
        let comparator = a[argument: 0].asObject
        // Insertion into a sorted prefix: stable, and a comparator that throws leaves no half state.
        var sorted: [ScriptValue] = []
        sorted.reserveCapacity(e.count)
        for v in e {
            var lo = 0
            var hi = sorted.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if try i.sortsBefore(v, sorted[mid], comparator) { hi = mid } else { lo = mid + 1 }
            }
            sorted.insert(v, at: lo)
        }
        e = sorted
        o.elements = e
        return this
    },
    "map": { (i, this, a) throws(ScriptError) in
        let (e, f) = try arrayCallback(this, a)
        var out: [ScriptValue] = []
        for (n, v) in e.enumerated() { out.append(try i.call(f, this: .undefined, [v, .number(Double(n)), this], line: 0)) }
        return try i.makeArray(out, line: 0)
    },
    "filter": { (i, this, a) throws(ScriptError) in
        let (e, f) = try arrayCallback(this, a)
        var out: [ScriptValue] = []
        for (n, v) in e.enumerated() where try i.call(f, this: .undefined, [v, .number(Double(n)), this], line: 0).truthy {
            out.append(v)
        }
        return try i.makeArray(out, line: 0)
    },
    "forEach": { (i, this, a) throws(ScriptError) in
        let (e, f) = try arrayCallback(this, a)
        for (n, v) in e.enumerated() { _ = try i.call(f, this: .undefined, [v, .number(Double(n)), this], line: 0) }
        return .undefined
    },
    "some": { (i, this, a) throws(ScriptError) in
        let (e, f) = try arrayCallback(this, a)
        for (n, v) in e.enumerated() where try i.call(f, this: .undefined, [v, .number(Double(n)), this], line: 0).truthy {
            return .boolean(true)
        }
        return .boolean(false)
    },
    "every": { (i, this, a) throws(ScriptError) in
        let (e, f) = try arrayCallback(this, a)
        for (n, v) in e.enumerated() where !(try i.call(f, this: .undefined, [v, .number(Double(n)), this], line: 0).truthy) {
            return .boolean(false)
        }
        return .boolean(true)
    },
    "find": { (i, this, a) throws(ScriptError) in
        let (e, f) = try arrayCallback(this, a)
        for (n, v) in e.enumerated() where try i.call(f, this: .undefined, [v, .number(Double(n)), this], line: 0).truthy {
            return v
        }
        return .undefined
    },
    "findIndex": { (i, this, a) throws(ScriptError) in
        let (e, f) = try arrayCallback(this, a)
        for (n, v) in e.enumerated() where try i.call(f, this: .undefined, [v, .number(Double(n)), this], line: 0).truthy {
            return .number(Double(n))
        }
        return .number(-1)
    },
    "reduce": { (i, this, a) throws(ScriptError) in
        let (e, f) = try arrayCallback(this, a)
        var index = 0
        var accumulator: ScriptValue
        if a.count > 1 {
            accumulator = a[1]
        } else {
            guard !e.isEmpty else { throw ScriptError(.type, "reduce of an empty array with no initial value") }
            accumulator = e[0]
            index = 1
        }
        while index < e.count {
            accumulator = try i.call(f, this: .undefined, [accumulator, e[index], .number(Double(index)), this], line: 0)
            index += 1
        }
        return accumulator
    },
    "toString": { (i, this, _) throws(ScriptError) in
        var parts: [String] = []
        for v in try arrayReceiver(this).elements { parts.append(v.isNullish ? "" : try i.toStringValue(v, line: 0)) }
        return .string(parts.joined(separator: ","))
    },
]

/// With the methods of ECMAScript 2015 and after (LaterBuiltins.swift).
let arrayMethods: [String: BuiltinMethod] = es5ArrayMethods.merging(laterArrayMethods) { earlier, _ in earlier }

func arrayReceiver(_ this: ScriptValue) throws(ScriptError) -> ScriptObject {
    guard case .object(let o) = this, o.isArray else { throw ScriptError(.type, "an array method called on a non-array") }
    return o
}

func arrayCallback(_ this: ScriptValue, _ a: [ScriptValue]) throws(ScriptError) -> ([ScriptValue], ScriptObject) {
    let e = try arrayReceiver(this).elements
    guard case .object(let f) = a[argument: 0], f.isCallable else {
        throw ScriptError(.type, "\(a[argument: 0].displayString) is not a function")
    }
    return (e, f)
}

extension Interpreter {
    /// The order `sort` uses: the comparator's sign, or string order with `undefined` last.
    func sortsBefore(_ x: ScriptValue, _ y: ScriptValue, _ comparator: ScriptObject?) throws(ScriptError) -> Bool {
        if x == .undefined { return false }
        if y == .undefined { return true }
        if let comparator, comparator.isCallable {
            return try toNumber(try call(comparator, this: .undefined, [x, y], line: 0), line: 0) < 0
        }
        return try toStringValue(x, line: 0).utf16.lexicographicallyPrecedes(try toStringValue(y, line: 0).utf16)
    }
}

/// Methods of numbers.
let numberMethods: [String: BuiltinMethod] = [
    "toFixed": { (i, this, a) throws(ScriptError) in
        let x = try i.toNumber(this, line: 0)
        let digits = try i.toInteger(a[argument: 0])
        guard (0...100).contains(digits) else { throw ScriptError(.range, "toFixed() digits must be between 0 and 100") }
        return .string(fixed(x, Int(digits)))
    },
    "toString": { (i, this, a) throws(ScriptError) in
        let x = try i.toNumber(this, line: 0)
        let radix = a[argument: 0] == .undefined ? 10 : clampedInt(try i.toInteger(a[0]), 0...37)
        guard (2...36).contains(radix) else { throw ScriptError(.range, "toString() radix must be between 2 and 36") }
        if radix == 10 || !x.isFinite || x != x.rounded(.towardZero) || abs(x) > 9e15 { return .string(formatNumber(x)) }
        return .string(String(Int64(x), radix: radix))
    },
    "valueOf": { (i, this, _) throws(ScriptError) in .number(try i.toNumber(this, line: 0)) },
]

/// `x.toFixed(d)`.
func fixed(_ x: Double, _ d: Int) -> String {
    guard x.isFinite, abs(x) < 1e21 else { return formatNumber(x) }
    var scale = 1.0
    for _ in 0..<d { scale *= 10 }
    let scaled = (abs(x) * scale)
    guard scaled < 9_007_199_254_740_992 else { return formatNumber(x) }
    var r = scaled.rounded(.down)
    if scaled - r >= 0.5 { r += 1 }
    var digits = String(UInt64(r))
    if d > 0 {
        if digits.count <= d { digits = String(repeating: "0", count: d - digits.count + 1) + digits }
        digits.insert(".", at: digits.index(digits.endIndex, offsetBy: -d))
    }
    return (x < 0 && r != 0 ? "-" : "") + digits
}

/// Methods of booleans.
let booleanMethods: [String: BuiltinMethod] = [
    "toString": { (_, this, _) in .string(this.displayString) },
    "valueOf": { (_, this, _) in this },
]

/// Methods every object has.
let objectMethods: [String: BuiltinMethod] = [
    "hasOwnProperty": { (i, this, a) throws(ScriptError) in
        let key = try i.toPropertyKey(a[argument: 0], line: 0)
        guard case .object(let o) = this else { return .boolean(false) }
        if case .array(let e) = o.storage, let n = arrayIndex(key) { return .boolean(n < e.count) }
        return .boolean(o.own(key) != nil)
    },
    "toString": { (_, this, _) in .string(this.asObject?.defaultString ?? this.displayString) },
    "valueOf": { (_, this, _) in this },
]

/// Methods of functions.
let functionMethods: [String: BuiltinMethod] = [
    "call": { (i, this, a) throws(ScriptError) in
        guard case .object(let f) = this else { throw ScriptError(.type, "call on a non-function") }
        return try i.call(f, this: a[argument: 0], Array(a.dropFirst()), line: 0)
    },
    "apply": { (i, this, a) throws(ScriptError) in
        guard case .object(let f) = this else { throw ScriptError(.type, "apply on a non-function") }
        let arguments = a[argument: 1].asObject?.elements ?? []
        return try i.call(f, this: a[argument: 0], arguments, line: 0)
    },
]
