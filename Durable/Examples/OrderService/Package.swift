// swift-tools-version: 6.1
// The order workflow behind a small HTTP API: durable instances (StatechartDurable) served with
// Hummingbird. A package of its own, beside the durable package rather than inside it, so that
// depending on StatechartDurable never resolves an HTTP server (Docs/Durability.md says why
// Hummingbird).
//
//   swift run --package-path Durable/Examples/OrderService OrderService     # serve on :8080
//   swift test --package-path Durable/Examples/OrderService                 # drive it over HTTP
import PackageDescription

let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableExperimentalFeature("StrictConcurrency=complete"),
]

let package = Package(
    name: "OrderService",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "StatechartDurable", path: "../.."),
        .package(name: "Statechart", path: "../../.."),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
    ],
    targets: [
        // The order chart: an order with a payment child and a 30 s payment timeout.
        .target(
            name: "OrderWorkflow",
            dependencies: [.product(name: "Statechart", package: "Statechart")],
            swiftSettings: strictSettings
        ),
        // The HTTP API over a durable host (a library, so that the tests build the same app).
        .target(
            name: "OrderServiceKit",
            dependencies: [
                "OrderWorkflow",
                .product(name: "StatechartDurable", package: "StatechartDurable"),
                .product(name: "Statechart", package: "Statechart"),
                .product(name: "StatechartInterchange", package: "Statechart"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "OrderService",
            dependencies: [
                "OrderServiceKit",
                .product(name: "Hummingbird", package: "hummingbird"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "OrderServiceTests",
            dependencies: [
                "OrderServiceKit",
                "OrderWorkflow",
                .product(name: "StatechartDurable", package: "StatechartDurable"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ],
            swiftSettings: strictSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
