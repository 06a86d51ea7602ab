/// The interpreter's hot path: the same SCXML algorithm as the general code, for the common case,
/// without reading anything it does not need.
///
/// - An external user event sent while nothing is queued is processed directly, without going
///   through the external queue (``sendLean(_:)``).
/// - Selection is one walk for every path (`SelectionWalk.swift`), which reads
///   `Chart.leanCandidates`, where an exact `.event(e)` descriptor is compared inline, instead of
///   each candidate's event descriptor in ``Chart/matchers``.
/// - When the selected transitions run nothing, the microstep only splices the configuration
///   (``takePlainSelection()``), a decision over the walk's result; one transition whose exited
///   states record history records it first (recording runs nothing).
/// - A microstep whose transitions all have precomputed entry sets (``leanMicrostep()``) copies
///   those sets, and when the states it exits and enters have no actions or invoked work, it
///   updates the configuration in bulk (history, recorded first, runs nothing).
///
/// Every event goes through the one walk and the one decision (``takeSelection()``), so set-up
/// and tear-down are shared and a result cannot depend on the path (rule R34). Tracing always takes the general path, so a traced run shows every step
/// the general code takes; the whole test suite, the Specs and the SCION conformance run
/// exercise both, and `LeanPathEffectsTests` compares them with the runtimes' effects.
extension ChartInstance {
    /// One external macrostep for a user event, when the queues are empty (rule R1): the event is
    /// taken like every external event (``takeExternalEvent(_:)``), then the machine runs to
    /// completion only if something can follow (eventless transitions, raised events, a halt,
    /// events sent by actions).
    ///
    /// Specialized but out of line, with ``takeExternalEvent(_:)`` inlined: there the event is
    /// known to be a user event, so its descriptor test and the scope's copy of it are compiled
    /// for that case alone, and one call and one frame serve the whole step (flat 263 → 241
    /// instructions per event, parallel 896 → 828).
    ///
    /// - Returns: Whether the event enabled a transition.
    @inlinable @inline(never)
    mutating func sendLean(_ event: Event) -> Bool {
        let enabled = takeExternalEvent(.event(event))
        if chart.hasEventless || !internalQueueIsEmpty || !isRunning { runToCompletion() }
        if !externalQueueIsEmpty { processExternalQueue(macrostepsTaken: 1) }
        return enabled
    }

    /// The fast cases, a decision over the selection walk's result (``selectTransitions(for:)``):
    /// when every selected transition is static, without actions and with a plain entry, their
    /// domains are disjoint (so none conflicts with another, rule R7) and no state they exit has
    /// exit actions or history, the microstep only moves the configuration — each transition
    /// replaces the active states inside its domain with its precomputed entry set, one
    /// contiguous run of the sorted list each. Guards were evaluated by the walk, exactly as for
    /// the general microstep: nothing runs twice whichever way the step is taken.
    ///
    /// - Returns: Whether the selection was taken here; `false` when the case does not apply
    ///   (nothing has changed but the scratch list of runs; the caller takes the microstep).
    @inlinable @inline(__always)
    mutating func takePlainSelection() -> Bool {
        guard !chart.hasInvocations else { return false }
        if selected.count == 1 { return takePlainTransition(selected[0]) }
        return exchangeSelectedSources() || takePlainTransitions()
    }

    /// Takes the selected transitions when every one only exchanges its source for one state
    /// (``LeanTransition/Flags/swap``): their domains are then disjoint — the sources are distinct
    /// active atomic states, whose parents are distinct compound states — and each source's slot
    /// of the configuration takes its one entered state.
    ///
    /// The decision and the exchanges are one pass over the selection
    /// (``Configuration/exchange(count:_:)``), each source's slot the one the walk met it at
    /// (its hint, ``SelectionList``): at the first transition that is not an exchange,
    /// the slots already exchanged are given back (a second pass, in a step that takes the
    /// general path after it), and nothing has changed. A pass that only decides, before the one
    /// that exchanges, cost the parallel step of four regions about 40 instructions.
    ///
    /// Out of line, in a frame of its own: inside ``takePlainTransitions()``, whose other case
    /// needs more registers, the pass kept its values on the stack.
    ///
    /// - Returns: Whether the selection was taken here.
    @inlinable @inline(never)
    mutating func exchangeSelectedSources() -> Bool {
        // The tables are read into locals first: read through the chart at each transition, they
        // were loaded again after every write to the list.
        let lean = chart.lean
        let entries = chart.leanEntries
        let selected = self.selected
        let count = selected.count
        let exchanged = configuration.exchange(count: count) { n in
            let transition = lean[Int(selected[unchecked: n])]
            guard transition.flags.taking.rawValue == LeanTransition.Flags.swap.rawValue else { return nil }
            // The source is atomic, so the state that selected it was the source itself: the
            // hint is the source's slot.
            return (transition.source, entries[Int(transition.entryStart)], selected[hint: n])
        }
        if exchanged == count { return true }
        if exchanged > 0 { giveBackExchangedSources(exchanged) }
        return false
    }

    /// The exchange of ``takePlainTransition(_:)`` for a source that is not the list's last: at
    /// the slot the walk met it at (the source is atomic, so it selected the transition itself).
    /// Out of line, so that a chain's step does not carry it.
    @inlinable @inline(never)
    mutating func exchangeSelectedSource(_ source: Int32, for entered: Int32) {
        configuration.exchange(source, for: entered, hint: selected[hint: 0])
    }

    /// Undoes the first `count` exchanges of ``exchangeSelectedSources()``: each entered state
    /// gives its slot back to its transition's source (they are in document order too).
    @inlinable @inline(never)
    mutating func giveBackExchangedSources(_ count: Int) {
        let chart = self.chart
        let selected = self.selected
        _ = configuration.exchange(count: count) { n in
            let lean = chart.lean[Int(selected[unchecked: n])]
            return (chart.leanEntries[Int(lean.entryStart)], lean.source, selected[hint: n])
        }
    }

    /// ``takePlainSelection()`` for one transition. When nothing runs, the step is one splice of
    /// the configuration's list; when the transition, the states it exits or the states it
    /// enters have actions, ``takeStaticTransition(_:)`` takes it (out of line, so that this
    /// path stays as short as a flat chart's step needs: inlined here it cost `flat` 22
    /// instructions per event).
    @inlinable @inline(__always)
    mutating func takePlainTransition(_ t: Int32) -> Bool {
        let lean = chart.lean[Int(t)]
        let flags = lean.flags.taking
        if flags.rawValue == LeanTransition.Flags.swap.rawValue {
            // One state for another: the source's slot takes the entered state — the list's last
            // in a chain, else (a region of a parallel state) the slot the walk met it at.
            let entered = chart.leanEntries[Int(lean.entryStart)]
            if !configuration.exchangeLast(lean.source, for: entered) { exchangeSelectedSource(lean.source, for: entered) }
            return true
        }
        guard flags.rawValue == LeanTransition.Flags.splice.rawValue else {
            guard flags.contains([.isStatic, .entryActionsOnly]) else { return false }
            takeStaticTransition(t)
            return true
        }
        if lean.domain < 0 { return true }
        let exits = exitRun(inside: lean.domain, stoppingAtWork: true)
        if exits.work != 0 {
            if exits.work & ExitRun.exitActions != 0 {
                takeStaticTransition(t)
                return true
            }
            // Only history to record: it runs nothing, so the step stays one splice (rule R11).
            recordHistory(exiting: exits.start..<exits.end)
        }
        if exits.end == configuration.count {
            // A chain, or the last region: cut the list and append the entries (they are all
            // deeper than the domain, so the list stays sorted).
            configuration.replaceTail(from: exits.start, with: chart.leanEntries, in: lean.entryStart..<lean.entryEnd)
        } else {
            configuration.replace(run: exits.start..<exits.end, with: chart.leanEntries, in: lean.entryStart..<lean.entryEnd)
        }
        return true
    }

    /// The states a transition exits: the run `start ..< end` of the configuration's list inside
    /// its domain, and what exiting them takes besides a splice.
    @usableFromInline
    struct ExitRun {
        @usableFromInline var start: Int
        @usableFromInline var end: Int
        /// What exiting the run takes besides a splice, as bits: ``exitActions`` when a state has
        /// exit actions, ``history`` when one records history; 0 for nothing.
        @usableFromInline var work: UInt8

        @inlinable static var exitActions: UInt8 { 1 }
        @inlinable static var history: UInt8 { 2 }

        @inlinable init(start: Int, end: Int, work: UInt8) {
            self.start = start
            self.end = end
            self.work = work
        }
    }

    /// The run of the list inside `domain`, found from the back: states after the domain's
    /// subtree, in other regions, come after the run since the list is sorted. With
    /// `stoppingAtWork` (a constant at each call), the scan stops at the first state with exit
    /// actions too: the splice's decision needs no more, and a loop that carries on costs a flat
    /// event 10 instructions. A state that records history does not stop it: recording runs
    /// nothing, so a splice can still take the step.
    @inlinable @inline(__always)
    func exitRun(inside domain: Int32, stoppingAtWork: Bool) -> ExitRun {
        let count = configuration.count
        let subtreeEnd = chart.states[Int(domain)].end
        var runEnd = count
        var start = count
        var work: UInt8 = 0
        while start > 0 {
            let s = configuration[start - 1]
            if s <= domain { break }
            start -= 1
            if s >= subtreeEnd {
                runEnd = start
                continue
            }
            if chart.states[Int(s)].hasExitActions || chart.states[Int(s)].hasHistoryChild {
                if chart.states[Int(s)].hasHistoryChild { work |= ExitRun.history }
                if chart.states[Int(s)].hasExitActions {
                    work |= ExitRun.exitActions
                    if stoppingAtWork { return ExitRun(start: start, end: runEnd, work: work) }
                }
            }
        }
        return ExitRun(start: start, end: runEnd, work: work)
    }

    /// One static transition whose microstep runs actions (rule R8, SCXML `microstep`): the
    /// states it exits leave deepest first, each one's exit actions running while it is still
    /// active; the transition's actions run with neither the exited nor the entered states
    /// active; each entered state is active when its entry actions run, and the states after it
    /// are not yet. Where nothing runs in between, the list changes in one splice, as in
    /// ``takePlainTransition(_:)``.
    ///
    /// The caller has checked that the transition is static and that its entry runs at most
    /// entry actions (``LeanTransition/Flags/entryActionsOnly``). History is recorded for the
    /// exited states that have it before anything runs (rule R11).
    @inlinable @inline(never)
    mutating func takeStaticTransition(_ t: Int32) {
        let lean = chart.lean[Int(t)]
        if lean.domain < 0 {
            // Targetless: nothing is exited or entered.
            recordStep(exiting: 0..<0, entering: 0..<0)
            if lean.flags.contains(.hasActions) { runTransitionActions(t) }
            return
        }
        let exits = exitRun(inside: lean.domain, stoppingAtWork: false)
        let run = exits.start..<exits.end
        // History first, before any exit action runs (rule R11).
        if exits.work & ExitRun.history != 0 { recordHistory(exiting: run) }
        let exitActions = exits.work & ExitRun.exitActions != 0
        let entries = lean.entryStart..<lean.entryEnd
        recordStep(exiting: run, entering: entries)
        // The run is the list's tail (a chain, or the last region): exits cut the list, entries
        // (all deeper than the domain) are appended.
        let tail = run.upperBound == configuration.count
        var exited = false
        // 1. Exits, in reverse document order; removing a state moves only the states after it.
        if exitActions {
            var i = run.upperBound
            while i > run.lowerBound {
                i -= 1
                let s = configuration[i]
                runActions(of: s, onExit: true)
                configuration.remove(s)
            }
            exited = true
        }
        // 2. The transition's actions.
        if lean.flags.contains(.hasActions) {
            if !exited { leave(run, tail: tail) }
            exited = true
            runTransitionActions(t)
        }
        // 3. Entries in document order. With one state to enter and the run still in the list,
        //    the splice of a step that runs nothing; otherwise each state is added, then its
        //    entry actions run.
        if !exited && entries.count == 1 {
            splice(run, with: entries)
            runActions(of: chart.leanEntries[Int(entries.lowerBound)], onExit: false)
            return
        }
        if !exited { leave(run, tail: tail) }
        var k = entries.lowerBound
        while k < entries.upperBound {
            let s = chart.leanEntries[Int(k)]
            k += 1
            if tail { configuration.append(last: s) } else { configuration.insert(s) }
            runActions(of: s, onExit: false)
        }
    }

    /// Records history for the states of the configuration's `run` that record it (SCXML: before
    /// any exit action of the step, rule R11). Recording runs nothing, so the order does not matter.
    /// Out of line, so that the splice of a flat chart's step does not carry it.
    @inlinable @inline(never)
    mutating func recordHistory(exiting run: Range<Int>) {
        var i = run.lowerBound
        while i < run.upperBound {
            let s = configuration[i]
            i += 1
            if chart.states[Int(s)].hasHistoryChild { recordHistory(of: s) }
        }
    }

    /// Records the states a static transition exits (the configuration's `run`, deepest first)
    /// and enters (its precomputed entries) in the scope's lists, before any of its actions runs:
    /// they are what the actions read as ``ActionScope/exitedStates`` and
    /// ``ActionScope/enteredStates`` (and the typed builder's actions that receive a neighbour
    /// state), as after a general microstep (rule R29).
    @inlinable @inline(__always)
    mutating func recordStep(exiting run: Range<Int>, entering entries: Range<Int32>) {
        let entryCount = Int(entries.upperBound &- entries.lowerBound)
        let lists = scope.stepLists(room: Swift.max(run.upperBound &- run.lowerBound, entryCount))
        lists.clearExits()
        var i = run.upperBound
        while i > run.lowerBound {
            i -= 1
            lists.appendExit(configuration[i])
        }
        lists.clearEntries()
        var k = entries.lowerBound
        while k < entries.upperBound {
            lists.appendEntry(chart.leanEntries[Int(k)])
            k += 1
        }
    }

    /// Removes the states of `run` from the configuration's list, before anything else runs.
    @inlinable @inline(__always)
    mutating func leave(_ run: Range<Int>, tail: Bool) {
        if tail {
            configuration.removeTail(from: run.lowerBound)
        } else {
            splice(run, with: 0..<0)
        }
    }

    /// Replaces the run of the configuration's list with the states `chart.leanEntries[entries]`
    /// (``takePlainTransition(_:)`` writes the same decision out, with the count it has read).
    @inlinable @inline(__always)
    mutating func splice(_ run: Range<Int>, with entries: Range<Int32>) {
        if run.upperBound == configuration.count {
            // A chain, or the last region: cut the list and append the entries (they are all
            // deeper than the domain, so the list stays sorted).
            configuration.replaceTail(from: run.lowerBound, with: chart.leanEntries, in: entries)
        } else {
            configuration.replace(run: run, with: chart.leanEntries, in: entries)
        }
    }

    /// Runs a transition's own actions, with its source as the scope's state.
    @inlinable @inline(__always)
    mutating func runTransitionActions(_ t: Int32) {
        let boxed = chart.closures.transitions[Int(t)]
        if boxed.exists { return runClosures(boxed) }
        runBlock(chart.actions(of: t), state: chart.transitions[Int(t)].source)
    }

    /// ``takePlainSelection()`` for transitions in several regions. The decision reads the
    /// chart's tables and writes the scratch list of runs through unsafe pointers (room for the
    /// worst case is made first): read element by element, each access paid a bounds check, a
    /// uniqueness check or a retain (about 1,400 instructions for four regions).
    @inlinable
    mutating func takePlainTransitions() -> Bool {
        let chart = self.chart
        let count = configuration.count
        let chosen = selected.count
        let first = selected.first
        // Two run bounds per transition.
        selectedRuns.reserveStorage(2 * chosen)
        var sameLength = true
        let applies: Bool = chart.states.withUnsafeBufferPointer { states in
            chart.lean.withUnsafeBufferPointer { lean in
                configuration.withUnsafeList { list in
                    selected.withUnsafeOthers { others in
                        selectedRuns.storage.withUnsafeMutableBufferPointer { runs -> Bool in
                            // One forward pass over the list: each transition's run of active
                            // states inside its domain. An earlier atomic state selected an
                            // earlier transition, and a domain contains the atomic state that
                            // selected it, so disjoint domains come in ascending order: a domain
                            // that starts before the previous one ends overlaps it.
                            let plain = LeanTransition.Flags.splice.rawValue
                            let exchanges = LeanTransition.Flags.exchangesSource.rawValue
                            var previousEnd: Int32 = 0
                            var i = 0
                            var n = 0
                            while n < chosen {
                                let transition = lean[Int(n == 0 ? first : others[n - 1])]
                                guard transition.flags.taking.rawValue & ~exchanges == plain else { return false }
                                let d = transition.domain
                                let r = 2 * n
                                n += 1
                                guard d >= 0 else {
                                    runs[r] = -1
                                    runs[r + 1] = -1
                                    continue
                                }
                                if d < previousEnd { return false }
                                let end = states[Int(d)].end
                                previousEnd = end
                                while i < count && Int32(bitPattern: list[i]) <= d { i += 1 }
                                let start = i
                                while i < count {
                                    let s = Int32(bitPattern: list[i])
                                    if s >= end { break }
                                    let exited = states[Int(s)]
                                    if exited.hasExitActions || exited.hasHistoryChild { return false }
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
        selectedRuns.count = 2 * chosen
        guard applies else { return false }
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
        let scratch = stepScratch
        // The scope's lists through one view while nothing runs (asking for them is a uniqueness
        // check); actions run only from step 3 on. Room: the exits are active states, the
        // entries the selected transitions' precomputed sets.
        var entryRoom = 0
        var n = 0
        while n < selected.count {
            let lean = chart.lean[Int(selected[n])]
            entryRoom += Int(lean.entryEnd &- lean.entryStart)
            n += 1
        }
        let lists = scope.stepLists(room: Swift.max(configuration.count, entryRoom))
        lists.clearExits()
        var lowest = Int32.max
        n = 0
        while n < scratch.pointee.selectedDomains.count {
            let d = scratch.pointee.selectedDomains[n]
            if d >= 0 && d < lowest { lowest = d }
            n += 1
        }
        var exitWork = chart.hasInvocations
        var recordsHistory = false
        var i = configuration.count - 1
        while i >= 0 {
            let s = configuration[i]
            if s <= lowest { break }
            i -= 1
            var j = 0
            while j < scratch.pointee.selectedDomains.count {
                let d = scratch.pointee.selectedDomains[j]
                j += 1
                if d >= 0 && s > d && s < chart.states[Int(d)].end {
                    lists.appendExit(s)
                    if chart.states[Int(s)].hasExitActions { exitWork = true }
                    if chart.states[Int(s)].hasHistoryChild { recordsHistory = true }
                    break
                }
            }
        }
        // 2. Entry set, before any exit action runs so that exit actions see where the machine
        //    goes. Transitions taken together have disjoint domains (rule R7), so their entry
        //    sets are disjoint and only their order has to be restored.
        lists.clearEntries()
        var plainEntry = true
        n = 0
        while n < selected.count {
            let lean = chart.lean[Int(selected[n])]
            n += 1
            if !lean.flags.contains(.plainEntry) { plainEntry = false }
            var k = lean.entryStart
            while k < lean.entryEnd {
                lists.appendEntry(chart.leanEntries[Int(k)])
                k += 1
            }
        }
        if selected.count > 1 { lists.sortEntriesRemovingDuplicates() }
        // 3. History for every exited state before any exit action (rule R11), then the exits;
        //    with nothing to run, only the configuration changes (recording history runs
        //    nothing: a state that records it is removed with the others).
        if recordsHistory {
            for s in lists.exits where chart.states[Int(s)].hasHistoryChild { recordHistory(of: s) }
        }
        if exitWork {
            exitStates()
        } else {
            configuration.remove(all: UnsafeBufferPointer(lists.exits))
        }
        // 4. Transition actions in selection order.
        n = 0
        while n < selected.count {
            let t = selected[n]
            n += 1
            if chart.lean[Int(t)].flags.contains(.hasActions) { runTransitionActions(t) }
        }
        // 5. Entries in document order; the general entry loop when anything runs on entry.
        if plainEntry {
            // Actions may have run since `lists` was taken (steps 3, 4): the view is asked again.
            configuration.insert(sorted: UnsafeBufferPointer(scope.stepLists(room: 0).entries))
        } else {
            scratch.pointee.entrySet.clear()
            n = 0
            while n < selected.count {
                scratch.pointee.entrySet.markDefaultEntered(chart.staticDefaultEntries, chart.staticDefaults[Int(selected[n])])
                n += 1
            }
            enterStates(scratch: scratch)
        }
    }
}
