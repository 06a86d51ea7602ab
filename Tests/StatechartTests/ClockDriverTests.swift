import Testing

@testable import Statechart

/// The runtimes read machine time from their clock before every operation (rule R54). With the
/// default `ContinuousClock` on Linux the driver reads the same system clock itself, in whole
/// nanoseconds since its origin, rather than through `ContinuousClock.now`; these tests hold it to
/// the clock's own readings.
@Suite("Clock driver")
struct ClockDriverTests {
    @Test("R54: the continuous clock's reading lies between two readings of ContinuousClock taken around it, and never goes back")
    func readingMatchesTheClock() {
        let before = ContinuousClock.now
        let driver = ClockDriver(ContinuousClock())
        var last = Duration.zero
        for _ in 0..<1_000 {
            let reading = driver.elapsed()
            let bound = before.duration(to: .now)
            #expect(reading >= last && reading <= bound, "reading \(reading), previous \(last), clock since before \(bound)")
            last = reading
        }
    }

    @Test("R54: a sleep until a due time on the clock wakes with machine time at or past it, so a due timer always fires")
    func sleepWakesAtTheDueTime() async throws {
        let driver = ClockDriver(ContinuousClock())
        for due in [Duration.milliseconds(1), .milliseconds(3), .microseconds(1_500)] {
            let target = driver.elapsed() + due
            try await driver.sleepUntilElapsed(target)
            let woke = driver.elapsed()
            #expect(woke >= target, "woke at \(woke) for \(target)")
        }
    }

    @Test("R54: any other clock is read through its own instants")
    func otherClocks() async {
        let manual = ManualClock()
        let driver = ClockDriver(manual)
        #expect(driver.elapsed() == .zero)
        await manual.advance(by: .seconds(2))
        #expect(driver.elapsed() == .seconds(2))
        let suspending = ClockDriver(SuspendingClock())
        #expect(suspending.elapsed() >= .zero)
    }
}
