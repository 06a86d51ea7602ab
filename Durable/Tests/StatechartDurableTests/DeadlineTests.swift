@testable import StatechartDurable
import Synchronization
import Testing

/// The time limit on a database request (rule D9): an operation that never answers, not even to
/// cancellation, must not keep its caller waiting — which a task group's timeout would.
@Suite(.timeLimit(.minutes(1)))
struct DeadlineTests {
    // D9: a value or an error within the time passes through unchanged.
    @Test func answersWithinTheTimePassThrough() async throws {
        #expect(try await Deadline.run(within: .seconds(10)) { 42 } == 42)
        await #expect(throws: DurableError.busy("x")) {
            try await Deadline.run(within: .seconds(10)) { () async throws -> Int in throw DurableError.busy("x") }
        }
    }

    // D9: an operation that ignores cancellation and never finishes is abandoned at the deadline
    // (nil), and it was told to stop (cancelled).
    @Test func anOperationThatNeverAnswersIsAbandonedAtTheDeadline() async throws {
        let (never, _) = AsyncStream.makeStream(of: Int.self)  // never finishes
        let cancelled = Mutex(false)
        let clock = ContinuousClock()
        let start = clock.now
        let value = try await Deadline.run(within: .milliseconds(200)) { () async -> Int in
            // Ignores cancellation: waits for the stream in an unstructured task it does not cancel.
            let stuck = Task { for await x in never { return x }; return -1 }
            await withTaskCancellationHandler {
                _ = await stuck.value
            } onCancel: {
                cancelled.withLock { $0 = true }
            }
            return 1
        }
        #expect(value == nil)
        #expect(clock.now - start < .seconds(10))
        #expect(cancelled.withLock { $0 })
    }

    // D9: cancelling the caller cancels the operation.
    @Test func cancellingTheCallerCancelsTheOperation() async throws {
        let task = Task {
            try await Deadline.run(within: .seconds(30)) { () async throws -> Int in
                try await Task.sleep(for: .seconds(30))
                return 1
            }
        }
        try await Task.sleep(for: .milliseconds(50))
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
    }
}
