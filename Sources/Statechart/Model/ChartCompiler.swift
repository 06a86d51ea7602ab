extension Chart {
    /// Compiles a definition: numbers states in document order, resolves every id, checks the
    /// structure, and precomputes transition domains and per-state candidate lists.
    ///
    /// - Throws: ``ChartError`` naming the first problem found (and its location, when known).
    public convenience init(_ definition: ChartDefinition<Event, Context>) throws(ChartError) {
        var compiler = ChartCompiler(definition)
        try compiler.compile()
        self.init(
            states: compiler.states, transitions: compiler.transitions,
            eventCandidates: compiler.eventCandidates, eventlessCandidates: compiler.eventlessCandidates,
            childIndices: compiler.childIndices, entryActions: compiler.entryActions, exitActions: compiler.exitActions,
            ids: compiler.ids, locations: compiler.locations, indexByID: compiler.indexByID,
            historyCount: compiler.historyCount, requestTransitions: compiler.requestTransitions,
            staticEntries: compiler.staticEntries, staticDefaultEntries: compiler.staticDefaultEntries,
            invocations: compiler.invocations, name: definition.name, eventName: definition.eventName)
    }
}

/// Turns a ``ChartDefinition`` into the arrays of a ``Chart``. No recursion: every pass is a loop.
struct ChartCompiler<Event: Hashable & Sendable, Context> {
    typealias C = Chart<Event, Context>
    let definition: ChartDefinition<Event, Context>
    var order: [Int] = []  // definition node index, in document order
    var newIndex: [Int32] = []
    var states: [C.State] = []
    var transitions: [C.Transition] = []
    var eventCandidates: [Int32] = []
    var eventlessCandidates: [Int32] = []
    var childIndices: [[Int32]] = []
    var entryActions: [[[Action<Event, Context>]]] = []
    var exitActions: [[[Action<Event, Context>]]] = []
    var ids: [String] = []
    var locations: [SourceLocation?] = []
    var indexByID: [String: Int32] = [:]
    var historyCount = 0
    var requestTransitions: [Int32: Int32] = [:]
    var staticEntries: [[Int32]?] = []
    var staticDefaultEntries: [[Int32]] = []
    var invocations: [[Invocation<Event, Context>]] = []

    init(_ definition: ChartDefinition<Event, Context>) { self.definition = definition }

    private func node(_ i: Int) -> ChartDefinition<Event, Context>.StateNode {
        definition.nodes[order[i]]
    }

    mutating func compile() throws(ChartError) {
        number()
        try shape()
        try resolveTransitions()
        try checkHistoryDefaults()
        fillCandidates()
        precomputeEntrySets()
    }

    /// The entry set of every transition whose entry does not depend on history values or on a
    /// dynamic target, computed once with the interpreter's own ``EntrySetBuilder``.
    ///
    /// An entry set larger than ``staticEntryLimit`` is not kept (the interpreter computes it when
    /// the transition is taken, in time proportional to its size): keeping them all would cost
    /// O(depth²) time and memory for a deep chain, whose every initial transition enters the
    /// whole chain below it.
    private mutating func precomputeEntrySets() {
        var builder = EntrySetBuilder<Event, Context>(stateCount: states.count)
        builder.limit = Self.staticEntryLimit
        staticEntries = Array(repeating: nil, count: transitions.count)
        staticDefaultEntries = Array(repeating: [], count: transitions.count)
        for k in transitions.indices {
            let t = transitions[k]
            guard t.domain >= 0, !t.targets.isEmpty, !(t.isPseudo && states[Int(t.source)].kind.isHistory) else { continue }
            builder.clear()
            builder.add(targets: t.targets, domain: t.domain, states: states, transitions: transitions, children: childIndices)
            builder.finish()
            let keep = builder.entries.count <= Self.staticEntryLimit && !builder.touchedHistory
            let defaults = keep ? builder.entries.filter { builder.defaultMarks[Int($0) >> 6] & (1 << UInt64($0 & 63)) != 0 } : []
            for s in builder.entries { builder.defaultMarks[Int(s) >> 6] = 0 }
            guard keep else { continue }
            staticEntries[k] = builder.entries.array
            staticDefaultEntries[k] = defaults
        }
    }

    /// The largest entry set kept precomputed (see ``precomputeEntrySets()``).
    static var staticEntryLimit: Int { 64 }

    /// Refuses history states whose default entry leads back to a history state already being
    /// entered (`initial="h"` on h's own parent with no default transition; two histories whose
    /// defaults target each other; a default that targets itself). Entering such a chart would
    /// never end. Every other default entry goes strictly deeper, so this is the only cycle
    /// possible. An iterative depth-first search over history → history-target edges.
    private func checkHistoryDefaults() throws(ChartError) {
        // 0: not visited, 1: on the current path, 2: done.
        var color = [UInt8](repeating: 0, count: states.count)
        var path: [(state: Int32, next: Int)] = []
        for h in states.indices where states[h].kind.isHistory && color[h] == 0 {
            color[h] = 1
            path.append((Int32(h), 0))
            while let top = path.last {
                let targets = transitions[Int(states[Int(top.state)].initialTransition)].targets
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

    /// Pre-order numbering with an explicit stack.
    private mutating func number() {
        let nodes = definition.nodes
        newIndex = Array(repeating: -1, count: nodes.count)
        order.reserveCapacity(nodes.count)
        var stack = [0]
        while let n = stack.popLast() {
            newIndex[n] = Int32(order.count)
            order.append(n)
            for child in nodes[n].children.reversed() { stack.append(child) }
        }
    }

    /// Kinds, parents, subtree ranges, depths, ids; structural checks.
    private mutating func shape() throws(ChartError) {
        let count = order.count
        ids.reserveCapacity(count)
        states.reserveCapacity(count)
        indexByID.reserveCapacity(count)
        for i in 0..<count {
            let n = node(i)
            let parent: Int32 = n.parent < 0 ? -1 : newIndex[n.parent]
            let children = n.children.map { newIndex[$0] }
            let hasStateChild = n.children.contains {
                if case .history = definition.nodes[$0].kind { return false }
                return true
            }
            let kind: CompiledStateKind
            switch n.kind {
            case .state: kind = (hasStateChild || i == 0) ? .compound : .atomic
            case .parallel: kind = .parallel
            case .final: kind = .final
            case .history(let h): kind = h == .deep ? .deepHistory : .shallowHistory
            }
            let id = i == 0 ? "" : n.id
            if i > 0 {
                if id.isEmpty {
                    throw .emptyStateID(parent: parent >= 0 ? ids[Int(parent)] : "", location: n.location)
                }
                if let first = indexByID[id] {
                    throw .duplicateStateID(id, first: locations[Int(first)], second: n.location)
                }
                indexByID[id] = Int32(i)
            }
            ids.append(id)
            locations.append(n.location)
            childIndices.append(children)
            entryActions.append(n.onEntry)
            invocations.append(n.invocations)
            exitActions.append(n.onExit)
            let depth: Int32 = parent < 0 ? 0 : states[Int(parent)].depth + 1
            var slot: Int32 = -1
            if kind.isHistory {
                slot = Int32(historyCount)
                historyCount += 1
            }
            states.append(
                C.State(
                    kind: kind, parent: parent, end: Int32(i + 1), depth: depth, initialTransition: -1,
                    transitionStart: 0, transitionEnd: 0, candidateStart: 0, candidateEnd: 0,
                    eventlessStart: 0, eventlessEnd: 0, historySlot: slot, hasHistoryChild: false,
                    hasEntryActions: n.onEntry.contains { !$0.isEmpty },
                    hasExitActions: n.onExit.contains { !$0.isEmpty }))
            try checkStructure(i, kind: kind, node: n, parent: parent)
            if kind.isHistory, parent >= 0 { states[Int(parent)].hasHistoryChild = true }
        }
        // Subtree ends: children follow their parent, so a reverse pass accumulates sizes.
        for i in stride(from: count - 1, through: 1, by: -1) {
            let p = Int(states[i].parent)
            states[p].end = max(states[p].end, states[i].end)
        }
        if !states[0].kind.isAtomic && !childIndices[0].contains(where: { !states[Int($0)].kind.isHistory }) {
            throw .missingInitialState(definition.name, location: nil)
        }
    }

    private func checkStructure(_ i: Int, kind: CompiledStateKind, node n: ChartDefinition<Event, Context>.StateNode, parent: Int32) throws(ChartError) {
        let id = i == 0 ? definition.name : n.id
        switch kind {
        case .shallowHistory, .deepHistory:
            let pk = parent >= 0 ? states[Int(parent)].kind : .atomic
            if parent <= 0 || !(pk == .compound || pk == .parallel) {
                throw .historyOutsideCompound(id, location: n.location)
            }
            if !n.children.isEmpty {
                throw .invalidStructure(id, reason: "a history state cannot have child states", location: n.location)
            }
            if n.transitions.count > 1 {
                throw .invalidStructure(id, reason: "a history state has at most one default transition", location: n.location)
            }
            if let t = n.transitions.first, t.event != nil || t.guardCondition != nil {
                throw .invalidStructure(id, reason: "a history default transition has no event and no condition", location: t.location ?? n.location)
            }
            if !n.onEntry.isEmpty || !n.onExit.isEmpty || !n.invocations.isEmpty {
                throw .invalidStructure(id, reason: "a history state has no entry or exit actions", location: n.location)
            }
        case .final:
            if !n.children.isEmpty {
                throw .invalidStructure(id, reason: "a final state cannot have child states", location: n.location)
            }
            if !n.transitions.isEmpty {
                throw .invalidStructure(id, reason: "a final state cannot have outgoing transitions", location: n.transitions.first?.location ?? n.location)
            }
        case .parallel:
            if n.initial != nil {
                throw .invalidStructure(id, reason: "a parallel state has no initial state: all its regions start", location: n.location)
            }
        case .atomic:
            if n.initial != nil {
                throw .invalidStructure(id, reason: "an atomic state has no initial state", location: n.location)
            }
        case .compound:
            break
        }
        if i > 0, parent >= 0, states[Int(parent)].kind.isHistory || states[Int(parent)].kind == .final {
            throw .invalidStructure(ids[Int(parent)], reason: "cannot contain states", location: n.location)
        }
    }

    private func resolve(_ id: String, from: Int, location: SourceLocation?) throws(ChartError) -> Int32 {
        guard let t = indexByID[id] else {
            throw .unknownTarget(id, from: from == 0 ? definition.name : ids[from], location: location)
        }
        return t
    }

    private func compileGuard(_ g: Guard<Event, Context>, from: Int, location: SourceLocation?) throws(ChartError) -> CompiledGuard<Event, Context> {
        switch g {
        case .inState(let id): return .inState(try resolve(id, from: from, location: location))
        case .not(let inner): return .not(try compileGuard(inner, from: from, location: location))
        case .all(let gs):
            var out: [CompiledGuard<Event, Context>] = []
            for x in gs { out.append(try compileGuard(x, from: from, location: location)) }
            return .all(out)
        case .any(let gs):
            var out: [CompiledGuard<Event, Context>] = []
            for x in gs { out.append(try compileGuard(x, from: from, location: location)) }
            return .any(out)
        case .predicate(let p): return .predicate(p)
        case .expression(let source, let evaluate): return .expression(source, evaluate)
        case .withInput(let p): return .withInput(p)
        }
    }

    private func isDescendant(_ a: Int32, of b: Int32) -> Bool { a > b && a < states[Int(b)].end }

    /// Selectable transitions in document order (state by state), then initial and history defaults.
    private mutating func resolveTransitions() throws(ChartError) {
        let count = order.count
        for i in 0..<count where !states[i].kind.isHistory {
            let n = node(i)
            states[i].transitionStart = Int32(transitions.count)
            for (k, t) in n.transitions.enumerated() {
                var targets: [Int32] = []
                for id in t.targets { targets.append(try resolve(id, from: i, location: t.location ?? n.location)) }
                let g = try t.guardCondition.map { (g) throws(ChartError) in try compileGuard(g, from: i, location: t.location ?? n.location) }
                let matcher: EventMatcher<Event>? = try t.event.map { (d) throws(ChartError) in
                    try compileDescriptor(d, from: i, location: t.location ?? n.location)
                }
                transitions.append(
                    C.Transition(
                        source: Int32(i), matcher: matcher, guardCondition: g, targets: targets,
                        isInternal: t.kind == .internal, domain: -1, actions: t.actions,
                        dynamicTargets: t.dynamicTargets, asyncGuard: t.asyncGuard, location: t.location,
                        ordinal: Int32(k), isPseudo: false))
            }
            states[i].transitionEnd = Int32(transitions.count)
        }
        // Initial transitions of compound states (the root included).
        for i in 0..<count where states[i].kind == .compound {
            let n = node(i)
            var targets: [Int32] = []
            if let initial = n.initial {
                if initial.isEmpty { throw .missingInitialState(i == 0 ? definition.name : ids[i], location: n.location) }
                for id in initial {
                    let t = try resolve(id, from: i, location: n.location)
                    guard isDescendant(t, of: Int32(i)) else {
                        throw .invalidInitialTarget(id, of: i == 0 ? definition.name : ids[i], location: n.location)
                    }
                    targets.append(t)
                }
            } else if let first = childIndices[i].first(where: { !states[Int($0)].kind.isHistory }) {
                targets = [first]
            } else {
                throw .missingInitialState(ids[i], location: n.location)
            }
            states[i].initialTransition = Int32(transitions.count)
            transitions.append(
                C.Transition(
                    source: Int32(i), matcher: nil, guardCondition: nil, targets: targets, isInternal: true,
                    domain: Int32(i), actions: n.initialActions, dynamicTargets: nil, location: n.location,
                    ordinal: 0, isPseudo: true))
        }
        // History defaults: the declared transition, or the parent's default entry.
        for i in 0..<count where states[i].kind.isHistory {
            let n = node(i)
            let parent = states[i].parent
            var targets: [Int32] = []
            var actions: [Action<Event, Context>] = []
            if let t = n.transitions.first {
                for id in t.targets {
                    let target = try resolve(id, from: i, location: t.location ?? n.location)
                    guard isDescendant(target, of: parent) else {
                        throw .invalidInitialTarget(id, of: ids[i], location: t.location ?? n.location)
                    }
                    targets.append(target)
                }
                actions = t.actions
            }
            if targets.isEmpty {
                let p = Int(parent)
                if states[p].kind == .compound {
                    targets = transitions[Int(states[p].initialTransition)].targets
                } else {
                    targets = childIndices[p].filter { !states[Int($0)].kind.isHistory }
                }
            }
            states[i].initialTransition = Int32(transitions.count)
            transitions.append(
                C.Transition(
                    source: Int32(i), matcher: nil, guardCondition: nil, targets: targets, isInternal: false,
                    domain: parent, actions: actions, dynamicTargets: nil, location: n.transitions.first?.location,
                    ordinal: 0, isPseudo: true))
        }
        // Request routes: internal transitions of the level's container, not selectable by events.
        for route in definition.requestRoutes {
            let container = newIndex[route.container]
            let target = try resolve(route.target, from: Int(container), location: nil)
            guard states[Int(container)].kind == .compound, isDescendant(target, of: container) else {
                throw .invalidStructure(
                    route.target, reason: "a request route must target a descendant of a compound state", location: nil)
            }
            if requestTransitions[target] != nil { continue }
            requestTransitions[target] = Int32(transitions.count)
            transitions.append(
                C.Transition(
                    source: container, matcher: nil, guardCondition: nil, targets: [target], isInternal: true,
                    domain: container, actions: [], dynamicTargets: nil, location: nil, ordinal: -1, isPseudo: true))
        }
        // Static domains (rule R6): history targets and dynamic targets are resolved at run time.
        for k in transitions.indices where !transitions[k].isPseudo {
            let t = transitions[k]
            if t.dynamicTargets != nil || t.targets.contains(where: { states[Int($0)].kind.isHistory }) {
                transitions[k].domain = -2
            } else if t.targets.isEmpty {
                transitions[k].domain = -1
            } else {
                transitions[k].domain = Self.domain(
                    source: t.source, targets: t.targets, isInternal: t.isInternal, states: states)
            }
        }
    }

    private func compileDescriptor(_ d: EventDescriptor<Event>, from: Int, location: SourceLocation?) throws(ChartError) -> EventMatcher<Event> {
        switch d {
        case .any: return .any
        case .event(let e): return .event(e)
        case .matching(let p): return .matching(p)
        case .done(let id): return .done(try resolve(id, from: from, location: location))
        case .error: return .error
        case .timer(let key): return .timer(key)
        case .names(let tokens): return EventMatcher.normalizedNames(tokens)
        }
    }

    /// The transition domain (SCXML `getTransitionDomain` with effective targets given).
    static func domain(source: Int32, targets: [Int32], isInternal: Bool, states: [C.State]) -> Int32 {
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

    /// Per atomic state, the selectable transitions of it and its ancestors, innermost first.
    private mutating func fillCandidates() {
        for i in states.indices where states[i].kind.isAtomic {
            states[i].candidateStart = Int32(eventCandidates.count)
            states[i].eventlessStart = Int32(eventlessCandidates.count)
            var s = Int32(i)
            while s >= 0 {
                let st = states[Int(s)]
                for k in st.transitionStart..<st.transitionEnd {
                    if transitions[Int(k)].matcher == nil {
                        eventlessCandidates.append(k)
                    } else {
                        eventCandidates.append(k)
                    }
                }
                s = st.parent
            }
            states[i].candidateEnd = Int32(eventCandidates.count)
            states[i].eventlessEnd = Int32(eventlessCandidates.count)
        }
    }
}
