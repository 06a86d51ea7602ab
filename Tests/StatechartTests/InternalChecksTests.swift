import Foundation
import Testing

@testable @_spi(Testing) import Statechart

/// The interpreter's invariant check after every operation walks the whole chart, so it is compiled
/// in only under `STATECHART_INTERNAL_CHECKS` (rule R75): the project's tests and CI set it
/// (`.ci/run`, `Scripts/sanitizers.sh`), users' debug builds do not pay for it.
@Suite("Internal checks")
struct InternalChecksTests {
    /// A started two-state machine whose configuration is then corrupted behind the interpreter's
    /// back: `b` is added next to `a`, so the compound root has two active children.
    static func corruptedMachine() throws -> TestInstance {
        var d = TestChart.test(initial: ["a"])
        let a = d.state("a")
        d.state("b")
        d.on(a, "go", to: ["b"])
        var m = TestInstance(chart: try Chart(d), context: Log())
        try m.start()
        m.configuration.insert(m.chart.state(withID: "b")!.index)
        return m
    }

    @Test("R75: under STATECHART_INTERNAL_CHECKS a send on a corrupted machine traps, naming the broken invariant")
    func corruptedStateIsCaught() async throws {
        // The corruption is real whatever the build: the check finds it.
        let m = try Self.corruptedMachine()
        #expect(m.invariantViolations().contains { $0.contains("2 top-level states are active") })
        if ChartInstance<String, Log>.internalChecksEnabled {
            await #expect(processExitsWith: .failure) {
                var m = try InternalChecksTests.corruptedMachine()
                _ = try m.send("unknown")
            }
        } else {
            // Compiled out: the send runs without walking the chart, and nothing traps.
            var m = m
            _ = try m.send("unknown")
        }
    }

    @Test("R75: the project's own test runs compile the check in (STATECHART_INTERNAL_CHECKS=1 in the environment)")
    func testRunsHaveTheCheck() {
        // Package.swift defines the condition from the environment of the build; a test run whose
        // environment sets it must have the check compiled in.
        let requested = Self.environment("STATECHART_INTERNAL_CHECKS") == "1"
        #expect(ChartInstance<String, Log>.internalChecksEnabled == requested)
    }

    static func environment(_ name: String) -> String? {
        ProcessInfo.processInfo.environment[name]
    }
}
