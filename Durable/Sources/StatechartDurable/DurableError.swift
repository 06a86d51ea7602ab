import Statechart

/// Why a durable host or store refused a request. Every case names the instance, chart or key
/// involved, so a log line alone tells what went wrong (rule D9).
public enum DurableError: Error, Hashable, Sendable, CustomStringConvertible {
    /// No instance has this id (it was never created, or it was deleted).
    case unknownInstance(String)
    /// An instance with this id exists already.
    case instanceExists(String)
    /// An instance id must be a non-empty string.
    case invalidInstanceID(String)
    /// No chart is registered under this name and version.
    case chartNotRegistered(name: String, version: Int)
    /// A chart is registered under this name and version already.
    case chartAlreadyRegistered(name: String, version: Int)
    /// The instance's stored snapshot is not readable JSON of its chart's snapshot type.
    case corruptSnapshot(instance: String, reason: String)
    /// The instance's stored snapshot is readable but belongs to another chart or chart version
    /// (its fingerprint or configuration does not fit the registered chart).
    case snapshotMismatch(instance: String, chart: String, version: Int, reason: String)
    /// The event could not be encoded to JSON.
    case eventNotEncodable(String)
    /// The event's JSON is not an event of the instance's chart.
    case eventNotDecodable(instance: String, reason: String)
    /// The machine refused the event or an action failed; nothing was written.
    case machineFailed(instance: String, error: MachineError)
    /// A writer's expected revision of the instance is not the stored one: another writer
    /// committed first. Nothing was written (rule D4).
    case revisionConflict(instance: String, expected: Int64, found: Int64)
    /// The idempotency key was used before on this instance with a different event (rule D3).
    case idempotencyKeyReused(instance: String, key: String)
    /// The idempotency key was committed already (a concurrent retry won); read its outcome.
    case duplicateIdempotencyKey(instance: String, key: String)
    /// Replaying the instance's journal on a fresh machine does not reach what the journal (or
    /// the stored snapshot) says, from the row with this sequence on (rule D11).
    case journalDiverges(instance: String, sequence: Int64, reason: String)
    /// The instance cannot move to the chart version: its snapshot, with the states renamed,
    /// does not fit the new version (a state it does not have, an illegal configuration, a
    /// context it cannot decode). Nothing was written (rule D12).
    case migrationFailed(instance: String, from: Int, to: Int, reason: String)
    /// The database stayed locked by another connection (another host or process writing) longer
    /// than the store waits; names the database. Nothing was written.
    case busy(String)
    /// The connection to the database was lost or could not be made (the server went away, the
    /// network failed, the connection pool gave up). A transaction that was not committed wrote
    /// nothing; one lost while its `COMMIT` was under way may have been committed — retry the
    /// send with its idempotency key to learn which (rule D3). Names the database and the request.
    case connectionLost(String)
    /// A row of the instance cannot be read back as the store wrote it (a column of the wrong
    /// type, a missing value, unreadable JSON): someone else wrote or damaged it.
    case corruptRow(instance: String, reason: String)
    /// Another node holds the instance's lease, which lasts until it lapses (rule D15): that node
    /// drives the instance now. Nothing was written; send through that node, or retry after the lease.
    case leaseHeld(instance: String, owner: String)
    /// This node's claim of the instance lapsed and another node claimed it meanwhile (its fencing
    /// token moved on): what this node knows of the instance may be stale, so its write is
    /// refused (rule D16). Nothing was written; a retry claims the instance anew.
    case leaseLost(instance: String, node: String)
    /// The database reported an error.
    case storage(String)
    /// The database's schema is newer than this package knows, or a migration failed.
    case schema(String)

    /// A one-line explanation.
    public var description: String {
        switch self {
        case .unknownInstance(let id): return "no instance '\(id)'"
        case .instanceExists(let id): return "instance '\(id)' exists already"
        case .invalidInstanceID(let id): return "invalid instance id '\(id)': it must not be empty"
        case .chartNotRegistered(let name, let version): return "no chart '\(name)' version \(version) is registered"
        case .chartAlreadyRegistered(let name, let version):
            return "chart '\(name)' version \(version) is registered already"
        case .corruptSnapshot(let id, let reason): return "the snapshot of instance '\(id)' is corrupt: \(reason)"
        case .snapshotMismatch(let id, let chart, let version, let reason):
            return "the snapshot of instance '\(id)' does not fit chart '\(chart)' version \(version): \(reason)"
        case .eventNotEncodable(let reason): return "the event does not encode to JSON: \(reason)"
        case .eventNotDecodable(let id, let reason): return "the event is not an event of instance '\(id)': \(reason)"
        case .machineFailed(let id, let error): return "instance '\(id)': \(error)"
        case .revisionConflict(let id, let expected, let found):
            return "instance '\(id)' is at revision \(found), not \(expected): another writer committed first"
        case .idempotencyKeyReused(let id, let key):
            return "idempotency key '\(key)' was used on instance '\(id)' with another event"
        case .duplicateIdempotencyKey(let id, let key):
            return "idempotency key '\(key)' was committed on instance '\(id)' already"
        case .journalDiverges(let id, let sequence, let reason):
            return "the journal of instance '\(id)' diverges at sequence \(sequence): \(reason)"
        case .migrationFailed(let id, let from, let to, let reason):
            return "instance '\(id)' cannot move from version \(from) to \(to): \(reason)"
        case .busy(let message): return "database busy: \(message)"
        case .connectionLost(let message): return "database connection lost: \(message)"
        case .corruptRow(let id, let reason): return "a stored row of instance '\(id)' is corrupt: \(reason)"
        case .leaseHeld(let id, let owner): return "instance '\(id)' is leased to node '\(owner)', which drives it now"
        case .leaseLost(let id, let node):
            return "node '\(node)' lost its lease of instance '\(id)' to another node meanwhile: its write is refused"
        case .storage(let message): return "storage error: \(message)"
        case .schema(let message): return "schema error: \(message)"
        }
    }
}

extension DurableError {
    /// Whether the error is contention with another writer of the instance — its lease held or
    /// taken by another node (``leaseHeld(instance:owner:)``, ``leaseLost(instance:node:)``) or
    /// its revision moved on (``revisionConflict(instance:expected:found:)``): nothing was
    /// written, nothing is wrong with the store, and the same call succeeds later.
    public var isContention: Bool {
        switch self {
        case .leaseHeld, .leaseLost, .revisionConflict: return true
        default: return false
        }
    }
}
