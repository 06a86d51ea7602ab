/// A scope of variables: the global scope, a function's, or a block's (`let`/`const`).
final class Scope {
    struct Binding {
        var value: ScriptValue
        /// `const` bindings and the system variables: assigning them is an error.
        var readOnly: Bool
    }

    // Keyed by `Name`: an identifier's hash is computed when it is parsed, not at each lookup.
    // Unchecked exclusivity: a session runs on one thread and never reads the bindings while it
    // writes them; the dynamic checks cost more than the lookup itself.
    @exclusivity(unchecked) private(set) var bindings: [Name: Binding] = [:]
    var parent: Scope?
    /// Whether `var` declarations land here (a function's scope or the global one).
    let holdsVars: Bool
    /// `this` inside a function's scope.
    var thisValue: ScriptValue = .undefined

    init(parent: Scope?, holdsVars: Bool) {
        self.parent = parent
        self.holdsVars = holdsVars
    }

    deinit {
        var pending = ReleaseQueue()
        takeChildren(into: &pending)
        pending.releaseAll()
    }

    /// Moves the objects this scope holds into `pending` (see ``ScriptObject``'s `deinit`).
    func takeChildren(into pending: inout ReleaseQueue) {
        for b in bindings.values { if case .object(let o) = b.value { pending.objects.append(o) } }
        bindings = [:]
        if case .object(let o) = thisValue { pending.objects.append(o) }
        thisValue = .undefined
        if let p = parent { pending.scopes.append(p) }
        parent = nil
    }

    /// The scope that declares `name`, nearest first.
    func resolve(_ name: String) -> Scope? {
        let key = Name(name)
        var s: Scope? = self
        while let current = s {
            if current.bindings[key] != nil { return current }
            s = current.parent
        }
        return nil
    }

    func binding(_ name: String) -> Binding? { bindings[Name(name)] }

    /// The value of `name` in the nearest scope that declares it: one lookup per scope on the
    /// chain (finding the scope first, then reading its binding, looked the name up twice).
    func value(of name: Name) -> ScriptValue? {
        var s = self
        while true {
            if let b = s.bindings[name] { return b.value }
            guard let p = s.parent else { return nil }
            s = p
        }
    }

    /// The nearest scope that declares `name`, and where its binding is, for an assignment that
    /// reads the binding and then writes it without looking the name up again.
    func locate(_ name: Name) -> (scope: Scope, index: Dictionary<Name, Binding>.Index)? {
        var s = self
        while true {
            if let i = s.bindings.index(forKey: name) { return (s, i) }
            guard let p = s.parent else { return nil }
            s = p
        }
    }

    /// The binding at a position ``locate(_:)`` returned.
    func binding(at index: Dictionary<Name, Binding>.Index) -> Binding { bindings.values[index] }

    /// Replaces the value at a position ``locate(_:)`` returned.
    func update(at index: Dictionary<Name, Binding>.Index, _ value: ScriptValue) {
        bindings.values[index].value = value
    }

    func declare(_ name: String, _ value: ScriptValue, readOnly: Bool = false) {
        declare(Name(name), value, readOnly: readOnly)
    }

    func declare(_ name: Name, _ value: ScriptValue, readOnly: Bool = false) {
        bindings[name] = Binding(value: value, readOnly: readOnly)
    }

    /// Removes a binding (the host deleting a variable).
    func remove(_ name: String) { bindings[Name(name)] = nil }

    /// The nearest scope that holds `var` declarations.
    var varScope: Scope {
        var s = self
        while !s.holdsVars, let p = s.parent { s = p }
        return s
    }

    /// The names declared here, without the session's hidden slots (``ScriptSession/hiddenPrefix``:
    /// no script can name them, and no snapshot or comparison sees them).
    var names: [String] { bindings.keys.map(\.text).filter { !$0.hasPrefix(ScriptSession.hiddenPrefix) } }

    /// `this` of the nearest function scope.
    var currentThis: ScriptValue { varScope.thisValue }
}
