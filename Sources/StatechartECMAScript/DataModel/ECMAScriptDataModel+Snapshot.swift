import Statechart

/// The ECMAScript model as a ``DataModel`` (rule R88), its snapshot and its `Codable` form (R89).
///
/// A snapshot holds every global variable as plain data and which of them are read-only (the
/// system variables, `_event`, global `const`s). It is strict where ``variables()`` is lenient: a
/// variable that holds a function or a regular expression, or an object or array with one
/// anywhere inside, cannot be restored as it was, so ``snapshot()`` throws a `ConversionError`
/// naming the variable and where it is (`handlers.onGo`). Objects shared between variables are restored as
/// separate copies, and prototypes are not kept: what is restored is the data.
extension ECMAScriptDataModel: DataModel {
    /// A compiled expression.
    public typealias Expression = ScriptExpression
    /// A compiled `<script>`.
    public typealias Script = ScriptProgram

    /// A model holding exactly these variables, the read-only ones read-only, with the default budgets.
    public init(restoring values: DataModelValues) throws(ScriptError) {
        try self.init(restoring: values, limits: ScriptLimits())
    }

    /// A model holding exactly these variables, the read-only ones read-only, with these budgets.
    /// `_event`, when read-only, is bound as ``bindEvent(_:)`` binds it.
    public init(restoring values: DataModelValues, limits: ScriptLimits) throws(ScriptError) {
        self.init(limits: limits)
        // Sorted: the session's declaration order (and so its memory accounting) is the same every time.
        for name in values.variables.keys.sorted() {
            let value = values.variables[name] ?? .undefined
            let readOnly = values.readOnly.contains(name)
            if name == "_event" && readOnly {
                try bindEvent(value)
            } else {
                try declare(name, value, readOnly: readOnly)
            }
        }
    }

    /// Whether the variable is declared read-only (a system variable, `_event`, a global `const`).
    public func isReadOnly(_ name: String) -> Bool {
        storage?.session.interpreter.global.binding(name)?.readOnly ?? false
    }

    /// Every global variable as plain data, with the read-only names.
    ///
    /// - Throws: a `ConversionError` naming the variable that holds a function or a regular
    ///   expression (or holds one inside), or a cyclic structure; a `NestingLimitExceeded` for data nested too deep.
    public func snapshot() throws(ScriptError) -> DataModelValues {
        guard let interpreter = storage?.session.interpreter else { return DataModelValues() }
        var values = DataModelValues()
        for name in interpreter.global.names.sorted() {
            guard let binding = interpreter.global.binding(name) else { continue }
            var visiting: [ObjectIdentifier] = []
            if let found = interpreter.unplainPath(in: binding.value, at: name, visiting: &visiting) {
                let inside = found.path == name ? "" : " (at \(found.path))"
                throw ScriptError(
                    .conversion, "the variable '\(name)' holds \(found.what)\(inside), which is not plain data: it cannot be snapshotted")
            }
            do {
                values.variables[name] = try interpreter.dataValue(binding.value)
            } catch {
                throw ScriptError(error.kind, "the variable '\(name)': \(error.message)")
            }
            if binding.readOnly { values.readOnly.insert(name) }
        }
        return values
    }
}

extension Interpreter {
    /// Where the first value inside `value` that plain data cannot hold is (`path` itself when
    /// `value` is one), and what it is: a function, or a regular expression (which plain data
    /// would turn into `{}`, as `JSON.stringify` does); `nil` when there is none. Cycles and too
    /// deep a nesting are left to ``dataValue(_:)``, which names them.
    func unplainPath(in value: ScriptValue, at path: String, visiting: inout [ObjectIdentifier]) -> (path: String, what: String)? {
        guard case .object(let o) = value else { return nil }
        if o.isCallable { return (path, "a function") }
        let id = ObjectIdentifier(o)
        if visiting.contains(id) || visiting.count >= limits.maximumDataNesting { return nil }
        visiting.append(id)
        defer { visiting.removeLast() }
        switch o.storage {
        case .regexp:
            return (path, "a regular expression")
        case .array(let elements):
            for (i, e) in elements.enumerated() {
                if let p = unplainPath(in: e, at: "\(path)[\(i)]", visiting: &visiting) { return p }
            }
        case .xml, .xmlNode:
            break
        default:
            for key in o.ownKeys {
                guard let member = o.own(key) else { continue }
                if let p = unplainPath(in: member, at: path + "." + key, visiting: &visiting) { return p }
            }
        }
        return nil
    }
}

/// Encoded as `{"variables": {…}, "readOnly": […], "limits": {…}}`: the variables as one
/// ``DataValue`` object (names sorted), the read-only names sorted, and the budgets when they are
/// not the defaults (rule R89).
extension ECMAScriptDataModel: Codable {
    private enum CodingKeys: String, CodingKey { case variables, readOnly, limits }

    /// The budgets as plain numbers.
    private struct EncodedLimits: Codable {
        var maximumSteps, maximumMemory, maximumNesting, maximumCallDepth, maximumDataNesting: Int
    }

    /// Encodes the model's snapshot.
    ///
    /// - Throws: `EncodingError.invalidValue` whose description names the variable that is not
    ///   plain data (see ``snapshot()``).
    public func encode(to encoder: any Encoder) throws {
        let values: DataModelValues
        do {
            values = try snapshot()
        } catch {
            throw EncodingError.invalidValue(
                self, .init(codingPath: encoder.codingPath, debugDescription: "ECMAScriptDataModel: \(error.description)"))
        }
        var c = encoder.container(keyedBy: CodingKeys.self)
        let names = values.variables.keys.sorted()
        try c.encode(DataValue.object(DataObject(names.map { ($0, values.variables[$0]!) })), forKey: .variables)
        try c.encode(values.readOnly.sorted(), forKey: .readOnly)
        if limits != ScriptLimits() {
            let l = limits
            try c.encode(
                EncodedLimits(
                    maximumSteps: l.maximumSteps, maximumMemory: l.maximumMemory, maximumNesting: l.maximumNesting,
                    maximumCallDepth: l.maximumCallDepth, maximumDataNesting: l.maximumDataNesting),
                forKey: .limits)
        }
    }

    /// Decodes what ``encode(to:)`` wrote.
    ///
    /// - Throws: `DecodingError` when the data is malformed, when `variables` is not an object,
    ///   when a read-only name is not a variable, or when a value does not fit the budgets.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        guard case .object(let members) = try c.decode(DataValue.self, forKey: .variables) else {
            throw DecodingError.dataCorruptedError(forKey: .variables, in: c, debugDescription: "the variables are not an object")
        }
        var values = DataModelValues()
        for (name, value) in members { values.variables[name] = value }
        for name in try c.decodeIfPresent([String].self, forKey: .readOnly) ?? [] {
            guard values.variables[name] != nil else {
                throw DecodingError.dataCorruptedError(
                    forKey: .readOnly, in: c, debugDescription: "the read-only name '\(name)' is not one of the variables")
            }
            values.readOnly.insert(name)
        }
        var limits = ScriptLimits()
        if let l = try c.decodeIfPresent(EncodedLimits.self, forKey: .limits) {
            limits = ScriptLimits(
                maximumSteps: l.maximumSteps, maximumMemory: l.maximumMemory, maximumNesting: l.maximumNesting,
                maximumCallDepth: l.maximumCallDepth, maximumDataNesting: l.maximumDataNesting)
        }
        do {
            try self.init(restoring: values, limits: limits)
        } catch {
            throw DecodingError.dataCorruptedError(
                forKey: .variables, in: c, debugDescription: "the variables cannot be restored: \(error.description)")
        }
    }
}
