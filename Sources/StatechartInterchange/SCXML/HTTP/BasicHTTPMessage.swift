import Foundation
import Statechart
import StatechartECMAScript

/// The messages of SCXML's Basic HTTP Event I/O Processor (SCXML D.2): what a `<send>` posts,
/// and the event a received request becomes. Pure functions over bytes and strings, so that the
/// wire format is tested without sockets.
enum BasicHTTPMessage {
    /// The processor's type URI, and the short name `_ioprocessors` also lists it under.
    static let type = "http://www.w3.org/TR/scxml/#BasicHTTPEventProcessor"
    static let shortType = "basichttp"
    /// The parameter that names the event (SCXML D.2.1, D.2.2).
    static let eventNameParameter = "_scxmleventname"
    /// The body's type: a `<send>`'s, `<content>` included (its value alone, without a name).
    static let formType = "application/x-www-form-urlencoded"

    /// The body a `<send>` posts: `application/x-www-form-urlencoded` pairs — the event's name as
    /// `_scxmleventname` (when the send names one), then each `namelist` variable and `<param>`
    /// as its string — or, for a `<content>`, the content alone, percent-encoded.
    static func body(event: String?, data: DataValue, isContent: Bool) -> String {
        if isContent { return percentEncoded(text(of: data)) }
        var pairs: [(String, String)] = []
        if let event { pairs.append((eventNameParameter, event)) }
        if case .object(let members) = data {
            for (name, value) in members { pairs.append((name, text(of: value))) }
        }
        return pairs.map { percentEncoded($0.0) + "=" + percentEncoded($0.1) }.joined(separator: "&")
    }

    /// A value as a form parameter: a string as it is, a number as ECMAScript writes it (`2`, not
    /// `2.0`), anything else as JSON.
    static func text(of value: DataValue) -> String {
        switch value {
        case .undefined: return "undefined"
        case .null: return "null"
        case .boolean(let b): return b ? "true" : "false"
        case .string(let s): return s
        case .xml(let x): return x
        case .number(let n):
            return ECMAScriptDataModel.numberText(n)
        case .array, .object:
            // Plain data's own JSON form (`DataValue` is `Codable`).
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "null"
        }
    }

    /// Percent-encoding for a form body: letters, digits and `*-._` as they are, every other
    /// byte of the UTF-8 as `%XX` — a space as `%20`, which form decoders read as a space too,
    /// and which leaves a `<content>` body free of `+` signs a receiver might read as text.
    static func percentEncoded(_ s: String) -> String {
        var out: [UInt8] = []
        for b in s.utf8 {
            switch b {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "*"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"):
                out.append(b)
            default:
                let digits = Array("0123456789ABCDEF".utf8)
                out += [UInt8(ascii: "%"), digits[Int(b >> 4)], digits[Int(b & 15)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The inverse of ``percentEncoded(_:)``: `+` is a space, `%XX` a byte; a `%` not followed
    /// by two hexadecimal digits stays as it is (as WHATWG's decoder leaves it).
    static func percentDecoded(_ s: Substring) -> String {
        let bytes = Array(s.utf8)
        var out: [UInt8] = []
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            if b == UInt8(ascii: "+") {
                out.append(UInt8(ascii: " "))
            } else if b == UInt8(ascii: "%"), i + 2 < bytes.count, let h = hex(bytes[i + 1]), let l = hex(bytes[i + 2]) {
                out.append(h << 4 | l)
                i += 2
            } else {
                out.append(b)
            }
            i += 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func hex(_ b: UInt8) -> UInt8? {
        switch b {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return b - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return b - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return b - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    /// The event a received POST becomes (SCXML D.2.1): named by its `_scxmleventname`
    /// parameter, else `HTTP.POST`; its other parameters are `_event.data` (an object of strings),
    /// or, for a body that is not `name=value` pairs, the body's text; `_event.raw` is the whole
    /// request as received.
    static func event(method: String, contentType: String?, body: [UInt8], raw: String) -> SCXMLEvent {
        let text = String(decoding: body, as: UTF8.self)
        var name = "HTTP." + method
        var data = DataValue.undefined
        let isForm = contentType.map { $0.lowercased().hasPrefix(formType) } ?? true
        if isForm && text.contains("=") {
            var members = DataObject()
            for pair in text.split(separator: "&", omittingEmptySubsequences: true) {
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let key = percentDecoded(parts[0])
                let value = parts.count > 1 ? percentDecoded(parts[1]) : ""
                if key == eventNameParameter {
                    name = value
                } else {
                    members[key] = .string(value)
                }
            }
            if members.count > 0 { data = .object(members) }
        } else if !text.isEmpty {
            data = .string(isForm ? percentDecoded(Substring(text)) : text)
        }
        return SCXMLEvent(name, data: data, kind: .external, originType: type, raw: raw)
    }
}
