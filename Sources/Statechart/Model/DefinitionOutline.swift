/// The structure of a ``ChartDefinition`` — the tree, the ids, the targets — in plain values with
/// no `Event` or `Context` in them.
///
/// The compiler's work (numbering, resolving ids, checking the structure, domains, candidate
/// lists, entry sets) depends only on this, so it runs as non-generic code: generic code that is
/// not specialized looks up type metadata and copies values through witness tables at every
/// step, which made compiling a million states take seconds. Closures and events stay in the
/// definition's generic arrays and are attached to the compiled chart in one pass at the end.
///
/// Children and transitions are singly linked lists through the node and transition arrays (no
/// array per node), so adding a state or a transition appends to one flat array.
@usableFromInline
struct DefinitionOutline: Sendable {
    @usableFromInline var nodes: [NodeOutline] = []
    /// Every transition in the order added, each naming its declared transition in
    /// ``ChartDefinition/transitions`` (``TransitionOutline/declared``).
    var transitions: [TransitionOutline] = []
    /// Request routes, in the order they were added (``RequestRoute``).
    var requestRoutes: [RequestRoute] = []
    /// The target ids of the routes added by id (``RequestRoute/targetName``).
    var requestRouteTargets: [String] = []
    /// The target nodes of transitions whose front end knew them, each transition's count first
    /// (see ``TransitionOutline/targetNodeStart``).
    var targetNodes: [Int32] = []

    /// Makes room for the `count` nodes of transition `k`'s targets, so that compiling it looks no
    /// id up and needs no ids (the typed builder's transitions have none,
    /// ``ChartDefinition/addPreparedTransition(_:of:outlines:doneOf:from:)``); returns the
    /// position of the first, which ``setTargetNode(_:at:)`` sets once the node is known.
    ///
    /// Called as the transition is added, while its record is in the cache: the typed builder
    /// knows its targets' nodes only once their level is emitted, and setting the record's start
    /// then, a store into a record written long before, cost a cache miss per transition (2 % of
    /// a million-state typed build, issue 16).
    mutating func reserveTargetNodes(_ count: Int, ofTransition k: Int) -> Int {
        transitions[k].targetNodeStart = Int32(targetNodes.count)
        targetNodes.append(Int32(count))
        let first = targetNodes.count
        targetNodes.append(contentsOf: repeatElement(-1, count: count))
        return first
    }

    /// Sets a target node in the room ``reserveTargetNodes(_:ofTransition:)`` made.
    mutating func setTargetNode(_ node: Int32, at position: Int) {
        targetNodes[position] = node
    }

    /// Counts an `<onentry>` (`entry`) or `<onexit>` block of `node`, and notes whether it has an
    /// action. Called from the definition's inlinable methods: this part needs no specializing.
    @usableFromInline
    mutating func countBlock(entry: Bool, hasActions: Bool, of node: Int) {
        if entry {
            nodes[node].hasEntryBlocks = true
            if hasActions { nodes[node].hasEntryActions = true }
        } else {
            nodes[node].hasExitBlocks = true
            if hasActions { nodes[node].hasExitActions = true }
        }
    }

    /// The index of `node`'s payload, `count` (the next payload's) recorded first when it has none.
    @usableFromInline
    mutating func payload(of node: Int, next count: Int) -> Int {
        if nodes[node].payload < 0 { nodes[node].payload = Int32(count) }
        return Int(nodes[node].payload)
    }

    mutating func appendChild(_ child: Int32, to parent: Int) {
        let last = nodes[parent].lastChild
        if last < 0 { nodes[parent].firstChild = child } else { nodes[Int(last)].nextSibling = child }
        nodes[parent].lastChild = child
        nodes[parent].childCount += 1
    }

    /// Appends a transition to `node`'s list (its ``TransitionOutline/declared`` set by the caller).
    @usableFromInline
    mutating func appendTransition(_ transition: __owned TransitionOutline, to node: Int) {
        let k = Int32(transitions.count)
        transitions.append(transition)
        let last = nodes[node].lastTransition
        if last < 0 { nodes[node].firstTransition = k } else { transitions[Int(last)].next = k }
        nodes[node].lastTransition = k
        nodes[node].transitionCount += 1
    }

    /// Whether `id` names the state `node` enters when it names no initial state: its first
    /// child that is not a history pseudo-state (SCXML; ``ChartCompiler`` does the same).
    func isDefaultInitial(_ id: String, of node: Int) -> Bool {
        var c = nodes[node].firstChild
        while c >= 0 {
            guard case .history = nodes[Int(c)].kind else { return nodes[Int(c)].id == id }
            c = nodes[Int(c)].nextSibling
        }
        return false
    }

    func children(of node: Int) -> [Int32] {
        var out: [Int32] = []
        out.reserveCapacity(Int(nodes[node].childCount))
        var c = nodes[node].firstChild
        while c >= 0 {
            out.append(c)
            c = nodes[Int(c)].nextSibling
        }
        return out
    }

    func transitionIndices(of node: Int) -> [Int32] {
        var out: [Int32] = []
        out.reserveCapacity(Int(nodes[node].transitionCount))
        var k = nodes[node].firstTransition
        while k >= 0 {
            out.append(k)
            k = transitions[Int(k)].next
        }
        return out
    }
}

/// A request route (``ChartDefinition/addRequestRoute(to:within:)``): its container and its
/// target, by node (`targetNode` ≥ 0, the typed builder's, which adds one per state) or by id
/// (`targetName`, an index in ``DefinitionOutline/requestRouteTargets``). Twelve bytes: with
/// the id in the record, a million-state typed chart held 32 MB of routes whose ids were empty.
struct RequestRoute: Sendable {
    var targetNode: Int32
    var container: Int32
    var targetName: Int32
}

/// One node of a ``DefinitionOutline``.
@usableFromInline
struct NodeOutline: Sendable {
    // The words first, then the 32-bit fields, then the location (nine bytes) and the single
    // bytes in its padding: 72 bytes, where the fields in the order of their meaning took 96 with
    // the same location (issue 16, "Memory": a definition holds one per state).
    var id: String
    var initial: [String]?
    var parent: Int32
    var firstChild: Int32 = -1
    var lastChild: Int32 = -1
    var nextSibling: Int32 = -1
    var childCount: Int32 = 0
    var firstTransition: Int32 = -1
    var lastTransition: Int32 = -1
    var transitionCount: Int32 = 0
    /// Index in ``ChartDefinition/payloads``, -1 when the node has no actions or invocations.
    @usableFromInline var payload: Int32 = -1
    @usableFromInline var location: SourceLocation?
    var kind: StateKind
    private var flags = OutlineFlags()

    /// Whether the node has an `<onentry>` (`<onexit>`) block, empty or not, or invoked work:
    /// the compiler asks no more (a history state may have none). Flags in one byte, where
    /// three counts took twelve.
    var hasEntryBlocks: Bool { get { flags[1] } set { flags[1] = newValue } }
    var hasExitBlocks: Bool { get { flags[2] } set { flags[2] = newValue } }
    var hasInvocations: Bool { get { flags[4] } set { flags[4] = newValue } }
    /// Whether some entry (exit) block has an action.
    var hasEntryActions: Bool { get { flags[8] } set { flags[8] = newValue } }
    var hasExitActions: Bool { get { flags[16] } set { flags[16] = newValue } }

    init(id: String, kind: StateKind, parent: Int32, initial: [String]?, location: SourceLocation?) {
        self.id = id
        self.kind = kind
        self.parent = parent
        self.initial = initial
        self.location = location
    }
}

/// What the compiler needs of a declared transition: its target ids and every other id it names.
///
/// 40 bytes: the words first, then the 32-bit fields, the location and one byte of flags (four
/// `Bool`s took a byte each, and with ``declared`` the record would have grown to 64; a
/// definition holds one per transition, issue 16, "Memory"). The ids it names besides its
/// targets share one list: a `.done(id)` descriptor's id kept apart took 16 bytes of every
/// record, for the few transitions that have one.
@usableFromInline
struct TransitionOutline: Sendable {
    var targets: [String]
    /// Every id the transition names besides its targets, in the order the compiler resolves
    /// them: its guard's `inState` conditions, then a `.done(id)` descriptor's id when it has
    /// one (``doneReference``).
    var references: [String]
    /// The node's next transition, -1 for the last.
    var next: Int32 = -1
    /// When ≥ 0, the targets are given by node: `DefinitionOutline.targetNodes[targetNodeStart]`
    /// is their count and the nodes follow it (``DefinitionOutline/setTargetNodes(_:ofTransition:)``);
    /// ``targets`` may then be empty.
    var targetNodeStart: Int32 = -1
    /// The index of its declared transition (event, guard, actions) in
    /// ``ChartDefinition/transitions``: its own place there, or one shared by every place a
    /// typed machine is stamped (``LevelStamp``), whose transitions differ only in structure.
    var declared: Int32 = -1
    var location: SourceLocation?
    private var flags = OutlineFlags()

    var isInternal: Bool { get { flags[1] } set { flags[1] = newValue } }
    var hasEvent: Bool { get { flags[2] } set { flags[2] = newValue } }
    var hasGuard: Bool { get { flags[4] } set { flags[4] = newValue } }
    var hasDynamicTargets: Bool { get { flags[8] } set { flags[8] = newValue } }
    /// Whether the last of ``references`` is a `.done(id)` descriptor's id.
    private var hasDoneReference: Bool { get { flags[16] } set { flags[16] = newValue } }

    /// The id of a `.done(id)` descriptor: the last of ``references``. Setting it replaces it.
    var doneReference: String? {
        get { hasDoneReference ? references.last : nil }
        set {
            if hasDoneReference { references.removeLast() }
            if let id = newValue { references.append(id) }
            hasDoneReference = newValue != nil
        }
    }

    /// An outline from its parts, which it takes over (`__owned`: a caller's last use moves them in).
    @usableFromInline
    init(
        targets: __owned [String], isInternal: Bool, location: __owned SourceLocation?, hasEvent: Bool, hasGuard: Bool,
        hasDynamicTargets: Bool, guardReferences: __owned [String], doneReference: __owned String?, declared: Int32
    ) {
        self.declared = declared
        self.targets = targets
        self.location = location
        self.references = guardReferences
        self.doneReference = doneReference
        self.isInternal = isInternal
        self.hasEvent = hasEvent
        self.hasGuard = hasGuard
        self.hasDynamicTargets = hasDynamicTargets
    }

    /// The outline of a declared transition. Inlinable, so that it runs specialized for the
    /// caller's types (``ChartDefinition/addTransition(_:from:)``): compiled once in the library
    /// it looked up metadata and copied through witnesses (12 % of loading an SCXML document).
    // Always inlined: called as a function, the loader first copied the whole transition to
    // hand it over (through its value witnesses) and destroyed the copy after.
    ///
    /// - Parameter declared: The index of `t` in ``ChartDefinition/transitions`` (``declared``).
    @inlinable @inline(__always)
    init<Event: Hashable & Sendable, Context>(_ t: TransitionDefinition<Event, Context>, declared: Int) {
        var doneReference: String?
        if case .done(let id) = t.event { doneReference = id }
        // No `Optional.map` here: unspecialized (the typed emitter), each generic call looks up metadata.
        var references: [String] = []
        if let g = t.guardCondition { references = Self.references(in: g) }
        self.init(
            targets: t.targets, isInternal: t.kind == .internal, location: t.location, hasEvent: t.event != nil,
            hasGuard: t.guardCondition != nil, hasDynamicTargets: t.dynamicTargets != nil, guardReferences: references,
            doneReference: doneReference, declared: Int32(truncatingIfNeeded: declared))
    }

    /// The `inState` ids of a guard in pre-order (the order of `ChartAssembly.compileGuard`),
    /// with an explicit stack: a guard nested deeper than the native stack is still a value.
    @inlinable
    static func references<Event: Hashable & Sendable, Context>(in g: Guard<Event, Context>) -> [String] {
        switch g {
        case .inState(let id): return [id]  // the common guards, without a stack of guards
        case .predicate, .expression, .withInput: return []
        case .not, .all, .any: break
        }
        var out: [String] = []
        var stack = [g]
        while let top = stack.popLast() {
            switch top {
            case .inState(let id): out.append(id)
            case .not(let inner): stack.append(inner)
            case .all(let gs), .any(let gs): stack.append(contentsOf: gs.reversed())
            case .predicate, .expression, .withInput: break
            }
        }
        return out
    }
}

/// Up to eight yes-or-no facts of an outline record in one byte: a definition holds a record per
/// state and per transition, and a `Bool` apiece took a byte each (issue 16, "Memory").
struct OutlineFlags: Sendable {
    private var bits: UInt8 = 0

    /// Whether `bit` (a single-bit mask) is set.
    subscript(bit: UInt8) -> Bool {
        get { bits & bit != 0 }
        set { bits = newValue ? bits | bit : bits & ~bit }
    }
}
