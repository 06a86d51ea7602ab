import Foundation
import Statechart

/// Runs durable machine instances: every macrostep is committed to a ``DurableStore`` before the
/// call that caused it returns (rule D1).
///
/// ```swift
/// let store = try await SQLiteStore(path: "orders.sqlite")
/// let host = DurableHost(store: store)
/// try await host.register(orderChart, name: "order", version: 1, initialContext: Order())
/// try await host.create("order-42", chart: "order", version: 1)
/// let outcome = try await host.send(OrderEvent.pay, to: "order-42", idempotencyKey: "req-7")
/// // Acknowledged means durable: a crash now loses nothing; a retry with "req-7" is applied once.
/// ```
///
/// Instances are pinned to the chart name and version they were created with. The host keeps no
/// machine in memory between calls: each macrostep restores the stored snapshot, runs, and
/// commits with a revision compare-and-swap, so two hosts on one database never both apply a
/// step from the same revision (rule D4).
public actor DurableHost {
    let store: any DurableStore
    let clock: HostClock
    let effectHandler: (@Sendable (OutboxEntry) async throws -> Void)?
    var charts: [ChartKey: RegisteredChart] = [:]
    /// Per instance, the callers waiting for it (present while one holds it).
    var waiters: [String: [CheckedContinuation<Void, Never>]] = [:]
    /// Messages to other instances committed by steps that ran while their instance was held,
    /// delivered once it is let go (``deliverQueuedMessages()``, rule D20).
    var queuedMessages: [OutboxEntry] = []
    /// Restored machines kept between macrosteps, by instance (see ``keep(_:_:)``).
    var kept: [String: KeptMachine] = [:]
    /// The most machines kept in memory between macrosteps.
    public let keptMachinesLimit: Int
    /// What this host did since it was created.
    public internal(set) var statistics = HostStatistics()
    /// How many sweeps of ``run(every:)`` in a row had failures (0 after one without).
    public internal(set) var failedSweepsInARow = 0
    /// What the last timer sweep of ``run(every:)`` did.
    public internal(set) var lastSweep = TimerSweep(fired: 0, failures: [])
    /// Why the last failed delivery of a message to another instance failed (rule D20): an
    /// unknown instance, an event its chart does not decode, its lease held by another node, ….
    public internal(set) var lastMessageFailure: DurableError?

    struct ChartKey: Hashable {
        var name: String
        var version: Int
    }

    /// Creates a host on a store (which must have been prepared: the stores' initialisers do).
    ///
    /// - Parameters:
    ///   - store: Where instances live.
    ///   - clock: Where due times come from; ``HostClock/system`` by default.
    ///   - effects: Called after commit for each effect in the outbox, at least once (rule D7);
    ///     an effect whose call throws stays pending for ``dispatchPendingEffects(limit:)``.
    ///   - keptMachines: How many restored machines the host keeps in memory between macrosteps,
    ///     so that the next step of an unchanged instance does not decode its snapshot (rule D14).
    public init(
        store: any DurableStore, clock: HostClock = .system, keptMachines: Int = 10_000,
        effects: (@Sendable (OutboxEntry) async throws -> Void)? = nil
    ) {
        self.keptMachinesLimit = max(keptMachines, 0)
        self.store = store
        self.clock = clock
        self.effectHandler = effects
    }

    // MARK: - Charts

    /// Registers a compiled chart under a name and version (Swift builder charts through
    /// `TypedChart.chart`, SCXML charts as loaded).
    ///
    /// - Throws: ``DurableError/chartAlreadyRegistered(name:version:)``.
    public func register<E: Hashable & Sendable & Codable, C: Sendable & Codable>(
        _ chart: Chart<E, C>, name: String? = nil, version: Int, initialContext: C
    ) throws(DurableError) {
        let name = name ?? chart.name
        let key = ChartKey(name: name, version: version)
        guard charts[key] == nil else { throw .chartAlreadyRegistered(name: name, version: version) }
        charts[key] = RegisteredChart(chart: chart, name: name, version: version, initialContext: initialContext)
    }

    /// Registers a Swift builder chart (see ``register(_:name:version:initialContext:)-(Chart<E,C>,_,_,_)``).
    public func register<E: Hashable & Sendable & Codable, C: Sendable & Codable>(
        _ typed: TypedChart<E, C>, name: String? = nil, version: Int, initialContext: C
    ) throws(DurableError) {
        try register(typed.chart, name: name, version: version, initialContext: initialContext)
    }

    func chart(for record: InstanceRecord) throws(DurableError) -> RegisteredChart {
        guard let chart = charts[ChartKey(name: record.chartName, version: record.chartVersion)] else {
            throw .chartNotRegistered(name: record.chartName, version: record.chartVersion)
        }
        return chart
    }

    // MARK: - Instances

    /// Creates and starts an instance; returns once its start is committed (journal sequence 0).
    ///
    /// - Throws: ``DurableError/invalidInstanceID(_:)``, ``DurableError/chartNotRegistered(name:version:)``,
    ///   ``DurableError/instanceExists(_:)``, ``DurableError/machineFailed(instance:error:)`` when
    ///   the start's actions fail (nothing is written).
    @discardableResult
    public func create(_ id: String, chart name: String, version: Int) async throws(DurableError) -> InstanceRecord {
        let record = try await createHolding(id, chart: name, version: version)
        await deliverQueuedMessages()
        return record
    }

    /// ``create(_:chart:version:)`` holding the instance; its messages are queued, not delivered.
    func createHolding(_ id: String, chart name: String, version: Int) async throws(DurableError) -> InstanceRecord {
        guard !id.isEmpty else { throw .invalidInstanceID(id) }
        guard let chart = charts[ChartKey(name: name, version: version)] else {
            throw .chartNotRegistered(name: name, version: version)
        }
        await acquire(id)
        defer { release(id) }
        let result = try chart.start(id)
        let now = clock.now().nanoseconds
        let blank = InstanceRecord(
            id: id, chartName: name, chartVersion: version, revision: 0, sequence: -1, originNanoseconds: now,
            finished: false, activeStates: [], snapshot: "")
        let commit = makeCommit(blank, result, kind: .start, key: nil, event: result.journalEvent, now: now)
        try await store.insert(commit)
        statistics.committed += 1
        keep(commit, result)
        await dispatch(commit.outbox)
        return commit.instance
    }

    /// Sends an event to an instance and returns once its macrostep is committed (rule D1).
    ///
    /// Timers of the instance that fell due before now fire first, each as its own macrostep
    /// (rule D6). With an idempotency key, a send whose key was committed before on this instance
    /// runs nothing and returns the recorded outcome with ``SendOutcome/replayed`` set (rule D3).
    ///
    /// - Throws: ``DurableError/unknownInstance(_:)``, ``DurableError/eventNotEncodable(_:)``,
    ///   ``DurableError/eventNotDecodable(instance:reason:)``, ``DurableError/machineFailed(instance:error:)``
    ///   (the machine refused the event or an action failed: nothing was written),
    ///   ``DurableError/idempotencyKeyReused(instance:key:)``, the snapshot errors and the store's.
    @discardableResult
    public func send<E: Encodable>(_ event: E, to id: String, idempotencyKey: String? = nil) async throws(DurableError)
        -> SendOutcome
    {
        let json: String
        do {
            json = String(decoding: try DurableJSON.encoder.encode(event), as: UTF8.self)
        } catch {
            throw .eventNotEncodable(String(describing: error))
        }
        return try await send(json: json, to: id, idempotencyKey: idempotencyKey)
    }

    /// Sends an event given as JSON (see ``send(_:to:idempotencyKey:)``).
    @discardableResult
    public func send(json: String, to id: String, idempotencyKey: String? = nil) async throws(DurableError)
        -> SendOutcome
    {
        let outcome = try await sendHolding(json: json, to: id, idempotencyKey: idempotencyKey)
        // Once the instance is let go: a message to an instance that is sending to this one
        // would otherwise wait for it while it waits for this one.
        await deliverQueuedMessages()
        return outcome
    }

    /// ``send(json:to:idempotencyKey:)`` holding the instance; the messages its steps commit are
    /// queued, not delivered.
    func sendHolding(json: String, to id: String, idempotencyKey: String?) async throws(DurableError) -> SendOutcome {
        await acquire(id)
        defer { release(id) }
        var conflicts = 0
        while true {
            // With the machine of its own last commit kept, the host reads nothing before the
            // step (rule D21): a recorded key fails the commit (duplicateIdempotencyKey), another
            // writer fails the compare-and-swap, and both are answered below.
            if let key = idempotencyKey, conflicts > 0 || kept[id] == nil,
                let recorded = try await recordedOutcome(key, of: id, event: json)
            {
                return recorded
            }
            // One reading of the clock for both: a timer due between the two would otherwise fire
            // inside the event's macrostep instead of in its own.
            let now = clock.now().nanoseconds
            guard let record = try await fireDueTimers(of: id, upTo: now, trustingKept: conflicts == 0).record else {
                throw .unknownInstance(id)
            }
            let chart = try chart(for: record)
            let warm = warm(for: record)
            let result: StepResult
            do {
                result = try chart.deliver(id, record.snapshot, warm, json, machineTime(of: record, at: now))
            } catch {
                // A retry whose key is recorded is answered from the record, even when the event
                // would be refused now (the first send may have finished the machine).
                if let key = idempotencyKey, let recorded = try await recordedOutcome(key, of: id, event: json) {
                    return recorded
                }
                throw error
            }
            let commit = makeCommit(record, result, kind: .event, key: idempotencyKey, event: json, now: now)
            do {
                try await store.commit(commit)
            } catch .revisionConflict where conflicts < Self.conflictRetries {
                // Another host committed a step of this instance first; ours wrote nothing, so it
                // runs again on the new revision, read from the store (rule D4).
                kept[id] = nil
                conflicts += 1
                statistics.conflictsRetried += 1
                continue
            } catch .duplicateIdempotencyKey(let id, let key) {
                // The key was committed before (a retry), by this host or another one between our
                // check and our commit: its outcome stands, and the kept machine is still this
                // host's last commit (nothing was written).
                guard let recorded = try await recordedOutcome(key, of: id, event: json) else { throw .unknownInstance(id) }
                return recorded
            } catch {
                // Nothing of this step was written, and the row may have moved on (a lost
                // connection during COMMIT, another node's lease): the next step reads it.
                kept[id] = nil
                throw error
            }
            statistics.committed += 1
            if warm != nil { statistics.keptMachinesUsed += 1 }
            keep(commit, result)
            await dispatch(commit.outbox)
            return commit.idempotency?.outcome ?? Self.outcome(of: commit, handled: result.handled)
        }
    }

    /// How many times in a row a step is run again after losing the compare-and-swap to another
    /// host before the conflict is reported.
    static var conflictRetries: Int { 16 }

    func recordedOutcome(_ key: String, of id: String, event: String) async throws(DurableError) -> SendOutcome? {
        guard let recorded = try await store.idempotency(key, of: id) else { return nil }
        guard recorded.event == event else { throw .idempotencyKeyReused(instance: id, key: key) }
        var outcome = recorded.outcome
        outcome.replayed = true
        statistics.replayed += 1
        return outcome
    }

    /// The stored instance.
    ///
    /// - Throws: ``DurableError/unknownInstance(_:)``.
    public func instance(_ id: String) async throws(DurableError) -> InstanceRecord {
        guard let record = try await store.instance(id) else { throw .unknownInstance(id) }
        return record
    }

    /// The stored snapshot of an instance, decoded and checked against its registered chart.
    ///
    /// - Throws: ``DurableError/unknownInstance(_:)``, ``DurableError/corruptSnapshot(instance:reason:)``,
    ///   ``DurableError/snapshotMismatch(instance:chart:version:reason:)``.
    public func snapshot<E: Hashable & Sendable & Codable, C: Sendable & Codable>(
        of id: String, as type: ChartSnapshot<E, C>.Type = ChartSnapshot<E, C>.self
    ) async throws(DurableError) -> ChartSnapshot<E, C> {
        let record = try await instance(id)
        let chart = try chart(for: record)
        try chart.check(id, record.snapshot)
        do {
            return try JSONDecoder().decode(type, from: Data(record.snapshot.utf8))
        } catch {
            throw .corruptSnapshot(instance: id, reason: String(describing: error))
        }
    }

    /// The instances whose active states (at any level) include `state`; every instance when `nil`.
    public func instances(inState state: String? = nil) async throws(DurableError) -> [InstanceRecord] {
        try await store.instances(inState: state)
    }

    /// The journal of an instance in sequence order: one row per committed macrostep (rule D5).
    public func journal(of id: String) async throws(DurableError) -> [JournalEntry] {
        try await store.journal(of: id)
    }

    /// Replays the instance's journal on a fresh machine of its chart and checks that every row's
    /// configuration, and at the end the stored snapshot, is what the replay reaches (rule D11).
    /// Returns the number of rows replayed.
    ///
    /// - Throws: ``DurableError/journalDiverges(instance:sequence:reason:)`` naming the first row
    ///   that does not replay, ``DurableError/unknownInstance(_:)``,
    ///   ``DurableError/chartNotRegistered(name:version:)``.
    @discardableResult
    public func verifyJournal(of id: String) async throws(DurableError) -> Int {
        await acquire(id)
        defer { release(id) }
        guard let record = try await store.instance(id) else { throw .unknownInstance(id) }
        let journal = try await store.journal(of: id)
        try chart(for: record).replay(record, journal)
        return journal.count
    }

    /// Forgets the idempotency keys of macrosteps committed more than `age` ago by the host's
    /// clock, of every instance, and returns how many it forgot (rule D18). A send retried with
    /// a forgotten key is applied again, so `age` must be longer than any client retries a send
    /// (payment APIs keep keys for a day). The journal keeps each row's key.
    ///
    /// Run it now and then (a scheduled task of the application); keys are otherwise kept as long
    /// as their instance. An age of zero or less forgets every key; an age longer than the
    /// clock's range (about 292 years) forgets none.
    @discardableResult
    public func expireIdempotencyKeys(olderThan age: Duration) async throws(DurableError) -> Int {
        // Times are nanoseconds in an Int64: an age past that range reaches no commit.
        guard age.components.seconds < Int64.max / 1_000_000_000 else { return 0 }
        let cutoff = clock.now().nanoseconds.subtractingReportingOverflow(max(age, .zero).nanoseconds)
        guard !cutoff.overflow else { return 0 }
        return try await store.expireIdempotencyKeys(committedBefore: cutoff.partialValue)
    }

    /// Deletes an instance with its journal, keys, timers and effects; returns whether it existed.
    @discardableResult
    public func delete(_ id: String) async throws(DurableError) -> Bool {
        await acquire(id)
        defer { release(id) }
        kept[id] = nil
        return try await store.delete(id)
    }

    // MARK: - Commits

    func machineTime(of record: InstanceRecord, at now: Int64) -> Duration {
        .nanoseconds(max(now - record.originNanoseconds, 0))
    }

    func makeCommit(
        _ record: InstanceRecord, _ result: StepResult, kind: JournalKind, key: String?, event: String, now: Int64
    ) -> MacrostepCommit {
        let id = record.id
        let sequence = record.sequence + 1
        var instance = record
        instance.revision = record.revision + 1
        instance.sequence = sequence
        instance.finished = result.finished
        instance.activeStates = result.configuration
        instance.snapshot = result.snapshot
        let journal = JournalEntry(
            instanceID: id, sequence: sequence, kind: kind, event: event, configuration: result.configuration,
            atNanoseconds: now, idempotencyKey: key)
        let timers = result.timers.enumerated().map { i, t in
            TimerRecord(
                instanceID: id, position: i, dueNanoseconds: record.originNanoseconds + t.due.nanoseconds,
                event: t.event, sendID: t.sendID)
        }
        let outbox = result.effects.enumerated().map { i, e in
            OutboxEntry(
                instanceID: id, sequence: sequence, position: i, kind: e.kind, name: e.name, state: e.state, payload: e.payload)
        }
        var commit = MacrostepCommit(
            instance: instance, expectedRevision: record.revision, journal: journal, idempotency: nil, timers: timers,
            outbox: outbox)
        if let key {
            commit.idempotency = IdempotencyRecord(
                key: key, event: event, outcome: Self.outcome(of: commit, handled: result.handled))
        }
        return commit
    }

    static func outcome(of commit: MacrostepCommit, handled: Bool) -> SendOutcome {
        SendOutcome(
            sequence: commit.journal.sequence, handled: handled, configuration: commit.instance.activeStates,
            finished: commit.instance.finished)
    }

    // MARK: - Kept machines

    /// The machine this host kept for the instance, if the row is exactly the one it wrote from
    /// it: same snapshot text (and so same revision and chart). Another writer, a tampered row or
    /// a recreated instance means a different text, and the snapshot is decoded (rule D14).
    func warm(for record: InstanceRecord) -> WarmMachine? {
        guard let k = kept[record.id], k.record.revision == record.revision,
            k.record.chartVersion == record.chartVersion, k.record.snapshot == record.snapshot
        else { return nil }
        return k.machine
    }

    /// The instance's row as this host last committed it, when it kept that machine and may trust
    /// it (rule D21); otherwise the row read from the store.
    func current(_ id: String, trustingKept: Bool) async throws(DurableError) -> InstanceRecord? {
        if trustingKept, let k = kept[id] { return k.record }
        return try await store.instance(id)
    }

    /// Keeps the machine a committed step left.
    func keep(_ commit: MacrostepCommit, _ result: StepResult) {
        let id = commit.instance.id
        guard keptMachinesLimit > 0 else { return }
        if kept[id] == nil, kept.count >= keptMachinesLimit { kept.remove(at: kept.startIndex) }
        kept[id] = KeptMachine(record: commit.instance, machine: result.machine)
    }

    // MARK: - Effects

    /// Dispatches a committed step's effects to the effect handler; its messages to other
    /// instances are queued for ``deliverQueuedMessages()`` (the caller holds the instance).
    func dispatch(_ entries: [OutboxEntry]) async {
        queuedMessages += entries.filter { $0.kind == "send" }
        guard let effectHandler else { return }
        for entry in entries where entry.kind != "send" {
            do {
                try await effectHandler(entry)
                try await store.markDispatched(entry)
            } catch {
                // It stays pending: dispatchPendingEffects retries it (at least once, rule D7).
            }
        }
    }

    /// Dispatches effects that are still pending (their first dispatch failed, or the process
    /// stopped after commit); returns how many were dispatched now.
    /// Messages to other instances (rule D20) are delivered whether or not there is an effect handler.
    @discardableResult
    public func dispatchPendingEffects(limit: Int = 1_000) async throws(DurableError) -> Int {
        var count = 0
        var failedTargets: Set<String> = []
        for entry in try await store.pendingOutbox(limit: limit) {
            if entry.kind == "send" {
                if await deliver(entry, skipping: &failedTargets) { count += 1 }
                continue
            }
            guard let effectHandler else { continue }
            do {
                try await effectHandler(entry)
                try await store.markDispatched(entry)
                count += 1
            } catch {
                continue
            }
        }
        return count
    }

    // MARK: - Messages to other instances (rule D20)

    /// Delivers the messages queued by steps committed so far. Messages that the deliveries'
    /// own steps queue wait for the next call (or sweep): a chain of instances sending to each
    /// other never runs unbounded inside one call.
    func deliverQueuedMessages() async {
        guard !queuedMessages.isEmpty else { return }
        let messages = queuedMessages
        queuedMessages = []
        var failedTargets: Set<String> = []
        for entry in messages { await deliver(entry, skipping: &failedTargets) }
    }

    /// Delivers one message as a send with its idempotency key, and marks it dispatched. A
    /// failure leaves it pending for ``dispatchPendingEffects(limit:)``, and the later messages
    /// to the same instance wait with it (so a pass delivers each instance's messages in order).
    @discardableResult
    func deliver(_ entry: OutboxEntry, skipping failedTargets: inout Set<String>) async -> Bool {
        guard !failedTargets.contains(entry.name) else { return false }
        do throws(DurableError) {
            guard let event = entry.payload else {
                throw .corruptRow(instance: entry.instanceID, reason: "the message \(entry.idempotencyKey) has no event")
            }
            _ = try await sendHolding(json: event, to: entry.name, idempotencyKey: entry.idempotencyKey)
            try await store.markDispatched(entry)
            statistics.messagesDelivered += 1
            // Delivered from the store (a sweep), it need not be delivered again from the queue.
            queuedMessages.removeAll { $0.idempotencyKey == entry.idempotencyKey }
            return true
        } catch {
            failedTargets.insert(entry.name)
            statistics.messageDeliveriesFailed += 1
            lastMessageFailure = error
            return false
        }
    }

    // MARK: - One writer per instance in this host

    /// Waits until no other call of this host works on `id`, in arrival order (rule D2): an
    /// actor's methods interleave at every `await`, so two sends to one instance would otherwise
    /// read the same revision and the second would lose the compare-and-swap.
    func acquire(_ id: String) async {
        if waiters[id] == nil {
            waiters[id] = []
            return
        }
        await withCheckedContinuation { continuation in waiters[id, default: []].append(continuation) }
    }

    func release(_ id: String) {
        guard var queue = waiters[id] else { return }
        if queue.isEmpty {
            waiters[id] = nil
        } else {
            let next = queue.removeFirst()
            waiters[id] = queue
            next.resume()
        }
    }
}

/// Counts of what a ``DurableHost`` did, for monitoring and tests.
public struct HostStatistics: Sendable, Hashable {
    /// Macrosteps committed (starts, events and timers).
    public var committed = 0
    /// Steps run again after another writer won the compare-and-swap (rule D4).
    public var conflictsRetried = 0
    /// Sends answered with a recorded outcome (rule D3).
    public var replayed = 0
    /// Messages to other instances delivered (rule D20).
    public var messagesDelivered = 0
    /// Deliveries of messages that failed; each such message stays pending and is tried again.
    public var messageDeliveriesFailed = 0
    /// Steps that ran on a machine kept from the step before instead of a decoded snapshot (rule D14).
    public var keptMachinesUsed = 0
    /// Kept machines a timer sweep found behind their row and dropped: the store had a timer of
    /// the instance due and the kept machine had none (another node had committed since, rule D21).
    public var staleKeptMachines = 0
}

/// A machine kept after a commit, with the row it was written to.
struct KeptMachine {
    var record: InstanceRecord
    var machine: WarmMachine
}
