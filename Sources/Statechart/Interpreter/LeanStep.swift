/// The interpreter's hot path: the same SCXML algorithm as the general code, for the common case,
/// without reading anything it does not need.
///
/// - An external user event sent while nothing is queued is processed directly, without going
///   through the external queue (``sendLean(_:)``).
/// - Selection reads `Chart.leanCandidates`, where an exact `.event(e)` descriptor is compared
///   inline, instead of each candidate's full ``Chart/Transition``.
/// - A microstep whose transitions all have precomputed entry sets (``leanMicrostep()``) copies
///   those sets, and when the states it exits and enters have no actions, history or invoked work,
///   it updates the configuration in bulk.
///
/// The fast cases are decisions inside the one entry every external event goes through
/// (``takeExternalEvent(_:)``), so set-up and tear-down are shared and a result cannot depend on
/// the path (rule R34). Tracing always takes the general path, so a traced run shows every step
/// the general code takes; the whole test suite, the Specs and the SCION conformance run
/// exercise both, and `LeanPathEffectsTests` compares them with the runtimes' effects.
extension ChartInstance {
    /// One external macrostep for a user event, when the queues are empty (rule R1): the event is
    /// taken like every external event (``takeExternalEvent(_:)``), then the machine runs to
    /// completion only if something can follow (eventless transitions, raised events, a halt,
    /// events sent by actions).
    ///
    /// - Returns: Whether the event enabled a transition.
    @inlinable
    mutating func sendLean(_ event: Event) -> Bool {
        let enabled = takeExternalEvent(.event(event))
        if chart.hasEventless || !internalQueue.isEmpty || !isRunning { runToCompletion() }
        if !externalQueue.isEmpty { processExternalQueue(macrostepsTaken: 1) }
        return enabled
    }

    /// The fast cases, decided without side effects over the active configuration: a chain, or
    /// parallel regions whose transitions have disjoint domains.
    ///
    /// - Returns: Whether a transition was taken, or `nil` when no fast case applies (nothing has
    ///   changed; the caller selects on the general path).
    @inlinable
    mutating func takeFastStep(_ event: Event) -> Bool? {
        let count = configuration.list.count
        // Every active state is an ancestor of the last one exactly when the list is as long as
        // that state is deep (the root, depth 0, is not listed).
        let isChain = count > 0 && chart.states[Int(configuration.list[count - 1])].depth == count
        return isChain ? sendAlongChain(event) : sendAcrossRegions(event)
    }

    /// The fastest case, decided without side effects: one active atomic state (the configuration
    /// is a chain from the top level down to it), and the first candidate of its list that can
    /// match is an exact descriptor on an unguarded transition without actions whose exits and
    /// entries run nothing. Then the step only moves the configuration: the chain above the
    /// domain is cut and the precomputed entries are appended (they are all deeper than the
    /// domain, so the list stays sorted).
    ///
    /// - Returns: Whether a transition was taken, or `nil` when the case does not apply (nothing
    ///   has been changed; the caller takes the general path).
    @inlinable
    mutating func sendAlongChain(_ event: Event) -> Bool? {
        let count = configuration.list.count
        guard count > 0, !chart.hasInvocations else { return nil }
        let state = chart.states[Int(configuration.list[count - 1])]
        var k = state.candidateStart
        var chosen: Int32 = -1
        while k < state.candidateEnd {
            let candidate = chart.leanCandidates[Int(k)]
            k += 1
            guard let wanted = candidate.event, !candidate.conditional else { return nil }
            if wanted == event {
                chosen = candidate.transition
                break
            }
        }
        guard chosen >= 0 else { return false }
        let lean = chart.lean[Int(chosen)]
        guard lean.flags.rawValue == LeanTransition.Flags([.isStatic, .plainEntry]).rawValue else { return nil }
        let domain = lean.domain
        if domain < 0 { return true }
        var keep = count
        while keep > 0 {
            let s = configuration.list[keep - 1]
            if s <= domain { break }
            if chart.states[Int(s)].hasExitActions || chart.states[Int(s)].hasHistoryChild { return nil }
            keep -= 1
        }
        configuration.replaceTail(from: keep, with: chart.leanEntries, in: lean.entryStart..<lean.entryEnd)
        return true
    }

    /// ``sendAlongChain(_:)`` for a configuration with parallel regions: every active atomic
    /// state selects as in ``selectTransitions(for:)``; the case applies when every candidate
    /// looked at is an exact, unconditional descriptor, every transition selected is static,
    /// without actions and with a plain entry, their domains are disjoint (so none conflicts with
    /// another, rule R7) and no state they exit has exit actions or history. Each transition then
    /// replaces the active states inside its domain with its entry set, one contiguous run of the
    /// sorted list each.
    ///
    /// The decision reads the chart's tables and writes the scratch lists through unsafe
    /// pointers (room for the worst case is made first): read element by element, each access
    /// paid a bounds check, a uniqueness check or a retain (about 1,400 instructions for four
    /// regions).
    ///
    /// - Returns: Whether a transition was taken, or `nil` when the case does not apply (only
    ///   the scratch lists of selected transitions and runs have been touched).
    @inlinable
    mutating func sendAcrossRegions(_ event: Event) -> Bool? {
        let chart = self.chart
        guard !chart.hasInvocations else { return nil }
        let count = configuration.list.count
        // At most one transition per active state, and two run bounds per transition.
        selected.reserveStorage(count)
        selectedRuns.reserveStorage(2 * count)
        var chosen = 0
        var sameLength = true
        let applies: Bool? = chart.states.withUnsafeBufferPointer { states in
            chart.leanCandidates.withUnsafeBufferPointer { candidates in
                chart.lean.withUnsafeBufferPointer { lean in
                    configuration.list.storage.withUnsafeBufferPointer { list in
                        selected.storage.withUnsafeMutableBufferPointer { selected in
                            selectedRuns.storage.withUnsafeMutableBufferPointer { runs -> Bool? in
                                var n = 0
                                while n < count {
                                    let state = states[Int(list[n])]
                                    n += 1
                                    guard state.kind.isAtomic else { continue }
                                    var k = Int(state.candidateStart)
                                    while k < Int(state.candidateEnd) {
                                        let candidate = candidates[k]
                                        k += 1
                                        guard let wanted = candidate.event, !candidate.conditional else { return nil }
                                        if wanted == event {
                                            var seen = false
                                            var j = 0
                                            while j < chosen {
                                                if selected[j] == candidate.transition { seen = true }
                                                j += 1
                                            }
                                            if !seen {
                                                selected[chosen] = candidate.transition
                                                chosen += 1
                                            }
                                            break
                                        }
                                    }
                                }
                                if chosen == 0 { return false }
                                // One forward pass over the list: each transition's run of active
                                // states inside its domain. An earlier atomic state selected an
                                // earlier transition, and a domain contains the atomic state that
                                // selected it, so disjoint domains come in ascending order: a domain
                                // that starts before the previous one ends overlaps it.
                                let plain = LeanTransition.Flags([.isStatic, .plainEntry]).rawValue
                                var previousEnd: Int32 = 0
                                var i = 0
                                n = 0
                                while n < chosen {
                                    let transition = lean[Int(selected[n])]
                                    guard transition.flags.rawValue == plain else { return nil }
                                    let d = transition.domain
                                    let r = 2 * n
                                    n += 1
                                    guard d >= 0 else {
                                        runs[r] = -1
                                        runs[r + 1] = -1
                                        continue
                                    }
                                    if d < previousEnd { return nil }
                                    let end = states[Int(d)].end
                                    previousEnd = end
                                    while i < count && list[i] <= d { i += 1 }
                                    let start = i
                                    while i < count {
                                        let s = list[i]
                                        if s >= end { break }
                                        let exited = states[Int(s)]
                                        if exited.hasExitActions || exited.hasHistoryChild { return nil }
                                        i += 1
                                    }
                                    runs[r] = start
                                    runs[r + 1] = i
                                    if i - start != Int(transition.entryEnd - transition.entryStart) { sameLength = false }
                                }
                                return true
                            }
                        }
                    }
                }
            }
        }
        selected.count = chosen
        selectedRuns.count = 2 * chosen
        guard let applies else { return nil }
        if !applies { return false }
        if sameLength {
            // The usual case: each region moves between states at the same depth, so every
            // run is overwritten in place and no position moves.
            configuration.overwrite(runs: selectedRuns, of: selected, with: chart.lean, entries: chart.leanEntries)
            return true
        }
        // Splice from the last run back, so that the positions of earlier runs stay valid.
        var n = chosen
        while n > 0 {
            n -= 1
            let start = selectedRuns[2 * n]
            guard start >= 0 else { continue }
            let lean = chart.lean[Int(selected[n])]
            configuration.replace(
                run: start..<selectedRuns[2 * n + 1], with: chart.leanEntries, in: lean.entryStart..<lean.entryEnd)
        }
        return true
    }

    /// ``selectTransitions(for:)`` for a user event: the same visit of atomic states in document
    /// order and of their candidates innermost first, matching exact descriptors inline.
    @inlinable
    mutating func selectTransitions(forUserEvent event: Event) -> Bool {
        selected.removeAll()
        if !resolvedTargets.isEmpty { resolvedTargets.removeAll() }
        var n = 0
        while n < configuration.list.count {
            let s = configuration.list[n]
            n += 1
            let state = chart.states[Int(s)]
            guard state.kind.isAtomic else { continue }
            var k = state.candidateStart
            while k < state.candidateEnd {
                let candidate = chart.leanCandidates[Int(k)]
                k += 1
                let t = candidate.transition
                if let wanted = candidate.event {
                    guard wanted == event else { continue }
                } else if let matcher = chart.transitions[Int(t)].matcher, !matcher.matches(.event(event), in: chart) {
                    continue
                }
                if candidate.conditional, !conditionsHold(t, event: .event(event)) { continue }
                if !selected.contains(t) { selected.append(t) }
                break
            }
        }
        return finishSelection()
    }

    /// Whether every selected transition has a precomputed domain and entry set. (Always
    /// inlined: see ``exitSetsIntersect(_:_:)``.)
    @inline(__always) @inlinable
    func selectedAreStatic() -> Bool {
        var n = 0
        while n < selected.count {
            if !chart.lean[Int(selected[n])].flags.contains(.isStatic) { return false }
            n += 1
        }
        return true
    }

    /// The microstep of transitions with precomputed entry sets (rule R8), in the general
    /// microstep's order: exit set, history, exit actions, transition actions, entries.
    @inlinable
    mutating func leanMicrostep() {
        // 1. Exit set: the active proper descendants of each domain, in reverse document order.
        //    A subtree is an index range and the list is sorted, so the scan stops at the
        //    lowest domain instead of visiting the whole configuration.
        scope.exits.removeAll()
        var lowest = Int32.max
        var n = 0
        while n < selectedDomains.count {
            let d = selectedDomains[n]
            if d >= 0 && d < lowest { lowest = d }
            n += 1
        }
        var exitWork = chart.hasInvocations
        var i = configuration.list.count - 1
        while i >= 0 {
            let s = configuration.list[i]
            if s <= lowest { break }
            i -= 1
            var j = 0
            while j < selectedDomains.count {
                let d = selectedDomains[j]
                j += 1
                if d >= 0 && s > d && s < chart.states[Int(d)].end {
                    scope.exits.append(s)
                    if chart.states[Int(s)].hasExitActions || chart.states[Int(s)].hasHistoryChild { exitWork = true }
                    break
                }
            }
        }
        // 2. Entry set, before any exit action runs so that exit actions see where the machine
        //    goes. Transitions taken together have disjoint domains (rule R7), so their entry
        //    sets are disjoint and only their order has to be restored.
        scope.entries.removeAll()
        var plainEntry = true
        n = 0
        while n < selected.count {
            let lean = chart.lean[Int(selected[n])]
            n += 1
            if !lean.flags.contains(.plainEntry) { plainEntry = false }
            var k = lean.entryStart
            while k < lean.entryEnd {
                scope.entries.append(chart.leanEntries[Int(k)])
                k += 1
            }
        }
        if selected.count > 1 { scope.entries.sortAndRemoveDuplicates() }
        // 3. History for every exited state before any exit action (rule R11), then the exits;
        //    with nothing to run, only the configuration changes.
        if exitWork {
            n = 0
            while n < scope.exits.count {
                let s = scope.exits[n]
                n += 1
                if chart.states[Int(s)].hasHistoryChild { recordHistory(of: s) }
            }
            exitStates()
        } else {
            configuration.remove(all: scope.exits)
        }
        // 4. Transition actions in selection order.
        n = 0
        while n < selected.count {
            let t = selected[n]
            n += 1
            if chart.lean[Int(t)].flags.contains(.hasActions) {
                runBlock(chart.transitions[Int(t)].actions, state: chart.transitions[Int(t)].source)
            }
        }
        // 5. Entries in document order; the general entry loop when anything runs on entry.
        if plainEntry {
            configuration.insert(sorted: scope.entries)
        } else {
            entrySet.clear()
            n = 0
            while n < selected.count {
                for s in chart.staticDefaultEntries[Int(selected[n])] {
                    entrySet.defaultMarks[Int(s) >> 6] |= 1 << UInt64(s & 63)
                }
                n += 1
            }
            enterStates()
        }
    }
}
