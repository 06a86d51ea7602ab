// swift-tools-version: 6.0
// libFuzzer targets for Statechart: a separate package, so that users of the library never see
// it. Built with the sanitizer flags of Scripts/fuzz.sh (which also makes the seed corpora):
//
//   Scripts/fuzz.sh loader -max_total_time=60      the SCXML loader (LoaderFuzz)
//   Scripts/fuzz.sh run -runs=100000               a loaded chart driven by events (RunFuzz)
//   Scripts/fuzz.sh script -max_total_time=60      the ECMAScript subset's parser and evaluator (ScriptFuzz)
//
// See Docs/Reliability.md for the figures.
import PackageDescription

let package = Package(
    name: "StatechartFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Statechart", path: "..")
    ],
    targets: [
        // Loads any bytes as SCXML: the loader must return a chart or throw a typed error, never
        // crash, hang or exhaust memory; a chart it loads must export and load again.
        .executableTarget(
            name: "LoaderFuzz",
            dependencies: [
                .product(name: "Statechart", package: "Statechart"),
                .product(name: "StatechartInterchange", package: "Statechart"),
            ]
        ),
        // Loads a chart from the input up to its first NUL byte and runs the bytes after it as a
        // sequence of events, clock advances, resets and snapshot round trips, checking the
        // interpreter's invariants after every step.
        .executableTarget(
            name: "RunFuzz",
            dependencies: [
                .product(name: "Statechart", package: "Statechart"),
                .product(name: "StatechartInterchange", package: "Statechart"),
            ]
        ),
        // Parses and runs any text with the ECMAScript subset under small budgets: a value or a
        // typed error, never a crash, a hang or unbounded memory.
        .executableTarget(
            name: "ScriptFuzz",
            dependencies: [
                .product(name: "Statechart", package: "Statechart"),
                .product(name: "StatechartECMAScript", package: "Statechart"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
