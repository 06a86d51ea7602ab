/// A scope of variables: the global scope, a function's, or a block's (`let`/`const`).
final class Scope {
    struct Binding {
        var value: ScriptValue
        /// `const` bindings and the system variables: assigning them is an error.
        var readOnly: Bool
    }

    private(set) var bindings: [String: Binding] = [:]
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
        var s: Scope? = self
        while let current = s {
            if current.bindings[name] != nil { return current }
            s = current.parent
        }
        return nil
    }

    func binding(_ name: String) -> Binding? { bindings[name] }

    func declare(_ name: String, _ value: ScriptValue, readOnly: Bool = false) {
        bindings[name] = Binding(value: value, readOnly: readOnly)
    }

    func update(_ name: String, _ value: ScriptValue) {
        bindings[name]?.value = value
    }

    /// Removes a binding (the host deleting a variable).
    func remove(_ name: String) { bindings[name] = nil }

    /// The nearest scope that holds `var` declarations.
    var varScope: Scope {
        var s = self
        while !s.holdsVars, let p = s.parent { s = p }
        return s
    }

    var names: [String] { Array(bindings.keys) }

    /// `this` of the nearest function scope.
    var currentThis: ScriptValue { varScope.thisValue }
}
