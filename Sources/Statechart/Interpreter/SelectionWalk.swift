/// The one walk of transition selection (SCXML `selectTransitions`, rules R4 and R5): the active
/// atomic states in document order and, for each, its candidate list — its own transitions, then
/// each ancestor's, precomputed by the compiler — in order, yielding the candidates whose
/// descriptor matches the event.
///
/// Everything that selects or predicts a selection goes through it: ``ChartInstance/selectTransitions(for:)``
/// (every event, every path: the fast cases of `LeanStep.swift` are decisions over its result),
/// ``ChartInstance/canHandle(_:)`` and ``ChartInstance/asyncGuards(for:)``. So they cannot
/// disagree about which transitions an event can enable — a separate copy of this loop in the fast
/// path is how that path once came to ignore an asynchronous guard's answer (rule R58).
///
/// A cursor rather than a method that takes a closure: between two steps the caller may change
/// the instance (a guard raises an error or assigns to the data model) without overlapping
/// accesses, and a query that must change nothing walks a borrowed instance. It reads only the
/// chart and the configuration (``ActiveStatesSource``): a query of a machine that lives in a
/// runtime's driver walks those two, read out of the driver, not a copy of the whole machine
/// (``PeekView``).
@usableFromInline
struct SelectionWalk<Event: Hashable & Sendable> {
    /// The chart's candidates (``Chart/leanCandidates``), held by the walk: read through the
    /// instance at each candidate, the table's address was loaded again after every selection
    /// (the instance is written there), and kept the loop's values out of registers (flat 241 →
    /// 225 instructions an event, parallel 623 → 589). The table is the chart's, which never
    /// changes and which the walked source holds for as long as the walk runs.
    @usableFromInline let candidates: ChartTable<LeanCandidate<Event>>
    /// The next index of the configuration's list to visit.
    @usableFromInline var position: Int
    /// The current state's candidates still to look at: `next ..< end`.
    @usableFromInline var next: Int32 = 0
    @usableFromInline var end: Int32 = 0

    /// Starts a walk over the source's configuration.
    ///
    /// When the configuration is a chain (every active state an ancestor of the last one, the
    /// usual case outside parallel states), the last state is the only atomic one, so the walk
    /// starts there: the list is as long as that state is deep exactly then (the root, depth 0,
    /// is not listed).
    @inlinable @inline(__always)
    init<Source: ActiveStatesSource<Event, Source.Context>>(over instance: Source) {
        candidates = instance.chart.leanCandidates
        let count = instance.configuration.count
        if count > 0, instance.chart.states[Int(instance.configuration[unchecked: count - 1])].depth == count {
            position = count - 1
        } else {
            position = 0
        }
    }

    /// The next candidate whose descriptor matches `event`, with whether it needs more than its
    /// descriptor (a guard, an asynchronous guard or dynamic targets) and whether it is the
    /// current state's own transition (``LeanCandidate/own``); `nil` when the walk is over.
    ///
    /// An exact `.event(e)` descriptor is compared inline (``LeanCandidate``); any other is
    /// matched by the transition's ``EventMatcher``.
    @inlinable @inline(__always)
    mutating func nextCandidate<Source: ActiveStatesSource<Event, Source.Context>>(
        in instance: Source, matching event: ChartEvent<Event>
    ) -> (transition: Int32, conditional: Bool, own: Bool)? {
        repeat {
            while next < end {
                let candidate = candidates[Int(next)]
                next += 1
                if let wanted = candidate.event {
                    guard case .event(let e) = event, e == wanted else { continue }
                } else if let matcher = instance.chart.matchers[Int(candidate.transition)],
                    !matcher.matches(event, in: instance.chart)
                {
                    continue
                }
                return (candidate.transition, candidate.conditional, candidate.own)
            }
        } while enterNextAtomicState(in: instance, eventless: false)
        return nil
    }

    /// The next eventless candidate (rule R2), with whether it needs more than being eventless;
    /// `nil` when the walk is over.
    @inlinable @inline(__always)
    mutating func nextEventlessCandidate(in instance: some ActiveStatesSource) -> (transition: Int32, conditional: Bool)? {
        let chart = instance.chart
        repeat {
            if next < end {
                let t = chart.eventlessCandidates[Int(next)]
                next += 1
                return (t, chart.lean[Int(t)].flags.contains(.conditional))
            }
        } while enterNextAtomicState(in: instance, eventless: true)
        return nil
    }

    /// Moves to the next active atomic state's candidates (for events, or eventless ones).
    ///
    /// - Returns: `false` when no active atomic state is left.
    @inlinable @inline(__always)
    mutating func enterNextAtomicState(in instance: some ActiveStatesSource, eventless: Bool) -> Bool {
        let count = instance.configuration.count
        guard position < count else { return false }
        // A loop whose reads come before its test: the addresses of the list and of the states'
        // table, the same at every state, are then read once before it, not at every state
        // (a parallel state of four regions: 9 states visited an event, 4 instructions each).
        repeat {
            let state = instance.chart.states[Int(instance.configuration[unchecked: position])]
            position += 1
            if state.kind.isAtomic {
                next = eventless ? state.eventlessStart : state.candidateStart
                end = eventless ? state.eventlessEnd : state.candidateEnd
                return true
            }
        } while position < count
        return false
    }

    /// Where the atomic state whose candidates the walk is at lies: its position in the
    /// configuration's list plus one (the walk's position after it), as a ``SelectionList``
    /// keeps it beside a transition the state selected.
    @inlinable var hint: Int32 {
        @inline(__always) get { Int32(truncatingIfNeeded: position) }
    }

    /// Ends the current state's candidates: one of them was selected, the first that matched
    /// and whose conditions held (rule R5).
    @inlinable @inline(__always)
    mutating func selectedForThisState() {
        next = end
    }
}

/// What the selection walk reads: a chart and a configuration of it. A ``ChartInstance`` is one,
/// and so is the ``PeekView`` a runtime's query reads out of its driver.
@usableFromInline
protocol ActiveStatesSource<Event, Context> {
    associatedtype Event: Hashable & Sendable
    associatedtype Context
    /// The compiled chart.
    var chart: Chart<Event, Context> { get }
    /// The active states, in document order.
    var configuration: Configuration { get }
}
