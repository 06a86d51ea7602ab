/// Compiles typed ``Machine`` declarations — the top machine and every attached child, at any
/// depth — into one ``ChartDefinition``, and records what the typed runtime needs to map indices
/// back to the user's values: the value and level of every state, routes, barriers, dynamic
/// transitions.
///
/// State ids are the dotted path of the values' descriptions (`confirmed.authorizing`). A child
/// machine's any-state routes are placed on its container before the parent state's own
/// transitions, so selection tries them in the order of rule R25, as internal transitions, so
/// that they act inside the child's level only (rule R33).
@usableFromInline
struct TypedChartEmitter<Event: Hashable & Sendable, Context> {
    @usableFromInline var definition: ChartDefinition<Event, Context>
    /// By definition node: the state's typed value (`nil` for the root, regions and history
    /// pseudo-states). Indexed by node, not keyed by id: a million-state chart hashed a million
    /// ids into each of three dictionaries here and looked each up again in ``TypedChart``.
    /// By definition node: the slot of its value, or -1. A machine attached in many places has
    /// its values' slots once, in its ``StateValueTable``.
    var valueSlotOfNode: [Int32] = [-1]
    /// Each gathered machine's values, from its ``GatheredMachine/slotBase``, in slot order.
    var valueTables: [any StateValueTable] = []
    /// The number of slots so far: where the next gathered machine's values start.
    var slotCount: Int32 = 0
    /// By definition node: the index of the level the state belongs to, or -1.
    var levelOfNode: [Int32] = [-1]
    /// How far the room reserved for ``valueSlotOfNode`` and ``levelOfNode``, and for the
    /// definition's arrays that stamps fill, is mapped (``FreshPages``).
    var valueSlotRoom = ReservedRoom(), levelRoom = ReservedRoom()
    var outlineRooms = OutlineRooms()
    var levels = TypedLevels<Context>()
    /// The levels that declare request rules (a global or final state, routes or a barrier), in order:
    /// ``RequestRules`` reads these alone.
    var levelsWithRequestRules: [Int32] = []
    /// By level: the definition node of its container.
    var containerOfLevel: [Int32] = []
    /// Transitions whose targets are ``StateRef``s: the transition's index in the definition's
    /// ``ChartDefinition/transitions``, and its source node for diagnostics.
    var refFixups: [(node: Int, transition: Int, refs: [StateRef])] = []
    /// Ids of states that are only ever mentioned as targets, never declared (rule R65).
    var mentionedOnly: [String] = []
    var depth = 0
    /// Machines gathered so far, by ``Machine/identity`` (see ``gather(_:name:)``); a child
    /// stamped before is stamped again from here, without the generic walk into its machine
    /// (``emitChild(_:of:key:into:id:)``).
    private var knownMachines: [ObjectIdentifier: KnownMachine] = [:]
    /// Whether levels that can be stamped are (``LevelStamp``); `false` only in the tests that
    /// compare the stamp with the per-state walk.
    var stamps = true

    /// Emits `machine` and everything attached to it as one definition, its references resolved.
    ///
    /// Inlinable, and so is gathering the top machine's declarations (``GatheredMachine``): called
    /// from ``TypedChart``'s inlinable initializer, the top level — most of a large chart's
    /// states — is gathered specialized for the caller's state, event and context types, where
    /// the library's generic code hashed each value through its witnesses and looked up metadata
    /// for each element (issue 16, "The top level gathered in the caller"). The rest of the
    /// emitter stays in the library.
    ///
    /// - Parameter stamps: Whether simple levels are stamped (``LevelStamp``); the tests turn it
    ///   off to compare the stamp with the per-state walk.
    @inlinable
    static func emitting<State>(_ machine: Machine<State, Event, Context>, stamps: Bool = true) throws(ChartError) -> Self {
        let top = try GatheredMachine(gathering: machine, name: machine.name ?? "\(State.self)", slotBase: 0)
        return try emitting(machine, top: top, stamps: stamps)
    }

    /// ``emitting(_:stamps:)`` with the top machine gathered.
    @usableFromInline
    static func emitting<State>(
        _ machine: Machine<State, Event, Context>, top: GatheredMachine<State, Event, Context>, stamps: Bool
    ) throws(ChartError) -> Self {
        var emitter = Self(name: machine.name ?? "\(State.self)")
        emitter.stamps = stamps
        // Room for the states the machine declares and a transition each (``Machine/estimatedStates``).
        let estimate = machine.estimatedStates
        emitter.definition.reserveCapacity(states: estimate, transitions: estimate)
        emitter.definition.reserveTypedTables(states: estimate)
        emitter.valueSlotOfNode.reserveCapacity(max(estimate, 0) &+ 1)
        emitter.levelOfNode.reserveCapacity(max(estimate, 0) &+ 1)
        emitter.register(top, of: machine)
        let root = emitter.definition.root
        let initial = try emitter.emitLevel(machine, container: root, prefix: "", gathered: top)
        emitter.definition.setInitial([initial], of: root)
        try emitter.resolveReferences()
        return emitter
    }

    init(name: String) {
        definition = ChartDefinition(name: name)
    }

    /// Adds a node to the definition and records its value and level.
    @inline(__always)
    mutating func addNode(
        _ id: String, kind: StateKind = .state, in parent: ChartDefinition<Event, Context>.Node,
        valueSlot: Int32 = -1, level: Int = -1
    ) -> ChartDefinition<Event, Context>.Node {
        let node = definition.addState(id, kind: kind, in: parent)
        valueSlotOfNode.append(valueSlot)
        levelOfNode.append(Int32(level))
        return node
    }

    /// Emits one machine's states into `container`; returns the id of its initial state.
    ///
    /// - Parameter gathered: The machine's declarations when the caller has gathered them (the
    ///   top machine, ``emitting(_:stamps:)``), registered with ``register(_:of:)``.
    @usableFromInline
    mutating func emitLevel<S>(
        _ machine: Machine<S, Event, Context>, container: ChartDefinition<Event, Context>.Node, prefix: String,
        gathered known: GatheredMachine<S, Event, Context>? = nil
    ) throws(ChartError) -> String {
        depth += 1
        defer { depth -= 1 }
        if depth > 512 { throw .attachCycle([prefix]) }
        let levelName = prefix.isEmpty ? (machine.name ?? "\(S.self)") : prefix
        let gathered: GatheredMachine<S, Event, Context>
        if let known { gathered = known } else { gathered = try gather(machine, name: levelName) }
        let g = gathered.level
        guard !g.values.isEmpty else { throw .missingInitialState(levelName, location: nil) }
        if let duplicate = gathered.repeatedName {
            throw .duplicateStateID(prefix.isEmpty ? duplicate : prefix + "." + duplicate, first: nil, second: nil)
        }
        let initialOrdinal: Int
        if let initial = machine.initial {
            guard let o = g.ordinalOf[initial] else { throw .unknownTarget("\(initial)", from: levelName, location: nil) }
            initialOrdinal = o
        } else {
            initialOrdinal = 0
        }
        if stamps, let stamp = gathered.stamp {
            knownMachines[ObjectIdentifier(machine.identity)]?.stamped = (stamp, initialOrdinal)
            return emit(stamp, slotBase: gathered.slotBase, initialOrdinal: initialOrdinal, container: container, prefix: prefix)
        }
        // Each value is described once; its id is the level's prefix and that description.
        let ids = prefix.isEmpty ? gathered.names : gathered.names.map { prefix + "." + $0 }
        for o in ids.indices where !g.declared[o] { mentionedOnly.append(ids[o]) }
        // The level is built here and stored once at the end: each access to `levels`, an array
        // of a type generic over `Context`, looked its metadata up (children emitted meanwhile
        // append their own levels after this one's place).
        let levelIndex = levels.count
        var level = TypedLevel<Context>()
        levels.appendEmpty()
        // Whether the level declares request rules, kept here: asked of the level (a generic
        // type, unspecialized here), the question looked up the metadata of its dictionary of
        // barriers for every level (typed builder +15 % instructions, issue 16).
        var declaresRules = false
        containerOfLevel.append(Int32(container.rawValue))
        // Closures that map between values and ids at run time share these tables; most levels have none.
        let lookup = LevelValues(valueOf: g.needsLookups ? Dictionary(uniqueKeysWithValues: zip(ids, g.values)) : [:])
        let idOf: [S: String] = g.needsLookups ? Dictionary(uniqueKeysWithValues: zip(g.values, ids)) : [:]
        let targets = LevelTargets(ordinalOf: g.ordinalOf, ids: ids, idOf: idOf)

        // Prepared transitions with targets (where their target nodes go in the definition, and
        // their index in the machine): once every state of the level has its node, their
        // targets are recorded by node.
        var preparedAt: [(nodes: Int, machine: Int)] = []
        preparedAt.reserveCapacity(g.transitions.count)
        // Raw values: an array of `Node`, a type nested in a generic one, looked up its metadata at each access.
        var nodeOfOrdinal: [Int32] = []
        nodeOfOrdinal.reserveCapacity(g.values.count)
        // A range of Int, not `enumerated()` or `indices`: unspecialized, each step of an
        // enumerated sequence of a generic element looked its metadata up again, and a generic
        // array's `indices` is the generic `Collection` one.
        for o in 0..<g.values.count {
            let id = ids[o]
            let role = g.roles[o]
            // Most states of a large chart declare only transitions: they skip everything below that reads extras.
            let extras = g.extras(of: o)
            let childCount = g.childLists.count(of: o)
            let isFinal = role == .final || role == .finalGlobal
            if isFinal, childCount > 0 {
                throw .invalidStructure(id, reason: "a final state cannot have attached children", location: nil)
            }
            let node = addNode(
                id, kind: isFinal ? .final : (childCount >= 2 ? .parallel : .state), in: container,
                valueSlot: gathered.slotBase + Int32(o), level: levelIndex)
            nodeOfOrdinal.append(Int32(node.rawValue))
            // The state whose done event says that one child finished (rule R67): the state
            // itself for a single child (most states that have one: no list to allocate), the
            // region of each of several. A few pairs, searched in order: a dictionary cost a hash
            // and an insertion per attached child.
            var onlyChild: String?
            var doneStateOfChild: [(child: String, state: String)] = []
            if let extras {
                // Loops by index here: unspecialized, a `for-in` over a generic array instantiates
                // its iterator's metadata for every state.
                for a in 0..<extras.entries.count {
                    definition.addOnEntry([lookup.action(extras.entries[a], entering: true)], to: node)
                }
                for a in 0..<extras.exits.count {
                    definition.addOnExit([lookup.action(extras.exits[a], entering: false)], to: node)
                }
            }
            if childCount == 1 {
                let c = Int(g.childLists.first[o])
                try emitChild(g.childPlaces[c], of: machine, level: g, key: g.childKeys[c], into: node, id: id)
                onlyChild = g.childKeys[c].name ?? "region1"
            } else if childCount > 1 {
                var c = g.childLists.first[o]
                var i = 0
                while c >= 0 {
                    let key = g.childKeys[Int(c)]
                    i += 1
                    let regionID = "\(id).\(key.name ?? "region\(i)")"
                    let region = addNode(regionID, in: node)
                    try emitChild(g.childPlaces[Int(c)], of: machine, level: g, key: key, into: region, id: regionID)
                    doneStateOfChild.append((key.name ?? "region\(i)", regionID))
                    c = g.childLists.next[Int(c)]
                }
            }
            var k = g.transitionLists.first[o]
            while k >= 0 {
                let current = Int(k)
                k = g.transitionLists.next[current]
                // Most transitions were prepared once for the machine: only their ids differ here.
                if gathered.isPrepared[current] {
                    definition.addPreparedTransition(
                        current, of: gathered.preparedDefinitions, outlines: gathered.preparedOutlines, doneOf: gathered.isDoneOfSource[current] ? id : nil, from: node)
                    // Its targets are recorded by node once the level's states have theirs (below).
                    let targetCount = g.targetRange(of: current).count
                    if targetCount > 0 {
                        preparedAt.append((definition.reserveTargetNodesOfLastTransition(targetCount), current))
                    }
                    continue
                }
                var spec = g.transitions[current]
                if let child = spec.doneOfChild {
                    guard let doneState = onlyChild == child ? id : doneStateOfChild.last(where: { $0.child == child })?.state
                    else {
                        throw .invalidStructure(
                            id, reason: "OnDone(child: \"\(child)\") names no child attached to this state", location: nil)
                    }
                    spec.event = .done(doneState)
                }
                addTransition(spec, from: node, sourceID: id, targets: targets)
            }
            if role != .normal { declaresRules = true }
            guard let extras else {
                // A plain state adds nothing to the level (and the call, unspecialized, looked up
                // the level's metadata at every state).
                if role != .normal { level.add(id: id, role: role) }
                continue
            }
            // Delayed transitions: a timer started on entry and cancelled on exit (rule R45).
            for k in 0..<extras.afters.count {
                let (delay, spec) = extras.afters[k]
                let key = "\(id)#\(k)"
                definition.addOnEntry([.startTimer(key, after: delay)], to: node)
                definition.addOnExit([.cancelTimer(key)], to: node)
                var timed = spec
                timed.event = .timer(key)
                addTransition(timed, from: node, sourceID: id, targets: targets)
            }
            for i in 0..<extras.invocations.count { definition.addInvocation(extras.invocations[i], to: node) }
            var barrier: (@Sendable (String, Context) -> BarrierAnswer)?
            if let b = extras.barrier {
                declaresRules = true
                barrier = { sourceID, ctx in
                    // The runtime passes the active state of this level (rule R69).
                    guard let source = lookup.valueOf[sourceID] else {
                        preconditionFailure("a barrier's source '\(sourceID)' is a state of its level")
                    }
                    return lookup.answer(b(source, ctx), idOf: idOf)
                }
            }
            var dynamic: (@Sendable (Context) -> String)?
            if let d = extras.dynamic {
                dynamic = { ctx in
                    let next = d(ctx)
                    return idOf[next] ?? "\(next)"
                }
            }
            var routes: [String] = []
            for r in 0..<extras.routes.count {
                if let route = targets.id(of: extras.routes[r]) { routes.append(route) }
            }
            if !routes.isEmpty { declaresRules = true }
            level.add(id: id, role: role, routes: routes, barrier: barrier, dynamic: dynamic)
        }
        // A level's any-state routes belong to that level (rule R33): declared on its container as
        // internal transitions, their domain is the container, so taking one exits and enters
        // only states of this level — never the parent state, never a sibling region. A route
        // to a state outside the level (a `StateRef`) is external, as SCXML makes any internal
        // transition whose targets are not all inside its source.
        for r in 0..<g.anyState.count {
            var spec = g.anyState[r]
            if spec.doneOfChild != nil {
                throw .invalidStructure(levelName, reason: "OnDone(child:) belongs to the state the child is attached to", location: nil)
            }
            spec.kind = .internal
            addTransition(spec, from: container, sourceID: levelName, targets: targets)
        }
        if declaresRules { levelsWithRequestRules.append(Int32(levelIndex)) }
        levels.set(level, at: levelIndex)
        for o in 0..<nodeOfOrdinal.count { definition.addRequestRoute(toNode: .init(Int(nodeOfOrdinal[o])), within: container) }
        // Plain loops over concrete arrays: a lazy map here ran through generic witnesses. The
        // ordinals are read from the gathered level's arrays by index: a slice of them per
        // transition (`GatheredMachine.targets(of:)`) retained and released the array, atomic
        // operations that waited for the stores before them (issue 16).
        for p in 0..<preparedAt.count {
            let k = preparedAt[p].machine
            var at = preparedAt[p].nodes
            for q in g.targetRange(of: k) {
                definition.setTargetNode(nodeOfOrdinal[Int(g.targetOrdinals[q])], at: at)
                at += 1
            }
        }
        return ids[initialOrdinal]
    }

    /// A machine's gathered declarations and the descriptions of its values, reused for each
    /// place the same machine is attached.
    ///
    /// The key is the machine's identity, which its copies share until one changes its initial
    /// state or its attachments: nothing gathered depends on the place (a machine with
    /// attachments of its own lists the same children at every place, each emitted there), so
    /// a machine's values have their slots once, in one ``StateValueTable``, however many
    /// places it has.
    private mutating func gather<S>(_ machine: Machine<S, Event, Context>, name: String) throws(ChartError)
        -> GatheredMachine<S, Event, Context>
    {
        // An identity belongs to machines of one type, so the cast cannot fail.
        if let known = knownMachines[ObjectIdentifier(machine.identity)] {
            return unsafeDowncast(known.gathered, to: GatheredMachine<S, Event, Context>.self)
        }
        let gathered = try GatheredMachine(gathering: machine, name: name, slotBase: slotCount)
        register(gathered, of: machine)
        return gathered
    }

    /// Takes in a machine's gathered declarations: its values get their slots, and the machine is
    /// known by its identity from then on (``gather(_:name:)``).
    mutating func register<S>(_ gathered: GatheredMachine<S, Event, Context>, of machine: Machine<S, Event, Context>) {
        valueTables.append(gathered.values)
        slotCount += Int32(gathered.values.count)
        knownMachines[ObjectIdentifier(machine.identity)] = KnownMachine(
            identity: machine.identity, gathered: gathered, slotBase: gathered.slotBase)
    }

    /// The value of a slot, boxed (for references and diagnostics, not on any hot path).
    func boxedValue(ofSlot slot: Int32) -> AnyHashable {
        let t = valueTableIndex(holding: slot, slotBases: valueTables.map(\.slotBase))
        return valueTables[t].boxedValue(at: Int(slot - valueTables[t].slotBase))
    }

    /// Emits the child attached at `place` of `machine` (gathered as `level`) into `node` and sets
    /// `node`'s initial: the child's initial state, or a history pseudo-state whose default is
    /// that state (rule R23). What it reads of the child is in `key`; the child itself is read
    /// only to walk into it.
    private mutating func emitChild<S>(
        _ place: ChildPlace, of machine: Machine<S, Event, Context>, level: GatheredLevel<S, Event, Context>,
        key child: ChildKey, into node: ChartDefinition<Event, Context>.Node, id: String
    ) throws(ChartError) {
        let childInitial: String
        // A machine stamped before is stamped again from what was worked out then: the generic
        // walk into it (its metadata, the lookup of its gathered form and of its initial state)
        // cost more than the stamp itself. Below the depth limit only, so that a chart nested
        // too deep fails as it would without the cache.
        if stamps, depth < 512, let known = knownMachines[ObjectIdentifier(child.identity)], let stamped = known.stamped {
            childInitial = emit(
                unsafeDowncast(stamped.stamp, to: LevelStamp<Event, Context>.self), slotBase: known.slotBase,
                initialOrdinal: stamped.initialOrdinal, container: node, prefix: id)
        } else {
            childInitial = try walkChild(place, of: machine, level: level, into: node, id: id)
        }
        if child.history == .none {
            // A child that starts in its first state needs no initial: that is the default
            // (SCXML), and naming it cost a list of ids per place for the compiler to look up.
            if !definition.outline.isDefaultInitial(childInitial, of: node.rawValue) {
                definition.setInitial([childInitial], of: node)
            }
        } else {
            addHistory(child.history, of: node, id: id, default: childInitial)
        }
    }

    /// Emits a child that is not stamped from the cache, walking into its machine. Out of line:
    /// reading the child from its array looks up its generic type's metadata.
    @inline(never)
    private mutating func walkChild<S>(
        _ place: ChildPlace, of machine: Machine<S, Event, Context>, level: GatheredLevel<S, Event, Context>,
        into node: ChartDefinition<Event, Context>.Node, id: String
    ) throws(ChartError) -> String {
        if place.attachment >= 0 { return try machine.attachments[Int(place.attachment)].child.emit(&self, node, id) }
        return try level.bodyChildren[Int(place.bodyChild)].emit(&self, node, id)
    }

    /// A child's history pseudo-state, whose default is the child's initial state, as `node`'s
    /// initial. Out of line: inline, the transition it makes had the emitter look up the
    /// metadata of `TransitionDefinition` and of its event at every place a child was attached,
    /// with a history or not.
    @inline(never)
    private mutating func addHistory(
        _ history: AttachmentHistory, of node: ChartDefinition<Event, Context>.Node, id: String, default initial: String
    ) {
        let historyID = "\(id).history"
        let h = addNode(historyID, kind: .history(history == .deep ? .deep : .shallow), in: node)
        definition.addTransition(TransitionDefinition(on: nil, to: [initial]), from: h)
        definition.setInitial([historyID], of: node)
    }

    private mutating func addTransition<S>(
        _ spec: TransitionSpec<S, Event, Context>, from node: ChartDefinition<Event, Context>.Node, sourceID: String,
        targets: LevelTargets<S>
    ) {
        var t = spec.definition(source: sourceID)
        switch spec.target {
        case .none: break
        case .states(let ss):
            var ids: [String] = []
            ids.reserveCapacity(ss.count)
            for i in 0..<ss.count { ids.append(targets.id(of: ss[i])!) }
            t.targets = ids
        case .refs(let refs):
            refFixups.append((node.rawValue, definition.transitionCount, refs))
        case .dynamic(let f):
            let idOf = targets.idOf
            t.dynamicTargets = { ctx, event in
                let s = f(ctx, event?.userEvent)
                return [idOf[s] ?? "\(s)"]
            }
        }
        definition.addTransition(t, from: node)
    }

    /// Resolves ``StateRef`` targets once every level is emitted: a reference names the unique
    /// state whose value path ends with the reference's path.
    mutating func resolveReferences() throws(ChartError) {
        guard !refFixups.isEmpty else { return }
        // A state's value path: the values of its ancestors that have one, then its own.
        var valuePaths: [String: [AnyHashable]] = [:]
        for n in valueSlotOfNode.indices where valueSlotOfNode[n] >= 0 {
            var path: [AnyHashable] = []
            var node: ChartDefinition<Event, Context>.Node? = .init(n)
            while let current = node {
                let slot = valueSlotOfNode[current.rawValue]
                if slot >= 0 { path.append(boxedValue(ofSlot: slot)) }
                node = definition.parent(of: current)
            }
            valuePaths[definition.id(of: .init(n))] = path.reversed()
        }
        for fix in refFixups {
            var ids: [String] = []
            for ref in fix.refs {
                let matches = valuePaths.filter { $0.value.count >= ref.path.count && Array($0.value.suffix(ref.path.count)) == ref.path }
                    .map(\.key).sorted()
                guard let only = matches.first else {
                    throw .unknownTarget(ref.description, from: definition.id(of: .init(fix.node)), location: nil)
                }
                if matches.count > 1 { throw .ambiguousTarget(ref.description, candidates: matches) }
                ids.append(only)
            }
            definition.setTargets(ids, ofTransition: fix.transition)
        }
    }
}

/// A machine the emitter has gathered, by its ``Machine/identity``, which it keeps alive so that
/// the identifier keying it is not reused meanwhile: its gathered form (a ``GatheredMachine`` of
/// the machine's types), where its values start among the emitter's slots and, once it is
/// stamped, its stamp (a ``LevelStamp`` of the emitter's types) and initial state. Not generic,
/// so that the emitter's cache of them is a dictionary of concrete types — nor nested in the
/// emitter: a type nested in a generic one is generic too, and its metadata was looked up at
/// every place a child was stamped.
final class KnownMachine {
    let identity: MachineIdentity
    let gathered: AnyObject
    let slotBase: Int32
    var stamped: (stamp: AnyObject, initialOrdinal: Int)?

    init(identity: MachineIdentity, gathered: AnyObject, slotBase: Int32) {
        self.identity = identity
        self.gathered = gathered
        self.slotBase = slotBase
    }
}

/// A machine's declarations gathered once, with the description of each value and the first
/// description that repeats an earlier one (two values that would get the same id).
///
/// What depends only on the machine is also computed here once, not at each place it is
/// attached: each value boxed as `AnyHashable`, and each transition with static targets as the
/// declared transition and outline it becomes, its targets as ordinals. The emitter runs
/// unspecialized, so building a transition from its specification — copies through value
/// witnesses, a hash of each target value, the outline's walk of the guard — cost thousands of
/// instructions per state of a machine attached a hundred thousand times (issue 16).
@usableFromInline
final class GatheredMachine<S: Hashable & Sendable, Event: Hashable & Sendable, Context> {
    @usableFromInline let level: GatheredLevel<S, Event, Context>
    @usableFromInline let names: [String]
    @usableFromInline let repeatedName: String?
    /// The values and their ordinals, for ``TypedChart`` (shares the level's arrays).
    @usableFromInline let values: StateValues<S>
    /// Where the values' slots start among the emitter's.
    @usableFromInline var slotBase: Int32 { values.slotBase }
    /// By transition of ``level``: whether it is prepared — its targets are none or states of
    /// this level, and it does not wait for a child's done event (whose state depends on where
    /// the child goes). The others are built at each place, from their specification.
    /// Constants, as every table here: the emitter reads them once per state of every place,
    /// and a variable of a class is checked for exclusive access at each read.
    @usableFromInline let isPrepared: [Bool]
    /// By transition: the prepared transition and outline, without targets (a `.done` event of
    /// its source is set at each place), and whether its event is the done event of its source.
    @usableFromInline let preparedDefinitions: [TransitionDefinition<Event, Context>]
    @usableFromInline let preparedOutlines: [TransitionOutline]
    @usableFromInline let isDoneOfSource: [Bool]
    /// How the level is stamped at each place, when nothing in it depends on the place: worked
    /// out at the first place, from the tables above.
    lazy var stamp: LevelStamp<Event, Context>? = LevelStamp.of(self)

    /// Gathers `machine`'s declarations and describes its values. Inlinable, so that the top
    /// machine is gathered specialized in ``TypedChart``'s caller (``TypedChartEmitter/emitting(_:stamps:)``).
    @inlinable
    convenience init(gathering machine: Machine<S, Event, Context>, name: String, slotBase: Int32) throws(ChartError) {
        let level = try GatheredLevel(machine, name: name)
        var names: [String] = []
        names.reserveCapacity(level.values.count)
        for o in 0..<level.values.count { names.append(stateDescription(level.values[o])) }
        // A level's values are distinct, and distinct integers or strings describe themselves
        // distinctly: only other types can repeat a name (a search of 100,000 names cost a
        // million-state chart 2 % of its build, issue 16).
        let distinct = S.self == Int.self || S.self == String.self
        self.init(level: level, names: names, repeatedName: distinct ? nil : firstRepeatedName(names), slotBase: slotBase)
    }

    @inlinable
    init(level: GatheredLevel<S, Event, Context>, names: [String], repeatedName: String?, slotBase: Int32) {
        self.level = level
        self.names = names
        self.repeatedName = repeatedName
        values = StateValues(values: level.values, ordinalOf: level.ordinalOf, slotBase: slotBase)
        let count = level.transitions.count
        var isPrepared: [Bool] = [], definitions: [TransitionDefinition<Event, Context>] = []
        var outlines: [TransitionOutline] = [], isDoneOfSource: [Bool] = []
        isPrepared.reserveCapacity(count)
        definitions.reserveCapacity(count)
        outlines.reserveCapacity(count)
        isDoneOfSource.reserveCapacity(count)
        // Each transition read in place, not copied: a copy retained and released every object
        // it holds (issue 16). Its targets' ordinals were recorded as the level was gathered.
        for k in 0..<count {
            var prepared = level.transitions[k].doneOfChild == nil
            switch level.transitions[k].target {
            case .none, .states: break
            case .refs, .dynamic: prepared = false
            }
            // The event a `.done` of the source will have, so that the outline records a done reference.
            let t = level.transitions[k].definition(source: "")
            isPrepared.append(prepared)
            outlines.append(TransitionOutline(t, declared: -1))
            definitions.append(t)
            isDoneOfSource.append(level.transitions[k].doneOfSource)
        }
        self.isPrepared = isPrepared
        preparedDefinitions = definitions
        preparedOutlines = outlines
        self.isDoneOfSource = isDoneOfSource
    }

    /// The ordinals of prepared transition `k`'s targets (``GatheredLevel/targetOrdinals``).
    @usableFromInline
    func targets(of k: Int) -> ArraySlice<Int32> {
        level.targetOrdinals[level.targetRange(of: k)]
    }
}

/// A state value's description, its id within its level: `"\(value)"`. For the two state types
/// of most large charts the description is made directly — specialized, the test is decided
/// when compiling — instead of by the runtime's search of the value's conformances that string
/// interpolation of an unconstrained value starts with (about 2,000 instructions a value).
@inlinable
func stateDescription<S>(_ value: S) -> String {
    if S.self == Int.self { return String(value as! Int) }
    if S.self == String.self { return value as! String }
    return "\(value)"
}

/// The first description, in order, that repeats an earlier one. A level's values are distinct,
/// so their ids collide only when two values have the same description.
@usableFromInline
func firstRepeatedName(_ ids: [String]) -> String? {
    // A small level (the common child machine) compares directly, without building a set.
    if ids.count <= 32 {
        for o in ids.indices {
            for p in 0..<o where ids[p] == ids[o] { return ids[o] }
        }
        return nil
    }
    var seen = Set<String>(minimumCapacity: ids.count)
    for id in ids where !seen.insert(id).inserted { return id }
    return nil
}

/// The ids of one level's states, by value: for static targets through the level's numbering,
/// for closures that run later through `idOf` (built only when the level has such closures).
struct LevelTargets<S: Hashable & Sendable> {
    let ordinalOf: [S: Int]
    let ids: [String]
    let idOf: [S: String]

    func id(of s: S) -> String? { ordinalOf[s].map { ids[$0] } }
}

/// Maps the ids of one level back to its typed values, for actions that receive a neighbour state.
struct LevelValues<S: Hashable & Sendable>: Sendable {
    let valueOf: [String: S]

    func action<Event, Context>(_ spec: ActionSpec<S, Event, Context>, entering: Bool) -> Action<Event, Context> {
        switch spec {
        case .plain(let a): return a
        case .withNeighbour(let name, let body):
            let valueOf = self.valueOf
            return .run(name) { scope in
                let count = entering ? scope.exitCount : scope.entryCount
                var neighbour: S?
                for k in 0..<count {
                    let s = entering ? scope.exit(at: k) : scope.entry(at: k)
                    if let v = valueOf[scope.ids[Int(s)]] {
                        neighbour = v
                        break
                    }
                }
                try body(neighbour, &scope)
            }
        }
    }

    func answer(_ b: Barrier<S>, idOf: [S: String]) -> BarrierAnswer {
        switch b {
        case .allow: return .allow
        case .deny: return .deny
        case .redirect(let s): return .redirect(idOf[s] ?? "\(s)")
        }
    }
}

/// A barrier's answer with the redirect target as a state id.
enum BarrierAnswer: Sendable {
    case allow, deny
    case redirect(String)
}

/// What the typed runtime knows about one machine level, by state id: its global and final
/// states, routes, barriers and dynamic transitions. Its states are the chart's states whose
/// ``TypedChart/levelOfIndex`` is the level's index; a level of plain states holds nothing.
struct TypedLevel<Context>: Sendable {
    var globals: Set<String> = []
    var finals: Set<String> = []
    var routes: [String: Set<String>] = [:]
    // A barrier receives the id of the active state of its level, the request's source (rule R69).
    // These two are `nil` until a state has one: the emitter runs unspecialized, and an empty
    // dictionary of closures over `Context` looked up the closures' and the tuples' metadata for
    // every level, some 3,000 instructions each (an attached child is a level, issue 16).
    private var barriers: [String: @Sendable (String, Context) -> BarrierAnswer]?
    private var dynamics: [String: @Sendable (Context) -> String]?

    /// The barrier of the state `id`, if it has one.
    func barrier(of id: String) -> (@Sendable (String, Context) -> BarrierAnswer)? { barriers?[id] }

    /// The dynamic transition of the state `id`, if it has one.
    func dynamic(of id: String) -> (@Sendable (Context) -> String)? { dynamics?[id] }

    /// The ids of the states that have a barrier.
    var barrierIDs: Dictionary<String, @Sendable (String, Context) -> BarrierAnswer>.Keys {
        (barriers ?? [:]).keys
    }

    init() {}

    /// Adds a state in place: copying the level for each state made a level of n states cost O(n²).
    mutating func add(
        id: String, role: StateRole, routes: [String] = [], barrier: (@Sendable (String, Context) -> BarrierAnswer)? = nil,
        dynamic: (@Sendable (Context) -> String)? = nil
    ) {
        if role == .global || role == .finalGlobal { globals.insert(id) }
        if role == .final || role == .finalGlobal { finals.insert(id) }
        // A state without routes has no entry: readers treat a missing entry as none.
        if !routes.isEmpty { self.routes[id, default: []].formUnion(routes) }
        if let barrier {
            if barriers == nil { barriers = [:] }
            barriers?[id] = barrier
        }
        if let dynamic {
            if dynamics == nil { dynamics = [:] }
            dynamics?[id] = dynamic
        }
    }
}

extension TransitionSpec {
    /// The declared transition it becomes, without targets; on the done event of `source` when it
    /// waits for its source's done event.
    @inlinable
    func definition(source: String) -> TransitionDefinition<Event, Context> {
        var t = TransitionDefinition<Event, Context>(
            on: doneOfSource ? .done(source) : event, guard: guardCondition, kind: kind, actions: actions)
        t.asyncGuard = asyncGuard
        return t
    }
}
