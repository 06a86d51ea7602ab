import Synchronization

/// A clock that moves only when told to: tests drive machine time with it and never sleep.
///
/// ```swift
/// let clock = ManualClock()
/// let machine = try await AsyncStateMachine(loader, context: .init(), clock: clock)
/// await clock.advance(by: .seconds(30))   // the 30-second timeout fires, deterministically
/// ```
/// `advance(by:)` resumes every sleeper whose deadline has passed and then lets every
/// ``AsyncStateMachine`` running on this clock process its timers that fell due; it returns only
/// when they have (rule R54).
public final class ManualClock: Clock, Sendable {
    /// A point in the manual clock's time: the duration since the clock was created.
    public struct Instant: InstantProtocol, Hashable, Sendable {
        /// Time since the clock was created.
        public var offset: Duration
        /// Creates an instant.
        public init(offset: Duration) { self.offset = offset }
        /// The instant `duration` later.
        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        /// The duration from this instant to `other`.
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        /// Earlier first.
        public static func < (a: Instant, b: Instant) -> Bool { a.offset < b.offset }
    }

    struct Sleeper {
        var id: UInt64
        var deadline: Instant
        var continuation: CheckedContinuation<Void, any Error>
    }

    struct State {
        var now = Instant(offset: .zero)
        var sleepers: [Sleeper] = []
        var nextID: UInt64 = 0
        var observers: [(id: UInt64, tick: @Sendable () async -> Void)] = []
    }

    let state = Mutex(State())

    /// Creates a clock at time zero.
    public init() {}

    /// The current instant.
    public var now: Instant { state.withLock { $0.now } }

    /// No resolution limit: time moves in the steps it is given.
    public var minimumResolution: Duration { .zero }

    /// Suspends until the clock is advanced past `deadline` (or the task is cancelled).
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let id = state.withLock { s in
            s.nextID += 1
            return s.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let resumeNow = state.withLock { s -> Bool in
                    if deadline <= s.now || Task.isCancelled { return true }
                    s.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
                    return false
                }
                if resumeNow { continuation.resume() }
            }
            try Task.checkCancellation()
        } onCancel: {
            let sleeper = state.withLock { s -> Sleeper? in
                guard let i = s.sleepers.firstIndex(where: { $0.id == id }) else { return nil }
                return s.sleepers.remove(at: i)
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves the clock forward, wakes the sleepers that are due (earliest first), and lets the
    /// machines on this clock fire their due timers before returning.
    public func advance(by duration: Duration) async {
        let (due, observers) = state.withLock { s in
            s.now = s.now.advanced(by: max(duration, .zero))
            let now = s.now
            let due = s.sleepers.filter { $0.deadline <= now }.sorted { $0.deadline < $1.deadline }
            s.sleepers.removeAll { $0.deadline <= now }
            return (due, s.observers)
        }
        for sleeper in due { sleeper.continuation.resume() }
        for observer in observers { await observer.tick() }
    }

    /// Registers a callback run on every `advance`; returns a token for ``removeObserver(_:)``.
    package func addObserver(_ tick: @escaping @Sendable () async -> Void) -> UInt64 {
        state.withLock { s in
            s.nextID += 1
            s.observers.append((s.nextID, tick))
            return s.nextID
        }
    }

    /// Removes a callback registered with ``addObserver(_:)``.
    package func removeObserver(_ id: UInt64) {
        state.withLock { s in s.observers.removeAll { $0.id == id } }
    }
}
