/// The compact tables of the interpreter's hot path (see `Interpreter/LeanStep.swift`).
///
/// ``Chart/Transition`` carries everything a transition can have — closures, arrays, locations —
/// so reading it in the per-event loop costs reference counting and large copies. These tables
/// repeat, in small plain values, exactly what selecting and taking a *static* transition needs:
/// one whose targets and entry set do not depend on history or on a closure. They are derived
/// from the compiled arrays when a ``Chart`` is created and never change.

/// What the lean microstep needs to know about one transition.
@usableFromInline
struct LeanTransition: Sendable {
    /// The precomputed domain (as ``Chart/Transition/domain``: -1 targetless, -2 not static).
    @usableFromInline var domain: Int32
    /// The transition's own entry set, in entry order: `Chart.leanEntries[entryStart ..< entryEnd]`.
    @usableFromInline var entryStart: Int32
    @usableFromInline var entryEnd: Int32
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
        /// states entered by default, no invoked work, no final state (so no done event).
        @inlinable static var plainEntry: Flags { Flags(rawValue: 1 << 1) }
        /// It has actions of its own.
        @inlinable static var hasActions: Flags { Flags(rawValue: 1 << 2) }
        /// Selecting it needs more than its descriptor: a guard, an asynchronous guard or dynamic targets.
        @inlinable static var conditional: Flags { Flags(rawValue: 1 << 3) }
    }
}

/// One entry of a state's candidate list (parallel to `Chart.eventCandidates`).
@usableFromInline
struct LeanCandidate<Event: Hashable & Sendable>: Sendable {
    @usableFromInline var transition: Int32
    /// The one event the descriptor matches, when it is `.event(e)`; `nil` for every other
    /// descriptor, which is then matched by the transition's ``EventMatcher``.
    @usableFromInline var event: Event?
    /// Whether it needs a guard, an asynchronous guard or dynamic targets (see ``LeanTransition/Flags/conditional``).
    @usableFromInline var conditional: Bool

    @inlinable
    init(transition: Int32, event: Event?, conditional: Bool) {
        self.transition = transition
        self.event = event
        self.conditional = conditional
    }
}

/// The lean tables of a chart, built once from its compiled arrays. Not generic: what it needs
/// of the closures — whether a transition has actions, whether it is conditional — is passed in.
/// ``ChartAssembly`` adds the candidates, which hold events.
@usableFromInline
struct LeanTables {
    @usableFromInline var transitions: [LeanTransition] = []
    @usableFromInline var entries: [Int32] = []

    @usableFromInline
    init(
        states: [CompiledState], shapes: [TransitionShape], hasActions: [Bool], conditional: [Bool],
        staticEntries: [[Int32]?], staticDefaultEntries: [[Int32]], invokes: [Bool]
    ) {
        transitions.reserveCapacity(shapes.count)
        for (t, shape) in shapes.enumerated() {
            var flags: LeanTransition.Flags = []
            let start = Int32(entries.count)
            if hasActions[t] { flags.insert(.hasActions) }
            if conditional[t] { flags.insert(.conditional) }
            if shape.domain != -2, !shape.hasDynamicTargets, let fixed = staticEntries[t] {
                flags.insert(.isStatic)
                entries.append(contentsOf: fixed)
                let plain =
                    fixed.allSatisfy { s in
                        let state = states[Int(s)]
                        return !state.hasEntryActions && state.kind != .final && !invokes[Int(s)]
                    }
                    && staticDefaultEntries[t].allSatisfy { s in !hasActions[Int(states[Int(s)].initialTransition)] }
                if plain { flags.insert(.plainEntry) }
            }
            transitions.append(LeanTransition(domain: shape.domain, entryStart: start, entryEnd: Int32(entries.count), flags: flags))
        }
    }
}
