import Statechart

extension ECMAScriptDataModel {
    /// Binds `_event` (read-only) to the value `makeValue` builds, unless the last binding had an
    /// equal `key`; then `_event` already holds that value and nothing is built.
    ///
    /// A guard or an action binds `_event` before every evaluation, and in the steady state the
    /// event has not changed since the last one. Comparing a key the host already has (SCXML's
    /// event) costs no allocation; building the value, or comparing two built values, does.
    /// The key must determine the value: equal keys, equal values.
    package mutating func bindEvent<Key: Equatable>(
        key: Key, _ makeValue: () throws(ScriptError) -> DataValue
    ) throws(ScriptError) {
        let s = uniqueStorage()
        // A class cast and one `==`: casting an existential to `Key` instead copied the key
        // through its value witnesses and cost five times as much.
        if let bound = s.boundEventKey as? BoundEventKey<Key>, bound.key == key { return }
        // Forgotten first: if declaring fails, the next binding must not be skipped.
        s.boundEventKey = nil
        try s.session.declare("_event", try makeValue(), readOnly: true)
        s.boundEventKey = BoundEventKey(key)
    }
}

/// The key `_event` was last bound from (``ECMAScriptDataModel/bindEvent(key:_:)``).
final class BoundEventKey<Key: Equatable> {
    let key: Key
    init(_ key: Key) { self.key = key }
}
