/// Reading, writing and deleting properties.
extension Interpreter {
    func property(of value: ScriptValue, key: ScriptValue, line: Int) throws(ScriptError) -> ScriptValue {
        // Fast paths for `a[0]` and `s[1]`.
        if case .number(let n) = key, n >= 0, n == n.rounded(.towardZero), n < 1e15 {
            let i = Int(n)
            if case .object(let o) = value, case .array(let a) = o.storage {
                return i < a.count ? a[i] : .undefined
            }
        }
        return try property(of: value, try toPropertyKey(key, line: line), line: line)
    }

    func property(of value: ScriptValue, _ name: String, line: Int) throws(ScriptError) -> ScriptValue {
        switch value {
        case .undefined, .null:
            throw typeError("cannot read property '\(name)' of \(value.displayString)", line: line)
        case .boolean:
            return method(booleanMethods, name, receiver: value)
        case .number:
            return method(numberMethods, name, receiver: value)
        case .string(let s):
            if name == "length" { return .number(Double(s.utf16.count)) }
            if let i = arrayIndex(name) {
                let units = Array(s.utf16)
                return i < units.count ? .string(String(decoding: [units[i]], as: UTF16.self)) : .undefined
            }
            return method(stringMethods, name, receiver: value)
        case .object(let o):
            switch o.storage {
            case .array(let a):
                if name == "length" { return .number(Double(a.count)) }
                if let i = arrayIndex(name) { return i < a.count ? a[i] : .undefined }
                if let v = o.lookup(name) { return v }
                return method(arrayMethods, name, receiver: value)
            case .function(let kind):
                if let v = o.lookup(name) { return v }
                switch name {
                case "prototype":
                    guard case .script(let literal, _) = kind, !literal.isArrow else { return .undefined }
                    let proto = try makeObject(line: line)
                    proto.set("constructor", value)
                    o.set("prototype", .object(proto))
                    return .object(proto)
                case "name":
                    switch kind {
                    case .script(let literal, _): return .string(literal.name ?? "")
                    case .native(let n, _), .boundNative(let n, _, _): return .string(n)
                    }
                case "length":
                    if case .script(let literal, _) = kind { return .number(Double(literal.length)) }
                    return .number(0)
                default:
                    return method(functionMethods, name, receiver: value)
                }
            case .xml, .xmlNode:
                if case .xml(let text) = o.storage, name == "length" { return .number(Double(text.utf16.count)) }
                if let v = o.lookup(name) { return v }
                return try domMember(of: o, name, receiver: value, line: line) ?? method(objectMethods, name, receiver: value)
            case .regexp(let state):
                if let v = regExpProperty(state, name) { return v }
                return o.lookup(name) ?? method(regExpMethods, name, receiver: value)
            case .plain, .error:
                return o.lookup(name) ?? method(objectMethods, name, receiver: value)
            }
        }
    }

    func method(_ table: [String: BuiltinMethod], _ name: String, receiver: ScriptValue) -> ScriptValue {
        guard let body = table[name] ?? objectMethods[name] else { return .undefined }
        return .object(track(ScriptObject(.function(.boundNative(name: name, receiver: receiver, body)))))
    }

    func setProperty(of value: ScriptValue, key: ScriptValue, _ newValue: ScriptValue, line: Int) throws(ScriptError) {
        if case .number(let n) = key, n >= 0, n == n.rounded(.towardZero), n < 1e15,
            case .object(let o) = value, o.isArray
        {
            try setElement(o, Int(n), newValue, line: line)
            return
        }
        try setProperty(of: value, try toPropertyKey(key, line: line), newValue, line: line)
    }

    func setProperty(of value: ScriptValue, _ name: String, _ newValue: ScriptValue, line: Int) throws(ScriptError) {
        guard case .object(let o) = value else {
            if value.isNullish { throw typeError("cannot set property '\(name)' of \(value.displayString)", line: line) }
            return  // ECMAScript ignores writes to a primitive's properties
        }
        if o.frozen { throw typeError("'\(name)' cannot be assigned: the object is read-only", line: line) }
        if case .regexp(let state) = o.storage, name == "lastIndex" {
            state.lastIndex = try toNumber(newValue, line: line)
            return
        }
        if o.isArray {
            if name == "length" {
                let n = try toNumber(newValue, line: line)
                guard n >= 0, n == n.rounded(.towardZero), n < 4_294_967_296 else {
                    throw ScriptError(.range, "invalid array length", line: line)
                }
                var a = o.elements
                let length = Int(n)
                if length < a.count {
                    a.removeLast(a.count - length)
                } else if length > a.count {
                    try charge(16 * (length - a.count), line: line)
                    a.append(contentsOf: repeatElement(.undefined, count: length - a.count))
                }
                o.elements = a
                return
            }
            if let i = arrayIndex(name) {
                try setElement(o, i, newValue, line: line)
                return
            }
        }
        if o.own(name) == nil { try charge(32 + name.utf8.count, line: line) }
        o.set(name, newValue)
    }

    private func setElement(_ o: ScriptObject, _ i: Int, _ newValue: ScriptValue, line: Int) throws(ScriptError) {
        if o.frozen { throw typeError("the array is read-only", line: line) }
        guard case .array(var a) = o.storage else { return }
        o.storage = .plain  // keeps the array uniquely referenced while it changes
        defer { o.storage = .array(a) }
        if i < a.count {
            a[i] = newValue
        } else {
            try charge(16 * (i + 1 - a.count), line: line)
            a.append(contentsOf: repeatElement(.undefined, count: i - a.count))
            a.append(newValue)
        }
    }

    func deleteProperty(_ value: ScriptValue, _ name: String, line: Int) throws(ScriptError) -> Bool {
        guard case .object(let o) = value else { return true }
        if o.frozen { throw typeError("'\(name)' cannot be deleted: the object is read-only", line: line) }
        if case .array(var a) = o.storage, let i = arrayIndex(name) {
            if i < a.count { a[i] = .undefined }
            o.storage = .array(a)
            return true
        }
        o.remove(name)
        return true
    }
}

extension Interpreter {
    /// A `RegExp`'s own data: `lastIndex`, `source`, `flags` and a property per flag.
    func regExpProperty(_ state: RegExpState, _ name: String) -> ScriptValue? {
        let flags = state.program.flags
        switch name {
        case "lastIndex": return .number(state.lastIndex)
        case "source": return .string(state.program.source)
        case "flags": return .string(flags.text)
        case "global": return .boolean(flags.global)
        case "ignoreCase": return .boolean(flags.ignoreCase)
        case "multiline": return .boolean(flags.multiline)
        case "dotAll": return .boolean(flags.dotAll)
        case "sticky": return .boolean(flags.sticky)
        case "unicode": return .boolean(flags.unicode)
        case "unicodeSets", "hasIndices": return .boolean(false)
        default: return nil
        }
    }
}
