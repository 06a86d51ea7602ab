/// The generic end of compiling: attaches the user's events, guards, actions and invoked work
/// from a ``ChartDefinition`` to the structure ``ChartCompiler`` computed. Every id was resolved
/// (and every error thrown) by the compiler; this is one pass over the transitions and one over
/// the states that have actions.
/// Inlinable, so that it is specialized for the caller's types (see ``Chart/init(_:)``).
@usableFromInline
struct ChartAssembly<Event: Hashable & Sendable, Context> {
    @usableFromInline typealias C = Chart<Event, Context>
    /// By transition, its event descriptor (``Chart/matchers``).
    @usableFromInline var matchers: [EventMatcher<Event>?] = []
    @usableFromInline var guards = SparseTable<CompiledGuard<Event, Context>?>()
    @usableFromInline var transitionActions = SparseTable<[Action<Event, Context>]>()
    @usableFromInline var dynamicTargets = SparseTable<(@Sendable (Context, ChartEvent<Event>?) -> [String])?>()
    @usableFromInline var asyncGuards = SparseTable<(@Sendable (Context, Event) async -> Bool)?>()
    @usableFromInline var transitionLocations = SparseTable<SourceLocation?>()
    @usableFromInline var entryActions = SparseTable<[[Action<Event, Context>]]>()
    @usableFromInline var exitActions = SparseTable<[[Action<Event, Context>]]>()
    @usableFromInline var invocations = SparseTable<[Invocation<Event, Context>]>()
    /// Built in the memory that becomes the chart's table (``TableBuffer``).
    @usableFromInline var leanCandidates = TableBuffer<LeanCandidate<Event>>(capacity: 0)
    @usableFromInline var lean: LeanTables
    @usableFromInline var hasAsyncGuards = false
    /// Whether anything the chart runs can read machine time (``Chart/readsTime``).
    @usableFromInline var readsTime = false
    /// Built last, from the blocks above (``ClosureBlocks``); the chart takes it over.
    @usableFromInline var closures: ClosureBlocks<Event, Context>

    /// Attaches the definition's events, guards, actions and invoked work to the compiled structure.
    ///
    /// The definition is consumed, and what has been read of it released as the assembly goes:
    /// the outline's transitions at once (the compiler has read them), the rest — the declared
    /// transitions, the payloads and the node outline — once every chart transition is built
    /// (peak memory, issue 16).
    @inlinable
    init(_ definition: consuming ChartDefinition<Event, Context>, _ compiler: ChartCompiler) {
        definition.releaseCompiledOutline()
        let count = compiler.states.count
        // Whether anything has actions, and whether any transition has more than its descriptor
        // to check: the closure tables are built only then (``ClosureBlocks``).
        var anyActions = false
        var anyConditional = false
        if !definition.payloads.isEmpty {
            for (i, node) in compiler.order.enumerated() {
                let p = definition.outline.nodes[Int(node)].payload
                guard p >= 0 else { continue }
                let payload = definition.payloads[Int(p)]
                entryActions.set(payload.onEntry, at: i, count: count)
                exitActions.set(payload.onExit, at: i, count: count)
                if !payload.onEntry.isEmpty || !payload.onExit.isEmpty {
                    anyActions = true
                    if !readsTime { readsTime = Self.readsTime(payload.onEntry) || Self.readsTime(payload.onExit) }
                }
                invocations.set(payload.invocations, at: i, count: count)
            }
        }
        let indexByID = compiler.indexByID
        var hasActions = [Bool](repeating: false, count: compiler.shapes.count)
        var conditional = [Bool](repeating: false, count: compiler.shapes.count)
        matchers.reserveCapacity(compiler.shapes.count)
        // Fields read one by one, and each transition built in its final place: binding a shape
        // or a declared transition copied it (a retain per array and closure it holds), and
        // building a transition before appending it copied it again.
        let shapes = compiler.shapes
        var declaredList = definition.transitions
        definition.transitions = []
        for k in 0..<shapes.count {
            let d = Int(shapes[k].declared)
            var actions: [Action<Event, Context>] = []
            var matcher: EventMatcher<Event>?
            var guardCondition: CompiledGuard<Event, Context>?
            var dynamicTargets: (@Sendable (Context, ChartEvent<Event>?) -> [String])?
            var asyncGuard: (@Sendable (Context, Event) async -> Bool)?
            var location: SourceLocation?
            if d >= 0 {
                actions = declaredList[d].actions
                location = declaredList[d].location
                if !shapes[k].isPseudo {
                    if let event = declaredList[d].event { matcher = Self.matcher(event, indexByID) }
                    if let g = declaredList[d].guardCondition { guardCondition = Self.compiledGuard(g, indexByID) }
                    dynamicTargets = declaredList[d].dynamicTargets
                    asyncGuard = declaredList[d].asyncGuard
                }
            } else if shapes[k].initialOf >= 0 {
                let p = definition.outline.nodes[Int(shapes[k].initialOf)].payload
                if p >= 0 { actions = definition.payloads[Int(p)].initialActions }
                location = definition.outline.nodes[Int(shapes[k].initialOf)].location
            }
            hasActions[k] = !actions.isEmpty
            conditional[k] = guardCondition != nil || asyncGuard != nil || dynamicTargets != nil
            if hasActions[k] {
                anyActions = true
                if !readsTime { readsTime = actions.contains { $0.readsTime } }
            }
            if !readsTime, let g = guardCondition { readsTime = g.readsTime }
            if conditional[k] { anyConditional = true }
            if asyncGuard != nil { hasAsyncGuards = true }
            matchers.append(matcher)
            guards.set(guardCondition, at: k, count: shapes.count)
            transitionActions.set(actions, at: k, count: shapes.count)
            self.dynamicTargets.set(dynamicTargets, at: k, count: shapes.count)
            asyncGuards.set(asyncGuard, at: k, count: shapes.count)
            transitionLocations.set(location, at: k, count: shapes.count)
        }
        declaredList = []
        // Nothing reads the definition from here: its node outline (one record per state) is
        // released before the tables below are made, not when the assembly returns.
        _ = consume definition
        let invokes = compiler.invokes
        lean = LeanTables(
            states: compiler.states.elements, shapes: compiler.shapes.elements, hasActions: hasActions, conditional: conditional,
            staticEntries: compiler.staticEntries, staticEntryPool: compiler.staticEntryPool,
            staticDefaults: compiler.staticDefaults, staticDefaultPool: compiler.staticDefaultPool, invokes: invokes)
        leanCandidates = TableBuffer(capacity: compiler.eventCandidates.count)
        let compiledStates = compiler.states.elements
        // The atomic state whose list holds candidate `k`: the lists follow each other in state order.
        var owner = 0
        for (k, t) in compiler.eventCandidates.enumerated() {
            while compiledStates[owner].candidateEnd <= k || !compiledStates[owner].kind.isAtomic { owner += 1 }
            var exact: Event?
            if case .event(let e) = matchers[Int(t)] { exact = e }
            leanCandidates.append(
                LeanCandidate(
                    transition: t, event: exact, conditional: lean.transitions[Int(t)].flags.contains(.conditional),
                    own: compiler.shapes[Int(t)].source == Int32(owner)))
        }
        closures = ClosureBlocks(
            transitions: compiler.shapes.elements, guards: guards, actions: transitionActions, stateCount: count,
            entryActions: entryActions, exitActions: exitActions, anyActions: anyActions,
            anyConditional: anyConditional)
    }

    /// Whether any action of these blocks can read machine time.
    @inlinable
    static func readsTime(_ blocks: [[Action<Event, Context>]]) -> Bool {
        blocks.contains { $0.contains { $0.readsTime } }
    }

    /// A descriptor with its state id resolved (the compiler has checked that it resolves).
    @inlinable
    static func matcher(_ d: EventDescriptor<Event>, _ indexByID: StateIDTable) -> EventMatcher<Event> {
        switch d {
        case .any: return .any
        case .event(let e): return .event(e)
        case .matching(let p): return .matching(p)
        case .done(let id): return .done(indexByID[id]!)
        case .error: return .error
        case .timer(let key): return .timer(key)
        case .names(let tokens): return names(tokens)
        }
    }

    /// The matcher of SCXML tokens (``EventMatcher/normalizedNames(_:)``), specialized in the caller.
    @inlinable
    static func names(_ tokens: [String]) -> EventMatcher<Event> { EventMatcher.normalizedNames(tokens) }

    /// A guard with its state ids resolved (the compiler has checked that they resolve).
    @inlinable
    static func compiledGuard(_ g: Guard<Event, Context>, _ indexByID: StateIDTable) -> CompiledGuard<Event, Context> {
        switch g {
        case .inState(let id): return .inState(indexByID[id]!)
        case .not(let inner): return .not(compiledGuard(inner, indexByID))
        case .all(let gs): return .all(gs.map { compiledGuard($0, indexByID) })
        case .any(let gs): return .any(gs.map { compiledGuard($0, indexByID) })
        case .predicate(let p): return .predicate(p)
        case .expression(let source, let evaluate): return .expression(source, evaluate)
        case .withInput(let p): return .withInput(p)
        }
    }
}
