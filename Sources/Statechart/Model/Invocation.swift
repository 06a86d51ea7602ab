/// Asynchronous work a state runs while it is active (SCXML `<invoke>`, DDStateMachine's work
/// states, XState's `invoke`; rule R52).
///
/// When the macrostep that entered the state ends with the state still active, the runtime starts
/// the work with a copy of the extended state; when the state is exited the work is cancelled and
/// whatever it produces afterwards is dropped. The event it returns (or the event `failure` maps
/// its error to) is sent to the machine as an external event.
public struct Invocation<Event: Hashable & Sendable, Context>: Sendable {
    /// A name for traces and errors.
    public var name: String
    /// The work. Returns the event to send when it finishes, or `nil` for none.
    public var run: @Sendable (Context) async throws -> Event?
    /// Maps a thrown error to an event; `nil` (or a `nil` result) raises `error.execution` instead.
    public var failure: (@Sendable (any Error) -> Event?)?
    /// What the invocation is, for a runtime that starts it itself rather than calling ``run``:
    /// an SCXML `<invoke>`, which an SCXML session starts as a child session (rule R86). `nil` for
    /// Swift work.
    public var definition: (any Sendable)?

    /// Declares invoked work.
    public init(
        _ name: String, run: @escaping @Sendable (Context) async throws -> Event?,
        failure: (@Sendable (any Error) -> Event?)? = nil
    ) {
        self.name = name
        self.run = run
        self.failure = failure
    }

    /// Declares an invocation that a runtime of its own starts from `definition` (an SCXML
    /// session starts an `<invoke>` as a child session); `run` is what any other runtime does
    /// with it — typically, fail with an error that says which runtime it needs.
    public init(
        _ name: String, definition: any Sendable, run: @escaping @Sendable (Context) async throws -> Event?
    ) {
        self.init(name, run: run)
        self.definition = definition
    }
}

/// What the runtime must do about invoked work after a macrostep.
public enum InvocationRequest<Event: Hashable & Sendable, Context>: Sendable {
    /// Start the work of a state entered by the last macrostep (and still active).
    case start(token: UInt64, state: ChartStateID, invocation: Invocation<Event, Context>)
    /// Cancel the work started with this token: its state was exited.
    case cancel(token: UInt64)
}

/// Asynchronous work queued by an action with ``ActionScope/perform(_:_:)``.
public struct PendingWork<Event: Hashable & Sendable>: Sendable {
    /// The name given to ``ActionScope/perform(_:_:)``.
    public var name: String?
    /// The id of the state whose action queued it.
    public var source: String
    /// The work; it returns the event to send when it is done, if any.
    public var work: @Sendable () async throws -> Event?
}
