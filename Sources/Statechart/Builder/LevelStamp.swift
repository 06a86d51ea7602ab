/// What emitting a simple machine adds to the definition, worked out once and stamped at every
/// place the machine is attached: only the ids' prefix, the container and the node and
/// transition numbers differ from one place to the next.
///
/// A machine is stamped when nothing it declares depends on where it is: no attached children
/// (their levels come between its states), every transition prepared (targets in the level, no
/// done event of a child, no ``StateRef`` or dynamic targets), no any-state routes, and besides
/// transitions only plain entry and exit actions — no routes, barriers, dynamic transitions,
/// timers, invocations or actions that receive a neighbour state, all of which build closures
/// over the place's ids. Every such machine is stamped, the first place included, so that the
/// stamp is the one way a simple level is emitted; the other machines go through
/// ``TypedChartEmitter/emitLevel(_:container:prefix:)``'s per-state walk, which builds the same
/// definition (`LevelStampTests` compares the two).
///
/// Why: the emitter is generic code compiled once in the library, and its per-state walk looked
/// type metadata up and copied transitions through their value witnesses at almost every step —
/// about 44,000 instructions for each place a nine-state child was attached (issue 16, "Build").
/// A stamp's structure is a ``LevelPlan`` of concrete arrays, appended by non-generic code; its
/// declared transitions are added once and shared by every place.
final class LevelStamp<Event: Hashable & Sendable, Context> {
    let plan: LevelPlan
    /// The prepared transitions, without targets, in the order the plan adds them.
    let transitions: [TransitionDefinition<Event, Context>]
    /// Where ``transitions`` start in the definition's declared transitions, once the first
    /// place has added them (-1 before): every place shares them. A stamp belongs to one emitter
    /// (its ``GatheredMachine`` is known to that emitter only), so this is one definition's index.
    var shared: Int32 = -1
    /// The states' entry and exit actions, one block each, as the per-state walk adds them; each
    /// state's are `entryActions[plan.entryStart[o] ..< plan.entryStart[o + 1]]`.
    let entryActions: [Action<Event, Context>]
    let exitActions: [Action<Event, Context>]
    /// Whether any state has entry or exit actions: asked of the arrays in the unspecialized
    /// stamp, the question looked up their metadata at every place.
    let hasActions: Bool

    private init(
        plan: LevelPlan, transitions: [TransitionDefinition<Event, Context>], entryActions: [Action<Event, Context>],
        exitActions: [Action<Event, Context>]
    ) {
        self.plan = plan
        self.transitions = transitions
        self.entryActions = entryActions
        self.exitActions = exitActions
        hasActions = !entryActions.isEmpty || !exitActions.isEmpty
    }

    /// The stamp of a gathered machine, or `nil` when something it declares depends on its place.
    static func of<S>(_ gathered: GatheredMachine<S, Event, Context>) -> LevelStamp? {
        let level = gathered.level
        guard level.childKeys.isEmpty, level.anyState.isEmpty, !level.needsLookups, !level.values.isEmpty,
            gathered.repeatedName == nil
        else { return nil }
        for k in 0..<gathered.isPrepared.count where !gathered.isPrepared[k] { return nil }
        let count = level.values.count
        var plan = LevelPlan(names: gathered.names, roles: level.roles, declared: level.declared)
        var transitions: [TransitionDefinition<Event, Context>] = []
        transitions.reserveCapacity(level.transitions.count)
        var entryActions: [Action<Event, Context>] = [], exitActions: [Action<Event, Context>] = []
        for o in 0..<count {
            var k = level.transitionLists.first[o]
            while k >= 0 {
                let current = Int(k)
                k = level.transitionLists.next[current]
                // Prepared without targets: the plan keeps them as ordinals.
                transitions.append(gathered.preparedDefinitions[current])
                plan.addTransition(
                    gathered.preparedOutlines[current], doneOfSource: gathered.isDoneOfSource[current],
                    targets: gathered.targets(of: current))
            }
            if let extras = level.extras(of: o) {
                guard extras.routes.isEmpty, extras.barrier == nil, extras.dynamic == nil, extras.afters.isEmpty,
                    extras.invocations.isEmpty
                else { return nil }
                for a in 0..<extras.entries.count {
                    guard case .plain(let action) = extras.entries[a] else { return nil }
                    entryActions.append(action)
                }
                for a in 0..<extras.exits.count {
                    guard case .plain(let action) = extras.exits[a] else { return nil }
                    exitActions.append(action)
                }
            }
            plan.endState(entryActions: entryActions.count, exitActions: exitActions.count)
        }
        return LevelStamp(plan: plan, transitions: transitions, entryActions: entryActions, exitActions: exitActions)
    }
}

/// The structure of a stamped level (``LevelStamp``), with no `Event`, `Context` or state type
/// in it, so that stamping it (``DefinitionOutline/stamp(_:prefix:in:shared:own:rooms:)``) is non-generic code.
struct LevelPlan: Sendable {
    /// By ordinal: the state's id within its level (the description of its value), and the same
    /// after a dot, which follows the prefix of a place.
    let names: [String]
    let dottedNames: [String]
    /// By ordinal: its role (final and global states), and whether it was declared.
    let roles: [StateRole]
    let declared: [Bool]
    /// Whether any state is global or final: the level then has rules for requests.
    let hasRoles: Bool
    /// Each state's transitions in declaration order: `transitionStart[o] ..< transitionStart[o + 1]`
    /// of the three lists below.
    private(set) var transitionStart: [Int32] = [0]
    /// The prepared outlines, without targets.
    private(set) var outlines: [TransitionOutline] = []
    /// Whether the transition waits for its source's done event (its event names its place).
    private(set) var isDoneOfSource: [Bool] = []
    /// Whether any transition does: each place then adds copies of its own.
    private(set) var hasDoneOfSource = false
    /// The target ordinals of each transition: `targetOrdinals[targetStart[p] ..< targetStart[p + 1]]`.
    private(set) var targetStart: [Int32] = [0]
    private(set) var targetOrdinals: [Int32] = []
    /// Each state's entry and exit blocks (one action each): `entryStart[o] ..< entryStart[o + 1]`
    /// of the stamp's ``LevelStamp/entryActions``, likewise for exits.
    private(set) var entryStart: [Int32] = [0]
    private(set) var exitStart: [Int32] = [0]
    /// Each state's node as every place adds it, but for its id, parent and links: its kind,
    /// block counts and number of transitions (``DefinitionOutline/stamp(_:prefix:in:shared:own:rooms:)``).
    private(set) var nodes: [NodeOutline] = []

    init(names: [String], roles: [StateRole], declared: [Bool]) {
        self.names = names
        dottedNames = names.map { "." + $0 }
        self.roles = roles
        self.declared = declared
        hasRoles = roles.contains { $0 != .normal }
    }

    var count: Int { names.count }

    /// The id of state `o` at a place whose ids start with `prefix` (the top level has none).
    func id(_ o: Int, prefix: String) -> String { prefix.isEmpty ? names[o] : prefix + dottedNames[o] }

    mutating func addTransition(_ outline: TransitionOutline, doneOfSource: Bool, targets: ArraySlice<Int32>) {
        outlines.append(outline)
        isDoneOfSource.append(doneOfSource)
        hasDoneOfSource = hasDoneOfSource || doneOfSource
        targetOrdinals.append(contentsOf: targets)
        targetStart.append(Int32(targetOrdinals.count))
    }

    /// Ends the current state: its transitions were added, and the actions so far are its and its predecessors'.
    mutating func endState(entryActions: Int, exitActions: Int) {
        let o = nodes.count
        transitionStart.append(Int32(outlines.count))
        entryStart.append(Int32(entryActions))
        exitStart.append(Int32(exitActions))
        let isFinal = roles[o] == .final || roles[o] == .finalGlobal
        var node = NodeOutline(id: "", kind: isFinal ? .final : .state, parent: -1, initial: nil, location: nil)
        node.hasEntryBlocks = entryBlocks(o) > 0
        node.hasEntryActions = entryBlocks(o) > 0
        node.hasExitBlocks = exitBlocks(o) > 0
        node.hasExitActions = exitBlocks(o) > 0
        node.transitionCount = transitionStart[o + 1] - transitionStart[o]
        nodes.append(node)
    }

    /// The number of entry and exit blocks of state `o`.
    func entryBlocks(_ o: Int) -> Int32 { entryStart[o + 1] - entryStart[o] }
    func exitBlocks(_ o: Int) -> Int32 { exitStart[o + 1] - exitStart[o] }
}

/// How far the room the typed builder reserved for a definition's nodes, transitions, request
/// routes and target nodes is mapped (``FreshPages``, ``Swift/Array/mapReservedRoom(_:)``): the
/// emitter keeps it, not the outline, which the compiler copies and reads at every state.
struct OutlineRooms {
    var nodes = ReservedRoom(), transitions = ReservedRoom(), requestRoutes = ReservedRoom(), targetNodes = ReservedRoom()
}

extension DefinitionOutline {
    /// Appends a stamped level's states to `container`, with their transitions (targets by
    /// node), entry and exit block counts and request routes, in the order of the per-state walk
    /// (``TypedChartEmitter/emitLevel(_:container:prefix:)``).
    ///
    /// The transitions name their declared transitions: the shared ones from `shared` on, in
    /// the plan's order; those on their source's done event, which names the place, from `own`
    /// on, one after another (the caller adds them in the same order). The room reserved for the
    /// arrays it appends to is mapped a step ahead of them, as far as `rooms` records.
    ///
    /// - Returns: The node of the level's first state; the others follow it.
    mutating func stamp(
        _ plan: LevelPlan, prefix: String, in container: Int, shared: Int, own: Int, rooms: inout OutlineRooms
    ) -> Int {
        let firstNode = nodes.count
        let firstTransition = transitions.count
        let count = plan.count
        // The plan's nodes and outlines in two bulk copies, then what differs at this place,
        // through one buffer each: appended and linked one by one, each state's node was built
        // twice and each write checked its array's uniqueness (about 1,000 instructions a state).
        nodes.mapReservedRoom(&rooms.nodes)
        transitions.mapReservedRoom(&rooms.transitions)
        requestRoutes.mapReservedRoom(&rooms.requestRoutes)
        targetNodes.mapReservedRoom(&rooms.targetNodes)
        nodes.append(contentsOf: plan.nodes)
        transitions.append(contentsOf: plan.outlines)
        var own = own
        nodes.withUnsafeMutableBufferPointer { nodes in
            transitions.withUnsafeMutableBufferPointer { transitions in
                for o in 0..<count {
                    let node = firstNode + o
                    let id = plan.id(o, prefix: prefix)
                    nodes[node].parent = Int32(container)
                    // The level's states are siblings, in order.
                    if o + 1 < count { nodes[node].nextSibling = Int32(node + 1) }
                    let start = Int(plan.transitionStart[o])
                    let end = Int(plan.transitionStart[o + 1])
                    if start < end {
                        nodes[node].firstTransition = Int32(firstTransition + start)
                        nodes[node].lastTransition = Int32(firstTransition + end - 1)
                    }
                    for p in start..<end {
                        let k = firstTransition + p
                        if p + 1 < end { transitions[k].next = Int32(k + 1) }
                        if plan.isDoneOfSource[p] {
                            transitions[k].doneReference = id
                            transitions[k].declared = Int32(own)
                            own += 1
                        } else {
                            transitions[k].declared = Int32(shared + p)
                        }
                    }
                    nodes[node].id = id
                }
            }
        }
        // The container's children: the level's states after any it has.
        let last = nodes[container].lastChild
        if last < 0 { nodes[container].firstChild = Int32(firstNode) } else { nodes[Int(last)].nextSibling = Int32(firstNode) }
        nodes[container].lastChild = Int32(firstNode + count - 1)
        nodes[container].childCount += Int32(count)
        for o in 0..<count {
            requestRoutes.append(RequestRoute(targetNode: Int32(firstNode + o), container: Int32(container), targetName: -1))
        }
        for p in 0..<plan.outlines.count where plan.targetStart[p] < plan.targetStart[p + 1] {
            transitions[firstTransition + p].targetNodeStart = Int32(targetNodes.count)
            targetNodes.append(plan.targetStart[p + 1] - plan.targetStart[p])
            for q in Int(plan.targetStart[p])..<Int(plan.targetStart[p + 1]) {
                targetNodes.append(Int32(firstNode) + plan.targetOrdinals[q])
            }
        }
        return firstNode
    }
}

extension ChartDefinition {
    /// Appends a stamped level's states to `container` (``DefinitionOutline/stamp(_:prefix:in:shared:own:rooms:)``)
    /// and its actions. Its declared transitions are added at the first place only, and shared
    /// by the others: copying each through its value witnesses (the emitter is unspecialized)
    /// took about 130 ns per transition, and 900,000 copies about 94 MB. A transition on its
    /// source's done event names the place, so it gets a copy of its own.
    ///
    /// - Returns: The node of the level's first state; the others follow it.
    ///
    /// What most places do — the states and their outlines — is non-generic; what touches the
    /// declared transitions or the actions (the first place, transitions on a done event,
    /// actions) is out of line, where it looks up their types' metadata only when it runs. Itself
    /// inlined in the emitter's `emit`: called, it took the definition's metadata, looked up at
    /// every place.
    @inline(__always)
    mutating func stamp(_ stamp: LevelStamp<Event, Context>, prefix: String, in container: Node, rooms: inout OutlineRooms) -> Int {
        let plan = stamp.plan
        if stamp.shared < 0 { share(stamp) }
        let firstTransition = outline.transitions.count
        let own = plan.hasDoneOfSource ? declaredCount() : 0
        let firstNode = outline.stamp(
            plan, prefix: prefix, in: container.rawValue, shared: Int(stamp.shared), own: own, rooms: &rooms)
        if plan.hasDoneOfSource { addDoneTransitions(of: stamp, from: firstTransition) }
        if stamp.hasActions { addActions(of: stamp, from: firstNode) }
        return firstNode
    }

    /// The stamp's declared transitions added, at its first place, for every place to share.
    @inline(never)
    private mutating func share(_ stamp: LevelStamp<Event, Context>) {
        stamp.shared = Int32(transitions.count)
        transitions.append(contentsOf: stamp.transitions)
    }

    /// The number of declared transitions, where a place's own copies start.
    @inline(never)
    private func declaredCount() -> Int { transitions.count }

    /// A copy of each transition on its source's done event, which names this place, in the
    /// order ``DefinitionOutline/stamp(_:prefix:in:shared:own:rooms:)`` numbered them.
    @inline(never)
    private mutating func addDoneTransitions(of stamp: LevelStamp<Event, Context>, from firstTransition: Int) {
        let plan = stamp.plan
        for p in 0..<plan.isDoneOfSource.count where plan.isDoneOfSource[p] {
            var t = stamp.transitions[p]
            t.event = .done(outline.transitions[firstTransition + p].doneReference ?? "")
            transitions.append(t)
        }
    }

    /// The stamp's entry and exit actions, for the states from `firstNode` on.
    @inline(never)
    private mutating func addActions(of stamp: LevelStamp<Event, Context>, from firstNode: Int) {
        let plan = stamp.plan
        for o in 0..<plan.count where plan.entryBlocks(o) > 0 || plan.exitBlocks(o) > 0 {
            let p = payloadIndex(of: Node(firstNode + o))
            for a in Int(plan.entryStart[o])..<Int(plan.entryStart[o + 1]) { payloads[p].onEntry.append([stamp.entryActions[a]]) }
            for a in Int(plan.exitStart[o])..<Int(plan.exitStart[o + 1]) { payloads[p].onExit.append([stamp.exitActions[a]]) }
        }
    }
}

extension TypedChartEmitter {
    /// Emits a stamped level into `container` with its ids under `prefix`: the same nodes,
    /// transitions, actions, request routes and level record, in the same order, as the
    /// per-state walk of ``emitLevel(_:container:prefix:)``.
    ///
    /// - Returns: The id of the state at `initialOrdinal`.
    mutating func emit(
        _ stamp: LevelStamp<Event, Context>, slotBase: Int32, initialOrdinal: Int, container: ChartDefinition<Event, Context>.Node,
        prefix: String
    ) -> String {
        let plan = stamp.plan
        let levelIndex = levels.count
        let firstNode = definition.stamp(stamp, prefix: prefix, in: container, rooms: &outlineRooms)
        valueSlotOfNode.mapReservedRoom(&valueSlotRoom)
        levelOfNode.mapReservedRoom(&levelRoom)
        for o in 0..<plan.count {
            valueSlotOfNode.append(slotBase + Int32(o))
            levelOfNode.append(Int32(levelIndex))
            // Only a state that is mentioned, global or final is recorded by its id: a level of
            // plain states holds nothing (most places of a machine attached many times).
            if !plan.declared[o] { mentionedOnly.append(definition.outline.nodes[firstNode + o].id) }
        }
        // A stamped level declares roles only (no routes, no barriers); one that declares none
        // is not held (``TypedLevels``).
        if plan.hasRoles {
            appendLevel(rolesOf: plan, from: firstNode, index: levelIndex)
        } else {
            levels.appendEmpty()
        }
        containerOfLevel.append(Int32(container.rawValue))
        return definition.outline.nodes[firstNode + initialOrdinal].id
    }

    /// The level of a stamped place that has global or final states, with their ids. Out of
    /// line, where the metadata of its generic type is looked up only when it runs.
    @inline(never)
    private mutating func appendLevel(rolesOf plan: LevelPlan, from firstNode: Int, index levelIndex: Int) {
        var level = TypedLevel<Context>()
        for o in 0..<plan.count where plan.roles[o] != .normal {
            level.add(id: definition.outline.nodes[firstNode + o].id, role: plan.roles[o])
        }
        levelsWithRequestRules.append(Int32(levelIndex))
        levels.append(level)
    }
}
