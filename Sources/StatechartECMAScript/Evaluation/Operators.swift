#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// ECMAScript's conversions and operators.
extension Interpreter {
    // MARK: - Conversions

    func toNumber(_ v: ScriptValue, line: Int) throws(ScriptError) -> Double {
        switch v {
        case .undefined: return .nan
        case .null: return 0
        case .boolean(let b): return b ? 1 : 0
        case .number(let n): return n
        case .string(let s): return parseNumber(s)
        case .object: return try toNumber(try toPrimitive(v, preferString: false, line: line), line: line)
        }
    }

    func toStringValue(_ v: ScriptValue, line: Int) throws(ScriptError) -> String {
        switch v {
        case .object: return try toPrimitive(v, preferString: true, line: line).displayString
        default: return v.displayString
        }
    }

    /// ToPrimitive: a script-defined `valueOf`/`toString` is called; otherwise the object's default.
    func toPrimitive(_ v: ScriptValue, preferString: Bool, line: Int) throws(ScriptError) -> ScriptValue {
        guard case .object(let o) = v else { return v }
        for name in preferString ? ["toString", "valueOf"] : ["valueOf", "toString"] {
            if case .object(let f)? = o.lookup(name), case .function(.script) = f.storage {
                let result = try call(f, this: v, [], line: line)
                if case .object = result { continue }
                return result
            }
        }
        if let text = o.xmlText { return .string(text) }
        return .string(o.defaultString)
    }

    func toPropertyKey(_ v: ScriptValue, line: Int) throws(ScriptError) -> String {
        try toStringValue(v, line: line)
    }

    // MARK: - Operators

    func binary(_ op: BinaryOperator, _ l: ScriptValue, _ r: ScriptValue, line: Int) throws(ScriptError) -> ScriptValue {
        // Two numbers, the common case of a guard or a counter: no conversion can run a script
        // or fail, and IEEE comparisons already answer false for NaN as ECMAScript does.
        if case .number(let a) = l, case .number(let b) = r {
            switch op {
            case .add: return .number(a + b)
            case .subtract: return .number(a - b)
            case .multiply: return .number(a * b)
            case .less: return .boolean(a < b)
            case .greater: return .boolean(a > b)
            case .lessEqual: return .boolean(a <= b)
            case .greaterEqual: return .boolean(a >= b)
            case .equal, .strictEqual: return .boolean(a == b)
            case .notEqual, .strictNotEqual: return .boolean(a != b)
            default: break
            }
        }
        switch op {
        case .add:
            if case .number(let a) = l, case .number(let b) = r { return .number(a + b) }
            let lp = try toPrimitive(l, preferString: false, line: line)
            let rp = try toPrimitive(r, preferString: false, line: line)
            if case .string(let a) = lp { return try makeString(a + (try toStringValue(rp, line: line)), line: line) }
            if case .string(let b) = rp { return try makeString((try toStringValue(lp, line: line)) + b, line: line) }
            return .number(try toNumber(lp, line: line) + toNumber(rp, line: line))
        case .subtract: return .number(try toNumber(l, line: line) - toNumber(r, line: line))
        case .multiply: return .number(try toNumber(l, line: line) * toNumber(r, line: line))
        case .divide: return .number(try toNumber(l, line: line) / toNumber(r, line: line))
        case .remainder:
            let a = try toNumber(l, line: line)
            let b = try toNumber(r, line: line)
            return .number(a.truncatingRemainder(dividingBy: b))
        case .exponent: return .number(power(try toNumber(l, line: line), try toNumber(r, line: line)))
        case .equal: return .boolean(try looselyEquals(l, r, line: line))
        case .notEqual: return .boolean(!(try looselyEquals(l, r, line: line)))
        case .strictEqual: return .boolean(strictEquals(l, r))
        case .strictNotEqual: return .boolean(!strictEquals(l, r))
        case .less: return .boolean(try compare(l, r, line: line) { $0 })
        case .greater: return .boolean(try compare(r, l, line: line) { $0 })
        case .lessEqual: return .boolean(try compare(r, l, line: line) { !$0 })
        case .greaterEqual: return .boolean(try compare(l, r, line: line) { !$0 })
        case .leftShift:
            return .number(Double(toInt32(try toNumber(l, line: line)) << (toUInt32(try toNumber(r, line: line)) & 31)))
        case .rightShift:
            return .number(Double(toInt32(try toNumber(l, line: line)) >> (toUInt32(try toNumber(r, line: line)) & 31)))
        case .unsignedRightShift:
            return .number(Double(toUInt32(try toNumber(l, line: line)) >> (toUInt32(try toNumber(r, line: line)) & 31)))
        case .bitwiseAnd: return .number(Double(toInt32(try toNumber(l, line: line)) & toInt32(try toNumber(r, line: line))))
        case .bitwiseOr: return .number(Double(toInt32(try toNumber(l, line: line)) | toInt32(try toNumber(r, line: line))))
        case .bitwiseXor: return .number(Double(toInt32(try toNumber(l, line: line)) ^ toInt32(try toNumber(r, line: line))))
        case .in:
            guard case .object(let o) = r else {
                throw typeError("'in' needs an object on its right, not \(r.typeName)", line: line)
            }
            let key = try toPropertyKey(l, line: line)
            if case .array(let a) = o.storage {
                if key == "length" { return .boolean(true) }
                if let i = arrayIndex(key) { return .boolean(i < a.count) }
            }
            return .boolean(o.has(key))
        case .instanceof:
            guard case .object(let f) = r, f.isCallable else {
                throw typeError("the right side of 'instanceof' is not callable", line: line)
            }
            guard case .object(let o) = l else { return .boolean(false) }
            if case .function(.native(let name, _)) = f.storage {
                switch name {
                case "Array": return .boolean(o.isArray)
                case "Object": return .boolean(true)
                case "Function": return .boolean(o.isCallable)
                case "Error": if case .error = o.storage { return .boolean(true) } else { return .boolean(false) }
                case "RegExp": if case .regexp = o.storage { return .boolean(true) } else { return .boolean(false) }
                default: return .boolean(false)
                }
            }
            guard case .object(let proto) = try property(of: r, "prototype", line: line) else { return .boolean(false) }
            var p = o.prototype
            var hops = 0
            while let current = p, hops < 1_000 {
                if current === proto { return .boolean(true) }
                p = current.prototype
                hops += 1
            }
            return .boolean(false)
        }
    }

    /// Abstract equality (`==`).
    func looselyEquals(_ a: ScriptValue, _ b: ScriptValue, line: Int) throws(ScriptError) -> Bool {
        switch (a, b) {
        case (.undefined, .undefined), (.null, .null), (.undefined, .null), (.null, .undefined): return true
        case (.undefined, _), (.null, _), (_, .undefined), (_, .null): return false
        case (.number, .number), (.string, .string), (.boolean, .boolean), (.object, .object): return strictEquals(a, b)
        case (.number(let x), .string(let s)): return x == parseNumber(s)
        case (.string(let s), .number(let x)): return parseNumber(s) == x
        case (.boolean(let x), _): return try looselyEquals(.number(x ? 1 : 0), b, line: line)
        case (_, .boolean(let y)): return try looselyEquals(a, .number(y ? 1 : 0), line: line)
        case (.object, _): return try looselyEquals(try toPrimitive(a, preferString: false, line: line), b, line: line)
        case (_, .object): return try looselyEquals(a, try toPrimitive(b, preferString: false, line: line), line: line)
        }
    }

    /// The abstract relational comparison `a < b`; `undefined` (a `NaN` was involved) makes every
    /// comparison false, which `result` cannot turn true.
    private func compare(
        _ a: ScriptValue, _ b: ScriptValue, line: Int, _ result: (Bool) -> Bool
    ) throws(ScriptError) -> Bool {
        let pa = try toPrimitive(a, preferString: false, line: line)
        let pb = try toPrimitive(b, preferString: false, line: line)
        if case .string(let x) = pa, case .string(let y) = pb {
            return result(x.utf16.lexicographicallyPrecedes(y.utf16))
        }
        let x = try toNumber(pa, line: line)
        let y = try toNumber(pb, line: line)
        if x.isNaN || y.isNaN { return false }
        return result(x < y)
    }
}

/// ToInt32.
func toInt32(_ n: Double) -> Int32 {
    Int32(truncatingIfNeeded: Int64(truncatingIfNeeded: toUInt32(n)))
}

/// ToUint32.
func toUInt32(_ n: Double) -> UInt32 {
    guard n.isFinite else { return 0 }
    let t = n.rounded(.towardZero)
    let m = t.truncatingRemainder(dividingBy: 4_294_967_296)
    return UInt32(m < 0 ? m + 4_294_967_296 : m)
}

/// `x ** y` as ECMAScript defines it (`1 ** NaN` is `NaN`, unlike C's `pow`).
func power(_ x: Double, _ y: Double) -> Double {
    if y.isNaN { return .nan }
    if abs(x) == 1 && y.isInfinite { return .nan }
    return pow(x, y)
}

/// A canonical array index (`"0"`, `"12"`, not `"01"`).
func arrayIndex(_ key: String) -> Int? {
    guard let first = key.utf8.first, first >= 0x30, first <= 0x39, key.utf8.count <= 15 else { return nil }
    if first == 0x30 && key.utf8.count > 1 { return nil }
    return Int(key)
}
