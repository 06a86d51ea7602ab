/// Compiles typed ``Machine`` declarations — the top machine and every attached child, at any
/// depth — into one ``ChartDefinition``, and records what the typed runtime needs to map indices
/// back to the user's values: the value and level of every state, routes, barriers, dynamic
/// transitions.
///
/// State ids are the dotted path of the values' descriptions (`confirmed.authorizing`). A child
/// machine's any-state routes are placed on its container before the parent state's own
/// transitions, so selection tries them in the order of rule R25, as internal transitions, so
/// that they act inside the child's level only (rule R33).
struct TypedChartEmitter<Event: Hashable & Sendable, Context> {
    var definition: ChartDefinition<Event, Context>
    var values: [String: AnyHashable] = [:]
    var valuePaths: [String: [AnyHashable]] = [:]
    var levels: [TypedLevel<Context>] = []
    var levelOfState: [String: Int] = [:]
    /// Transitions whose targets are ``StateRef``s: the transition's index in the definition's
    /// ``ChartDefinition/transitions``, and its source node for diagnostics.
    var refFixups: [(node: Int, transition: Int, refs: [StateRef])] = []
    /// Ids of states that are only ever mentioned as targets, never declared (rule R65).
    var mentionedOnly: [String] = []
    var depth = 0

    init(name: String) {
        definition = ChartDefinition(name: name)
    }

    /// Per-state declarations gathered from a machine body, in first-mention order.
    ///
    /// Mentioning a state adds it (rule R65): the order is that of first mention, whether the
    /// mention declares the state (`When`, `Final`, a flat transition's source, an attachment) or
    /// only targets it. `declared` tells the two apart for ``TypedChart/validate()``.
    struct Gathered<S: Hashable & Sendable> {
        var order: [S] = []
        var declared: Set<S> = []
        var roles: [S: StateRole] = [:]
        var transitions: [S: [TransitionSpec<S, Event, Context>]] = [:]
        var entries: [S: [ActionSpec<S, Event, Context>]] = [:]
        var exits: [S: [ActionSpec<S, Event, Context>]] = [:]
        var children: [S: [AnyChildMachine<Event, Context>]] = [:]
        var routes: [S: [S]] = [:]
        var barriers: [S: @Sendable (S, Context) -> Barrier<S>] = [:]
        var dynamics: [S: @Sendable (Context) -> S] = [:]
        var anyState: [TransitionSpec<S, Event, Context>] = []
        var afters: [S: [(Duration, TransitionSpec<S, Event, Context>)]] = [:]
        var invocations: [S: [Invocation<Event, Context>]] = [:]

        mutating func touch(_ s: S) {
            if roles[s] == nil {
                roles[s] = .normal
                order.append(s)
            }
        }

        mutating func declare(_ s: S) {
            touch(s)
            declared.insert(s)
        }
    }

    private func gather<S>(_ machine: Machine<S, Event, Context>, name: String) throws(ChartError) -> Gathered<S> {
        var g = Gathered<S>()
        func touchTargets(_ spec: TransitionSpec<S, Event, Context>) {
            if case .states(let ts) = spec.target { for t in ts { g.touch(t) } }
        }
        for element in machine.elements {
            switch element.kind {
            case .state(let s, let role, let content):
                g.declare(s)
                if role != .normal { g.roles[s] = role }
                for item in content {
                    switch item.kind {
                    case .transition(let t):
                        g.transitions[s, default: []].append(t)
                        touchTargets(t)
                    case .entry(let a): g.entries[s, default: []].append(a)
                    case .exit(let a): g.exits[s, default: []].append(a)
                    case .attach(let c): g.children[s, default: []].append(c)
                    case .routes(let rs):
                        g.routes[s, default: []].append(contentsOf: rs)
                        for r in rs { g.touch(r) }
                    case .barrier(let b):
                        if g.barriers[s] != nil {
                            throw .invalidStructure("\(s)", reason: "a state has at most one transition barrier", location: nil)
                        }
                        g.barriers[s] = b
                    case .dynamic(let d):
                        if g.dynamics[s] != nil {
                            throw .invalidStructure("\(s)", reason: "a state has at most one dynamic transition", location: nil)
                        }
                        g.dynamics[s] = d
                    case .after(let delay, let t):
                        g.afters[s, default: []].append((delay, t))
                        touchTargets(t)
                    case .invoke(let i):
                        g.invocations[s, default: []].append(i)
                    }
                }
            case .transition(let sources, let spec):
                for s in sources {
                    g.declare(s)
                    g.transitions[s, default: []].append(spec)
                }
                touchTargets(spec)
            case .anyState(let items):
                for item in items {
                    guard case .transition(let t) = item.kind else {
                        throw .invalidStructure(name, reason: "AnyState holds only transitions", location: nil)
                    }
                    g.anyState.append(t)
                    touchTargets(t)
                }
            case .states(let list):
                for s in list { g.declare(s) }
            }
        }
        for (s, child) in machine.attachments {
            g.declare(s)
            g.children[s, default: []].append(child)
        }
        return g
    }

    /// Emits one machine's states into `container`; returns the id of its initial state.
    mutating func emitLevel<S>(
        _ machine: Machine<S, Event, Context>, container: ChartDefinition<Event, Context>.Node, prefix: String,
        path: [AnyHashable]
    ) throws(ChartError) -> String {
        depth += 1
        defer { depth -= 1 }
        if depth > 512 { throw .attachCycle([prefix]) }
        let levelName = prefix.isEmpty ? (machine.name ?? "\(S.self)") : prefix
        let g = try gather(machine, name: levelName)
        guard let first = g.order.first else { throw .missingInitialState(levelName, location: nil) }
        var idOf: [S: String] = [:]
        var valueOf: [String: S] = [:]
        for s in g.order {
            let id = prefix.isEmpty ? "\(s)" : "\(prefix).\(s)"
            if valueOf[id] != nil { throw .duplicateStateID(id, first: nil, second: nil) }
            idOf[s] = id
            valueOf[id] = s
            if !g.declared.contains(s) { mentionedOnly.append(id) }
        }
        let initial = machine.initial ?? first
        guard let initialID = idOf[initial] else { throw .unknownTarget("\(initial)", from: levelName, location: nil) }
        let levelIndex = levels.count
        levels.append(TypedLevel(container: container.rawValue == 0 ? "" : definition.id(of: container)))
        let lookup = LevelValues(valueOf: valueOf)

        for s in g.order {
            let id = idOf[s]!
            let role = g.roles[s] ?? .normal
            let children = g.children[s] ?? []
            let isFinal = role == .final || role == .finalGlobal
            if isFinal, !children.isEmpty {
                throw .invalidStructure(id, reason: "a final state cannot have attached children", location: nil)
            }
            let node = definition.addState(id, kind: isFinal ? .final : (children.count >= 2 ? .parallel : .state), in: container)
            values[id] = AnyHashable(s)
            valuePaths[id] = path + [AnyHashable(s)]
            levelOfState[id] = levelIndex
            for a in g.entries[s] ?? [] { definition.addOnEntry([lookup.action(a, entering: true)], to: node) }
            for a in g.exits[s] ?? [] { definition.addOnExit([lookup.action(a, entering: false)], to: node) }
            // The state whose done event says that one child finished (rule R67): the region
            // of each of several children, or the state itself for a single child.
            var doneStateOfChild: [String: String] = [:]
            if children.count == 1 {
                try emitChild(children[0], into: node, id: id, path: path + [AnyHashable(s)])
                doneStateOfChild[children[0].name ?? "region1"] = id
            } else if children.count > 1 {
                for (i, child) in children.enumerated() {
                    let regionID = "\(id).\(child.name ?? "region\(i + 1)")"
                    let region = definition.addState(regionID, in: node)
                    try emitChild(child, into: region, id: regionID, path: path + [AnyHashable(s)])
                    doneStateOfChild[child.name ?? "region\(i + 1)"] = regionID
                }
            }
            for var spec in g.transitions[s] ?? [] {
                if let child = spec.doneOfChild {
                    guard let doneState = doneStateOfChild[child] else {
                        throw .invalidStructure(
                            id, reason: "OnDone(child: \"\(child)\") names no child attached to this state", location: nil)
                    }
                    spec.event = .done(doneState)
                }
                try addTransition(spec, from: node, sourceID: id, idOf: idOf)
            }
            // Delayed transitions: a timer started on entry and cancelled on exit (rule R45).
            for (k, (delay, spec)) in (g.afters[s] ?? []).enumerated() {
                let key = "\(id)#\(k)"
                definition.addOnEntry([.startTimer(key, after: delay)], to: node)
                definition.addOnExit([.cancelTimer(key)], to: node)
                var timed = spec
                timed.event = .timer(key)
                try addTransition(timed, from: node, sourceID: id, idOf: idOf)
            }
            for invocation in g.invocations[s] ?? [] { definition.addInvocation(invocation, to: node) }
            var barrier: (@Sendable (String, Context) -> BarrierAnswer)?
            if let b = g.barriers[s] {
                let ids = idOf
                barrier = { sourceID, ctx in
                    // The runtime passes the active state of this level (rule R69).
                    guard let source = lookup.valueOf[sourceID] else {
                        preconditionFailure("a barrier's source '\(sourceID)' is a state of its level")
                    }
                    return lookup.answer(b(source, ctx), idOf: ids)
                }
            }
            var dynamic: (@Sendable (Context) -> String)?
            if let d = g.dynamics[s] {
                let ids = idOf
                dynamic = { ctx in
                    let next = d(ctx)
                    return ids[next] ?? "\(next)"
                }
            }
            levels[levelIndex].add(
                id: id, role: role, routes: (g.routes[s] ?? []).compactMap { idOf[$0] }, barrier: barrier,
                dynamic: dynamic)
        }
        // A level's any-state routes belong to that level (rule R33): declared on its container as
        // internal transitions, their domain is the container, so taking one exits and enters
        // only states of this level — never the parent state, never a sibling region. A route
        // to a state outside the level (a `StateRef`) is external, as SCXML makes any internal
        // transition whose targets are not all inside its source.
        for var spec in g.anyState {
            if spec.doneOfChild != nil {
                throw .invalidStructure(levelName, reason: "OnDone(child:) belongs to the state the child is attached to", location: nil)
            }
            spec.kind = .internal
            try addTransition(spec, from: container, sourceID: levelName, idOf: idOf)
        }
        for s in g.order { definition.addRequestRoute(to: idOf[s]!, within: container) }
        return initialID
    }

    /// Emits an attached child into `node` and sets `node`'s initial: the child's initial state,
    /// or a history pseudo-state whose default is that state (rule R23).
    private mutating func emitChild(
        _ child: AnyChildMachine<Event, Context>, into node: ChartDefinition<Event, Context>.Node, id: String,
        path: [AnyHashable]
    ) throws(ChartError) {
        let childInitial = try child.emit(&self, node, id, path)
        if child.history == .none {
            definition.setInitial([childInitial], of: node)
        } else {
            let historyID = "\(id).history"
            let h = definition.addState(historyID, kind: .history(child.history == .deep ? .deep : .shallow), in: node)
            definition.addTransition(TransitionDefinition(on: nil, to: [childInitial]), from: h)
            definition.setInitial([historyID], of: node)
        }
    }

    private mutating func addTransition<S>(
        _ spec: TransitionSpec<S, Event, Context>, from node: ChartDefinition<Event, Context>.Node, sourceID: String,
        idOf: [S: String]
    ) throws(ChartError) {
        var t = TransitionDefinition<Event, Context>(
            on: spec.doneOfSource ? .done(sourceID) : spec.event, guard: spec.guardCondition, kind: spec.kind,
            actions: spec.actions)
        t.asyncGuard = spec.asyncGuard
        switch spec.target {
        case .none: break
        case .states(let ss): t.targets = ss.map { idOf[$0]! }
        case .refs(let refs):
            refFixups.append((node.rawValue, definition.transitions.count, refs))
        case .dynamic(let f):
            let idOf = idOf
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

/// Maps the ids of one level back to its typed values, for actions that receive a neighbour state.
struct LevelValues<S: Hashable & Sendable>: Sendable {
    let valueOf: [String: S]

    func action<Event, Context>(_ spec: ActionSpec<S, Event, Context>, entering: Bool) -> Action<Event, Context> {
        switch spec {
        case .plain(let a): return a
        case .withNeighbour(let name, let body):
            let valueOf = self.valueOf
            return .run(name) { scope in
                let list = entering ? scope.exits : scope.entries
                var neighbour: S?
                for s in list {
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

/// What the typed runtime knows about one machine level.
struct TypedLevel<Context>: Sendable {
    var container: String
    var stateIDs: [String] = []
    var globals: Set<String> = []
    var finals: Set<String> = []
    var routes: [String: Set<String>] = [:]
    var barriers: [String: @Sendable (String, Context) -> BarrierAnswer] = [:]
    // A barrier receives the id of the active state of its level, the request's source (rule R69).
    var dynamics: [String: @Sendable (Context) -> String] = [:]

    init(container: String) { self.container = container }

    /// Adds a state in place: copying the level for each state made a level of n states cost O(n²).
    mutating func add(
        id: String, role: StateRole, routes: [String], barrier: (@Sendable (String, Context) -> BarrierAnswer)?,
        dynamic: (@Sendable (Context) -> String)?
    ) {
        stateIDs.append(id)
        if role == .global || role == .finalGlobal { globals.insert(id) }
        if role == .final || role == .finalGlobal { finals.insert(id) }
        self.routes[id, default: []].formUnion(routes)
        if let barrier { barriers[id] = barrier }
        if let dynamic { dynamics[id] = dynamic }
    }
}
