import Statechart
import StatechartECMAScript

/// A chart's data as Swift values (rule R90): a host program reads and writes the variables of a
/// running SCXML chart through `Codable`, bridged by ``DataValue`` (no JSON text in between).
///
/// ```swift
/// var instance = ChartInstance(chart: chart, context: SCXMLContext())
/// try instance.start()                                        // declares and binds the <data>
/// let count = try instance.context.value(of: "count", as: Int.self)
/// try instance.context.setValue(Cart(items: ["tea"]), for: "cart")
/// ```
///
/// The variables exist once the machine has started (its `<data>` are declared then). Writing runs
/// nothing: the chart sees the new value at its next condition or content. Every failure is a
/// ``DataModelError`` naming the variable.
extension SCXMLContext {
    /// A variable's value as plain data.
    ///
    /// - Throws: ``DataModelError/unknownVariable(_:)`` when it is not declared;
    ///   ``DataModelError/invalidValue(variable:reason:)`` when it holds what is not plain data
    ///   (a function).
    public func dataValue(of name: String) throws(DataModelError) -> DataValue {
        let value: DataValue?
        do {
            value = try data.value(of: name)
        } catch {
            throw .invalidValue(variable: name, reason: error.description)
        }
        guard let value else { throw .unknownVariable(name) }
        return value
    }

    /// A variable's value decoded as a Swift value.
    ///
    /// - Throws: what ``dataValue(of:)`` throws, and ``DataModelError/typeMismatch(variable:reason:)``
    ///   naming where the value does not fit `type` (`items[1]: expected a string, found a number`).
    public func value<T: Decodable>(of name: String, as type: T.Type = T.self) throws(DataModelError) -> T {
        let data = try dataValue(of: name)
        do {
            return try data.decode(type)
        } catch {
            throw .typeMismatch(variable: name, reason: "as \(T.self): \(error.description)")
        }
    }

    /// Writes a Swift value, encoded as plain data, into a declared variable.
    ///
    /// - Throws: ``DataModelError/unknownVariable(_:)`` when no such variable is declared (the
    ///   machine declares its `<data>` when it starts); ``DataModelError/readOnlyVariable(_:)`` for a
    ///   system variable or `_event`; ``DataModelError/typeMismatch(variable:reason:)`` when the
    ///   value cannot be encoded as data; ``DataModelError/invalidValue(variable:reason:)`` when the
    ///   datamodel refuses it (over a budget).
    public mutating func setValue<T: Encodable>(_ value: T, for name: String) throws(DataModelError) {
        guard data.isDeclared(name) else { throw .unknownVariable(name) }
        guard !data.isReadOnly(name) else { throw .readOnlyVariable(name) }
        let encoded: DataValue
        do {
            encoded = try DataValue(encoding: value)
        } catch {
            throw .typeMismatch(variable: name, reason: "\(T.self) cannot be made data: \(error.description)")
        }
        do {
            try data.declare(name, encoded)
        } catch {
            throw .invalidValue(variable: name, reason: error.description)
        }
    }
}
