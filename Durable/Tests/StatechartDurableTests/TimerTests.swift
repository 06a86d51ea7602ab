import Foundation
import Statechart
import StatechartDurable
import Synchronization
import Testing

/// Durable timers (rule D6) and the outbox (rule D7).
@Suite struct TimerTests {
    // D6: a pending delayed send is a row with an absolute due time; the host fires it when due,
    // once, as its own committed macrostep.
    @Test(arguments: StoreKind.allCases)
    func dueTimerFiresOnceThroughTheCommitPath(kind: StoreKind) async throws {
        let store = try await kind.make()
        let clock = ManualClock()
        await clock.advance(by: .seconds(1_000))  // instances start at a nonzero clock time
        let host = try await makeHost(store, clock: clock)
        try await host.create("o1", chart: "order", version: 1)
        let timers = try await store.timers(of: "o1")
        #expect(timers.map(\.dueNanoseconds) == [Duration.seconds(1_030).nanosecondsForTest])
        await clock.advance(by: .seconds(29))
        #expect(await host.fireDueTimers() == TimerSweep(fired: 0, failures: []))
        await clock.advance(by: .seconds(1))
        #expect(await host.fireDueTimers() == TimerSweep(fired: 1, failures: []))
        #expect(await host.fireDueTimers() == TimerSweep(fired: 0, failures: []))
        let journal = try await host.journal(of: "o1")
        #expect(journal.map(\.kind) == [.start, .timers])
        #expect(journal.last?.configuration == ["cancelled"])
        #expect(journal.last?.atNanoseconds == Duration.seconds(1_030).nanosecondsForTest)
        #expect(try await store.timers(of: "o1").isEmpty)
    }

    // D6: a send to an instance whose timer fell due fires the timer first, in due order.
    @Test(arguments: StoreKind.allCases)
    func sendAfterADueTimerFiresTheTimerFirst(kind: StoreKind) async throws {
        let store = try await kind.make()
        let clock = ManualClock()
        let host = try await makeHost(store, clock: clock)
        try await host.create("o1", chart: "order", version: 1)
        await clock.advance(by: .seconds(45))
        let outcome = try await host.send(OrderEvent.pay, to: "o1")
        #expect(!outcome.handled && outcome.configuration == ["cancelled"] && outcome.sequence == 2)
        #expect(try await host.journal(of: "o1").map(\.kind) == [.start, .timers, .event])
        // Paying before the timeout cancels it: leaving the state removes its timer row.
        try await host.create("o2", chart: "order", version: 1)
        await clock.advance(by: .seconds(10))
        try await host.send(OrderEvent.pay, to: "o2")
        #expect(try await store.timers(of: "o2").isEmpty)
        await clock.advance(by: .seconds(60))
        #expect(await host.fireDueTimers().fired == 0)
        #expect(try await host.instance("o2").activeStates == ["paid"])
    }

    // D6: timers survive a restart: a new host on the same SQLite file fires those that fell due
    // while no host ran, once.
    @Test func timersSurviveARestart() async throws {
        let path = temporaryDatabasePath()
        let clock = ManualClock()
        do {
            let store = try await SQLiteStore(path: path)
            let host = try await makeHost(store, clock: clock)
            try await host.create("o1", chart: "order", version: 1)
            try await host.create("o2", chart: "order", version: 1)
            await clock.advance(by: .seconds(10))
            try await host.send(OrderEvent.pay, to: "o2")
            await store.close()
        }
        await clock.advance(by: .seconds(3_600))  // the process is down for an hour
        let store = try await SQLiteStore(path: path)
        let host = try await makeHost(store, clock: clock)
        #expect(try await host.instances(inState: "open").map(\.id) == ["o1"])
        #expect(await host.fireDueTimers() == TimerSweep(fired: 1, failures: []))
        #expect(await host.fireDueTimers().fired == 0)
        #expect(try await host.instance("o1").activeStates == ["cancelled"])
        #expect(try await host.instance("o2").activeStates == ["paid"])
        #expect(try await host.journal(of: "o1").map(\.kind) == [.start, .timers])
        // A third host sees the same: nothing left to fire.
        await store.close()
        let again = try await makeHost(try await SQLiteStore(path: path), clock: clock)
        #expect(await again.fireDueTimers().fired == 0)
        #expect(try await again.journal(of: "o1").count == 2)
    }

    // D6, D4: two hosts on one file sweep the same due timers at once: each fires once (the
    // loser of each compare-and-swap finds nothing due on the new revision).
    @Test func twoHostsSweepingTogetherFireEachTimerOnce() async throws {
        let path = temporaryDatabasePath()
        let clock = ManualClock()
        let first = try await makeHost(try await SQLiteStore(path: path), clock: clock)
        let second = try await makeHost(try await SQLiteStore(path: path), clock: clock)
        for i in 0..<20 { try await first.create("o\(i)", chart: "order", version: 1) }
        await clock.advance(by: .seconds(31))
        async let a = first.fireDueTimers()
        async let b = second.fireDueTimers()
        let (sweepA, sweepB) = await (a, b)
        #expect(sweepA.failures.isEmpty, "\(sweepA.failures)")
        #expect(sweepB.failures.isEmpty, "\(sweepB.failures)")
        #expect(sweepA.fired + sweepB.fired == 20)
        for i in 0..<20 {
            #expect(try await first.journal(of: "o\(i)").map(\.kind) == [.start, .timers])
        }
        #expect(try await first.instances(inState: "cancelled").count == 20)
    }

    // D6: the poll loop fires due timers on the host's clock.
    @Test func pollLoopFiresDueTimers() async throws {
        let clock = ManualClock()
        let host = try await makeHost(InMemoryStore(), clock: clock)
        try await host.create("o1", chart: "order", version: 1)
        let loop = Task { await host.run(every: .seconds(1)) }
        defer { loop.cancel() }
        let fired = try await tick(clock, until: { try await host.instance("o1").activeStates == ["cancelled"] })
        #expect(fired)
        #expect(try await host.journal(of: "o1").map(\.kind) == [.start, .timers])
    }

    // D6: while the database fails, the poll loop's sweeps fail and back off; when it is back the
    // due timer fires, once.
    @Test func pollLoopBacksOffWhileTheStoreFailsAndLosesNothing() async throws {
        let clock = ManualClock()
        let store = FailingStore(InMemoryStore())
        let host = try await makeHost(store, clock: clock)
        try await host.create("o1", chart: "order", version: 1)
        await store.setFailing(true)
        let loop = Task { await host.run(every: .seconds(1)) }
        defer { loop.cancel() }
        let failing = try await tick(clock, until: { await host.failedSweepsInARow >= 3 })
        #expect(failing)
        #expect(await host.lastSweep.failures == [.storage("disk I/O error (injected)")])
        #expect(try await host.journal(of: "o1").map(\.kind) == [.start])
        await store.setFailing(false)
        let fired = try await tick(clock, until: { try await host.instance("o1").activeStates == ["cancelled"] })
        #expect(fired)
        #expect(try await host.journal(of: "o1").map(\.kind) == [.start, .timers])
        let recovered = try await tick(clock, until: { await host.failedSweepsInARow == 0 })
        #expect(recovered)
        #expect(try await host.journal(of: "o1").count == 2)
    }

    // D6: a sweep whose only failures are contention (another node holds the instance) does not
    // back off: the instance is tried again at the next interval, and fires once it is free.
    @Test func pollLoopDoesNotBackOffForContention() async throws {
        let clock = ManualClock()
        let store = FailingStore(InMemoryStore())
        let host = try await makeHost(store, clock: clock)
        try await host.create("o1", chart: "order", version: 1)
        await store.setFailure(.leaseHeld(instance: "o1", owner: "another node"))
        let loop = Task { await host.run(every: .seconds(1)) }
        defer { loop.cancel() }
        var refused = 0
        var backedOff = false
        let refusedThrice = try await tick(clock) {
            if await host.lastSweep.failures == [.leaseHeld(instance: "o1", owner: "another node")] { refused += 1 }
            if await host.failedSweepsInARow > 0 { backedOff = true }
            return refused >= 3
        }
        #expect(refusedThrice)
        #expect(!backedOff)
        await store.setFailure(nil)
        let fired = try await tick(clock, until: { try await host.instance("o1").activeStates == ["cancelled"] })
        #expect(fired)
        #expect(try await host.journal(of: "o1").map(\.kind) == [.start, .timers])
    }

    // D7: effects are written in the macrostep's transaction and dispatched after commit, at least
    // once, each with an idempotency key; a failed dispatch stays pending and is retried.
    @Test(arguments: StoreKind.allCases)
    func effectsAreDispatchedAfterCommitAtLeastOnce(kind: StoreKind) async throws {
        let store = try await kind.make()
        let received = Mutex<[String]>([])
        let failNext = Mutex(true)
        let host = try await makeHost(store) { entry in
            if failNext.withLock({ let f = $0; $0 = false; return f }) { throw ActionFailure() }
            received.withLock { $0.append("\(entry.kind) \(entry.name) \(entry.idempotencyKey)") }
        }
        try await host.create("o1", chart: "order", version: 1)
        try await host.send(OrderEvent.pay, to: "o1")
        try await host.send(OrderEvent.notify, to: "o1")  // the first dispatch fails
        #expect(received.withLock { $0 }.isEmpty)
        #expect(try await store.pendingOutbox(limit: 10).map(\.idempotencyKey) == ["o1/2/0"])
        #expect(try await host.dispatchPendingEffects() == 1)
        try await host.send(OrderEvent.notify, to: "o1")
        #expect(received.withLock { $0 } == ["work email o1/2/0", "work email o1/3/0"])
        #expect(try await store.pendingOutbox(limit: 10).isEmpty)
    }

    // D7: invoked work is an effect of the step that entered (or left) its state, never of a
    // restore: steps inside the state do not start it again.
    @Test(arguments: StoreKind.allCases)
    func invokedWorkStartsAndCancelsOnceInTheOutbox(kind: StoreKind) async throws {
        let store = try await kind.make()
        let host = try await makeHost(store)
        try await host.register(try jobChart(), name: "job", version: 1, initialContext: Order())
        try await host.create("j", chart: "job", version: 1)
        try await host.send(JobEvent.start, to: "j")
        try await host.send(JobEvent.ping, to: "j")
        try await host.send(JobEvent.ping, to: "j")
        try await host.send(JobEvent.finish, to: "j")
        let effects = try await store.pendingOutbox(limit: 10).map { "\($0.idempotencyKey) \($0.kind) \($0.name) \($0.state)" }
        #expect(effects == ["j/1/0 invoke.start sync running", "j/4/0 invoke.cancel sync running"])
    }
}

extension Duration {
    /// Whole nanoseconds, as the stores keep times.
    var nanosecondsForTest: Int64 {
        components.seconds * 1_000_000_000 + components.attoseconds / 1_000_000_000
    }
}

/// Moves the clock on a second at a time, letting the poll loop run after each, until `condition`
/// holds (true) or 400 s have passed (false).
func tick(_ clock: ManualClock, until condition: () async throws -> Bool) async throws -> Bool {
    for _ in 0..<400 {
        await clock.advance(by: .seconds(1))
        try await Task.sleep(for: .milliseconds(5))
        if try await condition() { return true }
    }
    return false
}
