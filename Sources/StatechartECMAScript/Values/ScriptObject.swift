/// An object of the interpreter: a plain object, an array, a function, an XML value or node, an
/// error or a regular expression.
///
/// Own properties keep their insertion order, as `JSON.stringify` and `for … in` show them (the
/// subset does not put integer-like keys first, which only plain objects with such keys notice).
final class ScriptObject {
    enum Storage {
        case plain
        case array([ScriptValue])
        case function(FunctionKind)
        /// Markup kept verbatim (SCXML `<content>` with child elements), until a script reads a
        /// DOM member of it (``xmlNode(_:document:)``).
        case xml(String)
        /// A node of an XML value's DOM, with the document that keeps its tree alive (``XMLNode``).
        case xmlNode(XMLNode, document: XMLNode)
        /// An `Error` object made by `new Error(…)` or by the interpreter.
        case error
        /// A `RegExp` object: its compiled pattern and `lastIndex` (RegExpMethods.swift).
        case regexp(RegExpState)
    }

    enum FunctionKind {
        case script(FunctionLiteral, Scope)
        case native(name: String, NativeFunction)
        /// A native function bound to its receiver (a string's method read as a value).
        case boundNative(name: String, receiver: ScriptValue, NativeFunction)
    }

    var storage: Storage
    private(set) var keys: [String] = []
    private(set) var values: [String: ScriptValue] = [:]
    /// The object that property reads fall back to (a constructor's `prototype`, for `new F()`).
    var prototype: ScriptObject?
    /// Names that cannot be assigned or deleted (system variables, built-in namespaces).
    var frozen = false

    init(_ storage: Storage = .plain) {
        self.storage = storage
    }

    // A script can link a million objects into a chain (`a = [a]` in a loop). Released the
    // ordinary way, each object's release would release the next inside it, one native stack
    // frame per link; instead the objects it uniquely holds are emptied one by one here.
    deinit {
        var pending = ReleaseQueue()
        takeChildren(into: &pending)
        pending.releaseAll()
    }

    /// Moves every reference this object holds into `pending`, leaving it empty.
    func takeChildren(into pending: inout ReleaseQueue) {
        switch storage {
        case .array(let a):
            for case .object(let o) in a { pending.objects.append(o) }
        case .function(.script(_, let scope)):
            pending.scopes.append(scope)
        case .function(.boundNative(_, .object(let o), _)):
            pending.objects.append(o)
        default:
            break
        }
        storage = .plain
        for case .object(let o) in values.values { pending.objects.append(o) }
        values = [:]
        keys = []
        if let p = prototype { pending.objects.append(p) }
        prototype = nil
    }

    var isCallable: Bool {
        if case .function = storage { return true }
        return false
    }

    var isArray: Bool {
        if case .array = storage { return true }
        return false
    }

    /// The array's elements (empty for anything else).
    var elements: [ScriptValue] {
        get {
            if case .array(let a) = storage { return a }
            return []
        }
        set { storage = .array(newValue) }
        // Takes the array out while it changes, so that `push` does not copy it.
        _modify {
            guard case .array(var a) = storage else {
                var none: [ScriptValue] = []
                yield &none
                return
            }
            storage = .plain
            defer { storage = .array(a) }
            yield &a
        }
    }

    /// Own property, without the prototype chain.
    func own(_ key: String) -> ScriptValue? { values[key] }

    /// Whether the object has the property itself or through its prototype.
    func has(_ key: String) -> Bool {
        var o: ScriptObject? = self
        while let current = o {
            if current.values[key] != nil { return true }
            o = current.prototype
        }
        return false
    }

    /// A property through the prototype chain, or `nil`.
    func lookup(_ key: String) -> ScriptValue? {
        var o: ScriptObject? = self
        var hops = 0
        while let current = o, hops < 1_000 {
            if let v = current.values[key] { return v }
            o = current.prototype
            hops += 1
        }
        return nil
    }

    func set(_ key: String, _ value: ScriptValue) {
        if values.updateValue(value, forKey: key) == nil { keys.append(key) }
    }

    @discardableResult
    func remove(_ key: String) -> Bool {
        guard values.removeValue(forKey: key) != nil else { return false }
        keys.removeAll { $0 == key }
        return true
    }

    /// Own enumerable keys in order; for an array its indices first.
    var ownKeys: [String] {
        if case .array(let a) = storage { return a.indices.map(String.init) + keys }
        return keys
    }

    /// What an XML value or node is as a string and as data: the value's markup, an element's
    /// markup, a text node's characters; `nil` for any other object.
    var xmlText: String? {
        switch storage {
        case .xml(let text): return text
        case .xmlNode(let node, _): return node.kind == .text ? node.text : node.markup
        default: return nil
        }
    }

    var defaultString: String {
        switch storage {
        case .plain: return "[object Object]"
        case .array(let a): return a.map { $0.isNullish ? "" : $0.displayString }.joined(separator: ",")
        case .function(.script(let f, _)): return f.source
        case .function(.native(let name, _)), .function(.boundNative(let name, _, _)):
            return "function \(name)() { [native code] }"
        case .xml, .xmlNode: return xmlText ?? ""
        case .regexp(let state): return "/\(state.program.source)/\(state.program.flags.text)"
        case .error:
            let name = lookup("name")?.displayString ?? "Error"
            let message = lookup("message")?.displayString ?? ""
            return message.isEmpty ? name : "\(name): \(message)"
        }
    }
}

/// A built-in function: receives the interpreter, `this` and the arguments.
typealias NativeFunction = (Interpreter, ScriptValue, [ScriptValue]) throws(ScriptError) -> ScriptValue

/// A method of the built-in tables (shared by every session, so it captures nothing).
typealias BuiltinMethod = @Sendable (Interpreter, ScriptValue, [ScriptValue]) throws(ScriptError) -> ScriptValue

/// Releases a graph of objects and scopes without recursion: whatever is uniquely held is
/// emptied first, so releasing it releases nothing else.
struct ReleaseQueue {
    var objects: [ScriptObject] = []
    var scopes: [Scope] = []

    mutating func releaseAll() {
        while !objects.isEmpty || !scopes.isEmpty {
            if var o = objects.popLast() {
                if isKnownUniquelyReferenced(&o) { o.takeChildren(into: &self) }
            } else if var s = scopes.popLast() {
                if isKnownUniquelyReferenced(&s) { s.takeChildren(into: &self) }
            }
        }
    }
}
