import Foundation

/// How many of a random-walk test's seeds run: all of them, unless `STATECHART_RANDOM_WALKS_PERCENT`
/// asks for fewer. The random walks (lean against general path, invariants and restore) are most of
/// the suite's time in a debug build; `Scripts/sanitizers.sh` sets 25 for the AddressSanitizer run,
/// whose debug build is slower still. The plain `swift test` and the ThreadSanitizer run walk every
/// seed, so every seed is still checked in CI.
enum RandomWalkShare {
    /// The share of seeds to walk, 1–100 (100 when the variable is unset or not a number).
    static let percent: Int = {
        guard let text = ProcessInfo.processInfo.environment["STATECHART_RANDOM_WALKS_PERCENT"],
            let value = Int(text)
        else { return 100 }
        return min(max(value, 1), 100)
    }()

    /// The first `percent` % of `seeds`, at least one seed.
    static func seeds(_ seeds: ClosedRange<UInt64>) -> ClosedRange<UInt64> {
        let count = max(1, seeds.count * percent / 100)
        return seeds.lowerBound...(seeds.lowerBound + UInt64(count - 1))
    }

    /// Part `part` of `parts` of ``seeds(_:)``'s share: every `parts`-th seed, from the
    /// `part`-th. The parts of one share are disjoint and together are the share, so a test
    /// split into parameterized parts walks the same seeds in parallel.
    static func seeds(_ seeds: ClosedRange<UInt64>, part: Int, of parts: Int) -> [UInt64] {
        let share = self.seeds(seeds)
        return Array(stride(from: share.lowerBound + UInt64(part), through: share.upperBound, by: parts))
    }
}
