/// Reference counting cannot free a cycle (`o.self = o`, a function stored in the scope it
/// closes over), and scripts make cycles all the time. The interpreter keeps a weak list of the
/// objects scripts made; between evaluations, when the list has doubled, it marks what the
/// global scope, the built-ins and the host's functions reach, and empties every object that is
/// still alive but unreachable — that breaks the cycles, and reference counting frees the rest.
/// When the session ends, every object it made is emptied.
///
/// Every cycle passes through at least one object (scopes refer only to values and to their
/// parent scope, which is older), so emptying objects is enough; scopes are walked, not listed.
struct WeakObject {
    weak var object: ScriptObject?
}

extension Interpreter {
    /// Registers an object a script made (see the cycle collector above).
    @inline(__always)
    func track(_ o: ScriptObject) -> ScriptObject {
        registry.append(WeakObject(object: o))
        return o
    }

    /// Collects cycles when the registry has doubled since the last collection. Only between
    /// evaluations: during one, values held by the evaluator's own stack are not roots it can see.
    func collectCyclesIfDue() {
        guard depth == 0, registry.count > registryThreshold else { return }
        collectCycles()
        registryThreshold = max(4_096, 2 * registry.count)
    }

    /// Empties every registered object that the roots do not reach.
    func collectCycles() {
        var marked: Set<ObjectIdentifier> = []
        var markedScopes: Set<ObjectIdentifier> = []
        var objects: [ScriptObject] = []
        var scopes: [Scope] = [global]
        for case .object(let o) in builtins.values { objects.append(o) }
        for case .object(let o) in hostFunctions.values { objects.append(o) }
        while !objects.isEmpty || !scopes.isEmpty {
            if let s = scopes.popLast() {
                guard markedScopes.insert(ObjectIdentifier(s)).inserted else { continue }
                s.forEachReference(objects: { objects.append($0) }, scopes: { scopes.append($0) })
            } else if let o = objects.popLast() {
                guard marked.insert(ObjectIdentifier(o)).inserted else { continue }
                o.forEachReference(objects: { objects.append($0) }, scopes: { scopes.append($0) })
            }
        }
        var queue = ReleaseQueue()
        for entry in registry {
            guard let o = entry.object, !marked.contains(ObjectIdentifier(o)) else { continue }
            o.takeChildren(into: &queue)
        }
        queue.releaseAll()
        registry.removeAll { $0.object == nil }
    }

    /// Empties every object the session made (the session is ending).
    func releaseEverything() {
        var queue = ReleaseQueue()
        for entry in registry { entry.object?.takeChildren(into: &queue) }
        global.takeChildren(into: &queue)
        queue.releaseAll()
        registry.removeAll()
    }
}

extension ScriptObject {
    /// Calls `objects` and `scopes` for every reference the object holds.
    func forEachReference(objects: (ScriptObject) -> Void, scopes: (Scope) -> Void) {
        switch storage {
        case .array(let a): for case .object(let o) in a { objects(o) }
        case .function(.script(_, let scope)): scopes(scope)
        case .function(.boundNative(_, .object(let o), _)): objects(o)
        default: break
        }
        for k in ownKeys where !isArray || arrayIndex(k) == nil {
            if case .object(let o)? = own(k) { objects(o) }
        }
        if let p = prototype { objects(p) }
    }
}

extension Scope {
    /// Calls `objects` and `scopes` for every reference the scope holds.
    func forEachReference(objects: (ScriptObject) -> Void, scopes: (Scope) -> Void) {
        for name in names {
            if case .object(let o)? = binding(name)?.value { objects(o) }
        }
        if case .object(let o) = thisValue { objects(o) }
        if let p = parent { scopes(p) }
    }
}
