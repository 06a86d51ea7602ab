import Foundation
import Statechart
import Testing

/// The two states of the stress chart: every event moves the machine to the other one.
enum StressState: Hashable, Sendable { case ping, pong }

/// An event that says who sent it and its place in that sender's sequence.
struct StressEvent: Hashable, Sendable {
    var sender: Int
    var sequence: Int
}

/// What the chart's actions saw, in processing order.
struct StressLog: Sendable {
    /// Per sender, the sequence number expected next (= how many of its events were processed).
    var next: [Int]
    /// Events that arrived out of their sender's order (the first few).
    var problems: [String] = []
    /// Transition actions run, and entries into each state.
    var transitionCount = 0
    var entryCount = 0

    init(senders: Int) { next = Array(repeating: 0, count: senders) }

    mutating func record(_ event: StressEvent?) {
        transitionCount += 1
        guard let event, next.indices.contains(event.sender) else {
            problems.append("an action without a stress event: \(String(describing: event))")
            return
        }
        if event.sequence != next[event.sender], problems.count < 10 {
            problems.append("sender \(event.sender): got \(event.sequence), expected \(next[event.sender])")
        }
        next[event.sender] = event.sequence + 1
    }
}

/// H8 of Docs/Reliability.md: many tasks sending to one ``AsyncStateMachine`` at once.
@Suite("Concurrency stress")
struct ConcurrencyStressTests {
    /// Events per sender: `STATECHART_STRESS_EVENTS`, else 10,000 (8 senders: 80,000 events, about
    /// 2 s in a debug build). The full 100,000 per sender (800,000 events) takes about 22 s in a
    /// debug build: Scripts/sanitizers.sh runs it under TSan and ASan.
    static var eventsPerSender: Int {
        ProcessInfo.processInfo.environment["STATECHART_STRESS_EVENTS"].flatMap(Int.init) ?? 10_000
    }

    @Test(
        "H8: 8 tasks × 100,000 events (10,000 unless STATECHART_STRESS_EVENTS is set) to one AsyncStateMachine: each processed once, in each sender's order"
    )
    func eightConcurrentSenders() async throws {
        let senders = 8
        let count = Self.eventsPerSender
        let total = senders * count
        let chart = Machine<StressState, StressEvent, StressLog>(initial: .ping) {
            When(.ping) {
                OnEntry { $0.context.entryCount += 1 }
                On(matching: { _ in true }, to: .pong) { scope in scope.context.record(scope.userEvent) }
            }
            When(.pong) {
                OnEntry { $0.context.entryCount += 1 }
                On(matching: { _ in true }, to: .ping) { scope in scope.context.record(scope.userEvent) }
            }
        }
        let machine = try await AsyncStateMachine(chart, context: StressLog(senders: senders), clock: ManualClock())
        // A ninth task reads the transition stream while the senders run.
        let stream = await machine.transitions()
        let observer = Task { () -> (records: Int, perSenderInOrder: Bool) in
            var records = 0
            var next = Array(repeating: 0, count: senders)
            var inOrder = true
            for await record in stream {
                records += 1
                if let e = record.event {
                    if e.sequence != next[e.sender] { inOrder = false }
                    next[e.sender] = e.sequence + 1
                }
                if records == total { break }
            }
            return (records, inOrder)
        }
        let start = ContinuousClock.now
        try await withThrowingTaskGroup(of: Void.self) { group in
            for sender in 0..<senders {
                group.addTask {
                    for sequence in 0..<count {
                        try await machine.send(StressEvent(sender: sender, sequence: sequence))
                    }
                }
            }
            try await group.waitForAll()
        }
        let elapsed = ContinuousClock.now - start
        let seen = await observer.value
        let log = await machine.context

        #expect(log.problems.isEmpty, "\(log.problems)")
        #expect(log.next == Array(repeating: count, count: senders))  // every event of every sender, once
        #expect(log.transitionCount == total)
        #expect(log.entryCount == total + 1)  // the initial entry, then one per transition
        #expect(await machine.state == (total.isMultiple(of: 2) ? .ping : .pong))
        #expect(await machine.waitingOperations == 0)
        #expect(seen.records == total)
        #expect(seen.perSenderInOrder)
        print("H8: \(total) events from \(senders) tasks in \(elapsed)")
    }
}
