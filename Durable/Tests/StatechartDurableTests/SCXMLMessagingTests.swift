import Foundation
import Statechart
import StatechartDurable
import StatechartInterchange
import Testing

/// An SCXML chart that pings the instance `b` (now, or after 5 s) and waits for its pong, or
/// sends to an instance that does not exist.
func pingerChart() throws -> SCXMLChart {
    try SCXMLDocument.load(
        string: """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="ecmascript" initial="idle" name="pinger">
              <datamodel><data id="pongFrom"/></datamodel>
              <state id="idle">
                <transition event="go" target="waiting">
                  <send event="ping" target="#_scxml_b"><param name="n" expr="7"/></send>
                </transition>
                <transition event="later" target="waiting"><send id="p" event="ping" target="#_scxml_b" delay="5s"/></transition>
                <transition event="stray" target="waiting"><send event="ping" target="#_scxml_nobody"/></transition>
              </state>
              <state id="waiting">
                <transition event="pong" target="done"><assign location="pongFrom" expr="_event.origin"/></transition>
                <transition event="cancel"><cancel sendid="p"/></transition>
                <transition event="quit" target="end"/>
              </state>
              <state id="done"/>
              <final id="end"/>
            </scxml>
            """)
}

/// An SCXML chart that answers every ping to where it came from (`_event.origin`).
func pongerChart() throws -> SCXMLChart {
    try SCXMLDocument.load(
        string: """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="ecmascript" initial="ready" name="ponger">
              <datamodel><data id="pings" expr="0"/><data id="origin"/><data id="originType"/><data id="n"/></datamodel>
              <state id="ready">
                <transition event="ping">
                  <assign location="pings" expr="pings + 1"/>
                  <assign location="origin" expr="_event.origin"/>
                  <assign location="originType" expr="_event.origintype"/>
                  <assign location="n" expr="_event.data ? _event.data.n : null"/>
                  <send event="pong" targetexpr="_event.origin"/>
                </transition>
              </state>
            </scxml>
            """)
}

/// D22: an SCXML chart's `<send target="#_scxml_<instance>">` goes through the outbox of the step
/// that sends it (as D20's messages), delayed ones through the sender's durable timers.
@Suite struct SCXMLMessagingTests {
    func makeHost(_ store: any DurableStore, clock: ManualClock = ManualClock()) async throws -> DurableHost {
        let host = DurableHost(store: store, clock: .manual(clock))
        try await host.register(try pingerChart(), name: "pinger", version: 1, initialContext: SCXMLContext())
        try await host.register(try pongerChart(), name: "ponger", version: 1, initialContext: SCXMLContext())
        return host
    }

    func context(_ host: DurableHost, _ id: String) async throws -> SCXMLContext {
        try await host.snapshot(of: id, as: ChartSnapshot<SCXMLEvent, SCXMLContext>.self).context
    }

    /// A host on `store` with the instances `a` (pinger) and `b` (ponger) created.
    func pingPong(on store: any DurableStore, clock: ManualClock = ManualClock()) async throws -> DurableHost {
        let host = try await makeHost(store, clock: clock)
        try await host.create("a", chart: "pinger", version: 1)
        try await host.create("b", chart: "ponger", version: 1)
        return host
    }

    func pings(_ host: DurableHost) async throws -> Int { try await context(host, "b").value(of: "pings", as: Int.self) }

    // D22: a ping-pong between two SCXML instances. The session id is the instance id, so the ping's
    // origin is `#_scxml_a` and the reply to `_event.origin` reaches `a`; each message is committed
    // with its step, delivered with the key "<sender>/<sequence>/<position>", and both journals replay.
    @Test(arguments: StoreKind.allCases)
    func aPingIsAnsweredToItsOrigin(kind: StoreKind) async throws {
        let store = try await kind.make()
        let host = try await pingPong(on: store)
        #expect(try await context(host, "a").sessionID == "a")

        try await host.send(SCXMLEvent("go"), to: "a")
        let b = try await context(host, "b")
        #expect(try b.value(of: "pings", as: Int.self) == 1)
        #expect(try b.value(of: "origin", as: String.self) == "#_scxml_a")
        #expect(try b.value(of: "originType", as: String.self) == "http://www.w3.org/TR/scxml/#SCXMLEventProcessor")
        #expect(try b.value(of: "n", as: Int.self) == 7)
        #expect(try await host.journal(of: "b").last?.idempotencyKey == "a/1/0")

        // The pong that b's delivery sent waits for the next dispatch (D20), then reaches a.
        #expect(try await host.dispatchPendingEffects() == 1)
        #expect(try await host.instance("a").activeStates == ["done"])
        #expect(try await context(host, "a").value(of: "pongFrom", as: String.self) == "#_scxml_b")
        #expect(try await host.journal(of: "a").last?.idempotencyKey == "b/1/0")
        #expect(try await store.pendingOutbox(limit: 10).isEmpty)
        #expect(await host.statistics.messagesDelivered == 2)
        // Neither snapshot holds a send, and both journals replay to the stored snapshots.
        #expect(try await context(host, "a").queuedOutboundSends.isEmpty)
        #expect(try await host.verifyJournal(of: "a") == 3)
        #expect(try await host.verifyJournal(of: "b") == 2)
    }

    // D22: the send is committed with its step: a commit that fails sends nothing, and the step
    // retried after the database came back sends once.
    @Test(arguments: StoreKind.allCases)
    func aFailedCommitSendsNothing(kind: StoreKind) async throws {
        let store = FailingStore(try await kind.make())
        let host = try await pingPong(on: store)
        await store.setFailing(true)
        await #expect(throws: DurableError.storage("disk I/O error (injected)")) {
            try await host.send(SCXMLEvent("go"), to: "a")
        }
        #expect(try await store.pendingOutbox(limit: 10).isEmpty)
        #expect(try await host.journal(of: "b").map(\.sequence) == [0])
        #expect(await host.statistics.messageDeliveriesFailed == 0)

        await store.setFailing(false)
        try await host.send(SCXMLEvent("go"), to: "a")
        #expect(try await pings(host) == 1)
    }

    // D22: a redelivered message (a crash between delivering it and marking it dispatched) is
    // applied once: its key is recorded on the receiver. The payload is the SCXML event as JSON.
    @Test(arguments: StoreKind.allCases)
    func aRedeliveredSendIsAppliedOnce(kind: StoreKind) async throws {
        let store = try await kind.make()
        let host = try await pingPong(on: store)
        try await host.send(SCXMLEvent("go"), to: "a")
        let delivered = try #require(try await host.journal(of: "b").last)
        let event = try JSONDecoder().decode(SCXMLEvent.self, from: Data(delivered.event.utf8))
        #expect(event.name == "ping" && event.origin == "#_scxml_a" && event.kind == .external)

        let again = try await host.send(json: delivered.event, to: "b", idempotencyKey: "a/1/0")
        #expect(again.replayed)
        #expect(try await pings(host) == 1)
    }

    // D22: a delayed send to another instance is a timer row of the sender, stays in its snapshot
    // until it falls due, and goes out as a message when a sweep fires it.
    @Test(arguments: StoreKind.allCases)
    func aDelayedSendGoesOutWhenItsTimerFires(kind: StoreKind) async throws {
        let store = try await kind.make()
        let clock = ManualClock()
        let host = try await makeHost(store, clock: clock)
        await clock.advance(by: .seconds(100))  // instances start at a nonzero clock time
        try await host.create("a", chart: "pinger", version: 1)
        try await host.create("b", chart: "ponger", version: 1)
        try await host.send(SCXMLEvent("later"), to: "a")
        let timers = try await store.timers(of: "a")
        #expect(timers.map(\.dueNanoseconds) == [Duration.seconds(105).nanosecondsForTests])
        #expect(try await store.pendingOutbox(limit: 10).isEmpty)
        #expect(try await context(host, "a").nextOutboundDueTime == .seconds(5))

        await clock.advance(by: .seconds(4))
        #expect(await host.fireDueTimers().fired == 0)
        #expect(try await pings(host) == 0)
        await clock.advance(by: .seconds(1))
        #expect(await host.fireDueTimers().fired == 1)
        #expect(try await pings(host) == 1)
        #expect(try await store.timers(of: "a").isEmpty)
        #expect(try await host.journal(of: "b").last?.idempotencyKey == "a/2/0")
        #expect(try await host.dispatchPendingEffects() == 1)
        #expect(try await host.instance("a").activeStates == ["done"])
        #expect(try await host.verifyJournal(of: "a") == 4)
    }

    // D22: a delayed send cancelled before it falls due, or left by a machine that finished, is
    // never sent, and its timer row goes with it.
    @Test(arguments: StoreKind.allCases)
    func aCancelledOrAbandonedDelayedSendIsNeverSent(kind: StoreKind) async throws {
        let store = try await kind.make()
        let clock = ManualClock()
        let host = try await makeHost(store, clock: clock)
        try await host.create("b", chart: "ponger", version: 1)
        for (id, stop) in [("a", "cancel"), ("c", "quit")] {
            try await host.create(id, chart: "pinger", version: 1)
            try await host.send(SCXMLEvent("later"), to: id)
            #expect(try await store.timers(of: id).count == 1)
            try await host.send(SCXMLEvent(stop), to: id)
            #expect(try await store.timers(of: id).isEmpty)
            #expect(try await context(host, id).queuedOutboundSends.isEmpty)
        }
        await clock.advance(by: .seconds(10))
        #expect(await host.fireDueTimers().fired == 0)
        #expect(try await pings(host) == 0)
        #expect(try await store.pendingOutbox(limit: 10).isEmpty)
        #expect(try await host.verifyJournal(of: "a") == 3)
        #expect(try await host.verifyJournal(of: "c") == 3)
    }

    // D22: the delayed send survives the host: a new host on the same SQLite file fires it when it
    // falls due, and it is delivered once.
    @Test func aDelayedSendSurvivesARestart() async throws {
        let path = temporaryDatabasePath()
        let clock = ManualClock()
        do {
            let store = try await SQLiteStore(path: path)
            let host = try await pingPong(on: store, clock: clock)
            try await host.send(SCXMLEvent("later"), to: "a")
            await store.close()
        }
        await clock.advance(by: .seconds(6))
        let store = try await SQLiteStore(path: path)
        let host = try await makeHost(store, clock: clock)
        #expect(await host.fireDueTimers().fired == 1)
        #expect(try await pings(host) == 1)
        #expect(try await host.dispatchPendingEffects() == 1)
        #expect(try await host.instance("a").activeStates == ["done"])
        #expect(await host.fireDueTimers().fired == 0)
        #expect(try await pings(host) == 1)
        #expect(try await host.verifyJournal(of: "a") == 4)
        await store.close()
    }

    // D22 (as D20): a send to an instance that does not exist commits the sender's step, counts a
    // failed delivery with unknownInstance, and stays pending until the instance exists.
    @Test(arguments: StoreKind.allCases)
    func aSendToAnUnknownInstanceStaysPending(kind: StoreKind) async throws {
        let store = try await kind.make()
        let host = try await makeHost(store)
        try await host.create("a", chart: "pinger", version: 1)
        let outcome = try await host.send(SCXMLEvent("stray"), to: "a")
        #expect(outcome.sequence == 1 && outcome.configuration == ["waiting"])
        #expect(await host.statistics.messageDeliveriesFailed == 1)
        guard case .unknownInstance("nobody")? = await host.lastMessageFailure else {
            Issue.record("the failure is \(String(describing: await host.lastMessageFailure)), not unknownInstance(nobody)")
            return
        }
        #expect(try await store.pendingOutbox(limit: 10).map(\.idempotencyKey) == ["a/1/0"])
        #expect(try await store.pendingOutbox(limit: 10).map(\.name) == ["nobody"])

        try await host.create("nobody", chart: "ponger", version: 1)
        #expect(try await host.dispatchPendingEffects() == 1)
        #expect(try await context(host, "nobody").value(of: "pings", as: Int.self) == 1)
    }

    // D22 (and D11): an SCXML instance started before D22 — its session id its own, no session
    // reachable by id — keeps its session, and its journal replays as it started.
    @Test func anInstanceStartedBeforeD22ReplaysAsItStarted() async throws {
        let store = InMemoryStore()
        let host = try await makeHost(store)
        try await host.register(try toggleChart(), name: "toggle", version: 1, initialContext: SCXMLContext())
        try await host.create("t", chart: "toggle", version: 1)
        var old = try await host.snapshot(of: "t", as: ChartSnapshot<SCXMLEvent, SCXMLContext>.self)
        #expect(old.context.reachesAnySessionByID && old.context.sessionID == "t")
        old.context.reachesAnySessionByID = false
        old.context.setSessionID("")
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // The row as a host before D22 left it, after an event the chart ignores.
        let record = try #require(try await store.instance("t"))
        var changed = record
        changed.revision += 1
        changed.sequence += 1
        changed.snapshot = String(decoding: try encoder.encode(old), as: UTF8.self)
        let ignored = String(decoding: try encoder.encode(SCXMLEvent("ignored")), as: UTF8.self)
        try await store.commit(
            MacrostepCommit(
                instance: changed, expectedRevision: record.revision,
                journal: JournalEntry(
                    instanceID: "t", sequence: 1, kind: .event, event: ignored, configuration: changed.activeStates,
                    atNanoseconds: record.originNanoseconds, idempotencyKey: nil),
                idempotency: nil, timers: [], outbox: []))
        #expect(try await host.verifyJournal(of: "t") == 2)
    }
}

extension Duration {
    /// The duration in whole nanoseconds, as the stores keep times.
    var nanosecondsForTests: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
