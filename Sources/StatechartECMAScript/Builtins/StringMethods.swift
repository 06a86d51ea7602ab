/// Methods of strings. Positions are UTF-16 code units, as in ECMAScript.
private let es5StringMethods: [String: BuiltinMethod] = [
    "charAt": { (i, this, a) throws(ScriptError) in
        let u = try units(i, this)
        let p = try i.toInteger(a[argument: 0])
        return .string(p >= 0 && p < Double(u.count) ? String(decoding: [u[Int(p)]], as: UTF16.self) : "")
    },
    "charCodeAt": { (i, this, a) throws(ScriptError) in
        let u = try units(i, this)
        let p = try i.toInteger(a[argument: 0])
        return .number(p >= 0 && p < Double(u.count) ? Double(u[Int(p)]) : .nan)
    },
    "at": { (i, this, a) throws(ScriptError) in
        let u = try units(i, this)
        var p = try i.toInteger(a[argument: 0])
        if p < 0 { p += Double(u.count) }
        return p >= 0 && p < Double(u.count) ? .string(String(decoding: [u[Int(p)]], as: UTF16.self)) : .undefined
    },
    "indexOf": { (i, this, a) throws(ScriptError) in
        let u = try units(i, this)
        let needle = Array(try i.toStringValue(a[argument: 0], line: 0).utf16)
        let from = clamp(try i.toInteger(a[argument: 1]), u.count)
        return .number(Double(find(needle, in: u, from: from, backwards: false) ?? -1))
    },
    "lastIndexOf": { (i, this, a) throws(ScriptError) in
        let u = try units(i, this)
        let needle = Array(try i.toStringValue(a[argument: 0], line: 0).utf16)
        let n = try i.toNumber(a[argument: 1], line: 0)
        let from = n.isNaN ? u.count : clamp(try i.toInteger(a[argument: 1]), u.count)
        return .number(Double(find(needle, in: u, from: from, backwards: true) ?? -1))
    },
    "includes": { (i, this, a) throws(ScriptError) in
        let u = try units(i, this)
        let needle = Array(try i.toStringValue(a[argument: 0], line: 0).utf16)
        return .boolean(find(needle, in: u, from: clamp(try i.toInteger(a[argument: 1]), u.count), backwards: false) != nil)
    },
    "startsWith": { (i, this, a) throws(ScriptError) in
        let u = try units(i, this)
        let needle = Array(try i.toStringValue(a[argument: 0], line: 0).utf16)
        let from = clamp(try i.toInteger(a[argument: 1]), u.count)
        return .boolean(u[from...].starts(with: needle))
    },
    "endsWith": { (i, this, a) throws(ScriptError) in
        let u = try units(i, this)
        let needle = Array(try i.toStringValue(a[argument: 0], line: 0).utf16)
        let end = a[argument: 1] == .undefined ? u.count : clamp(try i.toInteger(a[argument: 1]), u.count)
        return .boolean(end >= needle.count && Array(u[(end - needle.count)..<end]) == needle)
    },
    "slice": { (i, this, a) throws(ScriptError) in
        let u = try units(i, this)
        let (start, end) = try sliceBounds(i, a, count: u.count)
        return .string(start < end ? String(decoding: u[start..<end], as: UTF16.self) : "")
    },
    "substring": { (i, this, a) throws(ScriptError) in
        let u = try units(i, this)
        var start = clamp(try i.toInteger(a[argument: 0]), u.count)
        var end = a[argument: 1] == .undefined ? u.count : clamp(try i.toInteger(a[argument: 1]), u.count)
        if start > end { swap(&start, &end) }
        return .string(String(decoding: u[start..<end], as: UTF16.self))
    },
    "substr": { (i, this, a) throws(ScriptError) in
        let u = try units(i, this)
        var start = try i.toInteger(a[argument: 0])
        if start < 0 { start = max(0, Double(u.count) + start) }
        let s = clamp(start, u.count)
        let length = a[argument: 1] == .undefined ? Double(u.count) : try i.toInteger(a[argument: 1])
        let e = clamp(Double(s) + max(0, length), u.count)
        return .string(s < e ? String(decoding: u[s..<e], as: UTF16.self) : "")
    },
    "toUpperCase": { (i, this, _) throws(ScriptError) in .string(try i.toStringValue(this, line: 0).uppercased()) },
    "toLowerCase": { (i, this, _) throws(ScriptError) in .string(try i.toStringValue(this, line: 0).lowercased()) },
    "trim": { (i, this, _) throws(ScriptError) in .string(try i.toStringValue(this, line: 0).trimmingScriptWhitespace()) },
    "trimStart": { (i, this, _) throws(ScriptError) in
        .string(String(try i.toStringValue(this, line: 0).unicodeScalars.drop(while: isScriptWhitespace)))
    },
    "trimEnd": { (i, this, _) throws(ScriptError) in
        let s = try i.toStringValue(this, line: 0).unicodeScalars
        var end = s.endIndex
        while end > s.startIndex, isScriptWhitespace(s[s.index(before: end)]) { end = s.index(before: end) }
        return .string(String(s[s.startIndex..<end]))
    },
    "concat": { (i, this, a) throws(ScriptError) in
        var s = try i.toStringValue(this, line: 0)
        for v in a { s += try i.toStringValue(v, line: 0) }
        return try i.makeString(s, line: 0)
    },
    "repeat": { (i, this, a) throws(ScriptError) in
        let s = try i.toStringValue(this, line: 0)
        let n = try i.toInteger(a[argument: 0])
        guard n >= 0, n.isFinite else { throw ScriptError(.range, "invalid count for repeat") }
        if s.isEmpty { return .string("") }  // any count of nothing, however large
        try i.charge(s.utf8.count * Int(min(n, 1e12)), line: 0)
        return .string(String(repeating: s, count: Int(n)))
    },
    "padStart": { (i, this, a) throws(ScriptError) in try pad(i, this, a, atStart: true) },
    "padEnd": { (i, this, a) throws(ScriptError) in try pad(i, this, a, atStart: false) },
    "split": { (i, this, a) throws(ScriptError) in
        let s = try i.toStringValue(this, line: 0)
        let limit = a[argument: 1] == .undefined ? Int.max : Int(toUInt32(try i.toNumber(a[1], line: 0)))
        if case .object(let o) = a[argument: 0], case .regexp(let state) = o.storage {
            return try i.regExpSplit(s, state, limit: limit)
        }
        guard a[argument: 0] != .undefined else { return try i.makeArray([.string(s)], line: 0) }
        let separator = Array(try i.toStringValue(a[0], line: 0).utf16)
        let u = Array(s.utf16)
        var parts: [ScriptValue] = []
        if separator.isEmpty {
            for unit in u.prefix(limit) { parts.append(.string(String(decoding: [unit], as: UTF16.self))) }
        } else {
            var start = 0
            while parts.count < limit, let found = find(separator, in: u, from: start, backwards: false) {
                parts.append(.string(String(decoding: u[start..<found], as: UTF16.self)))
                start = found + separator.count
            }
            if parts.count < limit { parts.append(.string(String(decoding: u[start...], as: UTF16.self))) }
        }
        try i.charge(16 * parts.count + s.utf8.count, line: 0)
        return try i.makeArray(parts, line: 0)
    },
    "match": { (i, this, a) throws(ScriptError) in try i.stringMatch(try i.toStringValue(this, line: 0), a[argument: 0]) },
    "search": { (i, this, a) throws(ScriptError) in try i.stringSearch(try i.toStringValue(this, line: 0), a[argument: 0]) },
    "replace": { (i, this, a) throws(ScriptError) in try replace(i, this, a, all: false) },
    "replaceAll": { (i, this, a) throws(ScriptError) in try replace(i, this, a, all: true) },
    "toString": { (i, this, _) throws(ScriptError) in .string(try i.toStringValue(this, line: 0)) },
    "valueOf": { (i, this, _) throws(ScriptError) in .string(try i.toStringValue(this, line: 0)) },
]

/// With the methods of ECMAScript 2015 and after (LaterBuiltins.swift).
let stringMethods: [String: BuiltinMethod] = es5StringMethods.merging(laterStringMethods) { earlier, _ in earlier }

private func units(_ i: Interpreter, _ this: ScriptValue) throws(ScriptError) -> [UInt16] {
    Array(try i.toStringValue(this, line: 0).utf16)
}

/// `x` as an `Int` within `bounds`: clamped as a double first, since `Int(_:)` traps on a value
/// past `Int`'s range (`1e300`, `-Infinity`); NaN is the lower bound.
func clampedInt(_ x: Double, _ bounds: ClosedRange<Int>) -> Int {
    if x.isNaN || x <= Double(bounds.lowerBound) { return bounds.lowerBound }
    if x >= Double(bounds.upperBound) { return bounds.upperBound }
    return Int(x)
}

/// Clamps a relative position to `0...count`.
func clamp(_ position: Double, _ count: Int) -> Int {
    if position.isNaN || position <= 0 { return 0 }
    return position >= Double(count) ? count : Int(position)
}

/// `slice`'s bounds: negative positions count from the end.
func sliceBounds(_ i: Interpreter, _ a: [ScriptValue], count: Int) throws(ScriptError) -> (Int, Int) {
    func resolve(_ v: ScriptValue, default d: Int) throws(ScriptError) -> Int {
        if v == .undefined { return d }
        let n = try i.toInteger(v)
        return n < 0 ? clamp(Double(count) + n, count) : clamp(n, count)
    }
    return (try resolve(a[argument: 0], default: 0), try resolve(a[argument: 1], default: count))
}

private func find(_ needle: [UInt16], in haystack: [UInt16], from: Int, backwards: Bool) -> Int? {
    guard needle.count <= haystack.count else { return nil }
    let last = haystack.count - needle.count
    if backwards {
        var p = min(from, last)
        while p >= 0 {
            if haystack[p..<p + needle.count].elementsEqual(needle) { return p }
            p -= 1
        }
        return nil
    }
    var p = from
    while p <= last {
        if haystack[p..<p + needle.count].elementsEqual(needle) { return p }
        p += 1
    }
    return nil
}

private func pad(_ i: Interpreter, _ this: ScriptValue, _ a: [ScriptValue], atStart: Bool) throws(ScriptError) -> ScriptValue {
    let s = try i.toStringValue(this, line: 0)
    let target = clampedInt(try i.toInteger(a[argument: 0]), 0...1_000_000_000)
    let filler = a[argument: 1] == .undefined ? [UInt16(0x20)] : Array(try i.toStringValue(a[1], line: 0).utf16)
    let u = Array(s.utf16)
    guard target > u.count, !filler.isEmpty else { return .string(s) }
    try i.charge(2 * target, line: 0)
    var padding: [UInt16] = []
    while padding.count < target - u.count { padding.append(filler[padding.count % filler.count]) }
    return .string(String(decoding: atStart ? padding + u : u + padding, as: UTF16.self))
}

/// `replace` and `replaceAll`: with a `RegExp` (RegExpMethods.swift), or with a string, whose
/// first (or every) occurrence is replaced by the replacement's substitution (`$&`, `$$`…) or
/// by what the replacement function returns.
private func replace(_ i: Interpreter, _ this: ScriptValue, _ a: [ScriptValue], all: Bool) throws(ScriptError) -> ScriptValue {
    let u = Array(try i.toStringValue(this, line: 0).utf16)
    if case .object(let o) = a[argument: 0], case .regexp(let state) = o.storage {
        return try i.regExpReplace(u, state, a[argument: 1], all: all)
    }
    let pattern = Array(try i.toStringValue(a[argument: 0], line: 0).utf16)
    let template = a[argument: 1].isCallableObject ? nil : Array(try i.toStringValue(a[argument: 1], line: 0).utf16)
    var out: [UInt16] = []
    var start = 0
    while let found = find(pattern, in: u, from: start, backwards: false) {
        out.append(contentsOf: u[start..<found])
        let match = String(decoding: pattern, as: UTF16.self)
        if case .object(let f) = a[argument: 1], f.isCallable {
            let r = try i.call(f, this: .undefined, [.string(match), .number(Double(found)), .string(String(decoding: u, as: UTF16.self))], line: 0)
            out.append(contentsOf: try i.toStringValue(r, line: 0).utf16)
        } else if let template {
            out.append(contentsOf: try i.substitution(
                template, groups: [.string(match)], named: .undefined, in: u, at: found, end: found + pattern.count))
        }
        start = found + max(pattern.count, 1)
        if pattern.isEmpty {
            if found < u.count { out.append(u[found]) }
            if found >= u.count { start = u.count + 1 }
        }
        if !all || start > u.count { break }
    }
    if start <= u.count { out.append(contentsOf: u[min(start, u.count)...]) }
    try i.charge(2 * out.count, line: 0)
    return .string(String(decoding: out, as: UTF16.self))
}

extension Interpreter {
    /// ToIntegerOrInfinity.
    func toInteger(_ v: ScriptValue) throws(ScriptError) -> Double {
        let n = try toNumber(v, line: 0)
        if n.isNaN { return 0 }
        return n.rounded(.towardZero)
    }
}

extension ScriptValue: Equatable {
    /// Strict equality, except that `NaN` equals itself (used by the host, not by scripts).
    static func == (a: ScriptValue, b: ScriptValue) -> Bool { sameValueZero(a, b) }
}
