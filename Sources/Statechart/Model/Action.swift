/// One piece of executable content: what runs on entry, on exit, or when a transition is taken.
///
/// The built-in cases mirror SCXML's `<raise>`, `<send>`, `<cancel>` and `<log>`; ``run(_:_:)`` runs a
/// Swift closure that can read and write the extended state and queue events through its
/// ``ActionScope``. Events queued by an action are never dispatched recursively (rule R9).
public enum Action<Event: Hashable & Sendable, Context>: Sendable {
    /// Puts the event on the internal queue: it is handled later in the same macrostep.
    case raise(Event)
    /// Puts the event on the external queue, after `delay` (zero: at the end of the macrostep).
    /// A delayed send with an `id` can be cancelled.
    case send(Event, delay: Duration = .zero, id: String? = nil)
    /// Cancels a pending delayed send by its id (SCXML `<cancel sendid>`).
    case cancel(id: String)
    /// Writes a line to the trace (SCXML `<log label>`).
    case log(label: String, message: String? = nil)
    /// Runs a closure with access to the extended state and the event queues. The name labels
    /// the action in traces and diagrams.
    case run(String?, @Sendable (inout ActionScope<Event, Context>) throws -> Void)
    /// Runs a block of a datamodel's executable content (SCXML `<assign>`, `<if>`, `<script>`…):
    /// `source` is its text as written (markup, for SCXML), kept for export and traces; the closure
    /// also sees what the machine looks like (``ChartEnvironment``: the event, the active states,
    /// the time), as `In()` needs (rule R81).
    case content(String, @Sendable (inout ActionScope<Event, Context>, ChartEnvironment<Event>) throws -> Void)
    /// Starts (or restarts) the timer with this key: `timer.<key>` reaches the external queue
    /// after `delay`, unless ``cancelTimer(_:)`` runs first. Delayed transitions (``After``) are
    /// made of these.
    case startTimer(String, after: Duration)
    /// Cancels the timer with this key.
    case cancelTimer(String)

    /// Whether a closure action has a name of its own (an unnamed one is labelled `action`).
    @inlinable var isNamed: Bool {
        if case .run(let name, _) = self { return name != nil }
        return true
    }

    /// Whether running the action can read machine time (``Chart/readsTime``): a delayed send
    /// and a timer are due at a time counted from it, and a closure or a datamodel's content can
    /// read it (``ActionScope/now``, ``ChartEnvironment/now``). A send without delay, a raise, a
    /// cancel and a log cannot.
    @inlinable var readsTime: Bool {
        switch self {
        case .raise, .cancel, .log, .cancelTimer: return false
        case .send(_, let delay, _): return delay > .zero
        case .run, .content, .startTimer: return true
        }
    }

    /// The label of a closure action declared without a name (rule R77 names its owner instead).
    @inlinable static var unnamedLabel: String { "action" }

    /// A short label for traces and diagrams.
    public var label: String {
        switch self {
        case .raise(let e): return "raise \(e)"
        case .send(let e, let delay, _): return delay == .zero ? "send \(e)" : "send \(e) after \(delay)"
        case .cancel(let id): return "cancel \(id)"
        case .log(let label, _): return "log \(label)"
        case .run(let name, _): return name ?? Self.unnamedLabel
        case .content(let source, _): return Self.contentLabel(source)
        case .startTimer(let key, let delay): return "start timer \(key) (\(delay))"
        case .cancelTimer(let key): return "cancel timer \(key)"
        }
    }
}

extension Action {
    /// The first line of a content block's source, shortened: a trace label.
    @usableFromInline static func contentLabel(_ source: String) -> String {
        let line = source.split(separator: "\n", omittingEmptySubsequences: true).first.map(String.init) ?? ""
        let trimmed = line.trimmingPrefix(while: { $0 == " " || $0 == "\t" })
        return trimmed.count > 60 ? String(trimmed.prefix(57)) + "..." : String(trimmed)
    }
}

/// What an action can see and do while it runs.
///
/// The scope owns the machine's extended state: an action mutates ``context`` in place. Events it
/// queues are appended to the interpreter's queues when the action returns, in the order queued,
/// even if the action then throws (the content before the failure has run, as in SCXML).
@dynamicMemberLookup
public struct ActionScope<Event: Hashable & Sendable, Context> {
    /// The extended state of the machine.
    public var context: Context
    /// The event being processed, or `nil` while the machine starts or takes eventless transitions.
    public var event: ChartEvent<Event>? { currentEvent }
    /// The state whose entry or exit actions are running, or the source of the running transition.
    public var state: ChartStateID? { currentState }

    @usableFromInline var currentEvent: ChartEvent<Event>?
    /// The index of ``currentState``, -1 for none: 4 bytes in the current event's padding, where
    /// an optional took a word of its own (issue 16, "Memory").
    @usableFromInline var currentStateIndex: Int32 = -1
    /// The number of ``currentEvent`` (``ChartEnvironment/eventSerial``): a new one for every
    /// event the machine begins to process (``begin(_:)``).
    @usableFromInline var eventSerial: UInt64
    @inlinable var currentState: ChartStateID? {
        get { currentStateIndex < 0 ? nil : ChartStateID(currentStateIndex) }
        set { currentStateIndex = newValue?.index ?? -1 }
    }
    /// The current virtual time of the machine (time since it started, advanced by its driver).
    @inlinable public var now: Duration { machineTime }
    /// The storage of ``now`` (set by the inlinable clock advance).
    @usableFromInline var machineTime: Duration

    /// The effects queued, the states exited and the states entered: one box made on first use,
    /// `nil` for a machine whose steps are splices that run no actions (ScopeLists.swift).
    @usableFromInline var listsBox: ListsBox?

    /// State ids of the chart, by index (shared with the chart, never copied).
    @usableFromInline let ids: [String]

    @inlinable
    init(context: Context, ids: [String]) {
        self.context = context
        self.machineTime = .zero
        self.ids = ids
        self.eventSerial = EventSerial.newBlock()
    }

    /// Makes `event` the event being processed, with a number of its own.
    @inlinable @inline(__always)
    mutating func begin(_ event: ChartEvent<Event>) {
        // A user event of a type without references, replacing another (the usual case): both
        // values hold no references, so the old one needs no destruction and the new one no copy
        // through the enum's value witnesses (about 30 instructions of a flat event; a plain
        // assignment still calls the outlined destroy, whatever the case is known to be).
        if _isPOD(Event.self), case .event(let e) = event, case .event? = currentEvent {
            withUnsafeMutablePointer(to: &currentEvent) { $0.initialize(to: .event(e)) }
        } else {
            currentEvent = event
        }
        eventSerial = EventSerial.next(after: eventSerial)
    }

    /// The id of a state of the running chart.
    public func id(of state: ChartStateID) -> String { ids[Int(state.index)] }

    /// The user event being processed, if the current event is one.
    public var userEvent: Event? { event?.userEvent }

    /// Queues an event on the internal queue: it is handled in this macrostep, after the
    /// current microstep and after any enabled eventless transition.
    public mutating func raise(_ event: Event) { effects.append(.raise(.event(event))) }

    /// Queues an event on the external queue: it is handled as its own macrostep after the current
    /// one, or after `delay` of machine time. A delayed send with an `id` can be cancelled.
    public mutating func send(_ event: Event, after delay: Duration = .zero, id: String? = nil) {
        effects.append(.send(event, delay: delay, id: id))
    }

    /// Raises `error.execution` with this message on the internal queue, without stopping the
    /// action: for content whose parts fail independently (SCXML binds each `<data>` even when
    /// another one fails). Throwing from the action raises it too, and skips the rest of the block.
    public mutating func raiseExecutionError(_ message: String) {
        effects.append(.raise(.error(ExecutionErrorEvent(message: message))))
    }

    /// Cancels pending delayed sends with this id.
    public mutating func cancel(sendID id: String) { effects.append(.cancel(id)) }

    /// Writes a line to the machine's trace.
    public mutating func log(_ message: String) { effects.append(.log(message)) }

    /// Queues asynchronous work to run after the current macrostep (rule R51). The asynchronous
    /// runtime awaits it before `send` returns and sends the event it returns, if any, as an
    /// external event; a thrown error becomes `error.execution`. The synchronous ``StateMachine``
    /// keeps it for the caller, who takes it with ``StateMachine/takePendingWork()``.
    public mutating func perform(_ name: String? = nil, _ work: @escaping @Sendable () async throws -> Event?) {
        effects.append(.perform(name, work))
    }

    /// Reads and writes a property of the extended state: `scope.count += 1`.
    public subscript<T>(dynamicMember keyPath: WritableKeyPath<Context, T>) -> T {
        get { context[keyPath: keyPath] }
        set { context[keyPath: keyPath] = newValue }
    }

    /// The states exited by the microstep that is running, in exit order.
    public var exitedStates: [ChartStateID] { (0..<exitCount).map { ChartStateID(exit(at: $0)) } }
    /// The states being entered by the microstep that is running, in entry order.
    public var enteredStates: [ChartStateID] { (0..<entryCount).map { ChartStateID(entry(at: $0)) } }
}

/// Something an action asked for, applied by the interpreter when the action returns.
@usableFromInline
enum ActionEffect<Event: Hashable & Sendable> {
    case raise(ChartEvent<Event>)
    case send(Event, delay: Duration, id: String?)
    case cancel(String)
    case log(String)
    case perform(String?, @Sendable () async throws -> Event?)
}
