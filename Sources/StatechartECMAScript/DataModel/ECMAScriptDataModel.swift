import Statechart

/// The values of a chart whose expressions are ECMAScript, as a value: copies are independent.
///
/// A machine keeps its datamodel in its context, and the context is copied — into a snapshot,
/// into an undo log, into the copy a speculative ``ChartInstance/canHandle(_:)`` evaluates guards
/// on (rule R81). A script session is a heap of shared objects, so the model is copy-on-write: an
/// evaluation on a model whose session is shared first copies the whole session
/// (`Interpreter.copy`), keeping aliasing and closures. Reading plain values
/// (``value(of:)``, ``variables()``) never changes the session.
///
/// ```swift
/// var model = ECMAScriptDataModel()
/// try model.declare("count", 0)
/// var copy = model
/// try copy.run(ScriptProgram("count = count + 1"), in: environment)
/// try model.value(of: "count")   // 0: the copy has its own session
/// ```
///
/// `In(id)` is defined in every session and answers from the environment of the evaluation.
public struct ECMAScriptDataModel: @unchecked Sendable {
    // Unchecked: the storage is a class, but a session is only touched through a uniquely
    // referenced storage (``session()``) or read without mutation; a shared one is copied first.
    // Created on first use: a chart without data never pays for a session. Internal, not private:
    // the `_event` binding (EventBinding.swift), the snapshot code and the tests reach it.
    var storage: Storage?
    /// The budgets of the session.
    public let limits: ScriptLimits

    /// An empty model with these budgets.
    public init(limits: ScriptLimits = ScriptLimits()) {
        self.limits = limits
    }

    /// A model holding these variables, none of them read-only.
    public init(restoring variables: [String: DataValue], limits: ScriptLimits = ScriptLimits()) throws(ScriptError) {
        try self.init(restoring: DataModelValues(variables: variables), limits: limits)
    }

    /// The session, copied first when another model shares it.
    mutating func uniqueStorage() -> Storage {
        // The uniqueness check comes before any local reference to the storage: one taken first
        // (`guard let current = storage`) is a second reference, and every evaluation then copied
        // the whole session.
        if isKnownUniquelyReferenced(&storage), let current = storage { return current }
        let new = storage?.copy() ?? Storage(session: ScriptSession(limits: limits))
        storage = new
        return new
    }

    private mutating func session() -> ScriptSession { uniqueStorage().session }

    /// Runs `body` on the session for an evaluation with these active states. Not generic over
    /// the event: the public methods are, and are called from other modules unspecialized, so
    /// they only read `activeStates` and come here. `In()` sees the active states through a
    /// pointer valid for the evaluation only: stored, they cost reference counts at every
    /// evaluation, and kept, they would share the machine's configuration bits, which its next
    /// transition would then copy.
    mutating func withSession<T>(
        _ activeStates: ActiveStateSet, _ body: (ScriptSession) throws(ScriptError) -> T
    ) throws(ScriptError) -> T {
        // The storage made unique, then lent to a method of its own, not held in a local: the
        // model is `inout`, which nothing else reaches during the call, so the storage read from
        // it is borrowed. A local reference was a retain and a release per evaluation.
        makeStorageUnique()
        return try storage.unsafelyUnwrapped.evaluate(activeStates, body)
    }

    /// Makes ``storage`` the model's own (and not `nil`), as ``uniqueStorage()`` does.
    @inline(__always)
    private mutating func makeStorageUnique() {
        if isKnownUniquelyReferenced(&storage), storage != nil { return }
        _ = uniqueStorage()
    }

    // MARK: - Variables

    /// Declares (or redeclares) a variable; a read-only one (`_sessionid`, `_event`) cannot be
    /// assigned by scripts.
    public mutating func declare(_ name: String, _ value: DataValue, readOnly: Bool = false) throws(ScriptError) {
        try session().declare(name, value, readOnly: readOnly)
    }

    /// Whether a variable of this name is declared.
    /// A number as ECMAScript writes it (`String(n)`): `2`, `0.5`, `1e+21`, `NaN` — for hosts
    /// that put a script's numbers into text of their own (the Basic HTTP processor's forms).
    public static func numberText(_ value: Double) -> String { formatNumber(value) }

    public func isDeclared(_ name: String) -> Bool { storage?.session.isDeclared(name) ?? false }

    /// A variable's value as plain data, or `nil` when it is not declared.
    public func value(of name: String) throws(ScriptError) -> DataValue? { try storage?.session.value(of: name) }

    /// Every variable that holds plain data (functions are left out): what a snapshot keeps.
    public func variables() throws(ScriptError) -> [String: DataValue] { try storage?.session.variables() ?? [:] }

    /// Binds `_event` (read-only) for the evaluations that follow, unless it already holds this value.
    public mutating func bindEvent(_ event: DataValue) throws(ScriptError) {
        try bindEventValue(event)
    }

    // MARK: - Evaluation

    /// Evaluates an expression to plain data.
    public mutating func evaluate<Event>(_ expression: ScriptExpression, in environment: ChartEnvironment<Event>) throws(ScriptError) -> DataValue {
        try withSession(environment.activeStates) { (s) throws(ScriptError) in try s.evaluate(expression) }
    }

    /// Reads strict JSON text as plain data, as `JSON.parse` reads it: SCXML's inline content
    /// (`<data>`, `<assign>`, `<content>`) is its JSON value when it is JSON (SCXML B.2.2).
    ///
    /// - Throws: A `SyntaxError` naming the position when the text is not JSON.
    public mutating func parseJSON(_ text: String) throws(ScriptError) -> DataValue {
        try session().parseJSON(text)
    }

    /// Evaluates a condition (ECMAScript's ToBoolean of its value).
    public mutating func evaluateCondition<Event>(_ expression: ScriptExpression, in environment: ChartEnvironment<Event>) throws(ScriptError) -> Bool {
        try withSession(environment.activeStates) { (s) throws(ScriptError) in try s.evaluateCondition(expression) }
    }

    /// Evaluates an expression to a string (ToString), as `<log expr>` and `eventexpr` need.
    public mutating func evaluateString<Event>(_ expression: ScriptExpression, in environment: ChartEnvironment<Event>) throws(ScriptError) -> String {
        try withSession(environment.activeStates) { (s) throws(ScriptError) in try s.evaluateString(expression) }
    }

    /// Assigns the value of an expression to a location (`<assign location expr>`).
    public mutating func assign<Event>(_ location: ScriptExpression, from expression: ScriptExpression, in environment: ChartEnvironment<Event>) throws(ScriptError) {
        try withSession(environment.activeStates) { (s) throws(ScriptError) in try s.assign(location, from: expression) }
    }

    /// Assigns a plain value to a location (`<assign>` with inline content, `<foreach>`'s item).
    public mutating func assign(_ location: ScriptExpression, _ value: DataValue) throws(ScriptError) {
        try session().assign(location, value)
    }

    /// Runs a script in the global scope (`<script>`).
    public mutating func run<Event>(_ program: ScriptProgram, in environment: ChartEnvironment<Event>) throws(ScriptError) {
        try withSession(environment.activeStates) { (s) throws(ScriptError) in try s.run(program) }
    }

    /// Starts a `<foreach>` over the shallow copy of an array taken now (its items themselves), kept
    /// in a hidden slot of the session; returns how many items there are
    /// (``ScriptSession/beginIteration(of:slot:)``).
    public mutating func beginIteration<Event>(of expression: ScriptExpression, slot: Int, in environment: ChartEnvironment<Event>) throws(ScriptError) -> Int {
        try withSession(environment.activeStates) { (s) throws(ScriptError) in try s.beginIteration(of: expression, slot: slot) }
    }

    /// Assigns item `position` of the iteration in `slot` to `item`.
    public mutating func assignIterationItem(slot: Int, at position: Int, to item: ScriptExpression) throws(ScriptError) {
        try uniqueStorage().session.assignIterationItem(slot: slot, at: position, to: item)
    }

    /// Ends the iteration in `slot`.
    public mutating func endIteration(slot: Int) {
        guard storage != nil else { return }
        uniqueStorage().session.endIteration(slot: slot)
    }

    /// The elements of an array, as `<foreach>` iterates them (a shallow copy taken before the loop).
    public mutating func elements<Event>(of expression: ScriptExpression, in environment: ChartEnvironment<Event>) throws(ScriptError) -> [DataValue] {
        try withSession(environment.activeStates) { (s) throws(ScriptError) in try s.elements(of: expression) }
    }
}

extension ECMAScriptDataModel: Hashable {
    /// Models are equal when their plain variables are (functions are not compared).
    public static func == (a: Self, b: Self) -> Bool {
        a.storage === b.storage || (try? a.variables()) == (try? b.variables())
    }

    /// Hashes the plain variables.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(try? variables())
    }
}

extension ECMAScriptDataModel {
    final class Storage {
        let session: ScriptSession
        /// The active states of the evaluation that is running, for `In()`: set by `withSession`
        /// for the evaluation only (the pointer is not valid after it), `nil` otherwise. Set and
        /// cleared at every evaluation, on one thread: unchecked exclusivity (the checks cost more).
        @exclusivity(unchecked) var activeStates: UnsafePointer<ActiveStateSet>?
        /// What `_event` was last bound from (EventBinding.swift): an equal key skips the rebinding.
        @exclusivity(unchecked) var boundEventKey: AnyObject?
        /// The same binding's event as a name and the identity of its other fields, compared
        /// without a cast or a copy (``ECMAScriptDataModel/isEventBound(name:fields:)``).
        @exclusivity(unchecked) var boundEventName: String?
        @exclusivity(unchecked) var boundEventFields: AnyObject?
        /// The host's number for the same event (``ChartEnvironment/eventSerial``), 0 for none.
        @exclusivity(unchecked) var boundEventSerial: UInt64 = 0

        init(session: ScriptSession) {
            self.session = session
            session.defineFunction("In") { [unowned self] (arguments) throws(ScriptError) in
                guard case .string(let id)? = arguments.first else {
                    throw ScriptError(.type, "In() takes the id of a state, as a string")
                }
                return .boolean(self.activeStates?.pointee.contains(id) ?? false)
            }
        }

        /// Runs `body` on the session, with `In()` answering from `activeStates` (see
        /// ``ECMAScriptDataModel/withSession(_:_:)``).
        func evaluate<T>(_ activeStates: ActiveStateSet, _ body: (ScriptSession) throws(ScriptError) -> T) throws(ScriptError) -> T {
            try withUnsafePointer(to: activeStates) { (states) throws(ScriptError) -> T in
                self.activeStates = states
                defer { self.activeStates = nil }
                return try body(session)
            }
        }

        func copy() -> Storage {
            let new = Storage(session: session.copy())
            new.boundEventKey = boundEventKey
            new.boundEventName = boundEventName
            new.boundEventFields = boundEventFields
            new.boundEventSerial = boundEventSerial
            return new
        }
    }
}
