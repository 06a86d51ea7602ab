#if os(Linux) && canImport(Glibc)
import Glibc
#elseif os(Linux) && canImport(Musl)
import Musl
#endif

/// A clock of any kind seen as "time elapsed since the machine started", so the runtime can
/// drive the interpreter's virtual time from it (rule R54).
package struct ClockDriver: Sendable {
    package let elapsed: @Sendable () -> Duration
    package let sleepUntilElapsed: @Sendable (Duration) async throws -> Void
    package let manual: ManualClock?

    package init<C: Clock>(_ clock: C) where C.Duration == Duration {
        let start = clock.now
        if clock is ContinuousClock, let origin = start as? ContinuousClock.Instant {
            // The default clock, read at every operation: a closure compiled for it, not one
            // that goes through `Clock`'s witnesses (about 6 % of an uncontended send).
            elapsed = Self.elapsed(since: origin)
        } else {
            elapsed = { start.duration(to: clock.now) }
        }
        sleepUntilElapsed = { d in try await clock.sleep(until: start.advanced(by: d), tolerance: nil) }
        manual = clock as? ManualClock
    }

    /// The default clock's reading, made outside the generic initializer: a closure made inside it
    /// carries its generic context and looked up `ContinuousClock`'s metadata at every call.
    private static func elapsed(since origin: ContinuousClock.Instant) -> @Sendable () -> Duration {
        #if os(Linux) && (canImport(Glibc) || canImport(Musl))
        // On Linux `ContinuousClock.now` is `clock_gettime(CLOCK_BOOTTIME)` made into an instant
        // through the runtime's `swift_get_time` and 128-bit `Duration` arithmetic, then
        // subtracted from the origin in 128 bits again: about 100 instructions around the system
        // call, at every operation (issue 16, "History from memory, time without `Duration`").
        // The same clock read here, in whole nanoseconds since the origin, gives the same
        // durations: the origin is taken from the clock's own epoch, so a timer that sleeps until
        // `origin + due` on `ContinuousClock` finds machine time at `due` when it wakes.
        // The closure holds the origin as an integer, not as an instant: `ContinuousClock.Instant`
        // is a resilient type of the standard library, and a closure that captured one looked its
        // metadata up at every call, twice (about 2 % of an uncontended `AsyncStateMachine.send`).
        let originNanoseconds = nanosecondsSinceEpoch(origin)
        return {
            var reading = timespec()
            guard clock_gettime(CLOCK_BOOTTIME, &reading) == 0 else {
                return .nanoseconds(nanosecondsSinceEpochNow() &- originNanoseconds)
            }
            let nanoseconds = Int64(reading.tv_sec) &* 1_000_000_000 &+ Int64(reading.tv_nsec)
            return .nanoseconds(nanoseconds &- originNanoseconds)
        }
        #else
        return { origin.duration(to: .now) }
        #endif
    }

    /// An instant of the default clock in whole nanoseconds since the clock's epoch.
    @inline(never)
    private static func nanosecondsSinceEpoch(_ instant: ContinuousClock.Instant) -> Int64 {
        let since = ContinuousClock().systemEpoch.duration(to: instant).components
        return since.seconds &* 1_000_000_000 &+ since.attoseconds / 1_000_000_000
    }

    /// The default clock's reading through the standard library, in whole nanoseconds since its
    /// epoch: the fallback of the system call above (which does not fail for `CLOCK_BOOTTIME`).
    /// Out of line, so that the closure names no resilient type: an instant on its stack was
    /// sized from the instant's metadata at every call.
    @inline(never)
    private static func nanosecondsSinceEpochNow() -> Int64 { nanosecondsSinceEpoch(.now) }
}
