import Foundation
import StatechartInterchange

/// `statechart test PATH…`: runs conformance scenarios.
enum TestCommand {
    static let help = """
        USAGE: statechart test PATH… [--verbose]

        Finds every X.scxml with an X.json scenario beside it under each PATH (recursively), runs
        them in path order on virtual time, prints one line per failing test with the expected and
        actual configurations, and ends with `N passed, M failed`. A chart that fails to load
        counts as failed. Exits with 0 only when every test passed.

        Options:
          --verbose   Also print a line for each passing test
          -h, --help  Show this help
        """

    static func main(_ arguments: [String]) -> Int32 {
        let parsed: ParsedArguments
        switch ParsedArguments.forCommand(arguments, help: help, flags: ["verbose", "v"]) {
        case .success(let p): parsed = p
        case .failure(let stop): return stop.status
        }
        guard !parsed.positionals.isEmpty else {
            printError("test needs at least one PATH\n\n" + help)
            return 2
        }
        let verbose = parsed.flags.contains("verbose") || parsed.flags.contains("v")
        let cases: [ScenarioCase]
        do {
            cases = try ScenarioDiscovery.cases(in: parsed.positionals.map { URL(fileURLWithPath: $0) })
        } catch {
            printError(error.description)
            return 2
        }
        var passed = 0
        var failed = 0
        for c in cases {
            let result = c.run()
            let name = c.name
            if result.passed {
                passed += 1
                if verbose { print("PASS \(name)") }
            } else {
                failed += 1
                if let loadError = result.loadError {
                    print("FAIL \(name): \(loadError)")
                } else {
                    print("FAIL \(name): " + result.failures.map(\.description).joined(separator: "; "))
                }
            }
        }
        print("\(passed) passed, \(failed) failed")
        if cases.isEmpty {
            printError("no X.scxml with an X.json beside it was found")
            return 1
        }
        return failed == 0 ? 0 : 1
    }
}
