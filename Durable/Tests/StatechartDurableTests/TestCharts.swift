import Foundation
import Statechart
import StatechartDurable
import StatechartInterchange
import Testing

/// The charts and stores the durable tests run on.
enum OrderState: String, Hashable, Sendable { case open, paid, shipped, cancelled }
enum OrderEvent: String, Hashable, Sendable, Codable { case pay, ship, fail, notify }
struct Order: Hashable, Sendable, Codable { var payments = 0 }
struct ActionFailure: Error {}

/// An order: paying moves it on, an unpaid order is cancelled after 30 s, `fail` runs an action
/// that throws, `notify` queues named work (an effect for the outbox).
func orderChart() throws -> TypedChart<OrderEvent, Order> {
    try TypedChart(
        Machine<OrderState, OrderEvent, Order>("order", initial: .open) {
            When(.open) {
                On(.pay, to: .paid) { $0.context.payments += 1 }
                On(.fail, to: .paid) { _ in throw ActionFailure() }
                After(.seconds(30), to: .cancelled)
            }
            When(.paid) {
                On(.notify) { $0.perform("email") { nil } }
                On(.ship, to: .shipped)
            }
            Final(.shipped)
            When(.cancelled) {}
        })
}

enum JobState: String, Hashable, Sendable { case idle, running, done }
enum JobEvent: String, Hashable, Sendable, Codable { case start, ping, finish }

/// A job whose `running` state invokes work named `sync` while it is active.
func jobChart() throws -> TypedChart<JobEvent, Order> {
    try TypedChart(
        Machine<JobState, JobEvent, Order>("job", initial: .idle) {
            When(.idle) { On(.start, to: .running) }
            When(.running) {
                Work("sync") { _ in nil }
                On(.ping) { $0.context.payments += 1 }
                On(.finish, to: .done)
            }
            When(.done) {}
        })
}

/// A two-state SCXML chart: another chart, with another fingerprint.
func toggleChart() throws -> SCXMLChart {
    try SCXMLDocument.load(
        string: """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" initial="a" name="toggle">
              <state id="a"><transition event="flip" target="b"/></state>
              <state id="b"><transition event="flip" target="a"/></state>
            </scxml>
            """)
}

/// The stores the shared suites run against.
enum StoreKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case memory, sqlite, postgres

    /// Every store, PostgreSQL only when a server is given or required (PostgresTestServer).
    static var allCases: [StoreKind] { PostgresTestServer.enabled ? [.memory, .sqlite, .postgres] : [.memory, .sqlite] }

    var testDescription: String { rawValue }

    func make() async throws -> any DurableStore {
        switch self {
        case .memory: return InMemoryStore()
        case .sqlite: return try await SQLiteStore(path: temporaryDatabasePath())
        case .postgres: return try await PostgresTestServer.makeStore()
        }
    }
}

/// The folder the tests' SQLite files go to. Files older than an hour (earlier runs) are removed
/// when the tests first use it, so runs do not pile files up in the temporary directory.
let testDatabaseFolder: URL = {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("statechart-durable-tests")
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let old = Date().addingTimeInterval(-3_600)
    for file in (try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: [.contentModificationDateKey])) ?? [] {
        let modified = (try? file.resourceValues(forKeys: [.contentModificationDateKey]))?.contentModificationDate
        if let modified, modified < old { try? FileManager.default.removeItem(at: file) }
    }
    return folder
}()

/// A fresh path for an SQLite file in the tests' folder.
func temporaryDatabasePath() -> String {
    testDatabaseFolder.appendingPathComponent("durable-\(UUID().uuidString).sqlite").path
}

/// A host on a manual clock with the order chart (version 1) and the toggle chart registered.
func makeHost(_ store: any DurableStore, clock: ManualClock = ManualClock(),
              effects: (@Sendable (OutboxEntry) async throws -> Void)? = nil) async throws -> DurableHost {
    let host = DurableHost(store: store, clock: .manual(clock), effects: effects)
    try await host.register(try orderChart(), name: "order", version: 1, initialContext: Order())
    try await host.register(try toggleChart(), name: "toggle", version: 1, initialContext: SCXMLContext())
    return host
}

/// A store that counts reads, fails every commit while `failure` is set (the database going away
/// mid-step, another node holding the instance),
/// and can run something once just before the next commit (another writer getting in first).
actor FailingStore: DurableStore {
    let base: any DurableStore
    /// What every commit throws, while set.
    var failure: DurableError?
    var beforeNextCommit: (@Sendable () async throws -> Void)?

    init(_ base: any DurableStore) { self.base = base }

    func setFailing(_ value: Bool) { failure = value ? .storage("disk I/O error (injected)") : nil }

    func setFailure(_ error: DurableError?) { failure = error }

    func setBeforeNextCommit(_ action: @escaping @Sendable () async throws -> Void) { beforeNextCommit = action }

    func prepare() async throws(DurableError) { try await base.prepare() }
    func insert(_ commit: MacrostepCommit) async throws(DurableError) { try await base.insert(commit) }
    func commit(_ commit: MacrostepCommit) async throws(DurableError) {
        if let failure { throw failure }
        if let action = beforeNextCommit {
            beforeNextCommit = nil
            do { try await action() } catch { throw .storage("the interleaved writer failed: \(error)") }
        }
        try await base.commit(commit)
    }
    /// Reads of instance rows and of idempotency keys so far.
    var instanceReads = 0
    var keyReads = 0

    func instance(_ id: String) async throws(DurableError) -> InstanceRecord? {
        instanceReads += 1
        return try await base.instance(id)
    }
    func instances(inState state: String?) async throws(DurableError) -> [InstanceRecord] {
        try await base.instances(inState: state)
    }
    func delete(_ id: String) async throws(DurableError) -> Bool { try await base.delete(id) }
    func journal(of id: String) async throws(DurableError) -> [JournalEntry] { try await base.journal(of: id) }
    func idempotency(_ key: String, of id: String) async throws(DurableError) -> IdempotencyRecord? {
        keyReads += 1
        return try await base.idempotency(key, of: id)
    }
    func timers(of id: String) async throws(DurableError) -> [TimerRecord] { try await base.timers(of: id) }
    func instancesWithTimersDue(atOrBefore time: Int64, limit: Int) async throws(DurableError) -> [String] {
        try await base.instancesWithTimersDue(atOrBefore: time, limit: limit)
    }
    func pendingOutbox(limit: Int) async throws(DurableError) -> [OutboxEntry] { try await base.pendingOutbox(limit: limit) }
    func markDispatched(_ entry: OutboxEntry) async throws(DurableError) { try await base.markDispatched(entry) }
    func expireIdempotencyKeys(committedBefore time: Int64) async throws(DurableError) -> Int {
        try await base.expireIdempotencyKeys(committedBefore: time)
    }
}
