import Foundation
import Statechart

/// A pending delayed send in machine time.
struct PendingTimer: Sendable {
    var due: Duration
    var event: String
    var sendID: String?
}

/// An effect a macrostep asked for.
struct StepEffect: Sendable {
    var kind: String
    var name: String
    var state: String
    /// For `send`: the event, as JSON.
    var payload: String? = nil
}

/// What one macrostep produced, as JSON and ids: everything a commit needs.
struct StepResult: Sendable {
    var snapshot: String
    var configuration: [String]
    var finished: Bool
    var handled: Bool
    var timers: [PendingTimer]
    var effects: [StepEffect]
    /// The consumed event(s) for the journal.
    var journalEvent: String
    /// The machine after the step, for the host to keep while its row is unchanged.
    var machine: WarmMachine
}

/// A restored machine the host keeps between macrosteps, so that the next step of an instance
/// whose row still has the revision the host wrote skips decoding and checking its snapshot.
///
/// `@unchecked Sendable`: the value is a `ChartInstance`, which is not `Sendable`; it is made by
/// the runner's closures, which the host actor calls synchronously, stored in the host actor's
/// state and handed back to those closures only — it never leaves the actor.
final class WarmMachine: @unchecked Sendable {
    let value: Any

    init(_ value: Any) { self.value = value }
}

/// A chart registered with a host, erased to JSON in and JSON out.
///
/// Why erased: one host runs charts of many event and context types side by side (a Swift builder
/// chart and an SCXML chart), the store keeps JSON anyway, and the journal must read without the
/// chart's Swift types. Only this value knows `E` and `C`; it decodes the snapshot, runs one
/// macrostep on a ``ChartInstance`` and encodes the result.
struct RegisteredChart: Sendable {
    let name: String
    /// The compiled chart's own name (a snapshot records it).
    let chartName: String
    let version: Int
    /// Starts a new machine (machine time zero).
    let start: @Sendable (_ instance: String) throws(DurableError) -> StepResult
    /// Restores the snapshot (or takes the warm machine, when the host kept one for this row's
    /// revision), moves the machine's time to `now` and delivers the event (JSON).
    let deliver: @Sendable (_ instance: String, _ snapshot: String, _ warm: WarmMachine?, _ event: String, _ now: Duration)
        throws(DurableError) -> StepResult
    /// Restores the snapshot (or takes the warm machine) and fires the delayed sends due at its
    /// earliest due time, if that is at or before `now`; `nil` when none is due.
    let fire: @Sendable (_ instance: String, _ snapshot: String, _ warm: WarmMachine?, _ now: Duration)
        throws(DurableError) -> StepResult?
    /// Replays a journal on a fresh machine and compares each row's configuration, and at the
    /// end the whole snapshot, with what was stored (rule D11).
    let replay: @Sendable (_ instance: InstanceRecord, _ journal: [JournalEntry]) throws(DurableError) -> Void
    /// Takes a snapshot (renamed for this chart) as this chart's: checks it fits and re-encodes it,
    /// running nothing (rule D12).
    let adopt: @Sendable (_ instance: String, _ snapshot: String) throws(DurableError) -> StepResult
    /// The chart's fingerprint.
    let fingerprint: String
    /// Checks that the snapshot decodes and fits the chart.
    let check: @Sendable (_ instance: String, _ snapshot: String) throws(DurableError) -> Void

    init<E: Hashable & Sendable & Codable, C: Sendable & Codable>(
        chart: Chart<E, C>, name: String, version: Int, initialContext: C
    ) {
        self.name = name
        self.chartName = chart.name
        self.version = version
        let runner = ChartRunner(chart: chart, name: name, version: version)
        start = { id throws(DurableError) in try runner.start(id, context: initialContext) }
        deliver = { id, snapshot, warm, event, now throws(DurableError) in
            try runner.deliver(id, snapshot, warm, event, now)
        }
        fire = { id, snapshot, warm, now throws(DurableError) in try runner.fire(id, snapshot, warm, now) }
        check = { id, snapshot throws(DurableError) in _ = try runner.restore(id, snapshot) }
        fingerprint = runner.fingerprint
        adopt = { id, snapshot throws(DurableError) in
            var machine = try runner.machine(id, snapshot, nil)
            return try runner.result(of: &machine, handled: true, journalEvent: "null")
        }
        replay = { record, journal throws(DurableError) in
            try JournalReplay(runner: runner, record: record).run(journal, context: initialContext)
        }
    }
}

/// The typed half of a ``RegisteredChart``.
struct ChartRunner<E: Hashable & Sendable & Codable, C: Sendable & Codable>: Sendable {
    let chart: Chart<E, C>
    let name: String
    let version: Int
    let fingerprint: String

    init(chart: Chart<E, C>, name: String, version: Int) {
        self.chart = chart
        self.name = name
        self.version = version
        self.fingerprint = chart.fingerprint
    }

    func start(_ id: String, context: C) throws(DurableError) -> StepResult {
        var machine = Machine(instance: newInstance(id, context: context), names: [:])
        do {
            try machine.instance.start()
        } catch {
            throw .machineFailed(instance: id, error: error)
        }
        return try result(of: &machine, handled: true, journalEvent: "null")
    }

    /// A machine of the chart for a new instance, not started. An SCXML chart's session is named
    /// by the instance id (rule D22), unless `hosted` is `false` (the replay of an instance started
    /// before D22).
    func newInstance(_ id: String, context: C, hosted: Bool = true) -> ChartInstance<E, C> {
        ChartInstance(chart: chart, context: hosted ? SCXMLHosting.startingContext(context, instance: id) : context)
    }

    /// When the machine's next durable timer falls due: its own earliest delayed send, or an SCXML
    /// chart's earliest delayed send to another instance (rule D22), whichever comes first.
    func nextDueTime(of instance: ChartInstance<E, C>) -> Duration? {
        let own = instance.nextDueTime
        guard let send = SCXMLHosting.nextSendDueTime(of: instance) else { return own }
        return own.map { min($0, send) } ?? send
    }

    /// Takes the events for other instances out of the machine's context, before its snapshot is
    /// taken: a ``DurableMessaging`` context's messages (rule D20) and an SCXML chart's sends due
    /// now (rule D22).
    func takeOutgoing(from instance: inout ChartInstance<E, C>) throws(DurableError) -> [DurableMessage] {
        takeMessages(from: &instance) + (try SCXMLHosting.takeSends(from: &instance))
    }

    /// Decodes a stored snapshot and restores it into an instance of the chart.
    func restore(_ id: String, _ json: String) throws(DurableError) -> (ChartSnapshot<E, C>, ChartInstance<E, C>) {
        // The chart's identity first: a snapshot of another chart would otherwise fail to decode
        // its context and look corrupt.
        let header: SnapshotHeader
        do {
            header = try Self.decoder.decode(SnapshotHeader.self, from: Data(json.utf8))
        } catch {
            throw .corruptSnapshot(instance: id, reason: String(describing: error))
        }
        guard header.fingerprint == fingerprint else {
            throw .snapshotMismatch(
                instance: id, chart: name, version: version,
                reason: "the snapshot was taken from chart '\(header.chartName)' (fingerprint \(header.fingerprint)), "
                    + "not from this chart (fingerprint \(fingerprint))")
        }
        let snapshot: ChartSnapshot<E, C>
        do {
            snapshot = try Self.decoder.decode(ChartSnapshot<E, C>.self, from: Data(json.utf8))
        } catch {
            throw .corruptSnapshot(instance: id, reason: String(describing: error))
        }
        do {
            return (snapshot, try ChartInstance(chart: chart, restoring: snapshot))
        } catch {
            throw .snapshotMismatch(instance: id, chart: name, version: version, reason: error.description)
        }
    }

    /// Restoring restarts the bookkeeping of invoked work; those starts are not effects of the
    /// step (they were recorded when their states were entered). Their names serve later cancels.
    func invocationNames(discardingRestartsOf instance: inout ChartInstance<E, C>) -> [UInt64: StepEffect] {
        var running: [UInt64: StepEffect] = [:]
        for request in instance.takeInvocationRequests() {
            if case .start(let token, let state, let invocation) = request {
                running[token] = StepEffect(kind: "invoke.cancel", name: invocation.name, state: chart.id(of: state))
            }
        }
        return running
    }

    /// A running machine with the names of the invoked work it runs, by token.
    struct Machine {
        var instance: ChartInstance<E, C>
        var names: [UInt64: StepEffect]
    }

    /// The warm machine if the host kept one, else the stored snapshot restored.
    func machine(_ id: String, _ json: String, _ warm: WarmMachine?) throws(DurableError) -> Machine {
        if let machine = warm?.value as? Machine { return machine }
        var (_, instance) = try restore(id, json)
        let names = invocationNames(discardingRestartsOf: &instance)
        return Machine(instance: instance, names: names)
    }

    func fire(_ id: String, _ json: String, _ warm: WarmMachine?, _ now: Duration) throws(DurableError) -> StepResult? {
        var machine = try machine(id, json, warm)
        guard let due = nextDueTime(of: machine.instance), due <= now else { return nil }
        let before = machine.instance.snapshot()
        let fired = before.pendingSends.filter { before.now + $0.remaining == due }.map(\.event)
        // Actions that fail while a timer fires are committed anyway (rule D6): the chart saw
        // `error.execution`, and refusing the step would fire the same timer again forever.
        // A due SCXML send to another instance moves the clock only; `result` then takes it out.
        try? machine.instance.advance(by: max(due - machine.instance.now, .zero))
        return try result(of: &machine, handled: true, journalEvent: encode(fired))
    }

    func deliver(_ id: String, _ json: String, _ warm: WarmMachine?, _ eventJSON: String, _ now: Duration)
        throws(DurableError) -> StepResult
    {
        var machine = try machine(id, json, warm)
        let event: E
        do {
            event = try Self.decoder.decode(E.self, from: Data(eventJSON.utf8))
        } catch {
            throw .eventNotDecodable(instance: id, reason: String(describing: error))
        }
        let handled: Bool
        do {
            // The host fired the timers due before now, so moving the clock fires none.
            if now > machine.instance.now { try machine.instance.advance(by: now - machine.instance.now) }
            handled = try machine.instance.send(event)
        } catch {
            throw .machineFailed(instance: id, error: error)
        }
        return try result(of: &machine, handled: handled, journalEvent: eventJSON)
    }

    func result(of machine: inout Machine, handled: Bool, journalEvent: String) throws(DurableError) -> StepResult {
        // Messages leave the context before the snapshot is taken: they are committed in the
        // outbox, never in the snapshot (rules D20, D22).
        let messages = try takeOutgoing(from: &machine.instance)
        let snapshot = machine.instance.snapshot()
        var effects: [StepEffect] = machine.instance.takePendingWork().map {
            StepEffect(kind: "work", name: $0.name ?? "", state: $0.source)
        }
        // A cancel names its work by token only: `names` knows the tokens running before the
        // step (from the restore) and those this step started.
        for request in machine.instance.takeInvocationRequests() {
            switch request {
            case .start(let token, let state, let invocation):
                let id = chart.id(of: state)
                machine.names[token] = StepEffect(kind: "invoke.cancel", name: invocation.name, state: id)
                effects.append(StepEffect(kind: "invoke.start", name: invocation.name, state: id))
            case .cancel(let token):
                effects.append(
                    machine.names.removeValue(forKey: token) ?? StepEffect(kind: "invoke.cancel", name: "", state: ""))
            }
        }
        effects += messages.map { StepEffect(kind: "send", name: $0.instance, state: "", payload: $0.event) }
        var timers: [PendingTimer] = []
        for send in snapshot.pendingSends {
            timers.append(PendingTimer(due: snapshot.now + send.remaining, event: try encode(send.event), sendID: send.id))
        }
        // An SCXML chart's delayed sends to other instances stay in its context until they fall
        // due: each is a timer row too, so a sweep finds the instance then (rule D22). Sorted, so
        // the rows' positions stay in due order.
        let sends = try SCXMLHosting.pendingSends(of: machine.instance)
        if !sends.isEmpty {
            timers = (timers + sends).enumerated().sorted { ($0.element.due, $0.offset) < ($1.element.due, $1.offset) }
                .map(\.element)
        }
        let finished = snapshot.hasStarted && !snapshot.isRunning
        return StepResult(
            snapshot: try encode(snapshot),
            configuration: finished ? snapshot.finalState.map { [$0] } ?? [] : snapshot.activeStates,
            finished: finished, handled: handled, timers: timers, effects: effects, journalEvent: journalEvent,
            machine: WarmMachine(machine))
    }

    func encode<T: Encodable>(_ value: T) throws(DurableError) -> String { try DurableJSON.encode(value) }

    static var decoder: JSONDecoder { DurableJSON.decoder }
}

/// The fields of a stored `ChartSnapshot` that say which chart it belongs to.
struct SnapshotHeader: Decodable {
    var chartName: String
    var fingerprint: String
}
