import Statechart
import Testing

// DDStateMachine — the synchronization example of its README (seed 002), written with the public
// API of Statechart only: the work state is `Work` run by an `AsyncStateMachine`, its result
// conditions are transitions on the result event checked in declaration order, and the 30-second
// cache lifetime is machine time driven by a `ManualClock` (no test sleeps).

// The time limit only guards against a hang. It is wide because a limit counts from the test's
// start, and under a sanitizer the heavy synchronous suites (random walks, stress) can hold both
// cooperative threads of a 2-core machine for minutes before these tests get to run.
@Suite("Conformance: DDStateMachine README (sync)", .timeLimit(.minutes(10)))
struct SyncConformanceTests {
    enum SyncStatus: Hashable, Sendable { case notSynced, inProgress, synced, failed }
    /// `sync` is the README's only external event; `workFinished` carries the work's result.
    enum SyncEvent: Hashable, Sendable { case sync, workFinished(Bool) }

    /// The README's `SyncExtraState`: `expiryDate` becomes machine time.
    struct SyncExtraState: Hashable, Sendable {
        /// When the cache expires (machine time); `nil` once it has.
        var expiry: Duration?
        /// How many times a failed sync was retried (written by a transition's `.on` listener).
        var retries = 0
    }

    typealias SyncMachine = AsyncStateMachine<SyncStatus, SyncEvent, SyncExtraState>

    struct SyncError: Error {}

    /// The `doSync()` work: answers from a script and records each run with the retries it saw.
    actor SyncService {
        enum Outcome { case success, failure, error }
        private var script: [Outcome]
        private(set) var runs: [Int] = []
        private var waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

        init(_ script: [Outcome] = []) { self.script = script }

        func sync(retries: Int) throws -> Bool {
            runs.append(retries)
            for waiter in waiters where waiter.count <= runs.count { waiter.continuation.resume() }
            waiters.removeAll { $0.count <= runs.count }
            switch script.isEmpty ? .success : script.removeFirst() {
            case .success: return true
            case .failure: return false
            case .error: throw SyncError()
            }
        }

        /// Suspends until the work has run `count` times.
        func waitForRuns(_ count: Int) async {
            if runs.count >= count { return }
            await withCheckedContinuation { waiters.append((count, $0)) }
        }
    }

    /// DDStateMachine's `.ifResult { (result, extra) in … }`: a transition on the work's result event.
    static func ifResult(
        to target: SyncStatus, _ condition: @escaping @Sendable (Bool, SyncExtraState) -> Bool,
        on listener: (@Sendable (inout ActionScope<SyncEvent, SyncExtraState>) throws -> Void)? = nil
    ) -> On<SyncStatus, SyncEvent, SyncExtraState> {
        On(
            matching: { if case .workFinished = $0 { true } else { false } }, to: target,
            guard: { extra, event in
                guard case .workFinished(let result) = event else { return false }
                return condition(result, extra)
            }, action: listener)
    }

    static func syncMachine(
        service: SyncService, initial: SyncStatus = .notSynced
    ) -> Machine<SyncStatus, SyncEvent, SyncExtraState> {
        Machine("sync", initial: initial) {
            When(.notSynced) {
                On(.sync, to: .inProgress)  // shouldTransit(notSynced ~> inProgress).by(event: .sync).immediately()
            }
            When(.inProgress) {
                // WorkStateBuilder(.inProgress, work: self.doSync)
                Work(
                    "doSync", run: { extra in .workFinished(try await service.sync(retries: extra.retries)) },
                    failure: { _ in .workFinished(false) })
                // shouldTransit(inProgress ~> synced).on { $0.expiryDate = Date() + 30.seconds }.ifResult { (result, _) in result }
                ifResult(to: .synced, { result, _ in result }) { $0.expiry = $0.now + .seconds(30) }
                // shouldTransit(inProgress ~> failed).ifResult { (result, _) in !result }
                ifResult(to: .failed, { result, _ in !result })
            }
            When(.synced) {
                After(.seconds(30)) { $0.expiry = nil }  // the cache lifetime runs out on machine time
                // shouldTransit(synced ~> inProgress).by(event: .sync).ifCondition { expiryDate == nil || expiryDate! < Date() }
                On(.sync, to: .inProgress, guard: { $0.expiry == nil })
            }
            When(.failed) {
                On(.sync, to: .inProgress) { $0.retries += 1 }  // by(event: .sync), with an .on listener
            }
        }
    }

    static func start(
        _ service: SyncService, initial: SyncStatus = .notSynced, clock: ManualClock = ManualClock(),
        ignoringUnhandled: Bool = false
    ) async throws -> SyncMachine {
        var options = StateMachine<SyncStatus, SyncEvent, SyncExtraState>.Options()
        options.throwsOnUnhandledEvent = !ignoringUnhandled
        return try await SyncMachine(
            syncMachine(service: service, initial: initial), context: SyncExtraState(), clock: clock, options: options)
    }

    /// Waits until the sync work's result has moved the machine out of `inProgress`.
    static func settled(_ machine: SyncMachine) async -> SyncStatus {
        for await _ in await machine.configurations() {
            let state = await machine.state
            if state != .inProgress { return state }
        }
        return await machine.state
    }

    // MARK: - The example

    @Test("DDStateMachine README: sync starts the work of inProgress; a true result moves to synced (R52, R25)")
    func syncSucceeds() async throws {
        let service = SyncService([.success])
        let machine = try await Self.start(service)
        #expect(await machine.state == .notSynced)
        try await machine.send(.sync)
        #expect(await Self.settled(machine) == .synced)
        #expect(await service.runs == [0])
    }

    @Test("DDStateMachine README: a false result moves to failed; sync from failed runs the work again (R52)")
    func syncFailsAndRetries() async throws {
        let service = SyncService([.failure, .success])
        let machine = try await Self.start(service)
        try await machine.send(.sync)
        #expect(await Self.settled(machine) == .failed)
        try await machine.send(.sync)
        #expect(await Self.settled(machine) == .synced)
        #expect(await service.runs.count == 2)
    }

    @Test("DDStateMachine README: observing the current status yields every state in order (R56)")
    func observedStatuses() async throws {
        let machine = try await Self.start(SyncService([.failure, .success]))
        var statuses = await machine.configurations().makeAsyncIterator()
        try await machine.send(.sync)
        var seen: [[String]] = []
        while let ids = await statuses.next() {
            if seen.last != ids { seen.append(ids) }
            if ids == ["failed"] { break }
        }
        #expect(seen == [["notSynced"], ["inProgress"], ["failed"]])
    }

    @Test("DDStateMachine README: the 30-second cache lifetime lives in the extended state and runs on the ManualClock (R17, R53, R54)")
    func cacheExpiry() async throws {
        let clock = ManualClock()
        let machine = try await Self.start(SyncService([.success, .failure]), clock: clock)
        await clock.advance(by: .seconds(5))
        try await machine.send(.sync)
        #expect(await Self.settled(machine) == .synced)  // the result arrived at t = 5 s
        #expect(await machine.context.expiry == .seconds(35))  // .on { expiryDate = now + 30 s }

        await clock.advance(by: .seconds(29))  // t = 34 s: the cache is still valid
        await #expect(throws: MachineError.eventNotHandled(event: "sync", configuration: ["synced"])) {
            try await machine.send(.sync)
        }
        #expect(await machine.state == .synced)

        await clock.advance(by: .seconds(1))  // t = 35 s: the cache expires
        #expect(await machine.context.expiry == nil)
        try await machine.send(.sync)
        #expect(await Self.settled(machine) == .failed)
    }

    @Test("DDStateMachine README: an .on listener runs when its transition ends, before the next state's work starts (R8, R52)")
    func listenerBeforeWork() async throws {
        let service = SyncService([.failure, .failure, .success])
        let machine = try await Self.start(service)
        try await machine.send(.sync)
        #expect(await Self.settled(machine) == .failed)
        try await machine.send(.sync)
        #expect(await Self.settled(machine) == .failed)
        try await machine.send(.sync)
        #expect(await Self.settled(machine) == .synced)
        #expect(await service.runs == [0, 1, 2])  // each run saw the retries its transition's listener counted
    }

    @Test("DDStateMachine: a sync that throws counts as a false result through Work's failure mapping (R52)")
    func workThatThrows() async throws {
        let machine = try await Self.start(SyncService([.error]))
        try await machine.send(.sync)
        #expect(await Self.settled(machine) == .failed)
    }

    // MARK: - Result conditions in order

    static func overlappingConditions(successFirst: Bool) -> Machine<SyncStatus, SyncEvent, SyncExtraState> {
        Machine("conditions", initial: .inProgress) {
            When(.inProgress) {
                Work("doSync") { _ in .workFinished(true) }
                if successFirst {
                    ifResult(to: .synced, { result, _ in result })
                    ifResult(to: .failed, { _, _ in true })
                } else {
                    ifResult(to: .failed, { _, _ in true })
                    ifResult(to: .synced, { result, _ in result })
                }
            }
            When(.synced) {}
            When(.failed) {}
        }
    }

    @Test(
        "DDStateMachine README: result conditions are checked in declaration order; the first that holds fires (R25)",
        arguments: [true, false])
    func resultConditionsInOrder(successFirst: Bool) async throws {
        let machine = try await SyncMachine(
            Self.overlappingConditions(successFirst: successFirst), context: SyncExtraState(), clock: ManualClock())
        #expect(await Self.settled(machine) == (successFirst ? .synced : .failed))
    }

    // MARK: - Unmatched events

    @Test("DDStateMachine README: unknown or unmatched events are ignored when throwsOnUnhandledEvent is off, refused by default (R18)")
    func unmatchedEvents() async throws {
        let quiet = try await Self.start(SyncService([.success]), ignoringUnhandled: true)
        try await quiet.send(.workFinished(true))  // no work is running: ignored
        #expect(await quiet.state == .notSynced)
        try await quiet.send(.sync)
        #expect(await Self.settled(quiet) == .synced)
        try await quiet.send(.sync)  // the cache is still valid: ignored
        #expect(await quiet.state == .synced)

        let strict = try await Self.start(SyncService())
        await #expect(throws: MachineError.eventNotHandled(event: "workFinished(true)", configuration: ["notSynced"])) {
            try await strict.send(.workFinished(true))
        }
    }

    // MARK: - DDStateMachine's known peculiarities, fixed

    @Test("DDStateMachine flaw fixed: an initial work state runs its work when the machine starts (R20, R52)")
    func initialWorkState() async throws {
        let service = SyncService([.success])
        let machine = try await Self.start(service, initial: .inProgress)
        #expect(await Self.settled(machine) == .synced)
        #expect(await service.runs == [0])
    }

    @Test("DDStateMachine flaw fixed: the last state of an acyclic machine runs its work (R52)")
    func lastWorkState() async throws {
        let service = SyncService()
        let acyclic = Machine<SyncStatus, SyncEvent, SyncExtraState>("acyclic", initial: .notSynced) {
            When(.notSynced) { On(.sync, to: .inProgress) }
            When(.inProgress) {  // the last state: nothing leaves it
                Work("doSync") { extra in .workFinished(try await service.sync(retries: extra.retries)) }
            }
        }
        let machine = try await SyncMachine(acyclic, context: SyncExtraState(), clock: ManualClock())
        try await machine.send(.sync)
        await service.waitForRuns(1)
        #expect(await service.runs == [0])
        #expect(await machine.state == .inProgress)
    }
}
