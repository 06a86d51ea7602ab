/// The compact tables of the interpreter's hot path (see `Interpreter/LeanStep.swift`).
///
/// A transition's whole description is spread over the chart: its record (``CompiledTransition``),
/// its event descriptor (``Chart/matchers``, which can hold closures and arrays) and the sparse
/// tables of its guard, actions and the rest, so reading all of it in the per-event loop costs
/// several loads and reference counting. These tables repeat, in small plain values, exactly what
/// selecting and taking a *static* transition needs:
/// one whose targets and entry set do not depend on history or on a closure. They are derived
/// from the compiled arrays when a ``Chart`` is created and never change.

/// What the lean microstep needs to know about one transition.
@usableFromInline
struct LeanTransition: Sendable {
    /// The precomputed domain (as ``CompiledTransition/domain``: -1 targetless, -2 not static).
    @usableFromInline var domain: Int32
    /// The transition's own entry set, in entry order: `Chart.leanEntries[entryStart ..< entryEnd]`.
    @usableFromInline var entryStart: Int32
    @usableFromInline var entryEnd: Int32
    /// The transition's source (as ``CompiledTransition/source``): the state a ``Flags/swap``
    /// transition exits.
    @usableFromInline var source: Int32
    @usableFromInline var flags: Flags

    /// Computed rather than stored constants: a stored `static let` is a lazily initialised
    /// global, and reading one on the hot path goes through its one-time-initialisation check.
    @usableFromInline
    struct Flags: OptionSet, Sendable {
        @usableFromInline let rawValue: UInt8
        @inlinable init(rawValue: UInt8) { self.rawValue = rawValue }

        /// The domain and entry set were precomputed: no history target, no dynamic target.
        @inlinable static var isStatic: Flags { Flags(rawValue: 1 << 0) }
        /// Entering its entry set runs nothing: no entry actions, no initial-transition actions of
        /// states entered by default, no invoked work, no final state (so no done event). Implies
        /// ``entryActionsOnly``.
        @inlinable static var plainEntry: Flags { Flags(rawValue: 1 << 1) }
        /// Entering its entry set runs at most the entered states' own entry actions: no
        /// initial-transition actions of states entered by default, no invoked work, no final
        /// state. One transition with this flag takes the single-transition microstep
        /// (``ChartInstance/takeStaticTransition(_:)``) whatever actions it runs.
        @inlinable static var entryActionsOnly: Flags { Flags(rawValue: 1 << 4) }

        /// What a transition that only moves the configuration has, besides ``conditional``
        /// (its guard was evaluated when it was selected): a precomputed entry set that runs
        /// nothing, and no actions of its own.
        @inlinable static var splice: Flags { Flags([.isStatic, .plainEntry, .entryActionsOnly]) }

        /// Taking it exchanges one active state for another and nothing else: its source is atomic,
        /// its domain is the source's parent, a compound state (so the source is the only active
        /// state inside it), its entry set is one atomic state and the source has no exit
        /// actions. Set only with ``splice``.
        @inlinable static var exchangesSource: Flags { Flags(rawValue: 1 << 5) }

        /// What a ``splice`` transition that exchanges its source for one state has
        /// (``exchangesSource``), besides ``conditional``: the configuration's list keeps its
        /// length and order, the source's slot takes the entered state.
        @inlinable static var swap: Flags { Flags(rawValue: Flags.splice.rawValue | Flags.exchangesSource.rawValue) }

        /// The flags that decide how the transition is taken: all but ``conditional``.
        @inlinable var taking: Flags { Flags(rawValue: rawValue & ~Flags.conditional.rawValue) }
        /// It has actions of its own.
        @inlinable static var hasActions: Flags { Flags(rawValue: 1 << 2) }
        /// Selecting it needs more than its descriptor: a guard, an asynchronous guard or dynamic targets.
        @inlinable static var conditional: Flags { Flags(rawValue: 1 << 3) }
    }
}

/// One entry of a state's candidate list (``Chart/leanCandidates``).
@usableFromInline
struct LeanCandidate<Event: Hashable & Sendable>: Sendable {
    @usableFromInline var transition: Int32
    /// The one event the descriptor matches, when it is `.event(e)`; `nil` for every other
    /// descriptor, which is then matched by the transition's ``EventMatcher``.
    @usableFromInline var event: Event?
    /// Whether it needs a guard, an asynchronous guard or dynamic targets (see ``LeanTransition/Flags/conditional``).
    @usableFromInline var conditional: Bool
    /// Whether the transition is the state's own, not an ancestor's: no other active atomic
    /// state has it among its candidates, so selecting it needs no check that another state
    /// selected it already.
    @usableFromInline var own: Bool

    @inlinable
    init(transition: Int32, event: Event?, conditional: Bool, own: Bool) {
        self.transition = transition
        self.event = event
        self.conditional = conditional
        self.own = own
    }
}

/// A range of one of a chart's pooled tables of state indices (``ChartCompiler/staticEntryPool``,
/// ``Chart/staticDefaultEntries``); ``none`` where a transition has no precomputed set.
@usableFromInline
struct PoolRange: Sendable, Equatable {
    @usableFromInline var start: Int32
    @usableFromInline var end: Int32

    @inlinable init(start: Int32, end: Int32) {
        self.start = start
        self.end = end
    }

    @inlinable static var none: PoolRange { PoolRange(start: -1, end: -1) }
    @inlinable var exists: Bool { start >= 0 }
}

/// The lean tables of a chart, built once from its compiled arrays. Not generic: what it needs
/// of the closures — whether a transition has actions, whether it is conditional — is passed in.
/// ``ChartAssembly`` adds the candidates, which hold events.
@usableFromInline
struct LeanTables {
    /// Built in the memory that becomes the chart's table (``TableBuffer``), not copied into it.
    @usableFromInline var transitions = TableBuffer<LeanTransition>(capacity: 0)

    /// The tables of a compiled chart. The static entry sets are the compiler's pool as it is
    /// (the chart's ``Chart/leanEntries``): each lean transition points at its range.
    @usableFromInline
    init(
        states: UnsafeBufferPointer<CompiledState>, shapes: UnsafeBufferPointer<CompiledTransition>, hasActions: [Bool], conditional: [Bool],
        staticEntries: [PoolRange], staticEntryPool pool: UnsafeBufferPointer<Int32>,
        staticDefaults: UnsafeBufferPointer<PoolRange>, staticDefaultPool defaultPool: UnsafeBufferPointer<Int32>,
        invokes: [Bool]
    ) {
        let table = TableBuffer<LeanTransition>(capacity: shapes.count)
        transitions = table
        // Every input read through a buffer pointer: indexed as arrays, each read paid a bounds
        // check and the loop reloaded each array's buffer after every append (issue 16, "Build").
        hasActions.withUnsafeBufferPointer { hasActions in
            conditional.withUnsafeBufferPointer { conditional in
                staticEntries.withUnsafeBufferPointer { staticEntries in
                    invokes.withUnsafeBufferPointer { invokes in
                        for t in 0..<shapes.count {
                            table.append(
                                Self.transition(
                                    shapes[t], at: t, states: states, hasActions: hasActions, conditional: conditional,
                                    entries: staticEntries[t], pool: pool, defaults: staticDefaults[t],
                                    defaultPool: defaultPool, invokes: invokes))
                        }
                    }
                }
            }
        }
    }

    /// The lean record of transition `t`, whose shape is `shape` and precomputed entry set
    /// `entries` (``PoolRange/none`` when it has none).
    @inline(__always)
    private static func transition(
        _ shape: CompiledTransition, at t: Int, states: UnsafeBufferPointer<CompiledState>,
        hasActions: UnsafeBufferPointer<Bool>, conditional: UnsafeBufferPointer<Bool>, entries fixed: PoolRange,
        pool: UnsafeBufferPointer<Int32>, defaults: PoolRange, defaultPool: UnsafeBufferPointer<Int32>,
        invokes: UnsafeBufferPointer<Bool>
    ) -> LeanTransition {
        var flags: LeanTransition.Flags = []
        if hasActions[t] { flags.insert(.hasActions) }
        if conditional[t] { flags.insert(.conditional) }
        // Kept entry sets are only computed for static domains (never -2, never dynamic targets).
        guard fixed.exists else {
            return LeanTransition(domain: shape.domain, entryStart: 0, entryEnd: 0, source: shape.source, flags: flags)
        }
        flags.insert(.isStatic)
        var simple = true
        var plain = true
        var k = Int(fixed.start)
        while k < Int(fixed.end) {
            let s = Int(pool[k])
            k += 1
            if states[s].kind == .final || invokes[s] {
                simple = false
                break
            }
            if states[s].hasEntryActions { plain = false }
        }
        if simple {
            var k = Int(defaults.start)
            while k < Int(defaults.end) {
                if hasActions[Int(states[Int(defaultPool[k])].initialTransition)] {
                    simple = false
                    break
                }
                k += 1
            }
        }
        if simple {
            flags.insert(.entryActionsOnly)
            if plain { flags.insert(.plainEntry) }
        }
        if flags.isSuperset(of: .splice), !hasActions[t], exchangesSource(shape, entries: fixed, pool: pool, states: states) {
            flags.insert(.exchangesSource)
        }
        return LeanTransition(domain: shape.domain, entryStart: fixed.start, entryEnd: fixed.end, source: shape.source, flags: flags)
    }

    /// Whether taking `shape` (with the precomputed entry set `entries`) exchanges its source for
    /// one state and changes nothing else (``LeanTransition/Flags/exchangesSource``). The source
    /// is then the only active state inside the domain: it is active when the transition is
    /// selected (an atomic state's candidates are its own and its ancestors', so an atomic
    /// source is the state that selected it), and a compound state has one active child. The one
    /// entered state is a child of the same parent, so it takes the source's place in the sorted
    /// list.
    @usableFromInline
    static func exchangesSource(
        _ shape: CompiledTransition, entries: PoolRange, pool: UnsafeBufferPointer<Int32>, states: UnsafeBufferPointer<CompiledState>
    ) -> Bool {
        let source = Int(shape.source)
        // An atomic source has no children, so no history of its own to record.
        guard source >= 0, source < states.count, states[source].kind == .atomic, !states[source].hasExitActions,
            shape.domain >= 0, shape.domain == states[source].parent, states[Int(shape.domain)].kind == .compound,
            entries.end - entries.start == 1
        else { return false }
        let entered = Int(pool[Int(entries.start)])
        return states[entered].kind == .atomic && states[entered].parent == shape.domain
    }
}
