import Statechart

extension ECMAScriptDataModel {
    /// What `_event` was last bound from: the `key` of the last ``bindEvent(_:key:)``, or `nil`.
    ///
    /// A guard or an action binds `_event` before every evaluation, and in the steady state the
    /// event has not changed since the last one. The host compares its own event with this key
    /// (in its own, specialized code: no allocation, no value built) and binds only when they
    /// differ. Reading it never copies the session: a model that shares its session with another
    /// shares its `_event` too.
    package var boundEventKey: AnyObject? { storage?.boundEventKey }

    /// Binds `_event` (read-only) to `value` and records `key` as what it was built from. `key`
    /// must determine `value`: two bindings with equal keys bind equal values.
    package mutating func bindEvent(_ value: DataValue, key: AnyObject) throws(ScriptError) {
        let s = uniqueStorage()
        // Forgotten first: if declaring fails, the next binding must not be skipped.
        s.boundEventKey = nil
        try s.session.declare("_event", value, readOnly: true)
        s.boundEventKey = key
    }

    /// ``bindEvent(_:)``: the value is its own key.
    mutating func bindEventValue(_ value: DataValue) throws(ScriptError) {
        if let bound = boundEventKey as? BoundEventValue, bound.value == value { return }
        try bindEvent(value, key: BoundEventValue(value))
    }
}

/// The key of a binding made with a plain value (``ECMAScriptDataModel/bindEvent(_:)``).
final class BoundEventValue {
    let value: DataValue
    init(_ value: DataValue) { self.value = value }
}
