/// Snapshots of a running chart instance and their restoration (rule R40).
///
/// A snapshot names states by their string ids (``Chart/ids``), never by index, and carries the
/// chart's ``Chart/fingerprint`` so that restoring it into a different chart is detected. Taking
/// one reads the running state; restoring one checks it against the chart and writes the running
/// state back without running any action.

// MARK: - The snapshot value

/// Everything a running ``ChartInstance`` holds, as a value: the active configuration at every
/// level, the history values, the extended state, the machine's clock, queued events and pending
/// delayed sends with the time they still have to wait (rule R40).
///
/// ```swift
/// let data = try JSONEncoder().encode(machine.snapshot())
/// let snapshot = try JSONDecoder().decode(ChartSnapshot<OrderEvent, Order>.self, from: data)
/// var restored = try StateMachine(order, restoring: snapshot)
/// ```
///
/// The snapshot is `Codable` when the event and context types are. Decoding malformed data fails
/// with the decoder's own error (`DecodingError`); a decoded snapshot that does not fit the chart
/// is refused by `restore` with ``MachineError/invalidSnapshot(_:)`` naming what does not fit.
public struct ChartSnapshot<Event: Hashable & Sendable, Context> {
    /// The version of the snapshot format this library writes (rule R89).
    ///
    /// Version 2 is the first in which a chart's data encodes: the context of a chart loaded from
    /// SCXML (its datamodel's variables, the read-only ones marked) is `Codable`. The fields of the
    /// snapshot itself are those of version 1, so a version 1 snapshot (of a chart whose context
    /// was already `Codable`) still restores; see ``readableFormatVersions``.
    public static var currentFormatVersion: Int { 2 }

    /// The versions of the snapshot format this library restores: 1 and 2. Any other is refused
    /// with ``MachineError/invalidSnapshot(_:)`` naming it.
    public static var readableFormatVersions: ClosedRange<Int> { 1...2 }

    /// The version of the snapshot format (``currentFormatVersion`` when taken by this library).
    public var formatVersion: Int
    /// The name of the chart the snapshot was taken from (for diagnostics only).
    public var chartName: String
    /// The ``Chart/fingerprint`` of the chart the snapshot was taken from.
    public var fingerprint: String
    /// Whether the machine had been started.
    public var hasStarted: Bool
    /// Whether the machine was running (started, and not stopped or finished).
    public var isRunning: Bool
    /// The top-level final state the machine stopped in, if it did.
    public var finalState: String?
    /// The ids of every active state in document order, compound and parallel ancestors included
    /// (the root is never listed).
    public var activeStates: [String]
    /// The recorded history values, by history state id: the states each one remembers.
    public var history: [String: [String]]
    /// The extended state.
    public var context: Context
    /// The machine's clock (``ChartInstance/now``).
    public var now: Duration
    /// Events on the external queue that were not processed yet, oldest first.
    public var queuedEvents: [SnapshotEvent<Event>]
    /// Delayed sends waiting for their time, in the order they will fire.
    public var pendingSends: [SnapshotPendingSend<Event>]
    /// The configuration a ``StateMachine`` remembers while it is suspended (rule R42); `nil`
    /// when it is not suspended, and always `nil` for a bare ``ChartInstance``.
    public var suspension: SnapshotSuspension<Event>?
}

extension ChartSnapshot: Sendable where Context: Sendable {}
extension ChartSnapshot: Equatable where Context: Equatable {}
extension ChartSnapshot: Codable where Event: Codable, Context: Codable {}

/// An event as a snapshot stores it: engine events name their state by id.
public enum SnapshotEvent<Event: Hashable & Sendable>: Hashable, Sendable {
    /// An event of the chart's event type.
    case event(Event)
    /// The done event of the state with this id (`done.state.<id>`).
    case done(state: String)
    /// An execution error event.
    case error(name: String, message: String)
    /// A delayed transition's timer (`timer.<key>`).
    case timer(key: String)
}

extension SnapshotEvent: Codable where Event: Codable {}

/// A delayed send that has not fired yet, with the machine time it still has to wait.
public struct SnapshotPendingSend<Event: Hashable & Sendable>: Hashable, Sendable {
    /// The time left until it fires: its due time minus the machine's clock.
    public var remaining: Duration
    /// The event it will put on the external queue.
    public var event: SnapshotEvent<Event>
    /// Its send id, which ``Action/cancel(id:)`` uses.
    public var id: String?

    /// Describes a pending send.
    public init(remaining: Duration, event: SnapshotEvent<Event>, id: String? = nil) {
        self.remaining = remaining
        self.event = event
        self.id = id
    }
}

extension SnapshotPendingSend: Codable where Event: Codable {}

/// What a suspended ``StateMachine`` remembers (rule R42): where it was and the delayed sends
/// that wait, paused, for it to come back.
public struct SnapshotSuspension<Event: Hashable & Sendable>: Hashable, Sendable {
    /// The id of the background state the machine was suspended to.
    public var background: String
    /// The ids of the states that were active when it was suspended, in document order.
    public var activeStates: [String]
    /// The delayed sends that were pending then, with the time they still had to wait.
    public var pausedSends: [SnapshotPendingSend<Event>]

    /// Describes a suspension.
    public init(background: String, activeStates: [String], pausedSends: [SnapshotPendingSend<Event>] = []) {
        self.background = background
        self.activeStates = activeStates
        self.pausedSends = pausedSends
    }
}

extension SnapshotSuspension: Codable where Event: Codable {}

// MARK: - Chart fingerprint

extension Chart {
    /// A fingerprint of the chart's state tree: every state's id, kind and parent, in document
    /// order, hashed with 64-bit FNV-1a into 16 hexadecimal digits.
    ///
    /// It is the same in every process and on every platform (it does not use `hashValue`), and it
    /// changes whenever a snapshot of one chart could not mean the same thing in the other: a
    /// state added, removed, renamed, moved, or changed in kind. Transitions, guards and actions
    /// are not part of it (rule R40).
    public var fingerprint: String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func mix(_ text: String) {
            for byte in text.utf8 {
                hash ^= UInt64(byte)
                hash = hash &* 0x0000_0100_0000_01b3
            }
        }
        for (i, state) in states.enumerated() {
            mix(ids[i])
            mix("\u{1F}")
            mix(Self.kindName(state.kind))
            mix("\u{1F}")
            mix(String(state.parent))
            mix("\u{1E}")
        }
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    static func kindName(_ kind: CompiledStateKind) -> String {
        switch kind {
        case .atomic: return "atomic"
        case .compound: return "compound"
        case .parallel: return "parallel"
        case .final: return "final"
        case .shallowHistory: return "shallowHistory"
        case .deepHistory: return "deepHistory"
        }
    }
}

// MARK: - The running state (internal)

/// A delayed send with the time it still has to wait.
struct SavedSend<Event: Hashable & Sendable>: Sendable {
    var remaining: Duration
    var event: ChartEvent<Event>
    var id: String?
}

/// The running state of an instance, by index: what a snapshot, an undo step (rule R41) and a
/// suspension (rule R42) keep. Scratch buffers, traces and runtime bookkeeping are not part of it.
struct RunningState<Event: Hashable & Sendable, Context> {
    var configuration: Configuration
    var historyValues: [[Int32]?]
    var context: Context
    var externalQueue: [ChartEvent<Event>]
    var sends: [SavedSend<Event>]
    var now: Duration
    var hasStarted: Bool
    var isRunning: Bool
    var finalState: ChartStateID?
}

extension ChartInstance {
    /// The delayed sends, in firing order, with the time each still has to wait.
    func savedSends() -> [SavedSend<Event>] {
        timers.map { SavedSend(remaining: $0.due - now, event: $0.event, id: $0.id) }
    }

    /// Schedules saved sends again, each due after its remaining time from now; they fire after
    /// sends already pending with the same due time, in the order given.
    mutating func schedule(_ sends: [SavedSend<Event>]) {
        for s in sends {
            timerSequence &+= 1
            let pending = PendingSend(due: now + s.remaining, sequence: timerSequence, event: s.event, id: s.id)
            var i = timers.count
            while i > 0 && timers[i - 1].due > pending.due { i -= 1 }
            timers.insert(pending, at: i)
        }
    }

    /// Reads the running state.
    func captureRunningState() -> RunningState<Event, Context> {
        RunningState(
            configuration: configuration, historyValues: historyValues, context: scope.context,
            externalQueue: Array(externalQueue.elements), sends: savedSends(), now: now, hasStarted: hasStarted,
            isRunning: isRunning, finalState: finalState)
    }

    /// Writes a running state back, running no action. With `keepingClock` the machine's clock
    /// stays where it is and the saved delayed sends wait their remaining time from now; otherwise
    /// the clock is set to the saved one.
    mutating func apply(_ state: RunningState<Event, Context>, keepingClock: Bool) {
        configuration = state.configuration
        historyValues = state.historyValues
        scope.context = state.context
        scope.currentEvent = nil
        clearInternalQueue()
        clearExternalQueue()
        for e in state.externalQueue { externalQueue.append(e) }
        if !keepingClock {
            machineTime = state.now
        }
        timers.removeAll()
        schedule(state.sends)
        hasStarted = state.hasStarted
        isRunning = state.isRunning
        finalState = state.finalState
        failures.removeAll()
        limitError = nil
        reconcileInvocations()
    }

    /// Keeps invoked work running exactly while its state is active (rule R52) after the
    /// configuration changed outside a microstep (undo, restore, suspend, resume): the work of
    /// states no longer active is cancelled, the work of active states not running is started.
    mutating func reconcileInvocations() {
        guard chart.hasInvocations else { return }
        var stale: [Int32] = []
        for (_, s) in runningInvocations where !configuration.contains(s) && !stale.contains(s) { stale.append(s) }
        for s in stale { stopInvocations(of: s) }
        for s in configuration.list where !chart.invocations[Int(s)].isEmpty {
            if !runningInvocations.contains(where: { $0.state == s }) { startInvocations(of: s) }
        }
    }

    // MARK: Public API

    /// Takes a snapshot of the running state (rule R40): active states, history values, extended
    /// state, clock, queued events and pending delayed sends. Nothing runs.
    public func snapshot() -> ChartSnapshot<Event, Context> {
        var history: [String: [String]] = [:]
        for (i, state) in chart.states.enumerated() where state.historySlot >= 0 {
            if let value = historyValues[Int(state.historySlot)] {
                history[chart.ids[i]] = value.map { chart.ids[Int($0)] }
            }
        }
        return ChartSnapshot(
            formatVersion: ChartSnapshot<Event, Context>.currentFormatVersion, chartName: chart.name,
            fingerprint: chart.fingerprint, hasStarted: hasStarted, isRunning: isRunning,
            finalState: finalState.map { chart.ids[Int($0.index)] },
            activeStates: configuration.list.map { chart.ids[Int($0)] }, history: history, context: scope.context,
            now: now, queuedEvents: externalQueue.elements.map(snapshotEvent),
            pendingSends: savedSends().map(snapshotSend), suspension: nil)
    }

    /// Creates an instance of `chart` in the running state of a snapshot (rule R40). Nothing runs:
    /// no entry, exit or transition action, no eventless transition.
    ///
    /// - Throws: ``MachineError/invalidSnapshot(_:)`` when the snapshot was taken from a chart with
    ///   another ``Chart/fingerprint``, names a state the chart does not have, holds a
    ///   configuration or history value that is not legal for the chart, or holds a suspension
    ///   (which only a ``StateMachine`` can restore).
    public init(chart: Chart<Event, Context>, restoring snapshot: ChartSnapshot<Event, Context>) throws(MachineError) {
        if let s = snapshot.suspension {
            throw .invalidSnapshot(
                "the snapshot holds a suspension (to '\(s.background)'); restore it with StateMachine.restore(from:)")
        }
        let state = try Self.runningState(of: snapshot, for: chart)
        self.init(chart: chart, context: snapshot.context)
        apply(state, keepingClock: false)
    }

    /// Replaces the running state with a snapshot's (rule R40), running no action. The clock is
    /// set to the snapshot's; tracing and the microstep limit stay as they are. On error the
    /// instance is unchanged.
    ///
    /// - Throws: ``MachineError/invalidSnapshot(_:)``; see ``init(chart:restoring:)``.
    public mutating func restore(from snapshot: ChartSnapshot<Event, Context>) throws(MachineError) {
        var restored = try ChartInstance(chart: chart, restoring: snapshot)
        restored.isTracing = isTracing
        restored.microstepLimit = microstepLimit
        restored.trace = trace
        self = restored
    }

    // MARK: Conversions

    func snapshotEvent(_ event: ChartEvent<Event>) -> SnapshotEvent<Event> {
        switch event {
        case .event(let e): return .event(e)
        case .done(let s): return .done(state: chart.ids[Int(s.index)])
        case .error(let e): return .error(name: e.name, message: e.message)
        case .timer(let key): return .timer(key: key)
        }
    }

    func snapshotSend(_ send: SavedSend<Event>) -> SnapshotPendingSend<Event> {
        SnapshotPendingSend(remaining: send.remaining, event: snapshotEvent(send.event), id: send.id)
    }

    // MARK: Validation

    /// Checks a snapshot against a chart and converts it to a running state by index.
    static func runningState(
        of snapshot: ChartSnapshot<Event, Context>, for chart: Chart<Event, Context>
    ) throws(MachineError) -> RunningState<Event, Context> {
        // Version 1 differs from 2 only in which contexts could encode (R89): it reads the same.
        let readable = ChartSnapshot<Event, Context>.readableFormatVersions
        guard readable.contains(snapshot.formatVersion) else {
            throw .invalidSnapshot(
                "unsupported format version \(snapshot.formatVersion) "
                    + "(this library reads versions \(readable.lowerBound) to \(readable.upperBound))")
        }
        let fingerprint = chart.fingerprint
        guard snapshot.fingerprint == fingerprint else {
            throw .invalidSnapshot(
                "the snapshot was taken from chart '\(snapshot.chartName)' (fingerprint \(snapshot.fingerprint)), "
                    + "not from chart '\(chart.name)' (fingerprint \(fingerprint))")
        }
        let checker = SnapshotChecker(chart: chart)

        // Lifecycle flags.
        if snapshot.isRunning && !snapshot.hasStarted {
            throw .invalidSnapshot("a machine cannot be running without having started")
        }
        var finalState: ChartStateID?
        if let f = snapshot.finalState {
            let index = try checker.index(of: f, in: "finalState")
            guard chart.states[Int(index)].kind == .final, chart.states[Int(index)].parent == 0 else {
                throw .invalidSnapshot("finalState '\(f)' is not a top-level final state")
            }
            guard snapshot.hasStarted && !snapshot.isRunning else {
                let status = snapshot.isRunning ? "running" : "not started"
                throw .invalidSnapshot("finalState '\(f)' is set but the machine is \(status)")
            }
            finalState = ChartStateID(index)
        }

        // The configuration.
        let active = try checker.configuration(snapshot.activeStates, in: "activeStates")
        if snapshot.isRunning {
            if let problem = checker.legalityProblem(of: active, below: 0) {
                throw .invalidSnapshot("activeStates is not a legal configuration: \(problem)")
            }
            for s in active where chart.states[Int(s)].parent == 0 && chart.states[Int(s)].kind == .final {
                throw .invalidSnapshot(
                    "activeStates holds the top-level final state '\(chart.ids[Int(s)])' in a running machine "
                        + "(entering it stops the machine, R15)")
            }
        } else {
            if let first = active.first {
                throw .invalidSnapshot(
                    "a machine that is not running has no active states, but activeStates lists '\(chart.ids[Int(first)])'")
            }
            if !snapshot.queuedEvents.isEmpty || !snapshot.pendingSends.isEmpty {
                throw .invalidSnapshot("a machine that is not running has no queued events or pending sends")
            }
        }
        var configuration = Configuration(stateCount: chart.stateCount, bound: chart.configurationBound)
        for s in active { configuration.insert(s) }

        // History values.
        var historyValues = [[Int32]?](repeating: nil, count: chart.historyCount)
        for key in snapshot.history.keys.sorted() {
            let h = try checker.index(of: key, in: "history")
            let kind = chart.states[Int(h)].kind
            guard kind.isHistory else { throw .invalidSnapshot("history names '\(key)', which is not a history state") }
            let value = try checker.configuration(snapshot.history[key] ?? [], in: "the history value of '\(key)'")
            if let problem = checker.historyProblem(value, of: h) {
                throw .invalidSnapshot("the history value of '\(key)' is not legal: \(problem)")
            }
            historyValues[Int(chart.states[Int(h)].historySlot)] = value
        }

        // Queues and delayed sends.
        var queue: [ChartEvent<Event>] = []
        for e in snapshot.queuedEvents { queue.append(try checker.chartEvent(e, in: "queuedEvents")) }
        let sends = try checker.sends(snapshot.pendingSends, in: "pendingSends")
        return RunningState(
            configuration: configuration, historyValues: historyValues, context: snapshot.context, externalQueue: queue,
            sends: sends, now: snapshot.now, hasStarted: snapshot.hasStarted, isRunning: snapshot.isRunning,
            finalState: finalState)
    }
}

/// Checks the parts of a snapshot against a chart; every failure is ``MachineError/invalidSnapshot(_:)``
/// naming the offending id.
struct SnapshotChecker<Event: Hashable & Sendable, Context> {
    let chart: Chart<Event, Context>

    func name(_ s: Int32) -> String { s == 0 ? "the top level" : "'\(chart.ids[Int(s)])'" }

    /// The index of a state id that may appear in a snapshot (not the root).
    func index(of id: String, in field: String) throws(MachineError) -> Int32 {
        guard let s = chart.state(withID: id)?.index, s != 0 else {
            throw .invalidSnapshot("\(field) names unknown state '\(id)'")
        }
        return s
    }

    /// Indices of a list of state ids, sorted, without duplicates or history states.
    func configuration(_ ids: [String], in field: String) throws(MachineError) -> [Int32] {
        var result: [Int32] = []
        for id in ids {
            let s = try index(of: id, in: field)
            if chart.states[Int(s)].kind.isHistory {
                throw .invalidSnapshot("\(field) names the history state '\(id)', which is never active")
            }
            if result.contains(s) { throw .invalidSnapshot("\(field) names '\(id)' twice") }
            result.append(s)
        }
        result.sort()
        return result
    }

    func contains(_ set: [Int32], _ s: Int32) -> Bool { set.contains(s) }

    /// Why a set of states (sorted) is not a legal configuration of the subtree below `top`, or
    /// `nil`: every state's parent is `top` or in the set; `top` and (unless `onlyTop`) every
    /// compound state of the set have exactly one child in the set; every parallel state among
    /// them has all its regions.
    func legalityProblem(of set: [Int32], below top: Int32, onlyTop: Bool = false) -> String? {
        for s in set {
            guard chart.isDescendant(s, of: top) else { return "'\(chart.ids[Int(s)])' is not inside \(name(top))" }
            let p = chart.states[Int(s)].parent
            if p != top && !contains(set, p) {
                return "'\(chart.ids[Int(s)])' is active without its parent '\(chart.ids[Int(p)])'"
            }
        }
        for s in onlyTop ? [top] : [top] + set {
            let children = chart.states.children(of: s).filter { !chart.states[Int($0)].kind.isHistory }
            switch chart.states[Int(s)].kind {
            case .compound:
                let active = children.filter { contains(set, $0) }
                if active.count != 1 {
                    let what = s == 0 ? "the top level" : "the compound state '\(chart.ids[Int(s)])'"
                    let listed = active.map { "'\(chart.ids[Int($0)])'" }.joined(separator: ", ")
                    return "\(what) has \(active.count) active children"
                        + (active.isEmpty ? "" : " (\(listed))") + "; exactly one is required"
                }
            case .parallel:
                if let missing = children.first(where: { !contains(set, $0) }) {
                    let region = chart.ids[Int(missing)]
                    return "the parallel state '\(chart.ids[Int(s)])' is missing its region '\(region)'"
                }
            default:
                break
            }
        }
        return nil
    }

    /// Why a history value (sorted) cannot have been recorded by history state `h`, or `nil`.
    func historyProblem(_ value: [Int32], of h: Int32) -> String? {
        let parent = chart.states[Int(h)].parent
        guard !value.isEmpty else { return "it is empty" }
        if chart.states[Int(h)].kind == .shallowHistory {
            for s in value where chart.states[Int(s)].parent != parent {
                return "'\(chart.ids[Int(s)])' is not a child of \(name(parent))"
            }
            return legalityProblem(of: value, below: parent, onlyTop: true)
        }
        var closure = value
        for s in value {
            guard chart.states[Int(s)].kind.isAtomic else {
                return "'\(chart.ids[Int(s)])' is not an atomic state (deep history remembers atomic states)"
            }
            guard chart.isDescendant(s, of: parent) else {
                return "'\(chart.ids[Int(s)])' is not inside \(name(parent))"
            }
            var a = chart.states[Int(s)].parent
            while a != parent {
                if !closure.contains(a) { closure.append(a) }
                a = chart.states[Int(a)].parent
            }
        }
        closure.sort()
        return legalityProblem(of: closure, below: parent)
    }

    func chartEvent(_ e: SnapshotEvent<Event>, in field: String) throws(MachineError) -> ChartEvent<Event> {
        switch e {
        case .event(let e): return .event(e)
        case .done(let id): return .done(ChartStateID(try index(of: id, in: field)))
        case .error(let name, let message): return .error(ExecutionErrorEvent(name: name, message: message))
        case .timer(let key): return .timer(key)
        }
    }

    func sends(_ sends: [SnapshotPendingSend<Event>], in field: String) throws(MachineError) -> [SavedSend<Event>] {
        var result: [SavedSend<Event>] = []
        for s in sends {
            guard s.remaining >= .zero else {
                throw .invalidSnapshot("\(field) holds a send with negative remaining time \(s.remaining)")
            }
            result.append(SavedSend(remaining: s.remaining, event: try chartEvent(s.event, in: field), id: s.id))
        }
        // Scheduling puts them in firing order (equal times keep the listed order).
        return result
    }
}
