// swift-tools-version: 6.1
// Durable statecharts: machines that outlive the process (issue 15). A separate package, like
// Benchmarks/, so that users of the core library never resolve SQLite (or, later, PostgreSQL).
//
//   Durable/Scripts/test.sh          # build with zero warnings, run the tests
//
// See Docs/Durability.md for the guarantees (rules D1…) and what is not done yet.
import PackageDescription

/// The core library's strict settings: Swift 6 mode with complete strict concurrency.
let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableExperimentalFeature("StrictConcurrency=complete"),
]

let package = Package(
    name: "StatechartDurable",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "StatechartDurable", targets: ["StatechartDurable"])
    ],
    dependencies: [
        .package(name: "Statechart", path: ".."),
        // SQLite through SwiftNIO: async like postgres-nio, so one store protocol fits both
        // (Docs/Durability.md says why not GRDB).
        .package(url: "https://github.com/vapor/sqlite-nio", from: "1.13.2"),
        // PostgreSQL through postgres-nio: the Swift server community's maintained driver, with a
        // connection pool (PostgresClient) and async/await; Docs/Durability.md says why.
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
    ],
    targets: [
        .target(
            name: "StatechartDurable",
            dependencies: [
                .product(name: "Statechart", package: "Statechart"),
                // SCXML charts' sends to other instances (rule D22).
                .product(name: "StatechartInterchange", package: "Statechart"),
                .product(name: "SQLiteNIO", package: "sqlite-nio"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        // The charts the crash and fault tests' worker processes and the tests share (not a product).
        .target(
            name: "DurableTestCharts",
            dependencies: ["StatechartDurable", .product(name: "Statechart", package: "Statechart")],
            swiftSettings: strictSettings
        ),
        // A worker process the crash test kills with SIGKILL (Tests/…/CrashTests.swift).
        .executableTarget(
            name: "DurableCrashWorker",
            dependencies: ["StatechartDurable", "DurableTestCharts"],
            swiftSettings: strictSettings
        ),
        // A node of the fault test (Tests/…/FaultTests.swift): one PostgreSQL node hosting the cyclic
        // order chart on a compressed clock, driven over its standard input, killed with SIGKILL.
        .executableTarget(
            name: "DurableFaultWorker",
            dependencies: ["StatechartDurable", "DurableTestCharts"],
            swiftSettings: strictSettings
        ),
        // Durable macrosteps per second and latency (Docs/Durability.md, Figures). Not a test.
        .executableTarget(
            name: "DurableFigures",
            dependencies: ["StatechartDurable", .product(name: "Statechart", package: "Statechart")],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "StatechartDurableTests",
            dependencies: [
                "StatechartDurable",
                "DurableTestCharts",
                // Built for the crash test, which runs it as a separate process.
                "DurableCrashWorker",
                "DurableFaultWorker",
                .product(name: "Statechart", package: "Statechart"),
                .product(name: "StatechartInterchange", package: "Statechart"),
                // Raw SQL in tests (SQLite and PostgreSQL): damaged rows and a newer schema, as another
                // program would leave them.
                .product(name: "SQLiteNIO", package: "sqlite-nio"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
