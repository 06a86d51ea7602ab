/// The synchronous machine's send and clock advance, as closures made in an `@inlinable`
/// initializer — that is, in the caller's module, for the caller's `State`, `Event` and
/// `Context`. Methods of a generic actor or class are not specialized for their type arguments
/// across modules (its initializers are), and the interpreter run unspecialized costs microseconds
/// per event instead of nanoseconds; through these closures every send runs the specialized one.
@usableFromInline
struct MachineSteps<State: Hashable & Sendable, Event: Hashable & Sendable, Context>: Sendable {
    @usableFromInline let send: @Sendable (inout StateMachine<State, Event, Context>, Event) throws(MachineError) -> Void
    /// ``StateMachine/catchUp(toElapsed:)``: the machine brought up to its runtime's clock.
    @usableFromInline let catchUp: @Sendable (inout StateMachine<State, Event, Context>, Duration) throws(MachineError) -> Void

    /// Catches the machine up to the clock (the third argument reads it), then sends: what a
    /// plain send does. A failure of the delayed sends that fell due is stored in the last
    /// argument (the send still runs); the send's own error is thrown.
    ///
    /// The clock is read only when the step could see the time: when the chart can read it
    /// (``Chart/readsTime``) or a delayed send is pending. Otherwise nothing the send runs reads
    /// machine time, and the runtime brings it up to the clock when it is shown (rule R54,
    /// ``MachineDriver/timeBehind``). On Linux the read is a `clock_gettime`, about a fifth of an
    /// uncontended `AsyncStateMachine.send` (issue 16).
    ///
    /// - Returns: Whether anything must follow the send: queued work, invoked work to start or
    ///   cancel, a timer to arm or a trace to publish. (A `Bool` and a typed throw rather than a
    ///   struct of optional errors: that struct was copied through its value witnesses at every
    ///   send, about 10 % of an uncontended `AsyncStateMachine.send`.)
    @usableFromInline let catchUpAndSend:
        @Sendable (inout StateMachine<State, Event, Context>, Event, () -> Duration, inout MachineError?) throws(MachineError) -> Bool

    @inlinable init() {
        send = { (machine, event) throws(MachineError) in try machine.send(event) }
        catchUp = { (machine, elapsed) throws(MachineError) in try machine.catchUp(toElapsed: elapsed) }
        catchUpAndSend = { (machine, event, elapsed, clockError) throws(MachineError) in
            if machine.core.chart.readsTime || machine.core.nextDueTime != nil {
                do throws(MachineError) { try machine.catchUp(toElapsed: elapsed()) } catch { clockError = error }
            }
            try machine.send(event)
            return !machine.core.pendingWork.isEmpty || !machine.core.invocationRequests.isEmpty
                || machine.core.nextDueTime != nil || machine.options.tracing
        }
    }
}
