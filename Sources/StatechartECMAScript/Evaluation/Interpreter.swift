/// Runs the subset's syntax trees: one global scope per session, budgets per evaluation.
///
/// Not thread-safe: a session belongs to one machine, which runs one step at a time.
final class Interpreter {
    let limits: ScriptLimits
    let global: Scope
    /// Built-in namespaces and constructors (`Math`, `JSON`, `String`, …).
    var builtins: [String: ScriptValue] = [:]
    /// The host's functions (`In`), found after the scopes and before the built-ins.
    var hostFunctions: [String: ScriptValue] = [:]

    // The counters below change at every expression: unchecked exclusivity, as a session runs on
    // one thread and no access to one of them overlaps another (the dynamic checks cost more
    // than the counting).
    /// Steps taken by the evaluation that is running.
    @exclusivity(unchecked) var steps = 0
    /// Evaluation depth of the evaluation that is running.
    @exclusivity(unchecked) var depth = 0
    /// Bytes allocated by the evaluation that is running.
    @exclusivity(unchecked) var allocated = 0
    /// Bytes the session's values held when last measured.
    @exclusivity(unchecked) var liveBytes = 0
    /// The value of the `throw` being propagated (errors carry only its description).
    @exclusivity(unchecked) var thrownValue: ScriptValue?
    /// Whether assigning an undeclared name creates a global (sloppy ECMAScript) or is a
    /// `ReferenceError` (the default, as SCXML charts expect: every variable is a `<data>`).
    var implicitGlobals = false
    /// Names declared by the host that scripts cannot assign (`_sessionid`, `_event`, …).
    var systemNames: Set<String> = []
    /// Whether a function written in a script was ever made in this session. Until one is, only
    /// the expression being evaluated runs (no `valueOf` of a script's object, no callback), so
    /// a host may skip binding what that expression does not name (``ScriptExpression/mayReadEvent``).
    var hasScriptFunctions = false
    /// The objects scripts made, for the cycle collector (CycleCollector.swift).
    @exclusivity(unchecked) var registry: [WeakObject] = []
    @exclusivity(unchecked) var registryThreshold = 4_096

    init(limits: ScriptLimits) {
        self.limits = limits
        global = Scope(parent: nil, holdsVars: true)
        installBuiltins()
    }

    deinit { releaseEverything() }

    // MARK: - Entering and leaving an evaluation

    /// Runs `body` as one evaluation: the step budget starts anew, and the session's memory is
    /// measured again when it allocated much.
    ///
    /// Always inlined, with `body` called from one place: the evaluation is then one function
    /// with its caller (a second call of `body` kept the closure out of line, with its own
    /// reference counts).
    @inline(__always)
    func evaluation<T>(_ body: () throws(ScriptError) -> T) throws(ScriptError) -> T {
        let outermost = depth == 0
        if outermost {
            steps = 0
            allocated = 0
            thrownValue = nil
        }
        defer { if outermost { endEvaluation() } }
        return try body()
    }

    /// The end of an outermost evaluation: memory measured again when it allocated much, cycles
    /// collected when due.
    func endEvaluation() {
        if allocated > 1 << 16 { liveBytes = measureLiveBytes() }
        allocated = 0
        collectCyclesIfDue()
    }

    // `line` is only needed for the error: an autoclosure, so that finding an expression's
    // line (a switch over every kind of node) is not paid at every step.
    @inline(__always)
    func step(_ line: @autoclosure () -> Int) throws(ScriptError) {
        steps += 1
        if steps > limits.maximumSteps {
            throw ScriptError(.stepBudget, "the evaluation took more than \(limits.maximumSteps) steps", line: line())
        }
    }

    @inline(__always)
    func enter(_ line: @autoclosure () -> Int) throws(ScriptError) {
        depth += 1
        if depth > limits.maximumCallDepth {
            depth -= 1
            throw ScriptError(.nesting, "evaluation nested deeper than \(limits.maximumCallDepth) levels (recursion?)", line: line())
        }
    }

    @inline(__always)
    func leave() { depth -= 1 }

    /// Charges an allocation against the session's memory budget.
    func charge(_ bytes: Int, line: Int) throws(ScriptError) {
        allocated += bytes
        if liveBytes + allocated > limits.maximumMemory {
            // The estimate may be stale: measure before refusing.
            liveBytes = measureLiveBytes()
            allocated = bytes
            if liveBytes + allocated > limits.maximumMemory {
                throw ScriptError(.memoryBudget, "the session's values would exceed \(limits.maximumMemory) bytes", line: line)
            }
        }
    }

    /// Approximate bytes held by everything reachable from the global scope.
    func measureLiveBytes() -> Int {
        var seen: Set<ObjectIdentifier> = []
        var total = 0
        var stack: [ScriptValue] = []
        for name in global.names {
            if let b = global.binding(name) { stack.append(b.value) }
            total += 32 + name.utf8.count
        }
        while let v = stack.popLast() {
            switch v {
            case .string(let s): total += 16 + s.utf8.count
            case .object(let o):
                guard seen.insert(ObjectIdentifier(o)).inserted else { continue }
                total += 64
                if case .array(let a) = o.storage {
                    total += 16 * a.count
                    stack.append(contentsOf: a)
                }
                if case .xml(let x) = o.storage { total += x.utf8.count }
                if case .regexp(let r) = o.storage { total += 8 * r.program.instructions.count }
                // A tree is counted with its document (about twice its markup), once.
                if case .xmlNode(_, let d) = o.storage, seen.insert(ObjectIdentifier(d)).inserted {
                    total += 2 * d.source.utf8.count
                }
                for k in o.ownKeys where !o.isArray || Int(k) == nil {
                    total += 32 + k.utf8.count
                    if let value = o.own(k) { stack.append(value) }
                }
                if let p = o.prototype { stack.append(.object(p)) }
            default: total += 16
            }
        }
        return total
    }

    // MARK: - Names

    func lookup(_ name: Name, in scope: Scope, line: Int) throws(ScriptError) -> ScriptValue {
        try lookup(name, hint: nil, in: scope, line: line)
    }

    /// Reads a name: the scopes first (in the global scope, the identifier's slot hint, when it
    /// has one), then the host's functions, then the built-ins.
    ///
    /// The global scope is one scope with no parent: without a hint, its slot is the name's
    /// slot, as ``Scope/value(of:)`` would find it.
    func lookup(_ name: Name, hint: SlotHint?, in scope: Scope, line: Int) throws(ScriptError) -> ScriptValue {
        if scope === global {
            if let i = global.slot(of: name, hint: hint) { return global.value(at: i) }
        } else if let v = scope.value(of: name) {
            return v
        }
        if let h = hostFunctions[name.text] { return h }
        if let b = builtins[name.text] { return b }
        throw ScriptError(.reference, "'\(name)' is not defined", line: line)
    }

    /// Whether `name` can be read (for `typeof` of an undeclared name, which is not an error).
    func isDeclared(_ name: String, in scope: Scope) -> Bool {
        scope.resolve(name) != nil || hostFunctions[name] != nil || builtins[name] != nil
    }

    func assign(_ name: String, _ value: ScriptValue, in scope: Scope, line: Int) throws(ScriptError) {
        try assign(Name(name), value, in: scope, line: line)
    }

    func assign(_ name: Name, hint: SlotHint? = nil, _ value: ScriptValue, in scope: Scope, line: Int) throws(ScriptError) {
        if scope === global {
            if let i = global.slot(of: name, hint: hint) { return try update(global, slot: i, name, value, line: line) }
        } else if let (s, i) = scope.locate(name) {
            return try update(s, slot: i, name, value, line: line)
        }
        if builtins[name.text] != nil || hostFunctions[name.text] != nil {
            throw ScriptError(.type, "'\(name)' is a built-in and cannot be assigned", line: line)
        }
        guard implicitGlobals else {
            throw ScriptError(.reference, "'\(name)' is not declared (assignment to an undeclared variable)", line: line)
        }
        global.declare(name, value)
    }

    /// Writes a found binding, unless it is read-only.
    private func update(_ s: Scope, slot i: Int, _ name: Name, _ value: ScriptValue, line: Int) throws(ScriptError) {
        if s.isReadOnly(at: i) {
            if systemNames.contains(name.text) {
                throw ScriptError(.type, "'\(name)' is a system variable and cannot be assigned", line: line)
            }
            throw ScriptError(.type, "assignment to constant '\(name)'", line: line)
        }
        s.update(at: i, value)
    }

    // MARK: - Making values

    func makeString(_ s: String, line: Int) throws(ScriptError) -> ScriptValue {
        if s.utf8.count > 256 { try charge(16 + s.utf8.count, line: line) }
        return .string(s)
    }

    func makeArray(_ elements: [ScriptValue], line: Int) throws(ScriptError) -> ScriptValue {
        try charge(64 + 16 * elements.count, line: line)
        return .object(track(ScriptObject(.array(elements))))
    }

    func makeObject(line: Int) throws(ScriptError) -> ScriptObject {
        try charge(64, line: line)
        return track(ScriptObject())
    }

    func makeError(_ error: ScriptError) -> ScriptValue {
        let o = track(ScriptObject(.error))
        o.set("name", .string(error.kind.rawValue))
        o.set("message", .string(error.message))
        return .object(o)
    }

    /// Turns a failure into the value a `catch` clause binds.
    func caughtValue(_ error: ScriptError) -> ScriptValue {
        if error.kind == .thrown, let v = thrownValue {
            thrownValue = nil
            return v
        }
        return makeError(error)
    }

    func typeError(_ message: String, line: Int) -> ScriptError {
        ScriptError(.type, message, line: line)
    }
}
