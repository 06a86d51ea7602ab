/// The characters of ECMAScript's regular expressions. A character is a `UInt32`: a UTF-16 code
/// unit without the `u` flag (a pattern and its input are sequences of code units, as the
/// subset's strings are), a code point with it (a surrogate pair is one character).

/// A class escape: `\d`, `\w`, `\s`, their complements, and `\p{…}`/`\P{…}` under the `u` flag.
enum RegExpClassEscape: Sendable, Equatable {
    case digit, word, space
    case notDigit, notWord, notSpace
    case property(RegExpUnicodeProperty, negated: Bool)

    /// Whether the escape holds `c`. Under both `u` and `i` (`unicodeIgnoreCase`), `\w` holds the
    /// two characters that fold to an ASCII letter as well, `ſ` and the Kelvin sign (ECMAScript's
    /// WordCharacters), and `\W` does not.
    func contains(_ c: UInt32, unicodeIgnoreCase: Bool) -> Bool {
        switch self {
        case .digit: return isRegExpDigit(c)
        case .word: return isRegExpWordCharacter(c, unicodeIgnoreCase: unicodeIgnoreCase)
        case .space: return isRegExpSpace(c)
        case .notDigit: return !isRegExpDigit(c)
        case .notWord: return !isRegExpWordCharacter(c, unicodeIgnoreCase: unicodeIgnoreCase)
        case .notSpace: return !isRegExpSpace(c)
        case .property(let p, let negated): return p.contains(c) != negated
        }
    }
}

/// A character class, `[…]` or `[^…]`, or a class escape outside one.
struct RegExpCharacterSet: Sendable {
    var ranges: [ClosedRange<UInt32>] = []
    var escapes: [RegExpClassEscape] = []
    var negated = false

    /// Whether `c` is in the set. Under the `i` flag a set holds `c` when it holds a character
    /// of the same case: without `u`, `c`, its canonical (upper-case) form or its lower-case form
    /// (`[a-z]` then matches `Q`, `[A-Z]` `q`); with `u`, any character that folds as `c` does
    /// (`[ſ]` matches `s` and `S`).
    func matches(_ c: UInt32, ignoreCase: Bool, unicode: Bool) -> Bool {
        let foldsWords = ignoreCase && unicode
        var found = holds(c, foldsWords)
        if !found && ignoreCase {
            if unicode {
                for m in regExpCaseClass(c) where m != c && holds(m, true) {
                    found = true
                    break
                }
            } else {
                let upper = regExpCanonical(c)
                let lower = regExpLowercase(c)
                found = (upper != c && holds(upper, false)) || (lower != c && holds(lower, false))
            }
        }
        return found != negated
    }

    private func holds(_ c: UInt32, _ unicodeIgnoreCase: Bool) -> Bool {
        for r in ranges where r.contains(c) { return true }
        for e in escapes where e.contains(c, unicodeIgnoreCase: unicodeIgnoreCase) { return true }
        return false
    }
}

func isRegExpDigit(_ c: UInt32) -> Bool { c >= 0x30 && c <= 0x39 }

/// `\w`: ASCII letters, digits and `_`; under `u` and `i` also `ſ` (U+017F) and `K` (U+212A),
/// which fold to `s` and `k`.
func isRegExpWordCharacter(_ c: UInt32, unicodeIgnoreCase: Bool = false) -> Bool {
    (c >= 0x61 && c <= 0x7A) || (c >= 0x41 && c <= 0x5A) || isRegExpDigit(c) || c == 0x5F
        || (unicodeIgnoreCase && (c == 0x17F || c == 0x212A))
}

/// `\s`: ECMAScript's white space and line terminators.
func isRegExpSpace(_ c: UInt32) -> Bool {
    switch c {
    case 0x09...0x0D, 0x20, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF: return true
    default: return false
    }
}

/// The line terminators `.` does not match (without the `s` flag) and `^`/`$` stop at under `m`.
func isRegExpLineTerminator(_ c: UInt32) -> Bool { c == 0x0A || c == 0x0D || c == 0x2028 || c == 0x2029 }

/// ECMAScript's `Canonicalize` without the `u` flag: the upper-case form of a code unit when
/// that is one code unit and does not take a non-ASCII unit into ASCII; else the unit itself.
func regExpCanonical(_ c: UInt32) -> UInt32 {
    if c < 0x80 {
        return c >= 0x61 && c <= 0x7A ? c - 0x20 : c
    }
    guard let scalar = Unicode.Scalar(c) else { return c }  // a lone surrogate
    let upper = scalar.properties.uppercaseMapping.utf16
    guard upper.count == 1, let u = upper.first, u >= 0x80 else { return c }
    return UInt32(u)
}

/// The lower-case form of a code unit when it is one code unit; else the unit itself.
func regExpLowercase(_ c: UInt32) -> UInt32 {
    if c < 0x80 {
        return c >= 0x41 && c <= 0x5A ? c + 0x20 : c
    }
    guard let scalar = Unicode.Scalar(c) else { return c }
    let lower = scalar.properties.lowercaseMapping.utf16
    guard lower.count == 1, let l = lower.first, l >= 0x80 else { return c }
    return UInt32(l)
}
