/// A deep copy of a session's heap, so that a datamodel can have value semantics: two machines
/// (or a machine and its snapshot, its undo log, a speculative `canSend`) never share a mutable
/// object. Aliasing inside the session is kept (`b = a` still refers to the same copy of `a`), and
/// so are closures: a function's copy closes over the copy of its scope.
///
/// Built-in objects map to the new session's own built-ins; host functions are not copied (the
/// host installs its own on the new session). The walk uses an explicit work list: a script can
/// link a million objects into a chain.
extension Interpreter {
    func copy() -> Interpreter {
        let new = Interpreter(limits: limits)
        new.implicitGlobals = implicitGlobals
        new.systemNames = systemNames
        new.hasScriptFunctions = hasScriptFunctions
        new.liveBytes = liveBytes
        var copier = HeapCopier(target: new)
        for (name, value) in builtins {
            if case .object(let old) = value, case .object(let mapped)? = new.builtins[name] {
                copier.objects[ObjectIdentifier(old)] = mapped
            }
        }
        copier.scopes[ObjectIdentifier(global)] = new.global
        copier.pendingScopes.append((global, new.global))
        copier.run()
        return new
    }
}

private struct HeapCopier {
    let target: Interpreter
    var objects: [ObjectIdentifier: ScriptObject] = [:]
    var scopes: [ObjectIdentifier: Scope] = [:]
    var pendingObjects: [(ScriptObject, ScriptObject)] = []
    var pendingScopes: [(Scope, Scope)] = []

    init(target: Interpreter) { self.target = target }

    mutating func run() {
        while true {
            if let (old, new) = pendingScopes.popLast() {
                fill(new, from: old)
            } else if let (old, new) = pendingObjects.popLast() {
                fill(new, from: old)
            } else {
                return
            }
        }
    }

    mutating func value(_ v: ScriptValue) -> ScriptValue {
        guard case .object(let o) = v else { return v }
        return .object(object(o))
    }

    mutating func object(_ o: ScriptObject) -> ScriptObject {
        if let mapped = objects[ObjectIdentifier(o)] { return mapped }
        let new = target.track(ScriptObject())
        objects[ObjectIdentifier(o)] = new
        pendingObjects.append((o, new))
        return new
    }

    mutating func scope(_ s: Scope) -> Scope {
        if let mapped = scopes[ObjectIdentifier(s)] { return mapped }
        let new = Scope(parent: nil, holdsVars: s.holdsVars)
        scopes[ObjectIdentifier(s)] = new
        pendingScopes.append((s, new))
        return new
    }

    mutating func fill(_ new: ScriptObject, from old: ScriptObject) {
        switch old.storage {
        case .plain: new.storage = .plain
        case .array(let elements):
            var copied: [ScriptValue] = []
            copied.reserveCapacity(elements.count)
            for e in elements { copied.append(value(e)) }
            new.storage = .array(copied)
        case .function(.script(let literal, let s)): new.storage = .function(.script(literal, scope(s)))
        case .function(.native(let name, let body)): new.storage = .function(.native(name: name, body))
        case .function(.boundNative(let name, let receiver, let body)):
            new.storage = .function(.boundNative(name: name, receiver: value(receiver), body))
        case .xml(let markup): new.storage = .xml(markup)
        // Nodes never change: the copy shares the tree.
        case .xmlNode(let node, let document): new.storage = .xmlNode(node, document: document)
        case .error: new.storage = .error
        case .regexp(let state): new.storage = .regexp(RegExpState(state.program, lastIndex: state.lastIndex))
        }
        for key in old.keys {
            if let v = old.own(key) { new.set(key, value(v)) }
        }
        if let p = old.prototype { new.prototype = object(p) }
        new.frozen = old.frozen
    }

    mutating func fill(_ new: Scope, from old: Scope) {
        for binding in old.slots {
            new.declare(binding.name, value(binding.value), readOnly: binding.readOnly)
        }
        new.thisValue = value(old.thisValue)
        if let p = old.parent { new.parent = scope(p) }
    }
}
