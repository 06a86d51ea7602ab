import Synchronization

/// A time limit on an operation that may never answer, even to cancellation.
///
/// `withThrowingTaskGroup` cannot bound such an operation: a group waits for every child, so a
/// child stuck in an await that ignores cancellation keeps the caller waiting too. Here the
/// operation runs in a task of its own and the caller waits on a continuation that whichever
/// comes first resumes: the operation's result, or the deadline (which then cancels the operation
/// and leaves it behind). Seen with postgres-nio: a query on a connection the server had just
/// killed never returned (rule D9).
enum Deadline {
    /// Runs `operation`; returns its value, rethrows its error, or returns `nil` when it has not
    /// finished within `timeout` (the operation is cancelled then, and no longer awaited).
    /// Cancelling the caller cancels the operation.
    static func run<T: Sendable>(
        within timeout: Duration, _ operation: @escaping @Sendable () async throws -> T
    ) async throws -> T? {
        let waiter = Waiter<T>()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                waiter.start(continuation, timeout: timeout, operation)
            }
        } onCancel: {
            waiter.cancelOperation()
        }
    }

    /// The continuation, resumed once, and the two tasks racing to resume it.
    final class Waiter<T: Sendable>: Sendable {
        private struct State {
            var continuation: CheckedContinuation<T?, any Error>?
            var operation: Task<Void, Never>?
            var timer: Task<Void, Never>?
            /// The caller was cancelled, or the deadline passed: the operation is to be cancelled.
            var stopOperation = false
        }
        private let state = Mutex(State())

        func start(
            _ continuation: CheckedContinuation<T?, any Error>, timeout: Duration,
            _ operation: @escaping @Sendable () async throws -> T
        ) {
            // The continuation is in place before either task can finish.
            state.withLock { $0.continuation = continuation }
            let timer = Task {
                try? await Task.sleep(for: timeout)
                if Task.isCancelled { return }
                self.finish(with: .success(nil), timedOut: true)
            }
            let work = Task {
                let result: Result<T?, any Error>
                do { result = .success(try await operation()) } catch { result = .failure(error) }
                self.finish(with: result, timedOut: false)
            }
            let (resumed, stop) = state.withLock { state -> (Bool, Bool) in
                state.operation = work
                state.timer = timer
                return (state.continuation == nil, state.stopOperation)
            }
            if resumed { timer.cancel() }
            if stop { work.cancel() }
        }

        /// Resumes the caller with `result` unless it was resumed already; stops the timer, and
        /// the operation when the deadline won.
        private func finish(with result: Result<T?, any Error>, timedOut: Bool) {
            let (continuation, operation, timer) = state.withLock { state in
                defer {
                    state.continuation = nil
                    if timedOut { state.stopOperation = true }
                }
                return (state.continuation, state.operation, state.timer)
            }
            guard let continuation else { return }
            timer?.cancel()
            if timedOut { operation?.cancel() }
            continuation.resume(with: result)
        }

        func cancelOperation() {
            let operation = state.withLock { state in
                state.stopOperation = true
                return state.operation
            }
            operation?.cancel()
        }
    }
}
