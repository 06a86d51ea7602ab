/// A value inside the interpreter. Objects, arrays and functions are references, as in
/// ECMAScript (`b = a; b.push(1)` changes `a`); everything else is a value.
enum ScriptValue {
    /// `undefined`.
    case undefined
    /// `null`.
    case null
    /// `true` or `false`.
    case boolean(Bool)
    /// A number (an IEEE 754 double, as in ECMAScript).
    case number(Double)
    /// A string.
    case string(String)
    /// An object, an array or a function.
    case object(ScriptObject)

    /// The result of `typeof`.
    var typeName: String {
        switch self {
        case .undefined: return "undefined"
        case .null: return "object"
        case .boolean: return "boolean"
        case .number: return "number"
        case .string: return "string"
        case .object(let o): return o.isCallable ? "function" : "object"
        }
    }

    /// ToBoolean.
    var truthy: Bool {
        switch self {
        case .undefined, .null: return false
        case .boolean(let b): return b
        case .number(let n): return !(n == 0 || n.isNaN)
        case .string(let s): return !s.isEmpty
        case .object: return true
        }
    }

    /// ToString for primitives, and a readable form for objects (for messages and logs; the
    /// evaluator's ToString of an object calls its `toString`).
    var displayString: String {
        switch self {
        case .undefined: return "undefined"
        case .null: return "null"
        case .boolean(let b): return b ? "true" : "false"
        case .number(let n): return formatNumber(n)
        case .string(let s): return s
        case .object(let o): return o.defaultString
        }
    }

    var isNullish: Bool {
        switch self {
        case .undefined, .null: return true
        default: return false
        }
    }

    var asObject: ScriptObject? {
        if case .object(let o) = self { return o }
        return nil
    }
}

/// Strict equality (`===`): same type and value; objects by identity; `NaN` is not equal to itself.
func strictEquals(_ a: ScriptValue, _ b: ScriptValue) -> Bool {
    switch (a, b) {
    case (.undefined, .undefined), (.null, .null): return true
    case (.boolean(let x), .boolean(let y)): return x == y
    case (.number(let x), .number(let y)): return x == y
    case (.string(let x), .string(let y)): return x == y
    case (.object(let x), .object(let y)): return x === y
    default: return false
    }
}

/// SameValueZero (used by `includes`): like `===` except that `NaN` equals `NaN`.
func sameValueZero(_ a: ScriptValue, _ b: ScriptValue) -> Bool {
    if case .number(let x) = a, case .number(let y) = b, x.isNaN && y.isNaN { return true }
    return strictEquals(a, b)
}
