// swift-tools-version: 6.0
import PackageDescription

/// SwiftModel's resource core (ModelServer) on Hummingbird 2, and TodoServer, an example
/// server. A package of its own so the main package keeps no package dependencies.
///
/// HandWrittenTodoServer is the baseline of the server load benchmark
/// (Scripts/server-load.sh): TodoServer's three measured routes written by hand on
/// Hummingbird 2 and PostgresNIO, as a team without SwiftModel would write them. It uses
/// nothing of SwiftModel; it lives here so one build of Hummingbird and SwiftNIO serves both
/// servers (a package of its own built them a second time: 9 minutes of CI).
let package = Package(
    name: "SwiftModelHummingbird",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11)],
    products: [
        .library(name: "HummingbirdModelServer", targets: ["HummingbirdModelServer"]),
        .executable(name: "TodoServer", targets: ["TodoServer"]),
        .executable(name: "HandWrittenTodoServer", targets: ["HandWrittenTodoServer"]),
    ],
    dependencies: [
        .package(name: "SwiftModel", path: "../.."),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/vapor/postgres-nio.git", exact: "1.33.2"),
    ],
    targets: [
        .target(
            name: "HummingbirdModelServer",
            dependencies: [
                .product(name: "ModelServer", package: "SwiftModel"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]),
        // The models and resource declarations TodoServer serves and its clients register.
        .target(
            name: "TodoModels",
            dependencies: [.product(name: "ModelServer", package: "SwiftModel"), .product(name: "RESTAdapter", package: "SwiftModel")]),
        .executableTarget(
            name: "TodoServer",
            dependencies: [
                "HummingbirdModelServer", "TodoModels",
                .product(name: "SQLiteAdapter", package: "SwiftModel"),
                .product(name: "PostgresAdapter", package: "SwiftModel"),
            ]),
        .executableTarget(
            name: "HandWrittenTodoServer",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]),
        .testTarget(
            name: "HummingbirdModelServerTests",
            dependencies: [
                "HummingbirdModelServer", "TodoModels",
                .product(name: "SQLiteAdapter", package: "SwiftModel"),
                .product(name: "PostgresAdapter", package: "SwiftModel"),
                .product(name: "RESTAdapter", package: "SwiftModel"),
                .product(name: "AdapterConformance", package: "SwiftModel"),
            ]),
    ],
    swiftLanguageModes: [.v6]
)
