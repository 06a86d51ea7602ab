/// SCXML `delay` values: CSS2 time designations (W3C SCXML 1.0 §6.2.1).
///
/// A non-negative decimal number — digits with an optional fraction (`.5` and `1.5` are
/// accepted, `5.` is not) — followed by the unit `ms` or `s`, with optional surrounding white space.
/// CSS2 defines no other time unit, so `1m`, `1min` or `1h` are refused rather than guessed at.
enum SCXMLDelay {
    /// The duration written, or the reason it is not a CSS2 time.
    static func parse(_ text: String) -> Result<Duration, Failure> {
        let s = Array(text.utf8).drop { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        var rest = s[...]
        while let last = rest.last, last == 0x20 || last == 0x09 || last == 0x0A || last == 0x0D { rest.removeLast() }
        var integerDigits: [UInt8] = []
        var fractionDigits: [UInt8] = []
        while let c = rest.first, c >= 0x30 && c <= 0x39 {
            integerDigits.append(c - 0x30)
            rest.removeFirst()
        }
        if rest.first == UInt8(ascii: ".") {
            rest.removeFirst()
            while let c = rest.first, c >= 0x30 && c <= 0x39 {
                fractionDigits.append(c - 0x30)
                rest.removeFirst()
            }
            if fractionDigits.isEmpty { return .failure(Failure("a decimal point must be followed by digits")) }
        }
        if integerDigits.isEmpty && fractionDigits.isEmpty {
            if rest.first == UInt8(ascii: "-") { return .failure(Failure("a delay cannot be negative")) }
            return .failure(Failure("expected a number followed by 'ms' or 's'"))
        }
        let unit = String(decoding: rest, as: UTF8.self)
        let attosecondsPerUnit: Int128
        switch unit {
        case "ms": attosecondsPerUnit = 1_000_000_000_000_000
        case "s": attosecondsPerUnit = 1_000_000_000_000_000_000
        case "": return .failure(Failure("a unit is required: 'ms' or 's'"))
        default: return .failure(Failure("unknown unit '\(unit)': CSS2 times are in 'ms' or 's'"))
        }
        // Drop leading zeros in one step: removing them one at a time is quadratic in their number.
        integerDigits.removeFirst(integerDigits.prefix { $0 == 0 }.count)
        while fractionDigits.last == 0 { fractionDigits.removeLast() }
        guard integerDigits.count <= 12 else { return .failure(Failure("the delay is too long")) }
        guard fractionDigits.count <= 18 else { return .failure(Failure("too many decimals")) }
        var mantissa: Int128 = 0
        for d in integerDigits + fractionDigits { mantissa = mantissa * 10 + Int128(d) }
        var divisor: Int128 = 1
        for _ in fractionDigits { divisor *= 10 }
        let attoseconds =
            attosecondsPerUnit >= divisor
            ? mantissa * (attosecondsPerUnit / divisor) : mantissa / (divisor / attosecondsPerUnit)
        return .success(Duration(attoseconds: attoseconds))
    }

    /// Why a delay was refused.
    struct Failure: Error, Hashable {
        var reason: String
        init(_ reason: String) { self.reason = reason }
    }

    /// Writes a duration as a CSS2 time: whole milliseconds as `…ms`, otherwise seconds with as
    /// many decimals as needed (exact, so that it parses back to the same duration).
    static func format(_ d: Duration) -> String {
        let (seconds, attoseconds) = d.components
        let total = Int128(seconds) * 1_000_000_000_000_000_000 + Int128(attoseconds)
        guard total > 0 else { return "0ms" }
        let perMillisecond: Int128 = 1_000_000_000_000_000
        if total % perMillisecond == 0 { return "\(total / perMillisecond)ms" }
        let whole = total / 1_000_000_000_000_000_000
        var fraction = String(total % 1_000_000_000_000_000_000)
        fraction = String(repeating: "0", count: 18 - fraction.count) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return "\(whole).\(fraction)s"
    }
}
