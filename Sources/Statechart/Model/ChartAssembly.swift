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
        // Every transition's descriptor, `nil` until it is set below.
        matchers = .prefaulted(repeating: nil, count: compiler.shapes.count)
        // Fields read one by one, and each transition built in its final place: binding a shape
        // or a declared transition copied it (a retain per array and closure it holds), and
        // building a transition before appending it copied it again.
        let shapes = compiler.shapes
        var declaredList = definition.transitions
        definition.transitions = []
        for k in 0..<shapes.count {
            let d = Int(shapes[k].declared)
            guard d >= 0 else {
                // The initial transition of a compound state runs its initial actions.
                let node = shapes[k].initialOf
                guard node >= 0 else { continue }
                let p = definition.outline.nodes[Int(node)].payload
                let actions = p >= 0 ? definition.payloads[Int(p)].initialActions : []
                transitionLocations.set(definition.outline.nodes[Int(node)].location, at: k, count: shapes.count)
                guard !actions.isEmpty else { continue }
                hasActions[k] = true
                anyActions = true
                if !readsTime { readsTime = actions.contains { $0.readsTime } }
                transitionActions.set(actions, at: k, count: shapes.count)
                continue
            }
            let selectable = !shapes[k].isPseudo
            // The descriptor goes straight into its table: held in a local first, the matcher
            // was copied into the table and destroyed after it (two outlined calls a transition).
            if selectable, let event = declaredList[d].event { matchers[k] = Self.matcher(event, indexByID) }
            if let location = declaredList[d].location { transitionLocations.set(location, at: k, count: shapes.count) }
            // Most transitions have nothing more: no actions, guard or closures. They are told by
            // three tests, without copying anything out of the declaration.
            guard !declaredList[d].actions.isEmpty || (selectable && (declaredList[d].guardCondition != nil || declaredList[d].closures != nil))
            else { continue }
            let actions = declaredList[d].actions
            if !actions.isEmpty {
                hasActions[k] = true
                anyActions = true
                if !readsTime { readsTime = actions.contains { $0.readsTime } }
                transitionActions.set(actions, at: k, count: shapes.count)
            }
            guard selectable else { continue }
            let guardCondition = declaredList[d].guardCondition.map { Self.compiledGuard($0, indexByID) }
            let dynamicTargets = declaredList[d].dynamicTargets
            let asyncGuard = declaredList[d].asyncGuard
            if !readsTime, let g = guardCondition { readsTime = g.readsTime }
            if guardCondition != nil || asyncGuard != nil || dynamicTargets != nil {
                conditional[k] = true
                anyConditional = true
            }
            if asyncGuard != nil { hasAsyncGuards = true }
            guards.set(guardCondition, at: k, count: shapes.count)
            self.dynamicTargets.set(dynamicTargets, at: k, count: shapes.count)
            asyncGuards.set(asyncGuard, at: k, count: shapes.count)
        }
        declaredList = []
        // Nothing reads the definition from here: its node outline (one record per state) is
        // released before the tables below are made, not when the assembly returns.
        _ = consume definition
        let invokes = compiler.invokes
        lean = LeanTables(
            states: compiler.states.elements, shapes: compiler.shapes.elements, hasActions: hasActions, conditional: conditional,
            staticEntries: compiler.staticEntries, staticEntryPool: compiler.staticEntryPool.elements,
            staticDefaults: compiler.staticDefaults.elements, staticDefaultPool: compiler.staticDefaultPool.elements,
            invokes: invokes)
        // Each atomic state's candidates for an event, in the order ``ChartCompiler/fillCandidates()``
        // counted them, written into the chart's table.
        let compiledStates = compiler.states.elements
        let matchers = self.matchers
        let candidates = TableBuffer<LeanCandidate<Event>>(capacity: compiler.eventCandidateCount)
        for i in 0..<count where compiledStates[i].kind.isAtomic {
            ChartCompiler.forEachCandidate(of: i, states: compiledStates) { t, source in
                guard !shapes[Int(t)].isEventless else { return }
                candidates.append(
                    LeanCandidate(
                        transition: t, event: Self.exactEvent(matchers[Int(t)]), conditional: conditional[Int(t)],
                        own: source == Int32(i)))
            }
        }
        leanCandidates = candidates
        closures = ClosureBlocks(
            transitions: compiler.shapes.elements, guards: guards, actions: transitionActions, stateCount: count,
            entryActions: entryActions, exitActions: exitActions, anyActions: anyActions,
            anyConditional: anyConditional)
    }

    /// The one event `matcher` matches when it is `.event(e)`, read without copying the rest of it
    /// (a copy of the descriptor, which can hold closures and arrays, was an outlined call per
    /// candidate).
    @inlinable
    static func exactEvent(_ matcher: EventMatcher<Event>?) -> Event? {
        switch matcher {
        case .event(let e)?: return e
        default: return nil
        }
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
