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
    ///
    /// `name` and `fields` describe the event again for ``isEventBound(name:fields:)``: an event
    /// whose name is `name` and whose other fields are the object `fields` (or none, `nil`)
    /// determines `value` as well.
    ///
    /// `serial` is the host's number for the event (``ChartEnvironment/eventSerial``, 0 for none):
    /// ``isEventBound(serial:)`` answers the steady state's question with it alone.
    package mutating func bindEvent(
        _ value: DataValue, key: AnyObject, name: String? = nil, fields: AnyObject? = nil, serial: UInt64 = 0
    ) throws(ScriptError) {
        let s = uniqueStorage()
        // Forgotten first: if declaring fails, the next binding must not be skipped.
        s.boundEventKey = nil
        s.boundEventName = nil
        s.boundEventFields = nil
        s.boundEventSerial = 0
        try s.session.declare("_event", value, readOnly: true)
        s.boundEventKey = key
        s.boundEventName = name
        s.boundEventFields = fields
        s.boundEventSerial = serial
    }

    /// Whether `_event` was last bound from the event the host numbers `serial` (nonzero): the
    /// steady state's check before every evaluation, one comparison. A `false` only means "look
    /// closer" (``isEventBound(name:fields:)``, then the key).
    @inline(__always)
    package func isEventBound(serial: UInt64) -> Bool {
        guard let s = storage else { return false }
        return s.boundEventSerial == serial && serial != 0
    }

    /// Records that the event numbered `serial` is the one `_event` holds already (the host found
    /// it equal to the bound one by a closer look), so that the next check is one comparison.
    package mutating func noteEventSerial(_ serial: UInt64) {
        guard serial != 0, storage != nil else { return }
        uniqueStorage().boundEventSerial = serial
    }

    /// Whether `_event` was last bound from an event with this name and these other fields (the
    /// same object, or none for both): the steady state's check, made before every evaluation
    /// with no cast, no copy and no reference count. A `false` only means "look closer".
    @inline(__always)
    package func isEventBound(name: String, fields: AnyObject?) -> Bool {
        guard let s = storage, let bound = s.boundEventName else { return false }
        return s.boundEventFields === fields && bound == name
    }

    /// Whether `_event` must be bound before evaluating something that may read it when
    /// `mayRead` (``ScriptExpression/mayReadEvent``, or any of a block's expressions): then, or
    /// when a function written in a script exists in the session (an operator may call its
    /// `valueOf`, which may read `_event`). Otherwise the evaluation cannot observe `_event`, and a
    /// host skips binding it (an evaluation that does read it binds it then).
    @inline(__always)
    package func needsEvent(mayRead: Bool) -> Bool {
        mayRead || (storage?.session.interpreter.hasScriptFunctions ?? true)
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
