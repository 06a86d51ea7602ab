import Foundation
import Statechart

/// Replays an instance's journal on a fresh machine of its chart, or from its last migration
/// (rule D11): the journal is an audit log only if it says enough to rebuild the machine. Each row's configuration must be the
/// one the replay reaches, and after the last row the replayed snapshot must equal the stored one
/// (context, history and pending timers included).
///
/// Machine time is rebuilt from the rows: an event ran at its commit time minus the instance's
/// origin; a timers row ran at the due time of the earliest pending send.
struct JournalReplay<E: Hashable & Sendable & Codable, C: Sendable & Codable> {
    let runner: ChartRunner<E, C>
    let record: InstanceRecord

    func run(_ journal: [JournalEntry], context: C) throws(DurableError) {
        for (expected, entry) in journal.enumerated() where entry.sequence != Int64(expected) {
            throw diverges(entry.sequence, "expected the row with sequence \(expected) here (rows missing or out of order)")
        }
        // A migration row holds the snapshot the new version adopted (rule D12): the replay starts
        // there, on the version the instance is pinned to now. Without one it starts afresh.
        var instance: ChartInstance<E, C>
        let rows: ArraySlice<JournalEntry>
        if let m = journal.lastIndex(where: { $0.kind == .migrate }) {
            let migration: MigrationRecord
            do {
                migration = try DurableJSON.decoder.decode(MigrationRecord.self, from: Data(journal[m].event.utf8))
            } catch {
                throw diverges(journal[m].sequence, "the migration row does not read: \(error)")
            }
            guard migration.to == record.chartVersion else {
                throw diverges(journal[m].sequence, "the last migration is to version \(migration.to), "
                    + "but the instance is pinned to version \(record.chartVersion)")
            }
            instance = try runner.restore(record.id, migration.snapshot).1
            _ = runner.invocationNames(discardingRestartsOf: &instance)
            try compare(journal[m], instance)
            rows = journal[(m + 1)...]
        } else {
            guard journal.first?.kind == .start else { throw diverges(0, "the first row is not the start") }
            // An SCXML instance started before rule D22 replays with the session it started with.
            let hosted = (try? runner.restore(record.id, record.snapshot)).map { SCXMLHosting.wasStartedHosted($0.0) } ?? true
            instance = runner.newInstance(record.id, context: context, hosted: hosted)
            rows = journal[...]
        }
        for entry in rows {
            if entry.kind == .start && entry.sequence != 0 { throw diverges(entry.sequence, "a second start row") }
            try apply(entry, to: &instance)
            // As when it ran: the messages went to the outbox, not into the snapshot (rules D20, D22).
            _ = try runner.takeOutgoing(from: &instance)
            try compare(entry, instance)
        }
        guard let last = journal.last else { throw diverges(0, "the journal is empty") }
        guard last.sequence == record.sequence else {
            throw diverges(last.sequence, "the journal ends at \(last.sequence) but the instance is at \(record.sequence)")
        }
        let replayed = try runner.encode(instance.snapshot())
        guard replayed == record.snapshot else {
            throw diverges(last.sequence, "the replayed snapshot differs from the stored one")
        }
    }

    func compare(_ entry: JournalEntry, _ instance: ChartInstance<E, C>) throws(DurableError) {
        let snapshot = instance.snapshot()
        let finished = snapshot.hasStarted && !snapshot.isRunning
        let configuration = finished ? snapshot.finalState.map { [$0] } ?? [] : snapshot.activeStates
        guard configuration == entry.configuration else {
            throw diverges(
                entry.sequence,
                "the row says [\(entry.configuration.joined(separator: ", "))], "
                    + "the replay reaches [\(configuration.joined(separator: ", "))]")
        }
    }

    func apply(_ entry: JournalEntry, to instance: inout ChartInstance<E, C>) throws(DurableError) {
        do {
            switch entry.kind {
            case .start:
                try instance.start()
            case .event:
                let event: E
                do {
                    event = try DurableJSON.decoder.decode(E.self, from: Data(entry.event.utf8))
                } catch {
                    throw diverges(entry.sequence, "its event is not an event of the chart: \(error)")
                }
                let time = Duration.nanoseconds(entry.atNanoseconds - record.originNanoseconds)
                if time > instance.now { try instance.advance(by: time - instance.now) }
                try instance.send(event)
            case .migrate:
                throw diverges(entry.sequence, "a migration row after the last migration")
            case .timers:
                guard let due = runner.nextDueTime(of: instance) else { throw diverges(entry.sequence, "no timer is pending") }
                // As when it ran: failing actions of a timer step were committed (rule D6).
                try? instance.advance(by: max(due - instance.now, .zero))
            }
        } catch let error as DurableError {
            throw error
        } catch let error as MachineError {
            // The host commits no event step that threw (rule D1), so a replay that throws diverges.
            throw diverges(entry.sequence, "the replay fails: \(error)")
        } catch {
            throw diverges(entry.sequence, "the replay fails: \(error)")
        }
    }

    func diverges(_ sequence: Int64, _ reason: String) -> DurableError {
        .journalDiverges(instance: record.id, sequence: sequence, reason: reason)
    }
}
