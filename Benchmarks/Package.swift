// swift-tools-version: 6.1
// The benchmarks of Statechart: a separate package, so that users of the library never resolve
// package-benchmark. It calls the library from other modules, exactly as users do.
//
//   cd Benchmarks && swift package --disable-sandbox benchmark              # every figure
//   Scripts/benchmarks.sh                                                   # the malloc-count gate
//
// See Docs/Performance.md for the figures and how to read them.
import PackageDescription

let package = Package(
    name: "StatechartBenchmarks",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    dependencies: [
        .package(name: "Statechart", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        // The charts under test, the hand-written reference machine and the document generators,
        // shared by both benchmark executables. Nothing in it is measured by itself.
        .target(
            name: "BenchmarkCharts",
            dependencies: [
                .product(name: "Statechart", package: "Statechart"),
                .product(name: "StatechartInterchange", package: "Statechart"),
            ],
            path: "Sources/BenchmarkCharts"
        ),
        // Instruction counts per event under callgrind (Scripts/benchmarks.sh --instructions):
        // exact and repeatable, unlike wall time. Not a package-benchmark target.
        .executableTarget(
            name: "InstructionCounts",
            dependencies: [
                "BenchmarkCharts",
                .product(name: "Statechart", package: "Statechart"),
                .product(name: "StatechartInterchange", package: "Statechart"),
            ],
            path: "Sources/InstructionCounts"
        ),
        // Wall time of building charts of a million states (issue 16): a plain executable, as
        // InstructionCounts, so that one run prints every phase (see Sources/BuildTime/main.swift).
        .executableTarget(
            name: "BuildTime",
            dependencies: [
                "BenchmarkCharts",
                .product(name: "Statechart", package: "Statechart"),
                .product(name: "StatechartInterchange", package: "Statechart"),
            ],
            path: "Sources/BuildTime"
        ),
        // Time per event, build time, parsing speed (wall clock).
        .executableTarget(
            name: "StatechartBenchmarks",
            dependencies: [
                "BenchmarkCharts",
                .product(name: "Statechart", package: "Statechart"),
                .product(name: "StatechartInterchange", package: "Statechart"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/StatechartBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // Heap allocations per event, measured on their own (no clock in the same run): the
        // regression gate's thresholds (Thresholds/) are taken from this target only.
        .executableTarget(
            name: "StatechartAllocations",
            dependencies: [
                "BenchmarkCharts",
                .product(name: "Statechart", package: "Statechart"),
                .product(name: "StatechartInterchange", package: "Statechart"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/StatechartAllocations",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
