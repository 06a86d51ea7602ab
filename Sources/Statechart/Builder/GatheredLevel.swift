/// One machine's declarations, numbered: each state value gets an ordinal on its first mention
/// (rule R65), and what is declared about a state is stored at that ordinal.
///
/// The emitter runs unspecialized (it is generic over the user's `State` type and called from a
/// generic initializer), so every dictionary keyed by that type costs a hash through witness
/// tables and a metadata lookup for its generic type. Numbering the values once and keeping
/// per-state tables as arrays indexed by ordinal leaves one such dictionary per level; what large
/// charts rarely declare (actions, children, routes, barriers, timers, invocations) sits in
/// ``StateExtras``, created only for the states that have some.
struct GatheredLevel<S: Hashable & Sendable, Event: Hashable & Sendable, Context> {
    /// The values, by ordinal: the order of first mention.
    var values: [S] = []
    var ordinalOf: [S: Int] = [:]
    /// Whether the state was declared (not only mentioned as a target).
    var declared: [Bool] = []
    var roles: [StateRole] = []
    /// Every state's transitions in one array, in declaration order; each state's form a list
    /// through ``nextTransition`` from ``firstTransition`` (no array per state).
    var transitions: [TransitionSpec<S, Event, Context>] = []
    var nextTransition: [Int32] = []
    var firstTransition: [Int32] = []
    var lastTransition: [Int32] = []
    /// Per ordinal, an index into ``extras``, or -1.
    var extrasIndex: [Int32] = []
    var extras: [StateExtras<S, Event, Context>] = []
    var anyState: [TransitionSpec<S, Event, Context>] = []
    /// Whether some closure of the level maps values to ids or ids to values at run time
    /// (barriers, dynamic transitions and targets, actions that receive a neighbour state).
    var needsLookups = false

    /// The ordinal of `s`, adding the state on its first mention.
    mutating func touch(_ s: S) -> Int {
        let next = values.count
        // One hash: the defaulted subscript's modify inserts `next` when `s` is new.
        let ordinal = Self.read(&ordinalOf[s, default: next])
        if ordinal == next {
            values.append(s)
            declared.append(false)
            roles.append(.normal)
            firstTransition.append(-1)
            lastTransition.append(-1)
            extrasIndex.append(-1)
        }
        return ordinal
    }

    private static func read(_ value: inout Int) -> Int { value }

    /// Appends a transition to a state's list.
    mutating func addTransition(_ spec: TransitionSpec<S, Event, Context>, to ordinal: Int) {
        let k = Int32(transitions.count)
        transitions.append(spec)
        nextTransition.append(-1)
        let last = lastTransition[ordinal]
        if last < 0 { firstTransition[ordinal] = k } else { nextTransition[Int(last)] = k }
        lastTransition[ordinal] = k
    }

    /// Room for `states` states and as many transitions, so that a small level grows its tables once.
    mutating func reserve(_ states: Int) {
        values.reserveCapacity(states)
        ordinalOf.reserveCapacity(states)
        declared.reserveCapacity(states)
        roles.reserveCapacity(states)
        transitions.reserveCapacity(states)
        nextTransition.reserveCapacity(states)
        firstTransition.reserveCapacity(states)
        lastTransition.reserveCapacity(states)
        extrasIndex.reserveCapacity(states)
    }

    mutating func declare(_ s: S) -> Int {
        let ordinal = touch(s)
        declared[ordinal] = true
        return ordinal
    }

    /// Mentions the targets of a transition.
    mutating func touchTargets(_ spec: TransitionSpec<S, Event, Context>) {
        switch spec.target {
        case .states(let ts): for t in ts { _ = touch(t) }
        case .dynamic: needsLookups = true
        case .none, .refs: break
        }
    }

    /// Changes the rarely used declarations of a state, creating them on first use.
    mutating func withExtras(_ ordinal: Int, _ change: (inout StateExtras<S, Event, Context>) throws(ChartError) -> Void)
        throws(ChartError)
    {
        var k = Int(extrasIndex[ordinal])
        if k < 0 {
            k = extras.count
            extras.append(StateExtras())
            extrasIndex[ordinal] = Int32(k)
        }
        try change(&extras[k])
    }

    /// The rarely used declarations of a state (empty when it has none).
    func extras(of ordinal: Int) -> StateExtras<S, Event, Context>? {
        let k = extrasIndex[ordinal]
        return k < 0 ? nil : extras[Int(k)]
    }
}

/// What a state declares besides its transitions.
struct StateExtras<S: Hashable & Sendable, Event: Hashable & Sendable, Context> {
    var entries: [ActionSpec<S, Event, Context>] = []
    var exits: [ActionSpec<S, Event, Context>] = []
    var children: [AnyChildMachine<Event, Context>] = []
    var routes: [S] = []
    var barrier: (@Sendable (S, Context) -> Barrier<S>)?
    var dynamic: (@Sendable (Context) -> S)?
    var afters: [(Duration, TransitionSpec<S, Event, Context>)] = []
    var invocations: [Invocation<Event, Context>] = []
}

extension GatheredLevel {
    /// Gathers a machine's body and attachments, in first-mention order.
    init(_ machine: Machine<S, Event, Context>, name: String) throws(ChartError) {
        // Usually one element declares one state: a first estimate of the level's size.
        reserve(machine.elements.count + machine.attachments.count)
        for element in machine.elements {
            switch element.kind {
            case .state(let s, let role, let content):
                let o = declare(s)
                if role != .normal { roles[o] = role }
                for item in content { try add(item, to: o, value: s) }
            case .transition(let sources, let spec):
                for s in sources { addTransition(spec, to: declare(s)) }
                touchTargets(spec)
            case .anyState(let items):
                for item in items {
                    guard case .transition(let t) = item.kind else {
                        throw .invalidStructure(name, reason: "AnyState holds only transitions", location: nil)
                    }
                    anyState.append(t)
                    touchTargets(t)
                }
            case .states(let list):
                for s in list { _ = declare(s) }
            }
        }
        for (s, child) in machine.attachments {
            let o = declare(s)
            try withExtras(o) { $0.children.append(child) }
        }
    }

    private mutating func add(_ item: StateElement<S, Event, Context>, to o: Int, value s: S) throws(ChartError) {
        switch item.kind {
        case .transition(let t):
            addTransition(t, to: o)
            touchTargets(t)
        case .entry(let a):
            if case .withNeighbour = a { needsLookups = true }
            try withExtras(o) { $0.entries.append(a) }
        case .exit(let a):
            if case .withNeighbour = a { needsLookups = true }
            try withExtras(o) { $0.exits.append(a) }
        case .attach(let c): try withExtras(o) { $0.children.append(c) }
        case .routes(let rs):
            try withExtras(o) { $0.routes.append(contentsOf: rs) }
            for r in rs { _ = touch(r) }
        case .barrier(let b):
            needsLookups = true
            try withExtras(o) { (x) throws(ChartError) in
                if x.barrier != nil {
                    throw .invalidStructure("\(s)", reason: "a state has at most one transition barrier", location: nil)
                }
                x.barrier = b
            }
        case .dynamic(let d):
            needsLookups = true
            try withExtras(o) { (x) throws(ChartError) in
                if x.dynamic != nil {
                    throw .invalidStructure("\(s)", reason: "a state has at most one dynamic transition", location: nil)
                }
                x.dynamic = d
            }
        case .after(let delay, let t):
            try withExtras(o) { $0.afters.append((delay, t)) }
            touchTargets(t)
        case .invoke(let i):
            try withExtras(o) { $0.invocations.append(i) }
        }
    }
}
