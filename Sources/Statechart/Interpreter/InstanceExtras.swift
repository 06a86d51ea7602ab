/// What a ``ChartInstance`` rarely uses — pending delayed sends, the trace, queued work and
/// invocation bookkeeping, failures, asynchronous guard answers, the microstep limit's record —
/// kept in one box created on first use (issue 16, "Memory"): a machine that never sends with a
/// delay, traces, invokes or fails pays one pointer for all of it instead of about 130 bytes inline.
///
/// The box is copied on write: copies of an instance share it until either changes something in
/// it (``ChartInstance/uniqueExtras()``), so copies never share mutable state.
@usableFromInline
final class InstanceExtras<Event: Hashable & Sendable, Context> {
    @usableFromInline var timers: [ChartInstance<Event, Context>.PendingSend] = []
    @usableFromInline var timerSequence: UInt64 = 0
    @usableFromInline var trace: [TraceStep] = []
    @usableFromInline var failures: [String] = []
    @usableFromInline var pendingWork: [PendingWork<Event>] = []
    @usableFromInline var invocationRequests: [InvocationRequest<Event, Context>] = []
    @usableFromInline var runningInvocations: [(token: UInt64, state: Int32)] = []
    @usableFromInline var invocationToken: UInt64 = 0
    @usableFromInline var asyncGuardResults: [Int32: Bool] = [:]
    @usableFromInline var limitError: MachineError?
    @usableFromInline var recentSteps: [(state: Int32, event: String)] = []
    @usableFromInline var recordedExternalEvents: [ChartEvent<Event>] = []

    @usableFromInline init() {}

    /// A copy for an instance that is about to change its extras while another copy shares them.
    @usableFromInline init(copying other: InstanceExtras) {
        timers = other.timers
        timerSequence = other.timerSequence
        trace = other.trace
        failures = other.failures
        pendingWork = other.pendingWork
        invocationRequests = other.invocationRequests
        runningInvocations = other.runningInvocations
        invocationToken = other.invocationToken
        asyncGuardResults = other.asyncGuardResults
        limitError = other.limitError
        recentSteps = other.recentSteps
        recordedExternalEvents = other.recordedExternalEvents
    }

    /// Whether a run left failures for ``ChartInstance/throwFailures()`` to throw.
    @inlinable var hasFailures: Bool { limitError != nil || !failures.isEmpty }
}

// The accessors keep the names the fields had when they were stored inline: reading one of an
// instance without extras gives the empty value and allocates nothing; changing one creates the box
// (or copies it when shared). Hot paths test `extras` directly instead (see `send`,
// `takeExternalEvent`, `runToCompletion`).
extension ChartInstance {
    /// The extras, created on first change and copied first if another instance shares them.
    @usableFromInline
    mutating func uniqueExtras() -> InstanceExtras<Event, Context> {
        if extras == nil {
            extras = InstanceExtras()
        } else if !isKnownUniquelyReferenced(&extras) {
            extras = InstanceExtras(copying: extras!)
        }
        return extras!
    }

    @usableFromInline var timers: [PendingSend] {
        get { extras?.timers ?? [] }
        set { uniqueExtras().timers = newValue }
        _modify { yield &uniqueExtras().timers }
    }

    @usableFromInline var timerSequence: UInt64 {
        get { extras?.timerSequence ?? 0 }
        set { uniqueExtras().timerSequence = newValue }
    }

    /// The recorded trace (when ``isTracing``); the owner clears it when it likes.
    public var trace: [TraceStep] {
        get { extras?.trace ?? [] }
        set { uniqueExtras().trace = newValue }
        _modify { yield &uniqueExtras().trace }
    }

    @usableFromInline var failures: [String] {
        get { extras?.failures ?? [] }
        set { uniqueExtras().failures = newValue }
        _modify { yield &uniqueExtras().failures }
    }

    /// Work queued by actions with ``ActionScope/perform(_:_:)``, not yet taken by a runtime.
    public internal(set) var pendingWork: [PendingWork<Event>] {
        get { extras?.pendingWork ?? [] }
        set { uniqueExtras().pendingWork = newValue }
        _modify { yield &uniqueExtras().pendingWork }
    }

    @usableFromInline var invocationRequests: [InvocationRequest<Event, Context>] {
        get { extras?.invocationRequests ?? [] }
        set { uniqueExtras().invocationRequests = newValue }
        _modify { yield &uniqueExtras().invocationRequests }
    }

    @usableFromInline var runningInvocations: [(token: UInt64, state: Int32)] {
        get { extras?.runningInvocations ?? [] }
        set { uniqueExtras().runningInvocations = newValue }
        _modify { yield &uniqueExtras().runningInvocations }
    }

    @usableFromInline var invocationToken: UInt64 {
        get { extras?.invocationToken ?? 0 }
        set { uniqueExtras().invocationToken = newValue }
    }

    /// Answers of asynchronous guards for the external event being processed (rule R58).
    @usableFromInline var asyncGuardResults: [Int32: Bool] {
        get { extras?.asyncGuardResults ?? [:] }
        set { uniqueExtras().asyncGuardResults = newValue }
        _modify { yield &uniqueExtras().asyncGuardResults }
    }

    @usableFromInline var limitError: MachineError? {
        get { extras?.limitError }
        set { uniqueExtras().limitError = newValue }
    }

    @usableFromInline var recentSteps: [(state: Int32, event: String)] {
        get { extras?.recentSteps ?? [] }
        set { uniqueExtras().recentSteps = newValue }
        _modify { yield &uniqueExtras().recentSteps }
    }

    /// The external events taken since the driver last emptied this, oldest first.
    @usableFromInline package var recordedExternalEvents: [ChartEvent<Event>] {
        get { extras?.recordedExternalEvents ?? [] }
        set { uniqueExtras().recordedExternalEvents = newValue }
        _modify { yield &uniqueExtras().recordedExternalEvents }
    }
}
