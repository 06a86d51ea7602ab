import Foundation

/// Renames state ids inside a stored snapshot's JSON, for moving an instance to another version
/// of its chart (rule D12). A statechart's configuration is explicit, so a version change is a map
/// of state ids — no replay of old events through new code.
///
/// Renamed: the active states, the final state, history states and the states they remember, the
/// states named by queued and pending done events, and the keys of delayed transitions' timers
/// (`<state id>#<n>`, with their send ids `timer.<key>`), so a pending timeout of a renamed state
/// still fires and can still be cancelled by leaving it. Ids not in the map stay as they are.
struct StateRenaming {
    let map: [String: String]

    func state(_ id: String) -> String { map[id] ?? id }

    func timerKey(_ key: String) -> String {
        guard let hash = key.lastIndex(of: "#") else { return key }
        return state(String(key[..<hash])) + key[hash...]
    }

    func sendID(_ id: String) -> String {
        id.hasPrefix("timer.") ? "timer." + timerKey(String(id.dropFirst("timer.".count))) : id
    }

    /// A `SnapshotEvent` as JSON: `{"done": {"state": …}}`, `{"timer": {"key": …}}`, or another case.
    func event(_ value: Any) -> Any {
        guard var object = value as? [String: Any] else { return value }
        if var done = object["done"] as? [String: Any], let id = done["state"] as? String {
            done["state"] = state(id)
            object["done"] = done
        }
        if var timer = object["timer"] as? [String: Any], let key = timer["key"] as? String {
            timer["key"] = timerKey(key)
            object["timer"] = timer
        }
        return object
    }

    /// The snapshot's JSON with its states renamed and its chart identity replaced.
    func apply(to json: String, chartName: String, fingerprint: String) throws(DurableError) -> String {
        guard var snapshot = (try? JSONSerialization.jsonObject(with: Data(json.utf8))) as? [String: Any] else {
            throw .storage("the snapshot is not a JSON object")
        }
        snapshot["chartName"] = chartName
        snapshot["fingerprint"] = fingerprint
        if let active = snapshot["activeStates"] as? [String] { snapshot["activeStates"] = active.map(state) }
        if let final = snapshot["finalState"] as? String { snapshot["finalState"] = state(final) }
        if let history = snapshot["history"] as? [String: [String]] {
            snapshot["history"] = Dictionary(
                history.map { (state($0.key), $0.value.map(state)) }, uniquingKeysWith: { first, _ in first })
        }
        if let queued = snapshot["queuedEvents"] as? [Any] { snapshot["queuedEvents"] = queued.map(event) }
        if let pending = snapshot["pendingSends"] as? [[String: Any]] {
            snapshot["pendingSends"] = pending.map { send -> [String: Any] in
                var send = send
                if let e = send["event"] { send["event"] = event(e) }
                if let id = send["id"] as? String { send["id"] = sendID(id) }
                return send
            }
        }
        do {
            let data = try JSONSerialization.data(withJSONObject: snapshot, options: [.sortedKeys])
            return String(decoding: data, as: UTF8.self)
        } catch {
            throw .storage("the renamed snapshot does not encode: \(error)")
        }
    }
}
