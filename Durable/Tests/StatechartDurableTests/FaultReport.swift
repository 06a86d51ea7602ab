import DurableTestCharts
import Statechart
import StatechartDurable

/// The fault test's verdict on each instance, from what is committed (its journal and row) and
/// what the driver was told (its acknowledgements), against an in-memory machine of the same
/// chart that is sent the instance's planned events, at the times the journal gives, and fires
/// its own timers.
struct FaultReport {
    /// Acknowledgements whose event is not in the journal at the acknowledged sequence.
    var lost = 0
    /// Idempotency keys journaled more than once.
    var appliedTwice = 0
    /// Instances whose journal does not hold their events in the order they were acknowledged.
    var outOfOrder = 0
    /// Timer macrosteps journaled.
    var timersFired = 0
    /// Timers the in-memory machine had due that were not fired before the next event, or by
    /// the end of the run.
    var timersMissed = 0
    /// Timer macrosteps journaled when the in-memory machine had no timer due.
    var timersExtra = 0
    /// How long after its due time each timer fired, in real time (the workers' clock runs
    /// ``FaultTests/clockFactor`` times faster). A timer whose owner was killed waits for the lease.
    var lateness = DurationSample()
    /// Journal rows (and final rows) whose configuration or context differ from the machine's.
    var mismatches = 0
    /// What went wrong, for the test's log.
    var problems: [String] = []

    mutating func problem(_ text: String) {
        if problems.count < 100 { problems.append(text) }
    }

    /// Checks one instance. `settled` is the workers' clock reading by which every due timer had fired.
    mutating func check(
        _ plan: FaultPlan, acks: [FaultDriver.Ack], store: PostgresStore, host: DurableHost,
        chart: Chart<FaultOrderEvent, FaultOrderBook>, settled: Duration
    ) async throws {
        let id = plan.instance
        guard let record = try await store.instance(id) else {
            lost += acks.count
            return problem("\(id): no instance row")
        }
        let journal = try await store.journal(of: id)

        // What was acknowledged is in the journal, at the sequence the acknowledgement named.
        for ack in acks {
            let key = "e\(ack.index)"
            guard ack.sequence >= 0, ack.sequence < journal.count, journal[Int(ack.sequence)].idempotencyKey == key else {
                lost += 1
                problem("\(id): \(key) acknowledged with sequence \(ack.sequence), not in the journal there")
                continue
            }
        }
        // Each key once, and in the order of the plan, which is the order of the acknowledgements.
        let keys = journal.compactMap(\.idempotencyKey)
        appliedTwice += keys.count - Set(keys).count
        if keys != (0..<plan.events.count).map({ "e\($0)" }) {
            outOfOrder += 1
            problem("\(id): journal keys \(keys.prefix(12))… are not e0, e1, … e\(plan.events.count - 1)")
        }

        // The same events, at the same times, on one in-memory machine.
        var machine = ChartInstance(chart: chart, context: FaultOrderBook())
        try machine.start()
        compare(journal.first?.configuration, machine, id, "start")
        var timerSteps = 0
        for row in journal.dropFirst() {
            let time = Duration.nanoseconds(max(row.atNanoseconds - record.originNanoseconds, 0))
            switch row.kind {
            case .timers:
                timerSteps += 1
                guard let due = machine.nextDueTime, due <= time else {
                    timersExtra += 1
                    problem("\(id): timer step \(row.sequence) with no timer due at \(time)")
                    continue
                }
                try machine.advance(by: due - machine.now)
                timersFired += 1
                lateness.values.append((time - due) / FaultTests.clockFactor)
            case .event:
                if let due = machine.nextDueTime, due <= time {
                    timersMissed += 1
                    problem("\(id): a timer due at \(due) did not fire before event \(row.sequence) at \(time)")
                }
                guard let key = row.idempotencyKey, let index = Int(key.dropFirst()), index < plan.events.count else {
                    mismatches += 1
                    problem("\(id): event step \(row.sequence) has key \(row.idempotencyKey ?? "none"), not one the driver sent")
                    continue
                }
                let event = plan.events[index]
                if row.event != "\"\(event.rawValue)\"" {
                    mismatches += 1
                    problem("\(id): \(key) journaled as \(row.event), sent as \(event.rawValue)")
                }
                if time > machine.now { try machine.advance(by: time - machine.now) }
                try machine.send(event)
            case .start, .migrate:
                mismatches += 1
                problem("\(id): unexpected \(row.kind) step \(row.sequence)")
            }
            compare(row.configuration, machine, id, "step \(row.sequence)")
        }
        if let due = machine.nextDueTime, due <= settled - .nanoseconds(record.originNanoseconds) {
            timersMissed += 1
            problem("\(id): a timer due at \(due) never fired")
        }
        // The row: the last step's configuration, and the machine's context.
        if record.activeStates != machine.snapshot().activeStates {
            mismatches += 1
            problem("\(id): row holds \(record.activeStates), the machine \(machine.snapshot().activeStates)")
        }
        let stored = try await host.snapshot(of: id, as: ChartSnapshot<FaultOrderEvent, FaultOrderBook>.self)
        if stored.context != machine.context {
            mismatches += 1
            problem("\(id): the row's context is \(stored.context), the machine's \(machine.context)")
        }
        if machine.context.timedOut != timerSteps {
            mismatches += 1
            problem("\(id): \(timerSteps) timer steps, \(machine.context.timedOut) timeouts")
        }
        if record.sequence != Int64(journal.count - 1) {
            mismatches += 1
            problem("\(id): row at sequence \(record.sequence), journal ends at \(journal.count - 1)")
        }
    }

    private mutating func compare(
        _ stored: [String]?, _ machine: ChartInstance<FaultOrderEvent, FaultOrderBook>, _ id: String, _ step: String
    ) {
        let expected = machine.snapshot().activeStates
        guard stored != expected else { return }
        mismatches += 1
        problem("\(id) \(step): journaled \(stored ?? []), the in-memory machine is in \(expected)")
    }
}
