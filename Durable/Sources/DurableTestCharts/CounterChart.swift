import Statechart

/// The chart the crash test's worker processes and the test itself both run (not a product:
/// shared by the worker executable and the tests only).
public enum Parity: String, Hashable, Sendable { case even, odd }

/// The counter's one event.
public enum Bump: String, Hashable, Sendable, Codable { case bump }

/// The counter's context: how many bumps it took, and the last one's number.
public struct Tally: Hashable, Sendable, Codable {
    /// Bumps applied.
    public var bumps = 0
    /// Creates a zero tally.
    public init() {}
}

/// A counter that flips between `even` and `odd` on every bump and counts them; an hour-long
/// timeout in `odd` keeps a timer row pending, so crashes are tested with timers in the rows too.
public func counterChart() throws -> TypedChart<Bump, Tally> {
    try TypedChart(
        Machine<Parity, Bump, Tally>("counter", initial: .even) {
            When(.even) { On(.bump, to: .odd) { $0.context.bumps += 1 } }
            When(.odd) {
                On(.bump, to: .even) { $0.context.bumps += 1 }
                After(.seconds(3_600), to: .even)
            }
        })
}
