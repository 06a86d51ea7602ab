/// One machine's declarations, numbered: each state value gets an ordinal on its first mention
/// (rule R65), and what is declared about a state is stored at that ordinal.
///
/// The emitter runs unspecialized (it is generic over the user's `State` type and called from a
/// generic initializer), so every dictionary keyed by that type costs a hash through witness
/// tables and a metadata lookup for its generic type. Numbering the values once and keeping
/// per-state tables as arrays indexed by ordinal leaves one such dictionary per level; what large
/// charts rarely declare (actions, routes, barriers, timers, invocations) sits in
/// ``StateExtras``, created only for the states that have some. Transitions and attached
/// children are listed by state in ``OrdinalLists``.
@usableFromInline
struct GatheredLevel<S: Hashable & Sendable, Event: Hashable & Sendable, Context> {
    /// The values, by ordinal: the order of first mention.
    @usableFromInline var values: [S] = []
    @usableFromInline var ordinalOf: [S: Int] = [:]
    /// Whether the state was declared (not only mentioned as a target).
    @usableFromInline var declared: [Bool] = []
    @usableFromInline var roles: [StateRole] = []
    /// Every state's transitions in one array, in declaration order; each state's form a list
    /// in ``transitionLists`` (no array per state).
    @usableFromInline var transitions: [TransitionSpec<S, Event, Context>] = []
    @usableFromInline var transitionLists = OrdinalLists()
    /// By transition, the ordinals of its targets when they are states of this level,
    /// `targetOrdinals[targetStart[k] ..< targetEnd[k]]` (the transitions of one declaration with
    /// several sources share a range): recorded as the targets are first mentioned, so that
    /// preparing the transitions (``GatheredMachine``) does not look each value up again. The
    /// targets of delayed and any-state transitions are recorded too, in runs no range names.
    @usableFromInline var targetStart: [Int32] = []
    @usableFromInline var targetEnd: [Int32] = []
    @usableFromInline var targetOrdinals: [Int32] = []

    /// Where transition `k`'s target ordinals are in ``targetOrdinals``.
    @inlinable
    func targetRange(of k: Int) -> Range<Int> { Int(targetStart[k])..<Int(targetEnd[k]) }
    /// The attached children, in order of attachment, each state's a list in ``childLists``:
    /// what the emitter reads of each (``ChildKey``) and where the child is (``ChildPlace``).
    /// Not in ``StateExtras``: a state with a child and nothing else rare is common (every place
    /// a machine is attached), and creating its extras cost thousands of instructions of generic
    /// code (issue 16). The children themselves are not copied here: each holds a closure whose
    /// context is an object of its own, and a million-state chart's 100,000 copies retained and
    /// released 100,000 objects spread over memory, a cache miss each (issue 16).
    @usableFromInline var childKeys: [ChildKey] = []
    @usableFromInline var childPlaces: [ChildPlace] = []
    /// The children attached inside a state's body (`Attach`), read by ``ChildPlace``; those
    /// of ``Machine/attachments`` are read from the machine.
    @usableFromInline var bodyChildren: [AnyChildMachine<Event, Context>] = []
    @usableFromInline var childLists = OrdinalLists()
    /// Per ordinal, an index into ``extras``, or -1.
    @usableFromInline var extrasIndex: [Int32] = []
    @usableFromInline var extras: [StateExtras<S, Event, Context>] = []
    @usableFromInline var anyState: [TransitionSpec<S, Event, Context>] = []
    /// Whether some closure of the level maps values to ids or ids to values at run time
    /// (barriers, dynamic transitions and targets, actions that receive a neighbour state).
    @usableFromInline var needsLookups = false

    /// The ordinal of `s`, adding the state on its first mention.
    @inlinable
    mutating func touch(_ s: S) -> Int {
        let next = values.count
        // One hash: the defaulted subscript's modify inserts `next` when `s` is new.
        let ordinal = Self.read(&ordinalOf[s, default: next])
        if ordinal == next {
            values.append(s)
            declared.append(false)
            roles.append(.normal)
            transitionLists.addOrdinal()
            childLists.addOrdinal()
            extrasIndex.append(-1)
        }
        return ordinal
    }

    @inlinable
    static func read(_ value: inout Int) -> Int { value }

    /// Appends a transition to a state's list. Consuming, and called with the caller's last use of
    /// `spec`: the copy the caller bound is moved into the list, not copied again and destroyed
    /// (a retain and a release of each object it holds, issue 16).
    @inlinable
    mutating func addTransition(
        _ spec: __owned TransitionSpec<S, Event, Context>, to ordinal: Int, targets: Range<Int32>
    ) {
        transitions.append(spec)
        transitionLists.append(to: ordinal)
        targetStart.append(targets.lowerBound)
        targetEnd.append(targets.upperBound)
    }

    /// Appends the child of the machine's `attachments[index]`, whose key is `key`, to a state's list.
    @inlinable
    mutating func attach(_ key: ChildKey, attachment index: Int, to ordinal: Int) {
        childKeys.append(key)
        childPlaces.append(ChildPlace(attachment: index))
        childLists.append(to: ordinal)
    }

    /// Appends a child attached in a state's body to the state's list.
    @inlinable
    mutating func attach(bodyChild child: AnyChildMachine<Event, Context>, to ordinal: Int) {
        childKeys.append(child.key)
        childPlaces.append(ChildPlace(bodyChild: bodyChildren.count))
        bodyChildren.append(child)
        childLists.append(to: ordinal)
    }

    /// Room for `states` states, `transitions` transitions and `children` attached children, so
    /// that a level grows its tables once.
    @inlinable
    mutating func reserve(_ states: Int, transitions: Int, children: Int) {
        values.reserveCapacity(states)
        ordinalOf.reserveCapacity(states)
        declared.reserveCapacity(states)
        roles.reserveCapacity(states)
        self.transitions.reserveCapacity(transitions)
        targetStart.reserveCapacity(transitions)
        targetEnd.reserveCapacity(transitions)
        targetOrdinals.reserveCapacity(transitions)
        transitionLists.reserve(ordinals: states, items: transitions)
        childKeys.reserveCapacity(children)
        childPlaces.reserveCapacity(children)
        childLists.reserve(ordinals: states, items: children)
        extrasIndex.reserveCapacity(states)
    }

    @inlinable
    mutating func declare(_ s: S) -> Int {
        let ordinal = touch(s)
        declared[ordinal] = true
        return ordinal
    }

    /// Mentions the targets of a transition; returns the range of ``targetOrdinals`` that holds
    /// their ordinals (empty unless they are states of this level).
    @inlinable @discardableResult
    mutating func touchTargets(_ spec: TransitionSpec<S, Event, Context>) -> Range<Int32> {
        let start = Int32(targetOrdinals.count)
        switch spec.target {
        case .states(let ts): for i in 0..<ts.count { targetOrdinals.append(Int32(touch(ts[i]))) }
        case .dynamic: needsLookups = true
        case .none, .refs: break
        }
        return start..<Int32(targetOrdinals.count)
    }

    /// Changes the rarely used declarations of a state, creating them on first use.
    @inlinable
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
    @inlinable
    func extras(of ordinal: Int) -> StateExtras<S, Event, Context>? {
        let k = extrasIndex[ordinal]
        return k < 0 ? nil : extras[Int(k)]
    }
}

/// What a state declares besides its transitions and attached children (both listed by state
/// in ``OrdinalLists``).
@usableFromInline
struct StateExtras<S: Hashable & Sendable, Event: Hashable & Sendable, Context> {
    @usableFromInline var entries: [ActionSpec<S, Event, Context>] = []
    @usableFromInline var exits: [ActionSpec<S, Event, Context>] = []
    @usableFromInline var routes: [S] = []
    @usableFromInline var barrier: (@Sendable (S, Context) -> Barrier<S>)?
    @usableFromInline var dynamic: (@Sendable (Context) -> S)?
    @usableFromInline var afters: [(Duration, TransitionSpec<S, Event, Context>)] = []
    @usableFromInline var invocations: [Invocation<Event, Context>] = []

    @inlinable init() {}
}

extension GatheredLevel {
    /// Gathers a machine's body and attachments, in first-mention order.
    @inlinable
    init(_ machine: Machine<S, Event, Context>, name: String) throws(ChartError) {
        // Usually one element declares one state with a transition: a first estimate of the
        // level's size (attachments may add states of their own).
        reserve(
            machine.elements.count + machine.attachments.count, transitions: machine.elements.count,
            children: machine.attachments.count)
        // By index: a `for-in` over the elements, and over each state's body, copied every
        // element, retaining and releasing what it holds (a body's array, a transition's targets),
        // objects spread over memory in a large machine (issue 16).
        let elements = machine.elements
        for e in 0..<elements.count {
            switch elements[e].kind {
            case .state(let s, let role, let content):
                let o = declare(s)
                if role != .normal { roles[o] = role }
                for i in 0..<content.count { try add(content, at: i, to: o, value: s) }
            case .transition(let sources, let spec):
                // The sources, then the targets: the order of first mention (rule R65).
                if sources.count == 1 {
                    let o = declare(sources[0])
                    let targets = touchTargets(spec)
                    addTransition(spec, to: o, targets: targets)
                } else {
                    var ordinals: [Int] = []
                    ordinals.reserveCapacity(sources.count)
                    for i in 0..<sources.count { ordinals.append(declare(sources[i])) }
                    let targets = touchTargets(spec)
                    for o in ordinals { addTransition(spec, to: o, targets: targets) }
                }
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
        // By index, each child's key read in place: a `for-in` copied each attachment, its
        // closure's context retained and released.
        for a in 0..<machine.attachments.count {
            let o = declare(machine.attachments[a].state)
            attach(machine.attachments[a].child.key, attachment: a, to: o)
        }
    }

    @inlinable
    mutating func add(_ body: [StateElement<S, Event, Context>], at i: Int, to o: Int, value s: S) throws(ChartError) {
        // The element is read in place: passed by value, it was copied and destroyed whole.
        switch body[i].kind {
        case .transition(let t):
            let targets = touchTargets(t)
            addTransition(t, to: o, targets: targets)
        case .entry(let a):
            if case .withNeighbour = a { needsLookups = true }
            try withExtras(o) { $0.entries.append(a) }
        case .exit(let a):
            if case .withNeighbour = a { needsLookups = true }
            try withExtras(o) { $0.exits.append(a) }
        case .attach(let c): attach(bodyChild: c, to: o)
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

/// Lists of items by ordinal, kept in three arrays of indices rather than an array per state:
/// items are appended to one array of the caller's (transitions, children) and linked here,
/// in the order they were added. Not generic, so its work is specialized once.
@usableFromInline
struct OrdinalLists {
    /// By ordinal: its first and last item, -1 for none.
    @usableFromInline var first: [Int32] = []
    @usableFromInline var last: [Int32] = []
    /// By item: the next item of the same ordinal, -1 for none.
    @usableFromInline var next: [Int32] = []

    @inlinable init() {}

    /// Adds an ordinal with no items.
    @inlinable
    mutating func addOrdinal() {
        first.append(-1)
        last.append(-1)
    }

    /// Links the next item (the caller's array just grew by one) to `ordinal`'s list. Items are
    /// added only this way, so the item's index in the caller's array is `next.count`.
    @inlinable
    mutating func append(to ordinal: Int) {
        let k = Int32(next.count)
        next.append(-1)
        let previous = last[ordinal]
        if previous < 0 { first[ordinal] = k } else { next[Int(previous)] = k }
        last[ordinal] = k
    }

    /// Room for `ordinals` ordinals and `items` items, so that a level grows its tables once.
    @inlinable
    mutating func reserve(ordinals: Int, items: Int) {
        first.reserveCapacity(ordinals)
        last.reserveCapacity(ordinals)
        next.reserveCapacity(items)
    }

    /// The number of items of `ordinal`.
    @inlinable
    func count(of ordinal: Int) -> Int {
        var n = 0
        var k = first[ordinal]
        while k >= 0 {
            n += 1
            k = next[Int(k)]
        }
        return n
    }
}

/// What the emitter reads of an attached child besides its emitting closure: its name, history
/// and machine identity (``AnyChildMachine/key``), in a type that is not generic.
@usableFromInline
struct ChildKey: Sendable {
    @usableFromInline let name: String?
    @usableFromInline let history: AttachmentHistory
    @usableFromInline let identity: MachineIdentity

    @inlinable
    init(name: String?, history: AttachmentHistory, identity: MachineIdentity) {
        self.name = name
        self.history = history
        self.identity = identity
    }
}

/// Where an attached child is: the machine's `attachments[attachment]`, or a gathered level's
/// `bodyChildren[bodyChild]` (one of the two is -1). Not generic: an index kept beside the
/// child's ``ChildKey``, so that the emitter reads the child itself only to walk into it.
@usableFromInline
struct ChildPlace: Sendable {
    @usableFromInline let attachment: Int32
    @usableFromInline let bodyChild: Int32

    @inlinable
    init(attachment: Int) {
        self.attachment = Int32(attachment)
        bodyChild = -1
    }

    @inlinable
    init(bodyChild: Int) {
        attachment = -1
        self.bodyChild = Int32(bodyChild)
    }
}
