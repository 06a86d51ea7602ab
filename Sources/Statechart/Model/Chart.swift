/// A compiled, immutable statechart: the one model every front end produces and the interpreter runs.
///
/// States are numbered in document order (the root, the SCXML `<scxml>` element, is 0; parents
/// precede children; a state's descendants are the indices right after it), so exit order and
/// entry order are plain index orders and "is a descendant of" is a range check. Everything that
/// does not depend on the running configuration — transition domains, per-state candidate lists
/// innermost first, history slots — is computed here once. A chart is shared by every machine
/// that runs it.
public final class Chart<Event: Hashable & Sendable, Context>: Sendable {
    /// A compiled state: plain values only, so it is not generic (see ``CompiledState``).
    @usableFromInline typealias State = CompiledState

    /// A compiled transition: plain values only, so it is not generic (see ``CompiledTransition``).
    @usableFromInline typealias Transition = CompiledTransition

    @usableFromInline let states: ChartTable<State>
    /// Every transition's structure, in the memory the compiler built it in.
    @usableFromInline let transitions: ChartTable<Transition>
    /// By transition, its event descriptor; `nil` for eventless and pseudo-transitions. Its guard,
    /// its actions and the rest are in the sparse tables below (``guardCondition(of:)``,
    /// ``actions(of:)``): a million-transition chart built in code held room for both in every
    /// record, 26 MB the kernel mapped at every compile (issue 16, "Build").
    @usableFromInline let matchers: [EventMatcher<Event>?]
    /// The targets of every transition, one after another (``targets(of:)``).
    @usableFromInline let targetPool: [Int32]
    /// By transition, what few have (``SparseTable``): its guard and its actions (see
    /// ``guardCondition(of:)`` and ``actions(of:)``), the closure that computes its targets, its
    /// asynchronous guard, and where it was declared.
    @usableFromInline let guards: SparseTable<CompiledGuard<Event, Context>?>
    @usableFromInline let transitionActions: SparseTable<[Action<Event, Context>]>
    @usableFromInline let dynamicTargets: SparseTable<(@Sendable (Context, ChartEvent<Event>?) -> [String])?>
    @usableFromInline let asyncGuards: SparseTable<(@Sendable (Context, Event) async -> Bool)?>
    @usableFromInline let transitionLocations: SparseTable<SourceLocation?>
    @usableFromInline let eventlessCandidates: ChartTable<Int32>
    @usableFromInline let entryActions: SparseTable<[[Action<Event, Context>]]>
    @usableFromInline let exitActions: SparseTable<[[Action<Event, Context>]]>
    @usableFromInline let hasEventless: Bool
    /// Request transitions by target state index (see ``ChartDefinition/addRequestRoute(to:within:)``).
    @usableFromInline let requestTransitions: RequestTransitions
    /// Per transition with a static entry set (``LeanTransition/Flags/isStatic``; the set itself is
    /// ``leanEntries``), the compound states it enters by default: a range of
    /// ``staticDefaultEntries``.
    @usableFromInline let staticDefaults: ChartTable<PoolRange>
    @usableFromInline let staticDefaultEntries: ChartTable<Int32>
    /// Invoked work by state (empty for most states).
    @usableFromInline let invocations: SparseTable<[Invocation<Event, Context>]>
    /// Whether any state invokes work.
    @usableFromInline let hasInvocations: Bool
    /// Whether any transition has an asynchronous guard.
    @usableFromInline let hasAsyncGuards: Bool
    /// Whether anything the chart runs can read machine time: a delayed transition or send, a
    /// closure action, a datamodel's content, or a guard that sees the environment. A runtime
    /// whose chart cannot, and that has no delayed send pending, does not read its clock before
    /// a send (rule R54).
    @usableFromInline let readsTime: Bool
    @usableFromInline let historyCount: Int
    /// The most states that can be active at once (the root is never in the configuration): what
    /// a machine's configuration makes room for when it is created (``Configuration``).
    @usableFromInline let configurationBound: Int
    /// Per transition, what the lean microstep needs, in a small plain value (``LeanTables``).
    @usableFromInline let lean: ChartTable<LeanTransition>
    /// The static entry sets of ``lean``, one after another.
    @usableFromInline let leanEntries: ChartTable<Int32>
    /// Every atomic state's candidates for an event (its own transitions, then each ancestor's),
    /// one list after another, with each exact event descriptor inline, for selection without
    /// reading ``Transition``. The chart keeps no other copy of the lists: a table of their
    /// transition indices alone, which nothing read, held 4 bytes a candidate (issue 16).
    @usableFromInline let leanCandidates: ChartTable<LeanCandidate<Event>>
    /// The blocks of closure actions, boxed to be called without reference counting.
    @usableFromInline let closures: ClosureBlocks<Event, Context>
    /// State ids by index.
    @inlinable public var ids: [String] { names.ids }
    /// Where each state was declared, stored only when one was (``SparseTable``): a chart built
    /// in code without locations held a million empty ones.
    @usableFromInline let locations: SparseTable<SourceLocation?>
    @inlinable var indexByID: StateIDTable { names.indexByID }
    /// The chart's name.
    public let name: String
    /// How events are named for SCXML descriptors, traces and exports.
    @inlinable public var eventName: @Sendable (Event) -> String { names.eventName }
    /// The ids, the ids by name and the event names in one object, which environments share.
    @usableFromInline let names: ChartNames<Event>
    /// Whether each state's index is the index of its node in the definition the chart was
    /// compiled from (the compiler numbers states in document order; a definition that adds its
    /// nodes in that order, as the typed builder does, keeps its numbering).
    let numberedAsDeclared: Bool

    /// A chart from the compiler's structure and the assembled closures (see ``init(_:)``).
    ///
    /// Both are consumed: each array copied into a table of the chart is released right after, so
    /// that the compiler's and the assembly's arrays and the chart's tables are not all held at
    /// once (peak memory, issue 16).
    @usableFromInline
    init(
        compiled c: consuming ChartCompiler, assembly a: consuming ChartAssembly<Event, Context>, name: String,
        eventName: @escaping @Sendable (Event) -> String
    ) {
        self.hasInvocations = c.invokes.contains(true)
        self.numberedAsDeclared = c.numberedAsDeclared
        self.targetPool = c.targetPool
        c.releaseWorkingArrays()
        self.states = c.states.takeTable()
        self.transitions = c.shapes.takeTable()
        self.matchers = a.matchers
        a.matchers = []
        self.guards = a.guards
        self.transitionActions = a.transitionActions
        self.dynamicTargets = a.dynamicTargets
        self.asyncGuards = a.asyncGuards
        self.transitionLocations = a.transitionLocations
        self.hasEventless = !c.eventlessCandidates.isEmpty
        self.eventlessCandidates = ChartTable(c.eventlessCandidates)
        c.eventlessCandidates = []
        self.entryActions = a.entryActions
        self.closures = a.closures
        self.exitActions = a.exitActions
        self.historyCount = c.historyCount
        self.configurationBound = c.configurationBound
        self.lean = a.lean.transitions.takeTable()
        self.leanEntries = c.staticEntryPool.takeTable()
        self.leanCandidates = a.leanCandidates.takeTable()
        self.requestTransitions = c.requestTransitions
        self.staticDefaults = c.staticDefaults.takeTable()
        self.staticDefaultEntries = c.staticDefaultPool.takeTable()
        self.invocations = a.invocations
        self.hasAsyncGuards = a.hasAsyncGuards
        self.readsTime = a.readsTime
        self.locations = c.locations
        self.name = name
        self.names = ChartNames(table: c.indexByID, eventName: eventName)
    }

    deinit {
        // The hot tables are the chart's own memory (``ChartTable``).
        states.free()
        transitions.free()
        eventlessCandidates.free()
        lean.free()
        leanEntries.free()
        leanCandidates.free()
        closures.free()
        staticDefaults.free()
        staticDefaultEntries.free()
    }

    // MARK: - Queries

    /// The number of states, the root included.
    public var stateCount: Int { states.count }
    /// The number of transitions, initial and history-default transitions included.
    public var transitionCount: Int { transitions.count }
    /// The root state (the chart itself).
    public var root: ChartStateID { ChartStateID(0) }

    /// The state with this id, or `nil`.
    public func state(withID id: String) -> ChartStateID? { indexByID[id].map(ChartStateID.init) }
    /// The id of a state (empty for the root).
    public func id(of state: ChartStateID) -> String { ids[Int(state.index)] }
    /// The kind of a state.
    public func kind(of state: ChartStateID) -> CompiledStateKind { states[Int(state.index)].kind }
    /// The parent of a state, `nil` for the root.
    public func parent(of state: ChartStateID) -> ChartStateID? {
        let p = states[Int(state.index)].parent
        return p < 0 ? nil : ChartStateID(p)
    }
    /// The child states of a state in document order (history pseudo-states included).
    public func children(of state: ChartStateID) -> [ChartStateID] {
        states.children(of: state.index).map(ChartStateID.init)
    }
    /// Where a state was declared, if known.
    public func location(of state: ChartStateID) -> SourceLocation? { locations[Int(state.index)] }
    /// Whether `a` is a proper descendant of `b`.
    @inlinable public func isDescendant(_ a: ChartStateID, of b: ChartStateID) -> Bool {
        isDescendant(a.index, of: b.index)
    }
    /// The name of an event for SCXML matching and traces: `done.state.<id>` for done events,
    /// `error.execution` for errors.
    @inlinable public func name(of event: ChartEvent<Event>) -> String {
        names.name(of: event)
    }

    @inlinable func isDescendant(_ a: Int32, of b: Int32) -> Bool {
        a > b && a < states[Int(b)].end
    }

    /// The precomputed entry set of a transition in entry order, or `nil` when it has none
    /// (it depends on history or on a dynamic target, or is too large to keep).
    func staticEntrySet(of t: Int) -> [Int32]? {
        let lean = self.lean[t]
        guard lean.flags.contains(.isStatic) else { return nil }
        return Array(leanEntries[Int(lean.entryStart)..<Int(lean.entryEnd)])
    }

    /// The guard of transition `t`, if it has one.
    @inlinable
    func guardCondition(of t: Int32) -> CompiledGuard<Event, Context>? { guards[Int(t)] }

    /// The actions of transition `t` (empty for most).
    @inlinable
    func actions(of t: Int32) -> [Action<Event, Context>] { transitionActions[Int(t)] }

    /// Whether transition `t`'s targets are given when it is taken, not declared: a dynamic
    /// transition's computed by its closure, a request transition's the requested state
    /// (``RequestTransitions``). The instance keeps them for the step (``ChartInstance/targets(of:)``).
    @inlinable
    func targetsAreResolved(_ t: Int32) -> Bool {
        dynamicTargets.hasValue(at: Int(t)) || requestTransitions.contains(t)
    }

    /// The declared targets of transition `t`.
    @inlinable
    func targets(of t: Int32) -> TargetList {
        TargetList(pool: targetPool, start: Int(transitions[Int(t)].targetStart), count: Int(transitions[Int(t)].targetCount))
    }

    /// The transition domain (SCXML `getTransitionDomain`) for given effective targets.
    @inlinable
    func domain(source: Int32, targets: TargetList, isInternal: Bool) -> Int32 {
        // The compiler's computation, the one the static domains came from.
        states.withUnsafeBufferPointer {
            ChartCompiler.domain(source: source, targets: targets, isInternal: isInternal, states: $0)
        }
    }
}

/// A state of a compiled ``Chart``. It holds no `Event` or `Context`, so it is a plain type,
/// not one nested in the generic chart: the compiler fills arrays of it in non-generic code.
@usableFromInline
struct CompiledState: Sendable {
    @usableFromInline var kind: CompiledStateKind
    @usableFromInline var parent: Int32
    /// One past the last descendant: the subtree is `index ..< end`.
    @usableFromInline var end: Int32
    @usableFromInline var depth: Int32
    /// For a compound state, its initial transition; for a history state, its default transition.
    @usableFromInline var initialTransition: Int32
    /// The state's own transitions: `transitionStart ..< transitionEnd` (document order).
    @usableFromInline var transitionStart: Int32
    @usableFromInline var transitionEnd: Int32
    /// Candidates for an event, innermost first: `leanCandidates[candidateStart ..< candidateEnd]`.
    @usableFromInline var candidateStart: Int32
    @usableFromInline var candidateEnd: Int32
    @usableFromInline var eventlessStart: Int32
    @usableFromInline var eventlessEnd: Int32
    /// For history states, the slot of its stored value; -1 otherwise.
    @usableFromInline var historySlot: Int32
    /// Whether any child is a history state (history is recorded when it exits).
    @usableFromInline var hasHistoryChild: Bool
    @usableFromInline var hasEntryActions: Bool
    @usableFromInline var hasExitActions: Bool
}
