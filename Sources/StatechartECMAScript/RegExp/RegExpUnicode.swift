/// What the `u` flag adds to regular expressions: property escapes (`\p{…}`, `\P{…}`) and case
/// folding. Both read the Unicode data of the Swift standard library, so a character assigned in
/// a later Unicode version than the toolchain's may be classified differently from a browser.

/// A Unicode property of `\p{…}`: general categories (`L`, `Lu`, `General_Category=Letter`…) or
/// one of ECMAScript's binary properties (`Alphabetic`, `White_Space`, `Emoji`…).
enum RegExpUnicodeProperty: Sendable, Equatable {
    /// A set of general categories, one bit each (``regExpCategoryBit(_:)``).
    case categories(UInt32)
    case binary(RegExpBinaryProperty)

    /// The property `\p{text}` names, as ECMAScript spells it (case matters, as there).
    ///
    /// - Throws: a `SyntaxError` for a name ECMAScript does not have; an `UnsupportedError` for
    ///   one it has that needs data the standard library does not carry (scripts,
    ///   `Extended_Pictographic`).
    init(_ text: String) throws(ScriptError) {
        let parts = text.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        if parts.count == 2 {
            switch parts[0] {
            case "General_Category", "gc":
                guard let mask = regExpCategoryNames[parts[1]] else { throw RegExpUnicodeProperty.unknown(text) }
                self = .categories(mask)
            case "Script", "sc", "Script_Extensions", "scx":
                throw ScriptError(.unsupported, "the Unicode property \\p{\(text)} is not supported (scripts are not; general categories and binary properties are)")
            default:
                throw RegExpUnicodeProperty.unknown(text)
            }
            return
        }
        if let mask = regExpCategoryNames[text] {
            self = .categories(mask)
        } else if let property = regExpBinaryPropertyNames[text] {
            self = .binary(property)
        } else if text == "Extended_Pictographic" || text == "ExtPict" {
            throw ScriptError(.unsupported, "the Unicode property \\p{\(text)} is not supported")
        } else {
            throw RegExpUnicodeProperty.unknown(text)
        }
    }

    private static func unknown(_ text: String) -> ScriptError {
        ScriptError(.syntax, "invalid regular expression: unknown Unicode property \\p{\(text)}")
    }

    func contains(_ c: UInt32) -> Bool {
        switch self {
        case .categories(let mask):
            // A lone surrogate is no scalar: its category is Cs.
            let bit = Unicode.Scalar(c).map { regExpCategoryBit($0.properties.generalCategory) } ?? regExpCategoryBit(.surrogate)
            return mask & bit != 0
        case .binary(let property):
            return property.holds(c)
        }
    }
}

/// ECMAScript's binary Unicode properties that the standard library's data answers.
enum RegExpBinaryProperty: Sendable, Equatable {
    case any, ascii, assigned, asciiHexDigit, alphabetic, bidiControl, bidiMirrored, caseIgnorable, cased
    case changesWhenCasefolded, changesWhenCasemapped, changesWhenLowercased, changesWhenNFKCCasefolded
    case changesWhenTitlecased, changesWhenUppercased, dash, defaultIgnorableCodePoint, deprecated, diacritic
    case emoji, emojiComponent, emojiModifier, emojiModifierBase, emojiPresentation, extender, graphemeBase
    case graphemeExtend, hexDigit, idsBinaryOperator, idsTrinaryOperator, idContinue, idStart, ideographic
    case joinControl, logicalOrderException, lowercase, math, noncharacterCodePoint, patternSyntax
    case patternWhiteSpace, quotationMark, radical, regionalIndicator, sentenceTerminal, softDotted
    case terminalPunctuation, unifiedIdeograph, uppercase, variationSelector, whiteSpace, xidContinue, xidStart

    func holds(_ c: UInt32) -> Bool {
        switch self {
        case .any: return true
        case .ascii: return c < 0x80
        case .regionalIndicator: return c >= 0x1F1E6 && c <= 0x1F1FF
        case .emojiComponent:
            // emoji-data.txt's Emoji_Component: keycap bases, ZWJ, the keycap and the variation
            // selector, regional indicators, skin tones, hair components, tags.
            switch c {
            case 0x23, 0x2A, 0x30...0x39, 0x200D, 0x20E3, 0xFE0F, 0x1F1E6...0x1F1FF, 0x1F3FB...0x1F3FF,
                0x1F9B0...0x1F9B3, 0xE0020...0xE007F:
                return true
            default: return false
            }
        default: break
        }
        guard let scalar = Unicode.Scalar(c) else { return false }  // a lone surrogate
        let p = scalar.properties
        switch self {
        case .assigned: return p.generalCategory != .unassigned
        case .asciiHexDigit: return p.isASCIIHexDigit
        case .alphabetic: return p.isAlphabetic
        case .bidiControl: return p.isBidiControl
        case .bidiMirrored: return p.isBidiMirrored
        case .caseIgnorable: return p.isCaseIgnorable
        case .cased: return p.isCased
        case .changesWhenCasefolded: return p.changesWhenCaseFolded
        case .changesWhenCasemapped: return p.changesWhenCaseMapped
        case .changesWhenLowercased: return p.changesWhenLowercased
        case .changesWhenNFKCCasefolded: return p.changesWhenNFKCCaseFolded
        case .changesWhenTitlecased: return p.changesWhenTitlecased
        case .changesWhenUppercased: return p.changesWhenUppercased
        case .dash: return p.isDash
        case .defaultIgnorableCodePoint: return p.isDefaultIgnorableCodePoint
        case .deprecated: return p.isDeprecated
        case .diacritic: return p.isDiacritic
        case .emoji: return p.isEmoji
        case .emojiModifier: return p.isEmojiModifier
        case .emojiModifierBase: return p.isEmojiModifierBase
        case .emojiPresentation: return p.isEmojiPresentation
        case .extender: return p.isExtender
        case .graphemeBase: return p.isGraphemeBase
        case .graphemeExtend: return p.isGraphemeExtend
        case .hexDigit: return p.isHexDigit
        case .idsBinaryOperator: return p.isIDSBinaryOperator
        case .idsTrinaryOperator: return p.isIDSTrinaryOperator
        case .idContinue: return p.isIDContinue
        case .idStart: return p.isIDStart
        case .ideographic: return p.isIdeographic
        case .joinControl: return p.isJoinControl
        case .logicalOrderException: return p.isLogicalOrderException
        case .lowercase: return p.isLowercase
        case .math: return p.isMath
        case .noncharacterCodePoint: return p.isNoncharacterCodePoint
        case .patternSyntax: return p.isPatternSyntax
        case .patternWhiteSpace: return p.isPatternWhitespace
        case .quotationMark: return p.isQuotationMark
        case .radical: return p.isRadical
        case .sentenceTerminal: return p.isSentenceTerminal
        case .softDotted: return p.isSoftDotted
        case .terminalPunctuation: return p.isTerminalPunctuation
        case .unifiedIdeograph: return p.isUnifiedIdeograph
        case .uppercase: return p.isUppercase
        case .variationSelector: return p.isVariationSelector
        case .whiteSpace: return p.isWhitespace
        case .xidContinue: return p.isXIDContinue
        case .xidStart: return p.isXIDStart
        case .any, .ascii, .regionalIndicator, .emojiComponent: return true  // answered above
        }
    }
}

/// ECMAScript's names of the binary properties, long and short.
private let regExpBinaryPropertyNames: [String: RegExpBinaryProperty] = [
    "Any": .any, "ASCII": .ascii, "Assigned": .assigned, "ASCII_Hex_Digit": .asciiHexDigit, "AHex": .asciiHexDigit,
    "Alphabetic": .alphabetic, "Alpha": .alphabetic, "Bidi_Control": .bidiControl, "Bidi_C": .bidiControl,
    "Bidi_Mirrored": .bidiMirrored, "Bidi_M": .bidiMirrored, "Case_Ignorable": .caseIgnorable, "CI": .caseIgnorable,
    "Cased": .cased, "Changes_When_Casefolded": .changesWhenCasefolded, "CWCF": .changesWhenCasefolded,
    "Changes_When_Casemapped": .changesWhenCasemapped, "CWCM": .changesWhenCasemapped,
    "Changes_When_Lowercased": .changesWhenLowercased, "CWL": .changesWhenLowercased,
    "Changes_When_NFKC_Casefolded": .changesWhenNFKCCasefolded, "CWKCF": .changesWhenNFKCCasefolded,
    "Changes_When_Titlecased": .changesWhenTitlecased, "CWT": .changesWhenTitlecased,
    "Changes_When_Uppercased": .changesWhenUppercased, "CWU": .changesWhenUppercased, "Dash": .dash,
    "Default_Ignorable_Code_Point": .defaultIgnorableCodePoint, "DI": .defaultIgnorableCodePoint,
    "Deprecated": .deprecated, "Dep": .deprecated, "Diacritic": .diacritic, "Dia": .diacritic, "Emoji": .emoji,
    "Emoji_Component": .emojiComponent, "EComp": .emojiComponent, "Emoji_Modifier": .emojiModifier,
    "EMod": .emojiModifier, "Emoji_Modifier_Base": .emojiModifierBase, "EBase": .emojiModifierBase,
    "Emoji_Presentation": .emojiPresentation, "EPres": .emojiPresentation, "Extender": .extender, "Ext": .extender,
    "Grapheme_Base": .graphemeBase, "Gr_Base": .graphemeBase, "Grapheme_Extend": .graphemeExtend,
    "Gr_Ext": .graphemeExtend, "Hex_Digit": .hexDigit, "Hex": .hexDigit, "IDS_Binary_Operator": .idsBinaryOperator,
    "IDSB": .idsBinaryOperator, "IDS_Trinary_Operator": .idsTrinaryOperator, "IDST": .idsTrinaryOperator,
    "ID_Continue": .idContinue, "IDC": .idContinue, "ID_Start": .idStart, "IDS": .idStart,
    "Ideographic": .ideographic, "Ideo": .ideographic, "Join_Control": .joinControl, "Join_C": .joinControl,
    "Logical_Order_Exception": .logicalOrderException, "LOE": .logicalOrderException, "Lowercase": .lowercase,
    "Lower": .lowercase, "Math": .math, "Noncharacter_Code_Point": .noncharacterCodePoint,
    "NChar": .noncharacterCodePoint, "Pattern_Syntax": .patternSyntax, "Pat_Syn": .patternSyntax,
    "Pattern_White_Space": .patternWhiteSpace, "Pat_WS": .patternWhiteSpace, "Quotation_Mark": .quotationMark,
    "QMark": .quotationMark, "Radical": .radical, "Regional_Indicator": .regionalIndicator,
    "RI": .regionalIndicator, "Sentence_Terminal": .sentenceTerminal, "STerm": .sentenceTerminal,
    "Soft_Dotted": .softDotted, "SD": .softDotted, "Terminal_Punctuation": .terminalPunctuation,
    "Term": .terminalPunctuation, "Unified_Ideograph": .unifiedIdeograph, "UIdeo": .unifiedIdeograph,
    "Uppercase": .uppercase, "Upper": .uppercase, "Variation_Selector": .variationSelector, "VS": .variationSelector,
    "White_Space": .whiteSpace, "space": .whiteSpace, "XID_Continue": .xidContinue, "XIDC": .xidContinue,
    "XID_Start": .xidStart, "XIDS": .xidStart,
]

/// A general category's bit in a ``RegExpUnicodeProperty/categories(_:)`` mask.
func regExpCategoryBit(_ category: Unicode.GeneralCategory) -> UInt32 {
    let index: UInt32
    switch category {
    case .uppercaseLetter: index = 0
    case .lowercaseLetter: index = 1
    case .titlecaseLetter: index = 2
    case .modifierLetter: index = 3
    case .otherLetter: index = 4
    case .nonspacingMark: index = 5
    case .spacingMark: index = 6
    case .enclosingMark: index = 7
    case .decimalNumber: index = 8
    case .letterNumber: index = 9
    case .otherNumber: index = 10
    case .connectorPunctuation: index = 11
    case .dashPunctuation: index = 12
    case .openPunctuation: index = 13
    case .closePunctuation: index = 14
    case .initialPunctuation: index = 15
    case .finalPunctuation: index = 16
    case .otherPunctuation: index = 17
    case .mathSymbol: index = 18
    case .currencySymbol: index = 19
    case .modifierSymbol: index = 20
    case .otherSymbol: index = 21
    case .spaceSeparator: index = 22
    case .lineSeparator: index = 23
    case .paragraphSeparator: index = 24
    case .control: index = 25
    case .format: index = 26
    case .surrogate: index = 27
    case .privateUse: index = 28
    case .unassigned: index = 29
    @unknown default: index = 29
    }
    return 1 << index
}

/// ECMAScript's names of the general categories (PropertyValueAliases.txt), long and short, each
/// with its mask; a one-letter group holds its two-letter categories.
private let regExpCategoryNames: [String: UInt32] = {
    let single: [(names: [String], category: Unicode.GeneralCategory)] = [
        (["Lu", "Uppercase_Letter"], .uppercaseLetter), (["Ll", "Lowercase_Letter"], .lowercaseLetter),
        (["Lt", "Titlecase_Letter"], .titlecaseLetter), (["Lm", "Modifier_Letter"], .modifierLetter),
        (["Lo", "Other_Letter"], .otherLetter), (["Mn", "Nonspacing_Mark"], .nonspacingMark),
        (["Mc", "Spacing_Mark"], .spacingMark), (["Me", "Enclosing_Mark"], .enclosingMark),
        (["Nd", "Decimal_Number", "digit"], .decimalNumber), (["Nl", "Letter_Number"], .letterNumber),
        (["No", "Other_Number"], .otherNumber), (["Pc", "Connector_Punctuation"], .connectorPunctuation),
        (["Pd", "Dash_Punctuation"], .dashPunctuation), (["Ps", "Open_Punctuation"], .openPunctuation),
        (["Pe", "Close_Punctuation"], .closePunctuation), (["Pi", "Initial_Punctuation"], .initialPunctuation),
        (["Pf", "Final_Punctuation"], .finalPunctuation), (["Po", "Other_Punctuation"], .otherPunctuation),
        (["Sm", "Math_Symbol"], .mathSymbol), (["Sc", "Currency_Symbol"], .currencySymbol),
        (["Sk", "Modifier_Symbol"], .modifierSymbol), (["So", "Other_Symbol"], .otherSymbol),
        (["Zs", "Space_Separator"], .spaceSeparator), (["Zl", "Line_Separator"], .lineSeparator),
        (["Zp", "Paragraph_Separator"], .paragraphSeparator), (["Cc", "Control", "cntrl"], .control),
        (["Cf", "Format"], .format), (["Cs", "Surrogate"], .surrogate), (["Co", "Private_Use"], .privateUse),
        (["Cn", "Unassigned"], .unassigned),
    ]
    var names: [String: UInt32] = [:]
    for entry in single {
        for name in entry.names { names[name] = regExpCategoryBit(entry.category) }
    }
    let groups: [(names: [String], members: [String])] = [
        (["L", "Letter"], ["Lu", "Ll", "Lt", "Lm", "Lo"]), (["LC", "Cased_Letter"], ["Lu", "Ll", "Lt"]),
        (["M", "Mark", "Combining_Mark"], ["Mn", "Mc", "Me"]), (["N", "Number"], ["Nd", "Nl", "No"]),
        (["P", "Punctuation", "punct"], ["Pc", "Pd", "Ps", "Pe", "Pi", "Pf", "Po"]),
        (["S", "Symbol"], ["Sm", "Sc", "Sk", "So"]), (["Z", "Separator"], ["Zs", "Zl", "Zp"]),
        (["C", "Other"], ["Cc", "Cf", "Cs", "Co", "Cn"]),
    ]
    for group in groups {
        let mask = group.members.reduce(UInt32(0)) { $0 | names[$1]! }
        for name in group.names { names[name] = mask }
    }
    return names
}()

/// ECMAScript's `Canonicalize` with the `u` flag: simple case folding (CaseFolding.txt's C and S
/// mappings), taken as the lower-case form of the character's upper-case form where each is one
/// character — `ſ` and `S` fold to `s`, the Kelvin sign to `k`, `ς` to `σ`, `ẞ` to `ß`. The
/// dotted and dotless `i` of Turkish (U+0130, U+0131) have no simple folding: each is itself.
func regExpFold(_ c: UInt32) -> UInt32 {
    if c < 0x80 { return c >= 0x41 && c <= 0x5A ? c + 0x20 : c }
    if c == 0x130 || c == 0x131 { return c }
    guard let scalar = Unicode.Scalar(c) else { return c }
    let upper = regExpSingleScalar(scalar.properties.uppercaseMapping) ?? scalar
    return regExpSingleScalar(upper.properties.lowercaseMapping)?.value ?? c
}

private func regExpSingleScalar(_ s: String) -> Unicode.Scalar? {
    var scalars = s.unicodeScalars.makeIterator()
    guard let first = scalars.next(), scalars.next() == nil else { return nil }
    return first
}

/// The characters that fold as `c` does, `c` among them (``regExpFold(_:)``): what a class
/// matches `c` through under the `u` and `i` flags.
func regExpCaseClass(_ c: UInt32) -> [UInt32] {
    regExpFoldClasses[regExpFold(c)] ?? [c]
}

/// Every folded character with the characters that fold to it, for the characters that change
/// when case mapped (the others fold to themselves alone). Built on first use, once a process.
private let regExpFoldClasses: [UInt32: [UInt32]] = {
    var classes: [UInt32: [UInt32]] = [:]
    for value in UInt32(0)...0x1FFFF {
        guard let scalar = Unicode.Scalar(value), scalar.properties.changesWhenCaseMapped else { continue }
        let folded = regExpFold(value)
        if folded != value { classes[folded, default: [folded]].append(value) }
    }
    return classes
}()
