/// ECMAScript's Number::toString for radix 10: `1` not `1.0`, `0.000001`, `1e-7`, `1e+21`.
///
/// Swift's `description` already gives the shortest digits that round-trip (the same digits
/// ECMAScript requires); only the layout differs, so the digits and the exponent are taken from it
/// and laid out by the standard's four cases.
func formatNumber(_ value: Double) -> String {
    if value.isNaN { return "NaN" }
    if value == 0 { return "0" }
    if value.isInfinite { return value < 0 ? "-Infinity" : "Infinity" }
    if value < 0 { return "-" + formatNumber(-value) }
    if value < 1e21, value == value.rounded(.towardZero), value < 9_007_199_254_740_992 {
        return String(Int64(value))
    }
    let text = value.description
    var mantissa = Substring(text)
    var exponent = 0
    if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
        mantissa = text[..<e]
        exponent = Int(text[text.index(after: e)...].replacingPlus()) ?? 0
    }
    let parts = mantissa.split(separator: ".", omittingEmptySubsequences: false)
    let integerPart = parts.first.map(String.init) ?? ""
    let fraction = parts.count > 1 ? String(parts[1]) : ""
    var digits = Array(integerPart + fraction)
    var point = integerPart.count + exponent
    while let first = digits.first, first == "0", digits.count > 1 {
        digits.removeFirst()
        point -= 1
    }
    while let last = digits.last, last == "0", digits.count > 1 { digits.removeLast() }
    let k = digits.count
    let n = point
    let s = String(digits)
    if k <= n && n <= 21 { return s + String(repeating: "0", count: n - k) }
    if 0 < n && n <= 21 { return String(digits[..<n]) + "." + String(digits[n...]) }
    if -6 < n && n <= 0 { return "0." + String(repeating: "0", count: -n) + s }
    let e = n - 1
    let sign = e < 0 ? "-" : "+"
    let head = k == 1 ? s : String(digits[0]) + "." + String(digits[1...])
    return head + "e" + sign + String(abs(e))
}

extension Substring {
    fileprivate func replacingPlus() -> Substring {
        first == "+" ? dropFirst() : self
    }
}

/// ECMAScript's StringToNumber: white space trimmed, empty is 0, `0x` hexadecimal, `Infinity`,
/// otherwise a decimal literal or `NaN`.
func parseNumber(_ text: String) -> Double {
    let trimmed = text.trimmingScriptWhitespace()
    if trimmed.isEmpty { return 0 }
    switch trimmed {
    case "Infinity", "+Infinity": return .infinity
    case "-Infinity": return -.infinity
    default: break
    }
    let lower = trimmed.lowercased()
    if lower.hasPrefix("0x") || lower.hasPrefix("0o") || lower.hasPrefix("0b") {
        let radix = lower.hasPrefix("0x") ? 16 : lower.hasPrefix("0o") ? 8 : 2
        guard let v = UInt64(lower.dropFirst(2), radix: radix) else { return .nan }
        return Double(v)
    }
    // Swift's parser accepts forms ECMAScript does not ("nan", "inf", hexadecimal floats).
    guard trimmed.allSatisfy({ $0.isASCII && ($0.isNumber || "+-.eE".contains($0)) }) else { return .nan }
    guard trimmed.contains(where: \.isNumber) else { return .nan }
    return Double(trimmed.hasPrefix(".") ? "0" + trimmed : trimmed.replacingDotSign()) ?? .nan
}

extension String {
    /// Trims the white space and line terminators ECMAScript's `trim` removes.
    func trimmingScriptWhitespace() -> String {
        let scalars = unicodeScalars
        var start = scalars.startIndex
        var end = scalars.endIndex
        while start < end, isScriptWhitespace(scalars[start]) { start = scalars.index(after: start) }
        while end > start, isScriptWhitespace(scalars[scalars.index(before: end)]) { end = scalars.index(before: end) }
        return String(scalars[start..<end])
    }

    /// `-.5` → `-0.5` (Swift's parser wants a digit before the point).
    fileprivate func replacingDotSign() -> String {
        if hasPrefix("-.") { return "-0." + dropFirst(2) }
        if hasPrefix("+.") { return "0." + dropFirst(2) }
        return self
    }
}

func isScriptWhitespace(_ s: Unicode.Scalar) -> Bool {
    switch s.value {
    case 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x20, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF:
        return true
    default:
        return false
    }
}
