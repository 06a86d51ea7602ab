/// The seam between the engine and an expression language: what SCXML's executable content asks of
/// a datamodel (rule R88).
///
/// A chart keeps its datamodel in its context, as a value, and reaches it from
/// ``Guard/expression(_:_:)`` and ``Action/content(_:_:)`` with the ``ChartEnvironment`` of the
/// moment. The operations are those of SCXML 5: declare and bind `<data>` (early binding binds every
/// `<data>` when the machine starts, late binding a state's `<data>` on its first entry — both are
/// ``declare(_:_:readOnly:)`` of `undefined` followed by ``assign(_:from:in:)``), evaluate a
/// condition or a value, assign to a location, run a script, list the items `<foreach>` iterates,
/// bind `_event` and the system variables, and export and restore the values (``snapshot()``,
/// ``init(restoring:)``) so that a snapshot of a machine with data encodes.
///
/// Values cross the seam as plain ``DataValue``s. Expressions and scripts are compiled once, when
/// the chart loads, by the datamodel's own compiler (``Expression``, ``Script``); a datamodel
/// answers `In()` from ``ChartEnvironment/activeStates``.
///
/// Two datamodels conform: ``NullDataModel`` (no data; conditions are `In()` only) and
/// `StatechartECMAScript`'s `ECMAScriptDataModel`. The SCXML loader holds the ECMAScript one
/// concretely (its `SCXMLContext.data`); another language plugs in by conforming a type of its own
/// and building the guards and actions of a chart on it the same way.
public protocol DataModel: Sendable {
    /// An expression (a condition, a value or a location) compiled once, when the chart loads.
    associatedtype Expression: Sendable
    /// A script (`<script>`) compiled once, when the chart loads.
    associatedtype Script: Sendable
    /// What goes wrong when the datamodel evaluates (SCXML raises `error.execution` for it).
    associatedtype Failure: Error

    /// Declares a variable with a value (a `<data>`, a system variable); a read-only one cannot be
    /// assigned afterwards by the chart.
    mutating func declare(_ name: String, _ value: DataValue, readOnly: Bool) throws(Failure)

    /// Whether a variable of this name is declared.
    func isDeclared(_ name: String) -> Bool

    /// A variable's value as plain data, or `nil` when it is not declared.
    func value(of name: String) throws(Failure) -> DataValue?

    /// Binds `_event` (read-only) to the event being processed, as plain data.
    mutating func bindEvent(_ event: DataValue) throws(Failure)

    /// Binds SCXML's system variables for a new session (the default declares them read-only).
    mutating func bindSystemVariables(_ variables: SystemVariables) throws(Failure)

    /// Evaluates a condition (`cond`).
    mutating func evaluateCondition<Event>(_ expression: Expression, in environment: ChartEnvironment<Event>)
        throws(Failure) -> Bool

    /// Evaluates an expression to plain data (`expr`).
    mutating func evaluate<Event>(_ expression: Expression, in environment: ChartEnvironment<Event>)
        throws(Failure) -> DataValue

    /// Evaluates an expression to a string (`<log expr>`, `eventexpr`).
    mutating func evaluateString<Event>(_ expression: Expression, in environment: ChartEnvironment<Event>)
        throws(Failure) -> String

    /// Assigns the value of an expression to a location (`<assign location expr>`).
    mutating func assign<Event>(
        _ location: Expression, from expression: Expression, in environment: ChartEnvironment<Event>
    ) throws(Failure)

    /// Assigns a plain value to a location (`<assign>` with inline content, `<foreach item>`).
    mutating func assign(_ location: Expression, _ value: DataValue) throws(Failure)

    /// Runs a script (`<script>`).
    mutating func run<Event>(_ script: Script, in environment: ChartEnvironment<Event>) throws(Failure)

    /// The items `<foreach array>` iterates: a copy taken before the loop.
    mutating func elements<Event>(of expression: Expression, in environment: ChartEnvironment<Event>)
        throws(Failure) -> [DataValue]

    /// Every variable as plain data, with which of them are read-only: what a snapshot keeps.
    /// A value that is not plain data (a function) fails, naming the variable.
    func snapshot() throws(Failure) -> DataModelValues

    /// A datamodel holding exactly these variables (a restored snapshot).
    init(restoring values: DataModelValues) throws(Failure)
}

extension DataModel {
    /// Declares SCXML's system variables, read-only: `_sessionid`, `_name` and `_ioprocessors`
    /// (SCXML 5.10), then binds `_event` to `undefined` until the first event.
    public mutating func bindSystemVariables(_ variables: SystemVariables) throws(Failure) {
        try declare("_sessionid", .string(variables.sessionID), readOnly: true)
        try declare("_name", .string(variables.name), readOnly: true)
        try declare("_ioprocessors", .object(variables.ioProcessors), readOnly: true)
        try bindEvent(.undefined)
    }
}

/// The values of SCXML's system variables for one session (SCXML 5.10).
public struct SystemVariables: Sendable, Hashable {
    /// `_sessionid`.
    public var sessionID: String
    /// `_name`: the chart's name.
    public var name: String
    /// `_ioprocessors`: each Event I/O processor's name mapped to an object with its `location`.
    public var ioProcessors: DataObject

    /// Describes a session's system variables.
    public init(sessionID: String, name: String, ioProcessors: DataObject = DataObject()) {
        self.sessionID = sessionID
        self.name = name
        self.ioProcessors = ioProcessors
    }
}

/// A datamodel's variables as plain data, with the names that are read-only (the system variables
/// and `_event`): what ``DataModel/snapshot()`` exports and ``DataModel/init(restoring:)`` takes
/// back (rule R89). It encodes as `{"variables": {…}, "readOnly": […]}`, the names sorted.
public struct DataModelValues: Sendable, Hashable, Codable {
    /// The variables by name.
    public var variables: [String: DataValue]
    /// The names of the read-only variables (each one is also in ``variables``).
    public var readOnly: Set<String>

    /// Describes a datamodel's values.
    public init(variables: [String: DataValue] = [:], readOnly: Set<String> = []) {
        self.variables = variables
        self.readOnly = readOnly
    }

    private enum CodingKeys: String, CodingKey { case variables, readOnly }

    /// Encodes the variables and the sorted read-only names.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        // One DataValue object (names sorted): a variable may be named `$x`, which DataValue's
        // encoding of objects protects.
        let names = variables.keys.sorted()
        try c.encode(DataValue.object(DataObject(names.map { ($0, variables[$0]!) })), forKey: .variables)
        try c.encode(readOnly.sorted(), forKey: .readOnly)
    }

    /// Decodes what ``encode(to:)`` wrote; a read-only name that is not a variable is a
    /// `DecodingError.dataCorrupted` naming it.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        guard case .object(let members) = try c.decode(DataValue.self, forKey: .variables) else {
            throw DecodingError.dataCorruptedError(forKey: .variables, in: c, debugDescription: "the variables are not an object")
        }
        var variables: [String: DataValue] = [:]
        for (name, value) in members { variables[name] = value }
        self.variables = variables
        let names = try c.decodeIfPresent([String].self, forKey: .readOnly) ?? []
        if let stray = names.first(where: { variables[$0] == nil }) {
            throw DecodingError.dataCorruptedError(
                forKey: .readOnly, in: c, debugDescription: "the read-only name '\(stray)' is not one of the variables")
        }
        readOnly = Set(names)
    }
}

/// What a datamodel operation or a host program's read or write of chart data did wrong.
public enum DataModelError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The operation needs data, which the null data model does not have (SCXML B.1).
    case noData(operation: String)
    /// No variable of this name is declared.
    case unknownVariable(String)
    /// The variable is read-only (a system variable such as `_sessionid`, or `_event`).
    case readOnlyVariable(String)
    /// The variable's value does not have the Swift type asked for (or a Swift value cannot be
    /// made into data): where and why.
    case typeMismatch(variable: String, reason: String)
    /// The datamodel refused the value (not plain data, over a budget…): why.
    case invalidValue(variable: String, reason: String)

    /// A sentence naming the variable or operation.
    public var description: String {
        switch self {
        case .noData(let operation):
            return "the null data model has no data: \(operation) needs a datamodel such as ecmascript"
        case .unknownVariable(let name): return "no variable named '\(name)' is declared"
        case .readOnlyVariable(let name): return "the variable '\(name)' is read-only"
        case .typeMismatch(let name, let reason): return "the variable '\(name)': \(reason)"
        case .invalidValue(let name, let reason): return "the variable '\(name)' cannot hold this value: \(reason)"
        }
    }
}
