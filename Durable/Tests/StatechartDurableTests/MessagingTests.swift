import Foundation
import Statechart
import StatechartDurable
import Testing

enum RelayState: String, Hashable, Sendable { case ready }
enum RelayEvent: String, Hashable, Sendable, Codable { case ping }

/// A relay counts the pings it receives and passes each on to `next` (when it has one).
struct Relay: Hashable, Sendable, Codable, DurableMessaging {
    var next: String?
    var received = 0
    var outgoingMessages: [DurableMessage] = []
}

func relayChart() throws -> TypedChart<RelayEvent, Relay> {
    try TypedChart(
        Machine<RelayState, RelayEvent, Relay>("relay", initial: .ready) {
            When(.ready) {
                On(.ping) {
                    $0.context.received += 1
                    if let next = $0.context.next { try $0.context.send(RelayEvent.ping, toInstance: next) }
                }
            }
        })
}

/// D20: events an instance sends to other instances go through the outbox of the step that
/// sends them, and are delivered at least once, each applied once.
@Suite struct MessagingTests {
    /// A host with one relay chart per instance name: `relay-<id>` passes its pings to `next`.
    func makeRelayHost(_ store: any DurableStore, links: [String: String?]) async throws -> DurableHost {
        let host = DurableHost(store: store, clock: .manual(ManualClock()))
        for (id, next) in links {
            try await host.register(try relayChart(), name: "relay-\(id)", version: 1, initialContext: Relay(next: next))
        }
        return host
    }

    func received(_ host: DurableHost, _ id: String) async throws -> Int {
        try await host.snapshot(of: id, as: ChartSnapshot<RelayEvent, Relay>.self).context.received
    }

    // D20: the message is committed with the step that sends it, delivered after the commit with
    // the key "<sender>/<sequence>/<position>", marked dispatched, and never kept in a snapshot.
    @Test(arguments: StoreKind.allCases)
    func messagesAreCommittedWithTheirStepAndDeliveredOnce(kind: StoreKind) async throws {
        let store = try await kind.make()
        let host = try await makeRelayHost(store, links: ["a": "b", "b": nil])
        try await host.create("a", chart: "relay-a", version: 1)
        try await host.create("b", chart: "relay-b", version: 1)
        try await host.send(RelayEvent.ping, to: "a", idempotencyKey: "first")

        #expect(try await received(host, "b") == 1)
        let delivered = try await host.journal(of: "b").last
        #expect(delivered?.idempotencyKey == "a/1/0")
        #expect(delivered?.event == "\"ping\"")
        #expect(await host.statistics.messagesDelivered == 1)
        #expect(try await store.pendingOutbox(limit: 10).isEmpty)
        // The sender's snapshot holds no message, and its journal replays (the replay takes the
        // messages out as the step did).
        #expect(try await host.snapshot(of: "a", as: ChartSnapshot<RelayEvent, Relay>.self).context.outgoingMessages.isEmpty)
        #expect(try await host.verifyJournal(of: "a") == 2)
        // A redelivery (a crash between delivering and marking) is answered from the record.
        let again = try await host.send(json: "\"ping\"", to: "b", idempotencyKey: "a/1/0")
        #expect(again.replayed)
        #expect(try await received(host, "b") == 1)
    }

    // D20: a message that cannot be delivered (its instance does not exist yet) stays pending,
    // says why, and is delivered by a later dispatch — once.
    @Test(arguments: StoreKind.allCases)
    func anUndeliverableMessageStaysPendingUntilItCanBeDelivered(kind: StoreKind) async throws {
        let store = try await kind.make()
        let host = try await makeRelayHost(store, links: ["a": "b", "b": nil])
        try await host.create("a", chart: "relay-a", version: 1)
        let outcome = try await host.send(RelayEvent.ping, to: "a")
        #expect(outcome.sequence == 1)  // the sender's step is committed whatever becomes of its message
        #expect(await host.statistics.messageDeliveriesFailed == 1)
        guard case .unknownInstance("b")? = await host.lastMessageFailure else {
            Issue.record("the failure is \(String(describing: await host.lastMessageFailure)), not unknownInstance(b)")
            return
        }
        #expect(try await store.pendingOutbox(limit: 10).map(\.idempotencyKey) == ["a/1/0"])

        try await host.create("b", chart: "relay-b", version: 1)
        #expect(try await host.dispatchPendingEffects() == 1)
        #expect(try await host.dispatchPendingEffects() == 0)
        #expect(try await received(host, "b") == 1)
        #expect(try await host.journal(of: "b").compactMap(\.idempotencyKey) == ["a/1/0"])
    }

    // D20: a delivery's own messages wait for the next dispatch, so instances that pass messages
    // around a ring advance one hop per dispatch instead of running forever inside one call.
    @Test func aRingOfInstancesAdvancesOneHopPerDispatch() async throws {
        let host = try await makeRelayHost(InMemoryStore(), links: ["a": "b", "b": "c", "c": "a"])
        for id in ["a", "b", "c"] { try await host.create(id, chart: "relay-\(id)", version: 1) }
        try await host.send(RelayEvent.ping, to: "a")
        #expect(try await received(host, "a") == 1)
        #expect(try await received(host, "b") == 1)
        #expect(try await received(host, "c") == 0)
        #expect(try await host.dispatchPendingEffects() == 1)
        #expect(try await received(host, "c") == 1)
        #expect(try await host.dispatchPendingEffects() == 1)
        #expect(try await received(host, "a") == 2)
        #expect(try await host.journal(of: "a").compactMap(\.idempotencyKey) == ["c/1/0"])
    }
}
