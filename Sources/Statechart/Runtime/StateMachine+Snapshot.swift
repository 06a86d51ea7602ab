/// Snapshots of a typed ``StateMachine`` and their restoration (rule R40; swift-state-kit's
/// `snapshot()` / `restore(from:)`).

extension StateMachine {
    /// Takes a snapshot of the whole running state (rule R40): the configuration at every level,
    /// history values, extended state, clock, queued events, pending delayed sends with the time
    /// they have left, and — while the machine is suspended — the configuration it will resume.
    /// Observers, options and the undo log are not part of it. Nothing runs.
    public func snapshot() -> ChartSnapshot<Event, Context> {
        var snapshot = core.snapshot()
        if let s = records.suspension {
            let ids = typed.chart.ids
            snapshot.suspension = SnapshotSuspension(
                background: ids[Int(s.background)], activeStates: s.configuration.map { ids[Int($0)] },
                pausedSends: s.sends.map(core.snapshotSend))
        }
        return snapshot
    }

    /// Creates a machine in the running state of a snapshot, without starting it anew: no entry,
    /// exit or transition action runs (rule R40).
    ///
    /// - Throws: ``MachineError/invalidChart(_:)`` when the declaration is not a valid chart;
    ///   ``MachineError/invalidSnapshot(_:)`` when the snapshot does not fit it (see ``restore(from:)``).
    public init(
        _ machine: Machine<State, Event, Context>, restoring snapshot: ChartSnapshot<Event, Context>,
        options: Options = Options()
    ) throws(MachineError) {
        let typed: TypedChart<Event, Context>
        do {
            typed = try TypedChart(machine)
        } catch {
            throw .invalidChart(error)
        }
        try self.init(typed: typed, restoring: snapshot, options: options)
    }

    /// Creates a machine on an already compiled chart in the running state of a snapshot; nothing
    /// runs (rule R40).
    ///
    /// - Throws: ``MachineError/invalidSnapshot(_:)`` when the snapshot does not fit the chart
    ///   (see ``restore(from:)``).
    public init(
        typed: TypedChart<Event, Context>, restoring snapshot: ChartSnapshot<Event, Context>,
        options: Options = Options()
    ) throws(MachineError) {
        let (instance, suspension) = try Self.restored(snapshot, typed: typed)
        self.typed = typed
        self.options = options
        self.core = instance
        core.isTracing = options.tracing
        records.suspension = suspension
    }

    /// Replaces the running state with a snapshot's (rule R40). No action and no observer runs, the
    /// undo log is cleared (rule R41), and the suspension slot becomes the snapshot's (rule R42).
    /// The clock is set to the snapshot's; options, observers, tracing and the microstep limit stay.
    ///
    /// The snapshot is checked first, and on error the machine is unchanged.
    ///
    /// - Throws: ``MachineError/invalidSnapshot(_:)`` naming what does not fit: a snapshot of a chart
    ///   with another ``Chart/fingerprint`` or an unsupported format version; a state id the chart
    ///   does not have; a configuration that is not legal for the chart (a state active without its
    ///   parent, a compound state without exactly one active child, a parallel state missing a
    ///   region, a top-level final state in a running machine); a history value its history state
    ///   could not have recorded; a negative remaining time; a suspension whose background is not a
    ///   top-level state.
    public mutating func restore(from snapshot: ChartSnapshot<Event, Context>) throws(MachineError) {
        var (instance, suspension) = try Self.restored(snapshot, typed: typed)
        instance.isTracing = core.isTracing
        instance.microstepLimit = core.microstepLimit
        instance.trace = core.trace
        core = instance
        records = MachineRecords()
        records.suspension = suspension
    }

    /// Checks a snapshot, its suspension included, and builds the instance it describes.
    static func restored(
        _ snapshot: ChartSnapshot<Event, Context>, typed: TypedChart<Event, Context>
    ) throws(MachineError) -> (ChartInstance<Event, Context>, Suspension<Event>?) {
        var plain = snapshot
        plain.suspension = nil
        let instance = try ChartInstance(chart: typed.chart, restoring: plain)
        guard let s = snapshot.suspension else { return (instance, nil) }
        let chart = typed.chart
        let checker = SnapshotChecker(chart: chart)
        let background = try checker.index(of: s.background, in: "suspension.background")
        guard chart.states[Int(background)].parent == 0, typed.levelOfIndex[Int(background)] == 0,
            chart.states[Int(background)].kind != .final
        else {
            throw .invalidSnapshot("suspension.background '\(s.background)' is not a non-final state of the top level")
        }
        let configuration = try checker.configuration(s.activeStates, in: "suspension.activeStates")
        if let problem = checker.legalityProblem(of: configuration, below: 0) {
            throw .invalidSnapshot("suspension.activeStates is not a legal configuration: \(problem)")
        }
        for state in configuration
        where chart.states[Int(state)].parent == 0 && chart.states[Int(state)].kind == .final {
            throw .invalidSnapshot("suspension.activeStates holds the top-level final state '\(chart.ids[Int(state)])'")
        }
        let sends = try checker.sends(s.pausedSends, in: "suspension.pausedSends")
        return (instance, Suspension(background: background, configuration: configuration, sends: sends))
    }
}
