import Statechart

/// An expression parsed once, when a chart loads, and evaluated many times.
///
/// A syntax error does not stop the chart from loading (SCXML requires the error at evaluation,
/// as `error.execution`): it is kept and thrown each time the expression is evaluated, and
/// ``syntaxError`` lets a validator report it with its line.
public struct ScriptExpression: Sendable {
    /// Everything in one immutable box: an expression is captured by a chart's closures and
    /// copied at every evaluation, and a copy is then one reference count (the text and a
    /// `Result` holding the tree or an error took several, through outlined copies).
    fileprivate let form: ParsedForm<Expression>

    /// The text as written in the chart (an export writes it back unchanged).
    public var source: String { form.source }

    /// The tree, or the syntax error to throw.
    var parsed: Result<Expression, ScriptError> { form.parsed }

    /// Parses `source` as one expression.
    public init(_ source: String, limits: ScriptLimits = ScriptLimits()) {
        let parsed: Result<Expression, ScriptError>
        do throws(ScriptError) {
            var parser = try Parser(source: source, maximumNesting: limits.maximumNesting)
            parsed = .success(try parser.parseExpression())
        } catch {
            parsed = .failure(error)
        }
        form = ParsedForm(
            source: source, parsed: parsed, placeholder: .literal(.undefined), mayReadEvent: \.mayReadEvent, isLocation: \.isLocation)
    }

    /// The syntax error, if the text is not an expression of the subset.
    public var syntaxError: ScriptError? { form.error }

    /// Whether evaluating the expression may read `_event`: it names `_event`, or calls or
    /// constructs something (a function may read it, `eval` too). `count < 2` does not, so a host
    /// need not bind `_event` before evaluating it — as long as no function written in a script
    /// exists in the session, whose `valueOf` an operator could call
    /// (``ECMAScriptDataModel/needsEvent(mayRead:)`` checks both). Computed once, when parsed; an
    /// expression that did not parse says yes.
    public var mayReadEvent: Bool { form.mayReadEvent }

    /// Whether the expression can be assigned to (an identifier or a member access), as an
    /// SCXML `location` must be.
    ///
    /// Computed once, when parsed: every `<assign>` asks (reading it from the tree copied the
    /// tree out, a reference count).
    public var isLocation: Bool { form.isLocation }

    /// The tree, or the syntax error thrown.
    func tree() throws(ScriptError) -> Expression {
        if let tree = form.tree { return tree }
        throw syntaxFailure
    }

    /// What evaluating an expression that did not parse throws.
    fileprivate var syntaxFailure: ScriptError { form.error ?? ScriptError(.syntax, "'\(source)' did not parse") }
}

/// A text and what parsing it gave: the tree, or the syntax error. Immutable.
final class ParsedForm<Tree: Sendable>: Sendable {
    let source: String
    /// The tree when the text parsed (``parses``), else a placeholder never evaluated. Not an
    /// optional: an evaluation reads the tree in place and lends it to the interpreter, where
    /// unwrapping an optional copied it (a retain and a release per tree and evaluation).
    let root: Tree
    /// Whether the text parsed: ``root`` is its tree, ``error`` is `nil`.
    let parses: Bool
    let error: ScriptError?
    /// See ``ScriptExpression/mayReadEvent``.
    let mayReadEvent: Bool
    /// See ``ScriptExpression/isLocation``.
    let isLocation: Bool

    init(
        source: String, parsed: Result<Tree, ScriptError>, placeholder: Tree, mayReadEvent: (Tree) -> Bool = { _ in true },
        isLocation: (Tree) -> Bool = { _ in false }
    ) {
        self.source = source
        switch parsed {
        case .success(let t):
            root = t
            parses = true
            error = nil
            self.mayReadEvent = mayReadEvent(t)
            self.isLocation = isLocation(t)
        case .failure(let e):
            root = placeholder
            parses = false
            error = e
            self.mayReadEvent = true
            self.isLocation = false
        }
    }

    /// The tree, or `nil` when the text did not parse.
    var tree: Tree? { parses ? root : nil }

    var parsed: Result<Tree, ScriptError> {
        if let tree { return .success(tree) }
        return .failure(error ?? ScriptError(.syntax, "'\(source)' did not parse"))
    }
}

/// A `<script>` parsed once.
public struct ScriptProgram: Sendable {
    /// The text as written.
    public let source: String
    let parsed: Result<[Statement], ScriptError>

    /// Parses `source` as a program (statements).
    public init(_ source: String, limits: ScriptLimits = ScriptLimits()) {
        self.source = source
        do throws(ScriptError) {
            var parser = try Parser(source: source, maximumNesting: limits.maximumNesting)
            parsed = .success(try parser.parseProgram())
        } catch {
            parsed = .failure(error)
        }
    }

    /// The syntax error, if the text is not a program of the subset.
    public var syntaxError: ScriptError? {
        if case .failure(let e) = parsed { return e }
        return nil
    }
}

/// One session of the ECMAScript subset: a global scope of variables, sandboxed and budgeted.
///
/// ```swift
/// let session = ScriptSession()
/// try session.declare("count", 0)
/// try session.run(ScriptProgram("count = count + 2"))
/// try session.evaluateCondition(ScriptExpression("count < 3"))   // true
/// ```
///
/// Scripts reach nothing outside the session — no files, network, processes, environment or
/// clock — except the functions the host defines (``defineFunction(_:_:)``, such as SCXML's
/// `In()`). Every evaluation has a step budget, the session a memory budget, and nesting is
/// bounded (``ScriptLimits``). Not thread-safe: a session belongs to one machine.
public final class ScriptSession {
    let interpreter: Interpreter

    /// A new session with these budgets.
    public init(limits: ScriptLimits = ScriptLimits()) {
        interpreter = Interpreter(limits: limits)
    }

    private init(interpreter: Interpreter) { self.interpreter = interpreter }

    /// An independent session holding a deep copy of this one's variables and objects (aliasing
    /// and closures kept). Host functions are not copied: define them again on the copy.
    public func copy() -> ScriptSession { ScriptSession(interpreter: interpreter.copy()) }

    /// The session's budgets.
    public var limits: ScriptLimits { interpreter.limits }

    /// Declares (or redeclares) a global variable. A read-only one (a system variable such as
    /// `_sessionid`) cannot be assigned by scripts: they get a `TypeError`.
    public func declare(_ name: String, _ value: DataValue, readOnly: Bool = false) throws(ScriptError) {
        let v = try interpreter.scriptValue(value)
        interpreter.global.declare(name, v, readOnly: readOnly)
        if readOnly { interpreter.systemNames.insert(name) } else { interpreter.systemNames.remove(name) }
    }

    /// Removes a global variable.
    public func remove(_ name: String) {
        interpreter.global.remove(name)
        interpreter.systemNames.remove(name)
    }

    /// Whether a global variable of this name is declared.
    public func isDeclared(_ name: String) -> Bool { interpreter.global.binding(name) != nil }

    /// The value of a global variable as plain data, or `nil` when it is not declared.
    public func value(of name: String) throws(ScriptError) -> DataValue? {
        guard let b = interpreter.global.binding(name) else { return nil }
        return try interpreter.dataValue(b.value)
    }

    /// Every global variable that holds plain data (functions are left out), for a snapshot.
    public func variables() throws(ScriptError) -> [String: DataValue] {
        var out: [String: DataValue] = [:]
        for name in interpreter.global.names {
            guard let b = interpreter.global.binding(name) else { continue }
            if case .object(let o) = b.value, o.isCallable { continue }
            out[name] = try interpreter.dataValue(b.value)
        }
        return out
    }

    /// Defines a function scripts can call (after their own variables), such as SCXML's `In()`.
    public func defineFunction(_ name: String, _ body: @escaping ([DataValue]) throws(ScriptError) -> DataValue) {
        interpreter.hostFunctions[name] = native(name) { (i, _, arguments) throws(ScriptError) in
            var values: [DataValue] = []
            for a in arguments { values.append(try i.dataValue(a)) }
            return try i.scriptValue(try body(values))
        }
    }

    /// Evaluates an expression to plain data.
    public func evaluate(_ expression: ScriptExpression) throws(ScriptError) -> DataValue {
        let e = try expression.tree()
        return try interpreter.evaluation { () throws(ScriptError) in
            try interpreter.dataValue(try interpreter.evaluate(e, interpreter.global))
        }
    }

    /// Reads strict JSON text as plain data, as `JSON.parse` reads it (the same nesting limit).
    ///
    /// - Throws: A `SyntaxError` naming the position when the text is not JSON.
    public func parseJSON(_ text: String) throws(ScriptError) -> DataValue {
        try interpreter.evaluation { () throws(ScriptError) in
            try interpreter.dataValue(try interpreter.parseJSON(text))
        }
    }

    /// Evaluates a condition: ECMAScript's ToBoolean of the value.
    public func evaluateCondition(_ expression: ScriptExpression) throws(ScriptError) -> Bool {
        // The tree read in place and lent (see `ParsedForm.root`), not returned by `tree()`.
        guard expression.form.parses else { throw expression.syntaxFailure }
        return try interpreter.evaluateCondition(expression.form.root)
    }

    /// Evaluates an expression to a string (ToString, as `<log>` and `eventexpr` need).
    public func evaluateString(_ expression: ScriptExpression) throws(ScriptError) -> String {
        let e = try expression.tree()
        return try interpreter.evaluation { () throws(ScriptError) in
            try interpreter.toStringValue(try interpreter.evaluate(e, interpreter.global), line: e.line)
        }
    }

    /// Assigns a value to a location: a declared variable or a member of one (`a.b`, `a[0]`).
    /// An undeclared root is a `ReferenceError`.
    public func assign(_ location: ScriptExpression, _ value: DataValue) throws(ScriptError) {
        let target = try location.tree()
        guard target.isLocation else {
            throw ScriptError(.syntax, "'\(location.source)' is not a location (a variable or a member of one)", line: target.line)
        }
        try interpreter.evaluation { () throws(ScriptError) in
            try interpreter.store(try interpreter.scriptValue(value), into: target, interpreter.global, line: target.line)
        }
    }

    /// Assigns the value of an expression to a location, without converting it to plain data in
    /// between (objects keep their identity, functions can be assigned).
    public func assign(_ location: ScriptExpression, from expression: ScriptExpression) throws(ScriptError) {
        // The trees read in place and lent (see `ParsedForm.root`).
        guard location.form.parses else { throw location.syntaxFailure }
        guard expression.form.parses else { throw expression.syntaxFailure }
        guard location.isLocation else {
            throw ScriptError(
                .syntax, "'\(location.source)' is not a location (a variable or a member of one)", line: location.form.root.line)
        }
        try interpreter.assign(location.form.root, from: expression.form.root)
    }

    /// Runs a program in the global scope: its `var`s and functions become globals.
    public func run(_ program: ScriptProgram) throws(ScriptError) {
        let statements = try program.parsed.get()
        try interpreter.evaluation { () throws(ScriptError) in
            for name in hoistedVarNames(statements) where interpreter.global.binding(name) == nil {
                interpreter.global.declare(name, .undefined)
            }
            _ = try interpreter.execute(statements, interpreter.global)
        }
    }

    /// Names of the session's hidden slots start with this: not an identifier, so no script reaches them.
    static let hiddenPrefix = "%"

    /// Starts a `<foreach>` over the shallow copy of an array taken now (SCXML 4.6): the copy holds
    /// the array's items themselves, so changing a member of an item changes the array's item, while
    /// changing the array does not change what is iterated. The copy is kept in the session, in a
    /// hidden slot (one per nesting level of loops), so it follows the session through copies.
    ///
    /// - Returns: How many items there are.
    /// - Throws: a `TypeError` for anything but an array.
    public func beginIteration(of expression: ScriptExpression, slot: Int) throws(ScriptError) -> Int {
        let e = try expression.parsed.get()
        return try interpreter.evaluation { () throws(ScriptError) in
            let v = try interpreter.evaluate(e, interpreter.global)
            guard case .object(let o) = v, o.isArray else {
                throw ScriptError(.type, "'\(expression.source)' is \(v.typeName == "object" ? "not an array" : "a \(v.typeName)"), not an array", line: e.line)
            }
            let copy = try interpreter.makeArray(o.elements, line: e.line)
            interpreter.global.declare(Self.hiddenPrefix + "foreach\(slot)", copy)
            return o.elements.count
        }
    }

    /// Assigns item `position` of the iteration in `slot` to `item` (the item itself, not a copy).
    public func assignIterationItem(slot: Int, at position: Int, to item: ScriptExpression) throws(ScriptError) {
        let target = try item.parsed.get()
        guard target.isLocation else {
            throw ScriptError(.syntax, "'\(item.source)' is not a location (a variable or a member of one)", line: target.line)
        }
        guard let b = interpreter.global.binding(Self.hiddenPrefix + "foreach\(slot)"), case .object(let o) = b.value,
            position < o.elements.count
        else { throw ScriptError(.reference, "no <foreach> iteration is running in slot \(slot)") }
        let value = o.elements[position]
        try interpreter.evaluation { () throws(ScriptError) in
            try interpreter.store(value, into: target, interpreter.global, line: target.line)
        }
    }

    /// Ends the iteration in `slot`, releasing its copy.
    public func endIteration(slot: Int) {
        interpreter.global.remove(Self.hiddenPrefix + "foreach\(slot)")
    }

    /// The elements of an array expression, as `<foreach>` iterates them: a shallow copy taken
    /// before the loop. Anything but an array is a `TypeError`.
    public func elements(of expression: ScriptExpression) throws(ScriptError) -> [DataValue] {
        let e = try expression.tree()
        return try interpreter.evaluation { () throws(ScriptError) in
            let v = try interpreter.evaluate(e, interpreter.global)
            guard case .object(let o) = v, o.isArray else {
                throw ScriptError(.type, "'\(expression.source)' is \(v.typeName == "object" ? "not an array" : "a \(v.typeName)"), not an array", line: e.line)
            }
            var out: [DataValue] = []
            for element in o.elements { out.append(try interpreter.dataValue(element)) }
            return out
        }
    }
}

// The evaluations a chart makes at every event, as methods of the interpreter: there `self` and
// its global scope are borrowed for the whole evaluation. In the session's closures, every read
// of `interpreter` and of `interpreter.global` was a reference count of its own.
extension Interpreter {
    /// ``ScriptSession/evaluateCondition(_:)`` of a parsed expression.
    func evaluateCondition(_ e: Expression) throws(ScriptError) -> Bool {
        try evaluation { () throws(ScriptError) in try evaluate(e, global).truthy }
    }

    /// ``ScriptSession/assign(_:from:)`` of a parsed location (checked to be one) and expression.
    /// Always inlined into it (29 instructions fewer per `<assign>`; the same for a condition
    /// cost 9 more).
    @inline(__always)
    func assign(_ target: Expression, from e: Expression) throws(ScriptError) {
        try evaluation { () throws(ScriptError) in
            let v = try evaluate(e, global)
            try store(v, into: target, global, line: target.line)
        }
    }
}
