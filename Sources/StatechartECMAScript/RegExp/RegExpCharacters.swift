/// The characters of ECMAScript's regular expressions, in UTF-16 code units (the non-Unicode
/// mode: a pattern and its input are sequences of code units, as the subset's strings are).

/// A class escape: `\d`, `\w`, `\s` and their complements.
enum RegExpClassEscape: Sendable, Equatable {
    case digit, word, space
    case notDigit, notWord, notSpace

    func contains(_ c: UInt16) -> Bool {
        switch self {
        case .digit: return isRegExpDigit(c)
        case .word: return isRegExpWordCharacter(c)
        case .space: return isRegExpSpace(c)
        case .notDigit: return !isRegExpDigit(c)
        case .notWord: return !isRegExpWordCharacter(c)
        case .notSpace: return !isRegExpSpace(c)
        }
    }
}

/// A character class, `[…]` or `[^…]`, or a class escape outside one.
struct RegExpCharacterSet: Sendable {
    var ranges: [ClosedRange<UInt16>] = []
    var escapes: [RegExpClassEscape] = []
    var negated = false

    /// Whether `c` is in the set. Under the `i` flag a set holds `c` when it holds `c`, its
    /// canonical (upper-case) form or its lower-case form: `[a-z]` then matches `Q`, `[A-Z]` `q`.
    func matches(_ c: UInt16, ignoreCase: Bool) -> Bool {
        var found = holds(c)
        if !found && ignoreCase {
            let upper = regExpCanonical(c)
            let lower = regExpLowercase(c)
            found = (upper != c && holds(upper)) || (lower != c && holds(lower))
        }
        return found != negated
    }

    private func holds(_ c: UInt16) -> Bool {
        for r in ranges where r.contains(c) { return true }
        for e in escapes where e.contains(c) { return true }
        return false
    }
}

func isRegExpDigit(_ c: UInt16) -> Bool { c >= 0x30 && c <= 0x39 }

/// `\w`: ASCII letters, digits and `_` (ECMAScript's word characters without the `u` flag).
func isRegExpWordCharacter(_ c: UInt16) -> Bool {
    (c >= 0x61 && c <= 0x7A) || (c >= 0x41 && c <= 0x5A) || isRegExpDigit(c) || c == 0x5F
}

/// `\s`: ECMAScript's white space and line terminators.
func isRegExpSpace(_ c: UInt16) -> Bool {
    switch c {
    case 0x09...0x0D, 0x20, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF: return true
    default: return false
    }
}

/// The line terminators `.` does not match (without the `s` flag) and `^`/`$` stop at under `m`.
func isRegExpLineTerminator(_ c: UInt16) -> Bool { c == 0x0A || c == 0x0D || c == 0x2028 || c == 0x2029 }

/// ECMAScript's `Canonicalize` without the `u` flag: the upper-case form of a code unit when
/// that is one code unit and does not take a non-ASCII unit into ASCII; else the unit itself.
func regExpCanonical(_ c: UInt16) -> UInt16 {
    if c < 0x80 {
        return c >= 0x61 && c <= 0x7A ? c - 0x20 : c
    }
    guard let scalar = Unicode.Scalar(UInt32(c)) else { return c }  // a lone surrogate
    let upper = scalar.properties.uppercaseMapping.utf16
    guard upper.count == 1, let u = upper.first, u >= 0x80 else { return c }
    return u
}

/// The lower-case form of a code unit when it is one code unit; else the unit itself.
func regExpLowercase(_ c: UInt16) -> UInt16 {
    if c < 0x80 {
        return c >= 0x41 && c <= 0x5A ? c + 0x20 : c
    }
    guard let scalar = Unicode.Scalar(UInt32(c)) else { return c }
    let lower = scalar.properties.lowercaseMapping.utf16
    guard lower.count == 1, let l = lower.first, l >= 0x80 else { return c }
    return l
}
