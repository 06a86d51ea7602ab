extension Chart {
    /// Compiles a definition: numbers states in document order, resolves every id, checks the
    /// structure, and precomputes transition domains and per-state candidate lists.
    ///
    /// The definition is consumed: pass it with `consume` (or as its last use) and compiling
    /// releases it as it goes, so that a large chart's definition and its compiled tables are not
    /// held at once. A caller that goes on using its definition keeps it: it is copied.
    ///
    /// - Throws: ``ChartError`` naming the first problem found (and its location, when known).
    // Inlinable so that the one generic pass (``ChartAssembly``) is specialized for the caller's
    // `Event` and `Context`; the compiler itself is not generic. Once the assembly has read what it
    // needs, the declarations and the compiler's copy of their outline are released before the
    // chart's tables are made (peak memory, issue 16).
    @inlinable
    public convenience init(_ definition: consuming ChartDefinition<Event, Context>) throws(ChartError) {
        let name = definition.name
        let eventName = definition.eventName
        var compiler = ChartCompiler(definition.outline, name: name)
        try compiler.compile()
        // The compiler's outline is read no more; the assembly takes the definition over and
        // releases its parts as it has read them.
        compiler.releaseOutline()
        let assembly = ChartAssembly(consume definition, compiler)
        self.init(compiled: consume compiler, assembly: consume assembly, name: name, eventName: eventName)
    }
}

/// A compiled transition without its closures and its event: what ``ChartCompiler`` builds, in
/// the memory that becomes the chart's table of transitions (``Chart/transitions``). Its event
/// descriptor is in ``Chart/matchers``; its guard, actions and the rest in the chart's sparse
/// tables. It holds no `Event` or `Context`, so it is a plain type, like ``CompiledState``.
///
/// Why one record for the compiler and the chart: the compiler built a table of these and the
/// assembly a second table of generic records repeating most of their fields, 40 MB and 44 MB
/// for a million-state chart, each mapped anew by the kernel at every compile (issue 16, "Build").
@usableFromInline
struct CompiledTransition: Sendable {
    @usableFromInline var source: Int32
    /// Its targets: ``Chart/targetPool``'s `targetStart ..< targetStart + targetCount`.
    @usableFromInline var targetStart: Int32
    @usableFromInline var targetCount: Int32
    /// The precomputed domain; -1 when targetless; -2 when it depends on history or dynamic targets.
    @usableFromInline var domain: Int32
    /// Index among the transitions of its source state (0-based).
    @usableFromInline var ordinal: Int32
    /// Index of the declared transition (in ``ChartDefinition/transitions``) it comes from: a
    /// selectable transition, or the declared default of a history state; -1 otherwise. Its
    /// location is read from there (or from the node of ``initialOf``) when the chart's
    /// transition is assembled: kept here, it made every shape 64 bytes instead of 40, and a
    /// million-state chart wrote 25 MB more (issue 16).
    @usableFromInline var declared: Int32
    /// For the initial transition of a compound state, the definition node whose initial
    /// actions it runs; -1 otherwise.
    @usableFromInline var initialOf: Int32
    // The flags last, in one word: 32 bytes.
    @usableFromInline var isInternal: Bool
    /// The initial transition of a compound state or the default of a history: not selectable.
    @usableFromInline var isPseudo: Bool
    @usableFromInline var isEventless: Bool
    @usableFromInline var hasDynamicTargets: Bool

    /// A transition from its parts, named in the order of their meaning.
    init(
        source: Int32, targetStart: Int32, targetCount: Int32, isInternal: Bool, domain: Int32, ordinal: Int32,
        isPseudo: Bool, isEventless: Bool, hasDynamicTargets: Bool, declared: Int32, initialOf: Int32
    ) {
        self.source = source
        self.targetStart = targetStart
        self.targetCount = targetCount
        self.domain = domain
        self.ordinal = ordinal
        self.declared = declared
        self.initialOf = initialOf
        self.isInternal = isInternal
        self.isPseudo = isPseudo
        self.isEventless = isEventless
        self.hasDynamicTargets = hasDynamicTargets
    }
}

/// Turns the structure of a ``ChartDefinition`` (its ``DefinitionOutline``) into the arrays of a
/// ``Chart``. Not generic: see ``DefinitionOutline`` for why. No recursion: every pass is a loop.
@usableFromInline
struct ChartCompiler {
    /// The definition's structure: read while compiling, released before the chart's tables are made.
    private(set) var outline: DefinitionOutline
    let name: String
    /// Definition node index, by state index (document order).
    @usableFromInline var order: [Int32] = []
    var newIndex: [Int32] = []
    /// Whether every state's index is its definition node's (``order`` is the identity): the
    /// typed builder adds its nodes in document order, and reads its tables by node index when
    /// this holds (``Chart/numberedAsDeclared``).
    var numberedAsDeclared = true
    /// The states by index, built in the memory that becomes the chart's table (``TableBuffer``).
    @usableFromInline var states = TableBuffer<CompiledState>(capacity: 0)
    @usableFromInline var shapes = TableBuffer<CompiledTransition>(capacity: 0)
    /// The targets of every shape, one after another (see ``TargetList``).
    @usableFromInline var targetPool: [Int32] = []
    /// How many candidates for an event all atomic states have, one list after another: the
    /// assembly writes the chart's ``Chart/leanCandidates`` with ``forEachCandidate(of:states:_:)``
    /// straight into a table of this size. (A list of their transitions made here first, grown by
    /// doubling, was 7 MB, and 15 MB of fresh pages, for a million-state chart: issue 16, "Build".)
    @usableFromInline var eventCandidateCount = 0
    /// Every atomic state's candidates without an event, one list after another.
    var eventlessCandidates: [Int32] = []
    /// State ids by index, and the index of each (the root's is not looked up).
    @usableFromInline var indexByID = StateIDTable()
    var ids: [String] { indexByID.ids }
    var locations = SparseTable<SourceLocation?>()
    var historyCount = 0
    /// The compound states, the root included (counted by ``shape()``).
    var compoundCount = 0
    /// The most states that can be active at once (``Chart/configurationBound``).
    var configurationBound = 0
    var requestTransitions = RequestTransitions()
    /// Per transition, its precomputed entry set as a range of ``staticEntryPool`` (``PoolRange/none``
    /// when it has none), and the compound states it enters by default as a range of
    /// ``staticDefaultPool``. Pooled, not an array per transition: a million transitions made
    /// two million small allocations here. All but the first are the chart's tables
    /// (``Chart/leanEntries``, ``Chart/staticDefaults``, ``Chart/staticDefaultEntries``), built in
    /// their memory: copied into the chart, they were 18 MB more of fresh pages for a million
    /// states (issue 16, "Build").
    @usableFromInline var staticEntries: [PoolRange] = []
    @usableFromInline var staticEntryPool = TableBuffer<Int32>(capacity: 0)
    @usableFromInline var staticDefaults = TableBuffer<PoolRange>(capacity: 0)
    @usableFromInline var staticDefaultPool = TableBuffer<Int32>(capacity: 0)
    /// Whether each state (by index) invokes work.
    @usableFromInline var invokes: [Bool] = []

    @usableFromInline
    init(_ outline: DefinitionOutline, name: String) {
        self.outline = outline
        self.name = name
    }

    /// Drops the compiler's reference to the definition's outline once nothing reads it (after
    /// compiling): with the definition's own, its arrays are freed before the chart is built.
    @usableFromInline
    mutating func releaseOutline() {
        outline = DefinitionOutline()
    }

    /// Drops what only compiling and assembling read (the numbering, the entry ranges, which the
    /// lean tables have read, and the compiler's reference to the target pool, which the chart
    /// shares), before the chart takes its tables.
    mutating func releaseWorkingArrays() {
        order = []
        newIndex = []
        targetPool = []
        staticEntries = []
        invokes = []
    }

    @usableFromInline
    mutating func compile() throws(ChartError) {
        number()
        try shape()
        try resolveTransitions()
        try checkHistoryDefaults()
        fillCandidates()
        precomputeEntrySets()
        boundConfiguration()
    }

    /// The children of state `s` in document order, once the subtree ranges are set (the end of
    /// ``shape()``).
    private func children(of s: Int32) -> ChildStates { ChildStates(of: s, in: states.elements) }

    /// The size of the largest legal configuration: a compound state is active with one child's
    /// subtree, a parallel state with all of its regions', and history pseudo-states are never
    /// active. Children come after their parent in document order, so one backward pass sees
    /// every child before its parent.
    private mutating func boundConfiguration() {
        var below = [Int32].prefaulted(repeating: 0, count: states.count)
        var i = states.count - 1
        while i > 0 {
            let state = states[i]
            let own: Int32 = state.kind.isHistory ? 0 : 1 + below[i]
            let parent = Int(state.parent)
            if states[parent].kind == .parallel {
                below[parent] += own
            } else if own > below[parent] {
                below[parent] = own
            }
            i -= 1
        }
        configurationBound = states.count == 0 ? 0 : Int(below[0])
    }

    /// The entry set of every transition whose entry does not depend on history values or on a
    /// dynamic target, computed once with the interpreter's own ``EntrySetBuilder``.
    ///
    /// An entry set larger than ``staticEntryLimit`` is not kept (the interpreter computes it when
    /// the transition is taken, in time proportional to its size): keeping them all would cost
    /// O(depth²) time and memory for a deep chain, whose every initial transition enters the
    /// whole chain below it.
    ///
    /// The builder reads only the targets of the transitions that states name as their initial
    /// or default transition, here straight from the compiler's shapes.
    private mutating func precomputeEntrySets() {
        var builder = EntrySetBuilder(stateCount: states.count)
        builder.limit = Self.staticEntryLimit
        var entryRanges = [PoolRange].prefaulted(repeating: .none, count: shapes.count)
        let defaultRanges = TableBuffer<PoolRange>(repeating: .none, count: shapes.count)
        // Room for what most charts need (a selectable transition enters a state or two; a
        // compound state's initial transition is the one that enters others by default), so that
        // the pools seldom grow: each doubling copied them into fresh memory. Room not written is
        // never mapped.
        let entryPool = TableBuffer<Int32>(capacity: shapes.count + shapes.count / 2)
        let defaultPool = TableBuffer<Int32>(capacity: 2 * compoundCount + 16)
        let shapes = self.shapes.elements
        let targetsOf = ShapeTargets(shapes: shapes, pool: targetPool)
        // Compound states whose default entry is not kept (too large, or through a history
        // state). What a transition with one target enters includes that target's default entry,
        // so a transition with such a target is not kept either, and is not computed: in a
        // chain n deep that saves n walks of `staticEntryLimit` steps. Walking the transitions
        // backwards meets the initial transitions of inner states (later in document order)
        // before those of outer ones and before every selectable transition.
        var defaultNotKept = [Bool](repeating: false, count: states.count)
        do {
            let states = self.states.elements
            for k in shapes.indices.reversed() {
                let source = Int(shapes[k].source), isPseudo = shapes[k].isPseudo, domain = shapes[k].domain
                let targets = targetsOf.targets(of: Int32(k))
                let targetCount = targets.count
                guard domain >= 0, targetCount > 0, !(isPseudo && states[source].kind.isHistory) else { continue }
                let isCompoundInitial = isPseudo && states[source].kind == .compound
                    && states[source].initialTransition == Int32(k)
                // One target only: with several, one may be inside a region of a parallel state
                // that another's default entry would descend into, and the set is then smaller.
                if targetCount == 1, defaultNotKept[Int(targets[0])] {
                    if isCompoundInitial { defaultNotKept[source] = true }
                    continue
                }
                // One target whose parent is the domain (a sibling, a compound state's initial
                // child): it enters the target and the target's default entry, nothing above it.
                // That is the target's initial transition's set with the target in front (the
                // builder would compute it step by step, in the same order); an atomic or final
                // target enters itself alone. Most transitions of a large chart are such.
                if targetCount == 1, states[Int(targets[0])].parent == domain {
                    let t = targets[0]
                    let kind = states[Int(t)].kind
                    let initial = Int(states[Int(t)].initialTransition)
                    if kind.isAtomic || (kind == .compound && initial > k && entryRanges[initial].exists) {
                        let inner = kind.isAtomic ? PoolRange(start: 0, end: 0) : entryRanges[initial]
                        let innerDefaults = kind.isAtomic ? PoolRange(start: 0, end: 0) : defaultRanges[initial]
                        if Int(inner.end - inner.start) + 1 <= Self.staticEntryLimit {
                            let start = Int32(entryPool.count), defaultStart = Int32(defaultPool.count)
                            entryPool.append(t)
                            for e in inner.start..<inner.end { entryPool.append(entryPool[Int(e)]) }
                            if kind == .compound { defaultPool.append(t) }
                            for e in innerDefaults.start..<innerDefaults.end { defaultPool.append(defaultPool[Int(e)]) }
                            entryRanges[k] = PoolRange(start: start, end: Int32(entryPool.count))
                            defaultRanges[k] = PoolRange(start: defaultStart, end: Int32(defaultPool.count))
                        } else if isCompoundInitial {
                            defaultNotKept[source] = true
                        }
                        continue
                    }
                }
                builder.clear()
                builder.add(targets: targets, domain: domain, states: states, transitions: targetsOf)
                builder.finish()
                let keep = builder.entries.count <= Self.staticEntryLimit && !builder.touchedHistory
                if keep {
                    let start = Int32(entryPool.count), defaultStart = Int32(defaultPool.count)
                    for s in builder.entries {
                        entryPool.append(s)
                        if builder.isDefaultEntered(s) { defaultPool.append(s) }
                    }
                    entryRanges[k] = PoolRange(start: start, end: Int32(entryPool.count))
                    defaultRanges[k] = PoolRange(start: defaultStart, end: Int32(defaultPool.count))
                } else if isCompoundInitial {
                    defaultNotKept[source] = true
                }
                builder.clearDefaultMarks()
            }
        }
        staticEntries = entryRanges
        staticDefaults = defaultRanges
        staticEntryPool = entryPool
        staticDefaultPool = defaultPool
    }

    /// The largest entry set kept precomputed (see ``precomputeEntrySets()``).
    static var staticEntryLimit: Int { 64 }

    /// Refuses history states whose default entry leads back to a history state already being
    /// entered (`initial="h"` on h's own parent with no default transition; two histories whose
    /// defaults target each other; a default that targets itself). Entering such a chart would
    /// never end. Every other default entry goes strictly deeper, so this is the only cycle
    /// possible. An iterative depth-first search over history → history-target edges.
    private func checkHistoryDefaults() throws(ChartError) {
        // Most large charts have no history state: no pass over every state, no table of colours.
        if historyCount == 0 { return }
        // 0: not visited, 1: on the current path, 2: done.
        var color = [UInt8](repeating: 0, count: states.count)
        var path: [(state: Int32, next: Int)] = []
        for h in 0..<states.count where states[h].kind.isHistory && color[h] == 0 {
            color[h] = 1
            path.append((Int32(h), 0))
            while let top = path.last {
                let targets = targets(of: states[Int(top.state)].initialTransition)
                guard top.next < targets.count else {
                    color[Int(top.state)] = 2
                    path.removeLast()
                    continue
                }
                path[path.count - 1].next += 1
                let t = targets[top.next]
                guard states[Int(t)].kind.isHistory else { continue }
                if color[Int(t)] == 1 {
                    let start = path.firstIndex { $0.state == t } ?? 0
                    let cycle = path[start...].map { ids[Int($0.state)] } + [ids[Int(t)]]
                    throw .historyDefaultCycle(cycle, location: locations[Int(t)])
                }
                if color[Int(t)] == 0 {
                    color[Int(t)] = 1
                    path.append((t, 0))
                }
            }
        }
    }

    /// Pre-order numbering, walking first-child and next-sibling links (no stack).
    private mutating func number() {
        let nodes = outline.nodes
        newIndex = .prefaulted(repeating: -1, count: nodes.count)
        // Every node is in the tree: the walk visits each once and numbers it.
        order = .prefaulted(repeating: -1, count: nodes.count)
        var numbered = 0
        var n: Int32 = 0
        while n >= 0 {
            if n != Int32(numbered) { numberedAsDeclared = false }
            newIndex[Int(n)] = Int32(numbered)
            order[numbered] = n
            numbered += 1
            if nodes[Int(n)].firstChild >= 0 {
                n = nodes[Int(n)].firstChild
                continue
            }
            // Up to the nearest node with a next sibling (the root has none: the walk ends there).
            while n >= 0, nodes[Int(n)].nextSibling < 0 { n = n == 0 ? -1 : nodes[Int(n)].parent }
            if n >= 0 { n = nodes[Int(n)].nextSibling }
        }
        if numbered < order.count {
            order.removeLast(order.count - numbered)
            numberedAsDeclared = false
        }
    }

    /// Kinds, parents, subtree ranges, depths, ids; structural checks.
    private mutating func shape() throws(ChartError) {
        let count = order.count
        let nodes = outline.nodes
        states = TableBuffer(capacity: count)
        // Every id first, into the table in one pass (``StateIDTable/indexing(_:)``); a repeated
        // id is reported below, at its place, after the problems of the states before it.
        let (table, firstRepeat) = StateIDTable.indexing(.prefaulted(count: count) { i in i == 0 ? "" : nodes[Int(order[i])].id })
        indexByID = table
        invokes = Array(repeating: false, count: count)
        for i in 0..<count {
            // Fields read one by one: binding the node copied it, with a retain of its id.
            let j = Int(order[i])
            let parent: Int32 = nodes[j].parent < 0 ? -1 : newIndex[Int(nodes[j].parent)]
            var hasStateChild = false
            var c = nodes[j].firstChild
            while c >= 0 && !hasStateChild {
                if case .history = nodes[Int(c)].kind {} else { hasStateChild = true }
                c = nodes[Int(c)].nextSibling
            }
            let kind: CompiledStateKind
            switch nodes[j].kind {
            case .state: kind = (hasStateChild || i == 0) ? .compound : .atomic
            case .parallel: kind = .parallel
            case .final: kind = .final
            case .history(let h): kind = h == .deep ? .deepHistory : .shallowHistory
            }
            // The id is read in place: a copy of it (a retain and a release) for these two tests
            // cost every state of a large chart.
            if i > 0, nodes[j].id.isEmpty {
                throw .emptyStateID(parent: parent >= 0 ? ids[Int(parent)] : "", location: nodes[j].location)
            }
            if let firstRepeat, firstRepeat.index == i {
                throw .duplicateStateID(nodes[j].id, first: locations[Int(firstRepeat.first)], second: nodes[j].location)
            }
            locations.set(nodes[j].location, at: i, count: count)
            if nodes[j].hasInvocations { invokes[i] = true }
            let depth: Int32 = parent < 0 ? 0 : states[Int(parent)].depth + 1
            var slot: Int32 = -1
            if kind == .compound { compoundCount += 1 }
            if kind.isHistory {
                slot = Int32(historyCount)
                historyCount += 1
            }
            states.append(
                CompiledState(
                    kind: kind, parent: parent, end: Int32(i + 1), depth: depth, initialTransition: -1,
                    transitionStart: 0, transitionEnd: 0, candidateStart: 0, candidateEnd: 0,
                    eventlessStart: 0, eventlessEnd: 0, historySlot: slot, hasHistoryChild: false,
                    hasEntryActions: nodes[j].hasEntryActions, hasExitActions: nodes[j].hasExitActions))
            try checkStructure(i, kind: kind, node: j, parent: parent)
            if kind.isHistory, parent >= 0 { states[Int(parent)].hasHistoryChild = true }
        }
        // Subtree ends: children follow their parent, so a reverse pass accumulates sizes.
        for i in stride(from: count - 1, through: 1, by: -1) {
            let p = Int(states[i].parent)
            states[p].end = max(states[p].end, states[i].end)
        }
        if !states[0].kind.isAtomic && !children(of: 0).contains(where: { !states[Int($0)].kind.isHistory }) {
            throw .missingInitialState(name, location: nil)
        }
    }

    /// Refuses what state `i` (node `j`, of `kind`, child of `parent`) cannot be: a history or final
    /// state with children or transitions it cannot have, a parallel or atomic state with an
    /// initial, a child of a history or final state.
    ///
    /// `mutating` though it changes nothing: called from the mutating ``shape()``, a non-mutating
    /// method was handed a copy of the whole compiler, a `memcpy` of 240 bytes for every state
    /// (39 instructions a state of the compile's 1,800, callgrind).
    private mutating func checkStructure(_ i: Int, kind: CompiledStateKind, node j: Int, parent: Int32) throws(ChartError) {
        // Fields read one by one, and the id only to name a problem: most states pass every check.
        let nodes = outline.nodes
        var id: String { i == 0 ? name : nodes[j].id }
        switch kind {
        case .shallowHistory, .deepHistory:
            let pk = parent >= 0 ? states[Int(parent)].kind : .atomic
            if parent <= 0 || !(pk == .compound || pk == .parallel) {
                throw .historyOutsideCompound(id, location: nodes[j].location)
            }
            if nodes[j].childCount > 0 {
                throw .invalidStructure(id, reason: "a history state cannot have child states", location: nodes[j].location)
            }
            if nodes[j].transitionCount > 1 {
                throw .invalidStructure(id, reason: "a history state has at most one default transition", location: nodes[j].location)
            }
            if nodes[j].firstTransition >= 0 {
                let t = outline.transitions[Int(nodes[j].firstTransition)]
                if t.hasEvent || t.hasGuard {
                    throw .invalidStructure(id, reason: "a history default transition has no event and no condition", location: t.location ?? nodes[j].location)
                }
            }
            if nodes[j].hasEntryBlocks || nodes[j].hasExitBlocks || nodes[j].hasInvocations {
                throw .invalidStructure(id, reason: "a history state has no entry or exit actions", location: nodes[j].location)
            }
        case .final:
            if nodes[j].childCount > 0 {
                throw .invalidStructure(id, reason: "a final state cannot have child states", location: nodes[j].location)
            }
            if nodes[j].firstTransition >= 0 {
                throw .invalidStructure(id, reason: "a final state cannot have outgoing transitions", location: outline.transitions[Int(nodes[j].firstTransition)].location ?? nodes[j].location)
            }
        case .parallel:
            if nodes[j].initial != nil {
                throw .invalidStructure(id, reason: "a parallel state has no initial state: all its regions start", location: nodes[j].location)
            }
        case .atomic:
            if nodes[j].initial != nil {
                throw .invalidStructure(id, reason: "an atomic state has no initial state", location: nodes[j].location)
            }
        case .compound:
            break
        }
        if i > 0, parent >= 0, states[Int(parent)].kind.isHistory || states[Int(parent)].kind == .final {
            throw .invalidStructure(ids[Int(parent)], reason: "cannot contain states", location: nodes[j].location)
        }
    }

    /// The state whose id is `id`, named by state `from` (a transition's source, a state's initial).
    ///
    /// The states a transition names most often are tried first: the source's next sibling and
    /// its parent's first child (the states of one machine targeting one another) and the
    /// source's first child (an initial state). Their ids sit next to the source's, so comparing
    /// them costs no cache miss, where a probe of the table costs one or two in a large chart
    /// (issue 16). Ids are unique (``shape()`` has checked), so an equal id is the state the table
    /// would find; any other id is looked up in the table, and an unknown one is the same error.
    private func resolve(_ id: String, from: Int, location: SourceLocation?) throws(ChartError) -> Int32 {
        let parent = Int(states[from].parent)
        let next = Int(states[from].end)
        if parent >= 0 {
            if next < Int(states[parent].end), StateIDTable.equal(indexByID.ids[next], id) { return Int32(next) }
            if StateIDTable.equal(indexByID.ids[parent + 1], id) { return Int32(parent + 1) }
        }
        if from + 1 < next, StateIDTable.equal(indexByID.ids[from + 1], id) { return Int32(from + 1) }
        guard let t = indexByID[id] else {
            throw .unknownTarget(id, from: from == 0 ? name : ids[from], location: location)
        }
        return t
    }

    private func isDescendant(_ a: Int32, of b: Int32) -> Bool { a > b && a < states[Int(b)].end }

    /// The targets of shape `k` (a view of ``targetPool``: do not hold it while adding targets).
    @usableFromInline
    func targets(of k: Int32) -> TargetList { ShapeTargets(shapes: shapes.elements, pool: targetPool).targets(of: k) }

    /// Adds `targets` to ``targetPool``; returns where they start.
    private mutating func pool(_ targets: [Int32]) -> Int32 {
        let start = Int32(targetPool.count)
        targetPool.append(contentsOf: targets)
        return start
    }

    /// Selectable transitions in document order (state by state), then initial and history defaults.
    private mutating func resolveTransitions() throws(ChartError) {
        let count = order.count
        let nodes = outline.nodes
        let declared = outline.transitions
        // At most: the declared transitions, one initial per compound state, one default per
        // history state, one per request route's container, a compound state (growing by
        // doubling copies them all). Not one per route: a typed chart has a route per state and
        // a shared transition per container.
        let routeContainers = Swift.min(outline.requestRoutes.count, compoundCount)
        shapes = TableBuffer(capacity: declared.count + compoundCount + historyCount + routeContainers)
        // A target each, as most have: growing by doubling copied the pool into fresh memory.
        targetPool.reserveCapacity(declared.count + compoundCount + historyCount)
        // The compound and history states, listed by the one pass over every state: the passes
        // after it read only these (two more passes over a million states' records cost 1 % of
        // building the chart, issue 16).
        var compounds: [Int32] = [], histories: [Int32] = []
        compounds.reserveCapacity(compoundCount)
        histories.reserveCapacity(historyCount)
        for i in 0..<count {
            if states[i].kind.isHistory {
                histories.append(Int32(i))
                continue
            }
            if states[i].kind == .compound { compounds.append(Int32(i)) }
            // Fields read one by one: binding a node or a transition copied it, with retains.
            let j = Int(order[i])
            states[i].transitionStart = Int32(shapes.count)
            var k = nodes[j].firstTransition
            var ordinal: Int32 = 0
            while k >= 0 {
                let d = Int(k)
                let location = declared[d].location ?? nodes[j].location
                let targetStart = Int32(targetPool.count)
                let nodeStart = Int(declared[d].targetNodeStart)
                if nodeStart >= 0 {
                    // The front end named the targets' nodes (the typed builder), their count first: no id to look up.
                    for m in 0..<Int(outline.targetNodes[nodeStart]) {
                        targetPool.append(newIndex[Int(outline.targetNodes[nodeStart + 1 + m])])
                    }
                } else {
                    for m in 0..<declared[d].targets.count {
                        targetPool.append(try resolve(declared[d].targets[m], from: i, location: location))
                    }
                }
                // The ids a guard and a `.done` descriptor name, in the order they were resolved
                // when guards were compiled here: the same first error for the same chart.
                if !declared[d].references.isEmpty {
                    for id in declared[d].references { _ = try resolve(id, from: i, location: location) }
                }
                shapes.append(
                    CompiledTransition(
                        source: Int32(i), targetStart: targetStart, targetCount: Int32(targetPool.count) - targetStart,
                        isInternal: declared[d].isInternal, domain: -1,
                        ordinal: ordinal, isPseudo: false, isEventless: !declared[d].hasEvent,
                        hasDynamicTargets: declared[d].hasDynamicTargets, declared: declared[d].declared,
                        initialOf: -1))
                ordinal += 1
                k = declared[d].next
            }
            states[i].transitionEnd = Int32(shapes.count)
        }
        // Initial transitions of compound states (the root included).
        for c in compounds {
            let i = Int(c)
            // The node's fields read in place: binding it copied it, with a retain of its id.
            let j = Int(order[i])
            // Targets go straight to the pool: an array of one for each default initial state
            // was an allocation per compound state.
            let targetStart = Int32(targetPool.count)
            if let initial = nodes[j].initial {
                let location = nodes[j].location
                if initial.isEmpty { throw .missingInitialState(i == 0 ? name : ids[i], location: location) }
                for id in initial {
                    let t = try resolve(id, from: i, location: location)
                    guard isDescendant(t, of: Int32(i)) else {
                        throw .invalidInitialTarget(id, of: i == 0 ? name : ids[i], location: location)
                    }
                    targetPool.append(t)
                }
            } else if let first = children(of: Int32(i)).first(where: { !states[Int($0)].kind.isHistory }) {
                targetPool.append(first)
            } else {
                throw .missingInitialState(ids[i], location: nodes[j].location)
            }
            states[i].initialTransition = Int32(shapes.count)
            shapes.append(
                CompiledTransition(
                    source: Int32(i), targetStart: targetStart, targetCount: Int32(targetPool.count) - targetStart,
                    isInternal: true,
                    domain: Int32(i), ordinal: 0, isPseudo: true,
                    isEventless: true, hasDynamicTargets: false, declared: -1,
                    initialOf: order[i]))
        }
        // History defaults: the declared transition, or the parent's default entry.
        for h in histories {
            let i = Int(h)
            let n = nodes[Int(order[i])]
            let parent = states[i].parent
            var targets: [Int32] = []
            let first = n.firstTransition
            if first >= 0 {
                let t = declared[Int(first)]
                for id in t.targets {
                    let target = try resolve(id, from: i, location: t.location ?? n.location)
                    guard isDescendant(target, of: parent) else {
                        throw .invalidInitialTarget(id, of: ids[i], location: t.location ?? n.location)
                    }
                    targets.append(target)
                }
            }
            if targets.isEmpty {
                let p = Int(parent)
                if states[p].kind == .compound {
                    targets = self.targets(of: states[p].initialTransition).array
                } else {
                    targets = children(of: Int32(p)).filter { !states[Int($0)].kind.isHistory }
                }
            }
            states[i].initialTransition = Int32(shapes.count)
            let targetStart = pool(targets)
            shapes.append(
                CompiledTransition(
                    source: Int32(i), targetStart: targetStart, targetCount: Int32(targets.count), isInternal: false,
                    domain: parent, ordinal: 0, isPseudo: true,
                    isEventless: true, hasDynamicTargets: false,
                    declared: first >= 0 ? declared[Int(first)].declared : -1, initialOf: -1))
        }
        // Request routes: one internal transition per container, not selectable by events, its
        // target the requested state, given when the request is made (``RequestTransitions``).
        // One per route cost a typed chart a transition per state — 128 bytes, an entry set and
        // a lean record each, a tenth of building a 1,000,000-state chart (issue 16).
        if !outline.requestRoutes.isEmpty { requestTransitions = RequestTransitions(stateCount: count, first: Int32(shapes.count)) }
        var sharedOfContainer: [Int32] = outline.requestRoutes.isEmpty ? [] : Array(repeating: -1, count: count)
        for route in outline.requestRoutes {
            let container = newIndex[Int(route.container)]
            // A route the typed builder adds names its target's node: no id to look up.
            let target =
                route.targetNode >= 0
                ? newIndex[Int(route.targetNode)]
                : try resolve(outline.requestRouteTargets[Int(route.targetName)], from: Int(container), location: nil)
            guard states[Int(container)].kind == .compound, isDescendant(target, of: container) else {
                throw .invalidStructure(
                    route.targetNode >= 0 ? ids[Int(target)] : outline.requestRouteTargets[Int(route.targetName)],
                    reason: "a request route must target a descendant of a compound state", location: nil)
            }
            if requestTransitions[target] != nil { continue }
            if sharedOfContainer[Int(container)] < 0 {
                sharedOfContainer[Int(container)] = Int32(shapes.count)
                // No declared target: the requested one is given when it is taken
                // (``Chart/targetsAreResolved(_:)``), and its domain worked out from it then (-2).
                shapes.append(
                    CompiledTransition(
                        source: container, targetStart: Int32(targetPool.count), targetCount: 0, isInternal: true, domain: -2,
                        ordinal: -1, isPseudo: true, isEventless: true, hasDynamicTargets: true, declared: -1, initialOf: -1))
            }
            requestTransitions.set(target, sharedOfContainer[Int(container)])
        }
        // Static domains (rule R6): history targets and dynamic targets are resolved at run time.
        // The targets read in place: a ``TargetList`` per shape retained the pool, a million
        // retains of one object for a million-state chart.
        let stateList = states.elements
        targetPool.withUnsafeBufferPointer { pool in
            for k in 0..<shapes.count where !shapes[k].isPseudo {
                let domain: Int32
                let start = Int(shapes[k].targetStart)
                let targets = UnsafeBufferPointer(rebasing: pool[start..<start + Int(shapes[k].targetCount)])
                if shapes[k].hasDynamicTargets || targets.contains(where: { stateList[Int($0)].kind.isHistory }) {
                    domain = -2
                } else if targets.isEmpty {
                    domain = -1
                } else {
                    domain = Self.domain(source: shapes[k].source, targets: targets, isInternal: shapes[k].isInternal, states: stateList)
                }
                shapes[k].domain = domain
            }
        }
    }

    /// The transition domain (SCXML `getTransitionDomain` with effective targets given): for the
    /// static domains the compiler records, and for the others at run time (``Chart/domain(source:targets:isInternal:)``).
    @inlinable
    static func domain<Targets: Collection<Int32>>(
        source: Int32, targets: Targets, isInternal: Bool, states: UnsafeBufferPointer<CompiledState>
    ) -> Int32 {
        func isDesc(_ a: Int32, _ b: Int32) -> Bool { a > b && a < states[Int(b)].end }
        if isInternal, states[Int(source)].kind == .compound, targets.allSatisfy({ isDesc($0, source) }) {
            return source
        }
        // LCCA: the nearest proper ancestor of the source that is compound (or the root) and
        // contains every target. Never a parallel.
        var anc = states[Int(source)].parent
        while anc >= 0 {
            if states[Int(anc)].kind == .compound, targets.allSatisfy({ isDesc($0, anc) }) { return anc }
            anc = states[Int(anc)].parent
        }
        return 0
    }

    /// Per atomic state, the range of its candidates: the selectable transitions of it and its
    /// ancestors, innermost first. Those without an event are listed here; those with one are
    /// only counted, and the assembly writes them into the chart's table (``Chart/leanCandidates``).
    private mutating func fillCandidates() {
        let shapes = self.shapes.elements
        for i in 0..<states.count where states[i].kind.isAtomic {
            var candidates = Int32(eventCandidateCount)
            states[i].candidateStart = candidates
            states[i].eventlessStart = Int32(eventlessCandidates.count)
            Self.forEachCandidate(of: i, states: states.elements) { k, _ in
                if shapes[Int(k)].isEventless {
                    eventlessCandidates.append(k)
                } else {
                    candidates += 1
                }
            }
            eventCandidateCount = Int(candidates)
            states[i].candidateEnd = candidates
            states[i].eventlessEnd = Int32(eventlessCandidates.count)
        }
    }

    /// Calls `body` with each selectable transition of atomic state `i` and of its ancestors,
    /// innermost first, each state's in document order, and the state it belongs to: the order
    /// of the candidate lists (rule R4), walked by ``fillCandidates()`` and by the assembly.
    @inlinable
    static func forEachCandidate(
        of i: Int, states: UnsafeBufferPointer<CompiledState>, _ body: (_ transition: Int32, _ source: Int32) -> Void
    ) {
        var s = Int32(i)
        while s >= 0 {
            let state = states[Int(s)]
            for k in state.transitionStart..<state.transitionEnd { body(k, s) }
            s = state.parent
        }
    }
}

/// The request transition of each state that has one (see ``ChartDefinition/addRequestRoute(to:within:)``):
/// an index per state, not a dictionary, since a typed chart gives every state a route.
///
/// The states of one container share its request transition, an internal transition whose target
/// is the requested state, given when the request is taken (``ChartInstance/performRequest(to:)``
/// resolves it as a dynamic target is resolved). The shared transitions come last, from ``first`` on.
@usableFromInline
struct RequestTransitions: Sendable {
    /// By state, the transition, or -1; empty when the chart has no routes.
    @usableFromInline var transitionOf: [Int32] = []
    /// The first shared request transition; every transition from it on is one.
    @usableFromInline var first: Int32 = .max

    init() {}

    init(stateCount: Int, first: Int32) {
        transitionOf = Array(repeating: -1, count: stateCount)
        self.first = first
    }

    /// The request transition that enters `state`, or `nil`.
    @inlinable subscript(state: Int32) -> Int32? {
        guard Int(state) < transitionOf.count else { return nil }
        let t = transitionOf[Int(state)]
        return t < 0 ? nil : t
    }

    /// Whether `transition` is a request transition, whose target is given when it is taken.
    @inlinable func contains(_ transition: Int32) -> Bool { transition >= first }

    mutating func set(_ state: Int32, _ transition: Int32) { transitionOf[Int(state)] = transition }
}

/// The targets of the compiler's shapes, for the ``EntrySetBuilder``.
struct ShapeTargets: TransitionTargets {
    let shapes: UnsafeBufferPointer<CompiledTransition>
    let pool: [Int32]

    func targets(of transition: Int32) -> TargetList {
        TargetList(pool: pool, start: Int(shapes[Int(transition)].targetStart), count: Int(shapes[Int(transition)].targetCount))
    }
}
