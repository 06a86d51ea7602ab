import Statechart

/// Conversions between the interpreter's values and plain ``DataValue``s.
extension Interpreter {
    /// Plain data → a fresh value (objects and arrays are new each time).
    func scriptValue(_ d: DataValue) throws(ScriptError) -> ScriptValue {
        try scriptValue(d, depth: 0)
    }

    private func scriptValue(_ d: DataValue, depth: Int) throws(ScriptError) -> ScriptValue {
        if depth > limits.maximumDataNesting {
            throw ScriptError(.nesting, "data nested deeper than \(limits.maximumDataNesting) levels")
        }
        switch d {
        case .undefined: return .undefined
        case .null: return .null
        case .boolean(let b): return .boolean(b)
        case .number(let n): return .number(n)
        case .string(let s): return .string(s)
        case .xml(let x): return .object(track(ScriptObject(.xml(x))))
        case .array(let a):
            var values: [ScriptValue] = []
            values.reserveCapacity(a.count)
            for v in a { values.append(try scriptValue(v, depth: depth + 1)) }
            return try makeArray(values, line: 0)
        case .object(let members):
            let o = try makeObject(line: 0)
            for (k, v) in members { o.set(k, try scriptValue(v, depth: depth + 1)) }
            return .object(o)
        }
    }

    /// A value → plain data. Functions inside objects and arrays are left out as `JSON.stringify`
    /// leaves them out; a function itself, a cycle or too deep a nesting is a `ConversionError`.
    func dataValue(_ v: ScriptValue) throws(ScriptError) -> DataValue {
        var path: [ObjectIdentifier] = []
        return try dataValue(v, path: &path)
    }

    private func dataValue(_ v: ScriptValue, path: inout [ObjectIdentifier]) throws(ScriptError) -> DataValue {
        switch v {
        case .undefined: return .undefined
        case .null: return .null
        case .boolean(let b): return .boolean(b)
        case .number(let n): return .number(n)
        case .string(let s): return .string(s)
        case .object(let o):
            if o.isCallable { throw ScriptError(.conversion, "a function is not plain data") }
            if case .xmlNode(let node, _) = o.storage, node.kind == .text { return .string(node.text) }
            if let x = o.xmlText { return .xml(x) }
            let id = ObjectIdentifier(o)
            if path.contains(id) { throw ScriptError(.conversion, "a cyclic structure is not plain data") }
            if path.count >= limits.maximumDataNesting {
                throw ScriptError(.nesting, "data nested deeper than \(limits.maximumDataNesting) levels")
            }
            path.append(id)
            defer { path.removeLast() }
            if case .array(let elements) = o.storage {
                var out: [DataValue] = []
                out.reserveCapacity(elements.count)
                for e in elements {
                    if case .object(let f) = e, f.isCallable { out.append(.null) } else { out.append(try dataValue(e, path: &path)) }
                }
                return .array(out)
            }
            var members = DataObject()
            for k in o.ownKeys {
                guard let member = o.own(k) else { continue }
                if case .object(let f) = member, f.isCallable { continue }
                members[k] = try dataValue(member, path: &path)
            }
            return .object(members)
        }
    }
}
