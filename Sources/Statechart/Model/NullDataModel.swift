/// SCXML's null data model (SCXML B.1) as a ``DataModel``: no variables, and conditions made of
/// `In()` only (rule R88).
///
/// Its expressions are ``Condition`` values — `In('id')` combined with not, and, or — which the
/// chart's loader builds; there is no script. Every operation that needs data (declaring, reading
/// a value, assigning, `<foreach>`, `<log expr>`) throws ``DataModelError/noData(operation:)``
/// naming the operation. Binding `_event` and the system variables does nothing: the null data
/// model has no variables to bind them to. Its snapshot is empty, and restoring one that holds a
/// variable throws, naming the variable.
///
/// ```swift
/// var model = NullDataModel()
/// let ready: NullDataModel.Condition = .all([.isActive("connected"), .not(.isActive("busy"))])
/// try model.evaluateCondition(ready, in: environment)   // In('connected') && !In('busy')
/// ```
public struct NullDataModel: DataModel, Hashable, Codable {
    /// A condition of the null data model.
    public indirect enum Condition: Sendable, Hashable {
        /// `In('id')`: whether the state with this id is active.
        case isActive(String)
        /// `!x`.
        case not(Condition)
        /// `a && b && …`; the empty conjunction is `true`.
        case all([Condition])
        /// `a || b || …`; the empty disjunction is `false`.
        case any([Condition])

        /// Whether the condition holds when these states are active.
        public func holds(in activeStates: ActiveStateSet) -> Bool {
            switch self {
            case .isActive(let id): return activeStates.contains(id)
            case .not(let x): return !x.holds(in: activeStates)
            case .all(let xs): return xs.allSatisfy { $0.holds(in: activeStates) }
            case .any(let xs): return xs.contains { $0.holds(in: activeStates) }
            }
        }
    }

    /// A compiled expression: a condition.
    public typealias Expression = Condition
    /// There are no scripts under the null data model.
    public typealias Script = Never
    /// The error of an operation that needs data.
    public typealias Failure = DataModelError

    /// The (empty) null data model.
    public init() {}

    /// The null data model; `values` must hold no variable.
    ///
    /// - Throws: ``DataModelError/noData(operation:)`` naming the first variable (by name).
    public init(restoring values: DataModelValues) throws(DataModelError) {
        if let name = values.variables.keys.min() {
            throw .noData(operation: "restoring the variable '\(name)'")
        }
    }

    /// Throws: there is no data to declare.
    public mutating func declare(_ name: String, _ value: DataValue, readOnly: Bool) throws(DataModelError) {
        throw .noData(operation: "declaring '\(name)'")
    }

    /// Always `false`: no variable is ever declared.
    public func isDeclared(_ name: String) -> Bool { false }

    /// Always `nil`: no variable is ever declared.
    public func value(of name: String) throws(DataModelError) -> DataValue? { nil }

    /// Does nothing: there is no `_event` under the null data model.
    public mutating func bindEvent(_ event: DataValue) throws(DataModelError) {}

    /// Does nothing: there are no system variables under the null data model.
    public mutating func bindSystemVariables(_ variables: SystemVariables) throws(DataModelError) {}

    /// Whether the condition holds in the environment's active states.
    public mutating func evaluateCondition<Event>(_ expression: Condition, in environment: ChartEnvironment<Event>)
        throws(DataModelError) -> Bool
    {
        expression.holds(in: environment.activeStates)
    }

    /// Throws: the null data model evaluates conditions only.
    public mutating func evaluate<Event>(_ expression: Condition, in environment: ChartEnvironment<Event>)
        throws(DataModelError) -> DataValue
    {
        throw .noData(operation: "evaluating a value")
    }

    /// Throws: the null data model evaluates conditions only.
    public mutating func evaluateString<Event>(_ expression: Condition, in environment: ChartEnvironment<Event>)
        throws(DataModelError) -> String
    {
        throw .noData(operation: "evaluating a string")
    }

    /// Throws: there is no location to assign.
    public mutating func assign<Event>(
        _ location: Condition, from expression: Condition, in environment: ChartEnvironment<Event>
    ) throws(DataModelError) {
        throw .noData(operation: "<assign>")
    }

    /// Throws: there is no location to assign.
    public mutating func assign(_ location: Condition, _ value: DataValue) throws(DataModelError) {
        throw .noData(operation: "<assign>")
    }

    /// Cannot be called: there is no script.
    public mutating func run<Event>(_ script: Never, in environment: ChartEnvironment<Event>) throws(DataModelError) {}

    /// Throws: there is no array to iterate.
    public mutating func elements<Event>(of expression: Condition, in environment: ChartEnvironment<Event>)
        throws(DataModelError) -> [DataValue]
    {
        throw .noData(operation: "<foreach>")
    }

    /// The empty snapshot.
    public func snapshot() throws(DataModelError) -> DataModelValues { DataModelValues() }
}
