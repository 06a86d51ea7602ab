// swift-tools-version: 6.0
import PackageDescription

/// Strict settings applied to every target (swift-log's pattern): Swift 6 language mode with
/// complete strict concurrency, plus upcoming features that keep the API honest.
let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableExperimentalFeature("StrictConcurrency=complete"),
]

/// The interpreter's invariant check after every operation walks the whole chart, so it is compiled
/// in only when the build's environment sets `STATECHART_INTERNAL_CHECKS=1` — the project's own
/// tests and CI do (`.ci/run`, `Scripts/sanitizers.sh`); users' builds never pay for it (rule R75,
/// swift-collections' `COLLECTIONS_INTERNAL_CHECKS`).
let internalChecks: [SwiftSetting] =
    Context.environment["STATECHART_INTERNAL_CHECKS"] == "1" ? [.define("STATECHART_INTERNAL_CHECKS")] : []

let package = Package(
    name: "Statechart",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "Statechart", targets: ["Statechart"]),
        .library(name: "StatechartInterchange", targets: ["StatechartInterchange"]),
        .library(name: "StatechartTesting", targets: ["StatechartTesting"]),
        .library(name: "StatechartECMAScript", targets: ["StatechartECMAScript"]),
        .executable(name: "statechart", targets: ["StatechartCLI"]),
    ],
    targets: [
        // The engine: chart model, interpreter, typed builder, runtimes. Foundation-free.
        .target(name: "Statechart", swiftSettings: internalChecks),
        // The ECMAScript subset that SCXML's ecmascript datamodel runs on: our own sandboxed
        // interpreter, Foundation-free, with budgets (issue 14 §2). The core never depends on it.
        .target(name: "StatechartECMAScript", dependencies: ["Statechart"]),
        // SCXML import/export and the conformance scenario runner. Uses FoundationXML.
        .target(name: "StatechartInterchange", dependencies: ["Statechart", "StatechartECMAScript"]),
        // Test helpers for users' charts: the exhaustive TestStore and scenario checks (issue 7 §7).
        // Depends on Swift Testing (from the toolchain); may use Foundation's JSON decoding.
        .target(name: "StatechartTesting", dependencies: ["Statechart"]),
        // The `statechart` command.
        .executableTarget(name: "StatechartCLI", dependencies: ["Statechart", "StatechartInterchange"]),
        .testTarget(name: "StatechartTests", dependencies: ["Statechart"]),
        .testTarget(
            name: "InterchangeTests",
            // The CLI is a dependency so that its binary is built for the end-to-end tests.
            dependencies: ["Statechart", "StatechartInterchange", "StatechartCLI"],
            exclude: ["Golden"]
        ),
        // The documented examples of the five seed READMEs, written with the public API only (issue 4 §1),
        // each also checked step by step with StatechartTesting's TestStore (issue 7 §7).
        .testTarget(name: "ConformanceTests", dependencies: ["Statechart", "StatechartTesting"]),
        .testTarget(name: "ECMAScriptTests", dependencies: ["Statechart", "StatechartECMAScript"]),
        .testTarget(name: "StatechartTestingTests", dependencies: ["Statechart", "StatechartTesting"]),
    ],
    swiftLanguageModes: [.v6]
)

for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + strictSettings
}
