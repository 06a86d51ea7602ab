import Synchronization

/// A scope of variables: the global scope, a function's, or a block's (`let`/`const`).
///
/// Bindings live in slots, in declaration order, with an index by name. An identifier of an
/// expression evaluated in the global scope remembers the slot it was found in (``SlotHint``), so
/// that reading `count` in `count < 2` is a comparison of names, not a hash-table lookup.
final class Scope {
    struct Binding {
        var name: Name
        var value: ScriptValue
        /// `const` bindings and the system variables: assigning them is an error.
        var readOnly: Bool
    }

    // Keyed by `Name`: an identifier's hash is computed when it is parsed, not at each lookup.
    // Unchecked exclusivity: a session runs on one thread and never reads the bindings while it
    // writes them; the dynamic checks cost more than the lookup itself.
    @exclusivity(unchecked) private(set) var slots: ContiguousArray<Binding> = []
    @exclusivity(unchecked) private var slotByName: [Name: Int] = [:]
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
        for b in slots { if case .object(let o) = b.value { pending.objects.append(o) } }
        slots = []
        slotByName = [:]
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
            if current.slotByName[key] != nil { return current }
            s = current.parent
        }
        return nil
    }

    func binding(_ name: String) -> Binding? { slotByName[Name(name)].map { slots[$0] } }

    /// The value of `name` in the nearest scope that declares it: one lookup per scope on the
    /// chain (finding the scope first, then reading its binding, looked the name up twice).
    func value(of name: Name) -> ScriptValue? {
        var s = self
        while true {
            if let i = s.slotByName[name] { return s.slots[i].value }
            guard let p = s.parent else { return nil }
            s = p
        }
    }

    /// The slot of `name` in this scope alone: the hint's when it holds `name`, else looked up
    /// (and remembered in the hint, when there is one).
    ///
    /// The hint is optional here, read through `?.`: a caller that unwrapped it first
    /// (`if let hint`) held a reference of its own, a retain and a release at every read of a
    /// global.
    @inline(__always)
    func slot(of name: Name, hint: SlotHint?) -> Int? {
        let i = hint?.slot ?? Int.max
        if i < slots.count, slots[i].name == name { return i }
        guard let found = slotByName[name] else { return nil }
        hint?.slot = found
        return found
    }

    /// The nearest scope that declares `name`, and its slot, for an assignment that reads the
    /// binding and then writes it without looking the name up again.
    func locate(_ name: Name) -> (scope: Scope, slot: Int)? {
        var s = self
        while true {
            if let i = s.slotByName[name] { return (s, i) }
            guard let p = s.parent else { return nil }
            s = p
        }
    }

    /// The value in a slot ``locate(_:)`` or ``slot(of:hint:)`` returned.
    func value(at slot: Int) -> ScriptValue { slots[slot].value }

    /// Whether the binding in a slot is read-only (without copying the binding out).
    func isReadOnly(at slot: Int) -> Bool { slots[slot].readOnly }

    /// Replaces the value in a slot ``locate(_:)`` or ``slot(of:hint:)`` returned.
    func update(at slot: Int, _ value: ScriptValue) {
        slots[slot].value = value
    }

    func declare(_ name: String, _ value: ScriptValue, readOnly: Bool = false) {
        declare(Name(name), value, readOnly: readOnly)
    }

    func declare(_ name: Name, _ value: ScriptValue, readOnly: Bool = false) {
        let binding = Binding(name: name, value: value, readOnly: readOnly)
        if let i = slotByName[name] {
            slots[i] = binding
        } else {
            slotByName[name] = slots.count
            slots.append(binding)
        }
    }

    /// A scope with the same parent and a copy of this one's bindings: the next iteration of a
    /// `for (let …)` loop whose body makes functions, so that a closure keeps its iteration's
    /// values.
    func copy() -> Scope {
        let c = Scope(parent: parent, holdsVars: holdsVars)
        c.slots = slots
        c.slotByName = slotByName
        c.thisValue = thisValue
        return c
    }

    /// Removes a binding (the host deleting a variable): the last slot moves into its place, so
    /// a hint to either slot finds another name there and looks again.
    func remove(_ name: String) {
        let key = Name(name)
        guard let i = slotByName.removeValue(forKey: key) else { return }
        let last = slots.removeLast()
        if i < slots.count {
            slots[i] = last
            slotByName[last.name] = i
        }
    }

    /// The nearest scope that holds `var` declarations.
    var varScope: Scope {
        var s = self
        while !s.holdsVars, let p = s.parent { s = p }
        return s
    }

    /// The names declared here, without the session's hidden slots (``ScriptSession/hiddenPrefix``:
    /// no script can name them, and no snapshot or comparison sees them).
    var names: [String] { slots.map(\.name.text).filter { !$0.hasPrefix(ScriptSession.hiddenPrefix) } }

    /// `this` of the nearest function scope.
    var currentThis: ScriptValue { varScope.thisValue }
}

/// Where an identifier of an expression was last found in the global scope (see ``Scope``).
///
/// Shared by every session that evaluates the expression, on any thread: a relaxed atomic (a
/// plain load and store on common hardware). A hint is only ever a guess — the slot it names is
/// checked to hold the identifier's name — so sessions whose globals were declared in another
/// order only look the name up more often.
final class SlotHint: Sendable {
    private let storage = Atomic<Int>(Int.max)

    init() {}

    var slot: Int {
        get { storage.load(ordering: .relaxed) }
        set { storage.store(newValue, ordering: .relaxed) }
    }
}
