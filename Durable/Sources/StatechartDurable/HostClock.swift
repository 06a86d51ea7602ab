import Foundation
import Statechart

/// The clock a ``DurableHost`` takes due times from: absolute time as a `Duration` since the
/// clock's epoch, so a due time written by one process means the same in the next (rule D6).
///
/// ```swift
/// let clock = ManualClock()
/// let host = DurableHost(store: store, clock: .manual(clock))   // tests: time moves when told
/// let live = DurableHost(store: store)                          // .system: wall-clock time
/// ```
public struct HostClock: Sendable {
    /// The current time since the clock's epoch.
    public let now: @Sendable () -> Duration
    /// Suspends until the clock reads at least the given time (or the task is cancelled).
    public let sleepUntil: @Sendable (Duration) async throws -> Void

    /// A clock from its two operations.
    public init(now: @escaping @Sendable () -> Duration, sleepUntil: @escaping @Sendable (Duration) async throws -> Void) {
        self.now = now
        self.sleepUntil = sleepUntil
    }

    /// Wall-clock time since the Unix epoch: due times survive a restart of the process.
    public static var system: HostClock {
        HostClock(
            now: { Self.wallTime() },
            sleepUntil: { deadline in
                let wait = deadline - Self.wallTime()
                if wait > .zero { try await Task.sleep(for: wait) }
            })
    }

    /// A ``ManualClock``'s time (its offset since it was created): tests move it with
    /// `advance(by:)`, and a second host on the same clock sees the same time.
    public static func manual(_ clock: ManualClock) -> HostClock {
        HostClock(
            now: { clock.now.offset },
            sleepUntil: { deadline in try await clock.sleep(until: ManualClock.Instant(offset: deadline)) })
    }

    static func wallTime() -> Duration {
        let seconds = Date().timeIntervalSince1970
        let whole = seconds.rounded(.down)
        return .seconds(Int64(whole)) + .nanoseconds(Int64((seconds - whole) * 1e9))
    }
}

extension Duration {
    /// The duration in whole nanoseconds, as the stores keep times.
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
