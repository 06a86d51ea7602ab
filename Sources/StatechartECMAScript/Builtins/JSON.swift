/// `JSON.stringify` and `JSON.parse`, written here because the library stays free of Foundation.
extension Interpreter {
    /// `JSON.stringify(value, null, indent)`; `nil` where ECMAScript returns `undefined`.
    func stringify(_ value: ScriptValue, indent: ScriptValue = .undefined) throws(ScriptError) -> String? {
        var gap = ""
        switch indent {
        case .number(let n):
            // Clamped as a double first: `Int(_:)` of a number past `Int.max` (`1e300`) traps.
            gap = String(repeating: " ", count: Int(max(0, min(10, n.isNaN ? 0 : n))))
        case .string(let s): gap = String(s.prefix(10))
        default: break
        }
        var out = ""
        var stack: [ObjectIdentifier] = []
        guard try write(value, &out, gap: gap, indentation: "", stack: &stack) else { return nil }
        try charge(out.utf8.count, line: 0)
        return out
    }

    private func write(
        _ value: ScriptValue, _ out: inout String, gap: String, indentation: String, stack: inout [ObjectIdentifier]
    ) throws(ScriptError) -> Bool {
        switch value {
        case .undefined: return false
        case .null: out += "null"
        case .boolean(let b): out += b ? "true" : "false"
        case .number(let n): out += n.isFinite ? formatNumber(n) : "null"
        case .string(let s): writeQuoted(s, &out)
        case .object(let o):
            if o.isCallable { return false }
            if let text = o.xmlText {
                writeQuoted(text, &out)
                return true
            }
            if case .object(let f)? = o.lookup("toJSON"), f.isCallable {
                return try write(try call(f, this: value, [], line: 0), &out, gap: gap, indentation: indentation, stack: &stack)
            }
            let id = ObjectIdentifier(o)
            if stack.contains(id) { throw ScriptError(.type, "JSON.stringify met a cyclic structure") }
            if stack.count >= limits.maximumDataNesting {
                throw ScriptError(.nesting, "JSON.stringify met values nested deeper than \(limits.maximumDataNesting) levels")
            }
            stack.append(id)
            defer { stack.removeLast() }
            let inner = indentation + gap
            let open = gap.isEmpty ? "" : "\n" + inner
            let close = gap.isEmpty ? "" : "\n" + indentation
            if case .array(let elements) = o.storage {
                out += "["
                for (n, element) in elements.enumerated() {
                    out += n == 0 ? open : "," + open
                    if !(try write(element, &out, gap: gap, indentation: inner, stack: &stack)) { out += "null" }
                }
                out += elements.isEmpty ? "]" : close + "]"
            } else {
                out += "{"
                var first = true
                for key in o.ownKeys {
                    guard let member = o.own(key) else { continue }
                    var piece = ""
                    writeQuoted(key, &piece)
                    piece += gap.isEmpty ? ":" : ": "
                    guard try write(member, &piece, gap: gap, indentation: inner, stack: &stack) else { continue }
                    out += (first ? open : "," + open) + piece
                    first = false
                }
                out += first ? "}" : close + "}"
            }
            if out.utf8.count > limits.maximumMemory {
                throw ScriptError(.memoryBudget, "JSON.stringify would exceed \(limits.maximumMemory) bytes")
            }
        }
        return true
    }

    /// `JSON.parse(text)`: strict JSON; a syntax error names the position.
    func parseJSON(_ text: String) throws(ScriptError) -> ScriptValue {
        var reader = JSONReader(bytes: Array(text.utf8), maximumNesting: limits.maximumDataNesting)
        let value = try reader.document(self)
        return value
    }
}

func writeQuoted(_ s: String, _ out: inout String) {
    out += "\""
    for scalar in s.unicodeScalars {
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\t": out += "\\t"
        case "\u{08}": out += "\\b"
        case "\u{0C}": out += "\\f"
        default:
            if scalar.value < 0x20 {
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
    }
    out += "\""
}

/// A strict JSON reader over UTF-8 bytes.
struct JSONReader {
    let bytes: [UInt8]
    let maximumNesting: Int
    var position = 0
    var depth = 0

    mutating func document(_ i: Interpreter) throws(ScriptError) -> ScriptValue {
        let v = try value(i)
        skipSpace()
        guard position == bytes.count else { throw error("unexpected text after the JSON value") }
        return v
    }

    private func error(_ message: String) -> ScriptError {
        ScriptError(.syntax, "JSON.parse: \(message) at position \(position)")
    }

    private mutating func skipSpace() {
        while position < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[position]) { position += 1 }
    }

    private mutating func value(_ i: Interpreter) throws(ScriptError) -> ScriptValue {
        skipSpace()
        guard position < bytes.count else { throw error("unexpected end of input") }
        switch bytes[position] {
        case UInt8(ascii: "{"):
            try nest()
            defer { depth -= 1 }
            position += 1
            let o = try i.makeObject(line: 0)
            skipSpace()
            if position < bytes.count && bytes[position] == UInt8(ascii: "}") {
                position += 1
                return .object(o)
            }
            while true {
                skipSpace()
                guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else { throw error("expected a property name") }
                let key = try string()
                skipSpace()
                guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else { throw error("expected ':'") }
                position += 1
                try i.charge(32 + key.utf8.count, line: 0)
                o.set(key, try value(i))
                skipSpace()
                guard position < bytes.count else { throw error("unexpected end of input") }
                if bytes[position] == UInt8(ascii: ",") { position += 1; continue }
                if bytes[position] == UInt8(ascii: "}") { position += 1; return .object(o) }
                throw error("expected ',' or '}'")
            }
        case UInt8(ascii: "["):
            try nest()
            defer { depth -= 1 }
            position += 1
            var elements: [ScriptValue] = []
            skipSpace()
            if position < bytes.count && bytes[position] == UInt8(ascii: "]") {
                position += 1
                return try i.makeArray(elements, line: 0)
            }
            while true {
                elements.append(try value(i))
                skipSpace()
                guard position < bytes.count else { throw error("unexpected end of input") }
                if bytes[position] == UInt8(ascii: ",") { position += 1; continue }
                if bytes[position] == UInt8(ascii: "]") { position += 1; return try i.makeArray(elements, line: 0) }
                throw error("expected ',' or ']'")
            }
        case UInt8(ascii: "\""):
            return try i.makeString(try string(), line: 0)
        case UInt8(ascii: "t"): return try literal("true", .boolean(true))
        case UInt8(ascii: "f"): return try literal("false", .boolean(false))
        case UInt8(ascii: "n"): return try literal("null", .null)
        default: return .number(try number())
        }
    }

    private mutating func nest() throws(ScriptError) {
        depth += 1
        if depth > maximumNesting { throw ScriptError(.nesting, "JSON.parse: nested deeper than \(maximumNesting) levels") }
    }

    private mutating func literal(_ word: String, _ v: ScriptValue) throws(ScriptError) -> ScriptValue {
        guard bytes[position...].starts(with: word.utf8) else { throw error("unexpected token") }
        position += word.utf8.count
        return v
    }

    private mutating func number() throws(ScriptError) -> Double {
        let start = position
        func digits() -> Int {
            let s = position
            while position < bytes.count, bytes[position] >= 0x30, bytes[position] <= 0x39 { position += 1 }
            return position - s
        }
        if position < bytes.count && bytes[position] == UInt8(ascii: "-") { position += 1 }
        let intStart = position
        guard digits() > 0 else { throw error("unexpected token") }
        if bytes[intStart] == UInt8(ascii: "0") && position - intStart > 1 { throw error("a number with a leading zero") }
        if position < bytes.count && bytes[position] == UInt8(ascii: ".") {
            position += 1
            guard digits() > 0 else { throw error("a number needs digits after '.'") }
        }
        if position < bytes.count && bytes[position] | 0x20 == UInt8(ascii: "e") {
            position += 1
            if position < bytes.count && (bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-")) { position += 1 }
            guard digits() > 0 else { throw error("an exponent needs digits") }
        }
        return Double(String(decoding: bytes[start..<position], as: UTF8.self)) ?? .nan
    }

    private mutating func string() throws(ScriptError) -> String {
        position += 1
        var out: [UInt8] = []
        while true {
            guard position < bytes.count else { throw error("unterminated string") }
            let b = bytes[position]
            position += 1
            if b == UInt8(ascii: "\"") { break }
            if b < 0x20 { throw error("a control character in a string") }
            guard b == UInt8(ascii: "\\") else {
                out.append(b)
                continue
            }
            guard position < bytes.count else { throw error("unterminated string") }
            let e = bytes[position]
            position += 1
            switch e {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "u"):
                var code = try hex4()
                if (0xD800..<0xDC00).contains(code), position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"),
                    bytes[position + 1] == UInt8(ascii: "u")
                {
                    position += 2
                    let low = try hex4()
                    code = (0xDC00..<0xE000).contains(low) ? 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00) : 0xFFFD
                }
                out.append(contentsOf: Array(String(Character(Unicode.Scalar(code) ?? "\u{FFFD}")).utf8))
            default: throw error("an invalid escape")
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    private mutating func hex4() throws(ScriptError) -> UInt32 {
        var code: UInt32 = 0
        for _ in 0..<4 {
            guard position < bytes.count, let d = Character(Unicode.Scalar(bytes[position])).hexDigitValue else {
                throw error("an invalid \\u escape")
            }
            code = code * 16 + UInt32(d)
            position += 1
        }
        return code
    }
}
