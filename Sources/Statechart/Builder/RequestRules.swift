/// What a state request is checked against (rule R26), by chart index: the global and final
/// states of every machine level, the declared ``Routes`` and the states that have a
/// ``TransitionBarrier``.
///
/// Why not the levels' own sets of ids (``TypedLevel``): a level is generic over the context, and
/// the request check runs in the library, unspecialized — reading a level there looked up the
/// metadata of the level, of its optional dictionaries and of their closures' function types,
/// and each set hashed the ids with SipHash: about 4,000 of a request's 14,000 instructions
/// (issue 16). Here every rule is a sorted array of indices, searched by bisection, with no
/// generic type and no hashing; the barrier's closure is still read from its level, and only
/// for a state that has one.
struct RequestRules: Sendable {
    /// Global states (requestable from every state of their level), sorted.
    private var globals: [Int32] = []
    /// Final states (a request never leaves one), sorted.
    private var finals: [Int32] = []
    /// States with a barrier, sorted.
    private var barriers: [Int32] = []
    /// Declared routes, each `from << 32 | to` (both indices are non-negative), sorted.
    private var routes: [UInt64] = []

    /// No rules: every request is illegal unless a route added at run time allows it.
    init() {}

    /// The rules of `levels` whose indices are `ruled` (the levels that declare any: most levels
    /// of a large chart declare none and are not read), their ids looked up in `chart`. An id
    /// that is not a state of the chart names nothing a request can reach and is left out.
    init<Event, Context>(levels: TypedLevels<Context>, ruled: [Int32], chart: Chart<Event, Context>) {
        func index(_ id: String) -> Int32? { chart.state(withID: id)?.index }
        for l in 0..<ruled.count {
            guard let level = levels[Int(ruled[l])] else { continue }
            for id in level.globals { if let i = index(id) { globals.append(i) } }
            for id in level.finals { if let i = index(id) { finals.append(i) } }
            for id in level.barrierIDs { if let i = index(id) { barriers.append(i) } }
            for (from, targets) in level.routes {
                guard let f = index(from) else { continue }
                for to in targets {
                    if let t = index(to) { routes.append(UInt64(UInt32(f)) << 32 | UInt64(UInt32(t))) }
                }
            }
        }
        globals.sort()
        finals.sort()
        barriers.sort()
        routes.sort()
    }

    /// Whether `state` is a global state of its level.
    func isGlobal(_ state: Int32) -> Bool { Self.contains(globals, state) }

    /// Whether `state` is a final state of its level.
    func isFinal(_ state: Int32) -> Bool { Self.contains(finals, state) }

    /// Whether `state` has a barrier.
    func hasBarrier(_ state: Int32) -> Bool { Self.contains(barriers, state) }

    /// Whether `from`'s ``Routes`` list `to`.
    func hasRoute(from: Int32, to: Int32) -> Bool {
        Self.contains(routes, UInt64(UInt32(from)) << 32 | UInt64(UInt32(to)))
    }

    /// Whether the sorted `list` holds `value`, by bisection.
    private static func contains<Value: FixedWidthInteger>(_ list: [Value], _ value: Value) -> Bool {
        var low = 0
        var high = list.count
        while low < high {
            let middle = (low + high) / 2
            if list[middle] < value { low = middle + 1 } else { high = middle }
        }
        return low < list.count && list[low] == value
    }
}
