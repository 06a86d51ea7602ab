/// What a driver of several machines needs from one of them (rule R86): SCXML sessions that
/// invoke other sessions run executable content of their own between macrosteps — evaluating an
/// `<invoke>`'s arguments when it starts, its `<finalize>` before an event of the invoked session
/// is taken — and forward the external events a session takes (`autoforward`).
extension ChartInstance {
    /// Runs a block of executable content outside any transition, with `event` as the event being
    /// processed (`nil`: none). Events it raises or sends are queued and taken by ``settle()`` or
    /// by the next send; a failure raises `error.execution` like any other block (rule R14). Does
    /// nothing when the machine is not running.
    package mutating func execute(_ actions: [Action<Event, Context>], event: ChartEvent<Event>?) {
        guard isRunning else { return }
        if let event { scope.begin(event) } else { scope.currentEvent = nil }
        runBlock(actions, state: 0)
    }

    /// Runs what is queued until the machine is idle: eventless transitions and internal events,
    /// then the external queue (each event its own macrostep).
    ///
    /// - Throws: the failures of the run, after it completed (``MachineError/executionFailed(_:)``…).
    package mutating func settle() throws(MachineError) {
        if isRunning {
            runToCompletion()
            processExternalQueue()
        }
        assertInvariants()
        try throwFailures()
    }
}
