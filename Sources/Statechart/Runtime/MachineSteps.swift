/// The synchronous machine's send and clock advance, as closures made in an `@inlinable`
/// initializer — that is, in the caller's module, for the caller's `State`, `Event` and
/// `Context`. Methods of a generic actor or class are not specialized for their type arguments
/// across modules (its initializers are), and the interpreter run unspecialized costs microseconds
/// per event instead of nanoseconds; through these closures every send runs the specialized one.
@usableFromInline
struct MachineSteps<State: Hashable & Sendable, Event: Hashable & Sendable, Context>: Sendable {
    @usableFromInline let send: @Sendable (inout StateMachine<State, Event, Context>, Event) throws(MachineError) -> Void
    @usableFromInline let advance: @Sendable (inout StateMachine<State, Event, Context>, Duration) throws(MachineError) -> Void

    /// Catches the machine up to the clock, then sends: what a plain send does (see ``SendOutcome``).
    @usableFromInline let catchUpAndSend: @Sendable (inout StateMachine<State, Event, Context>, Event, Duration) -> SendOutcome

    @inlinable init() {
        send = { (machine, event) throws(MachineError) in try machine.send(event) }
        advance = { (machine, duration) throws(MachineError) in try machine.advance(by: duration) }
        catchUpAndSend = { machine, event, elapsed in
            var outcome = SendOutcome()
            if elapsed > machine.now {
                do throws(MachineError) { try machine.advance(by: elapsed - machine.now) } catch { outcome.clockError = error }
            }
            do throws(MachineError) { try machine.send(event) } catch { outcome.sendError = error }
            outcome.followUp =
                !machine.core.pendingWork.isEmpty || !machine.core.invocationRequests.isEmpty
                || machine.core.nextDueTime != nil || machine.options.tracing
            return outcome
        }
    }
}

/// What a plain send did, and whether anything must follow it.
@usableFromInline
struct SendOutcome: Sendable {
    /// What firing the delayed sends that fell due threw.
    @usableFromInline var clockError: MachineError?
    /// What the send threw.
    @usableFromInline var sendError: MachineError?
    /// Queued work, invoked work to start or cancel, a timer to arm or a trace to publish.
    @usableFromInline var followUp = false

    @inlinable init() {}
}
