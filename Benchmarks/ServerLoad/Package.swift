// swift-tools-version: 6.0
import PackageDescription

/// The baseline for the server load benchmark (Scripts/server-load.sh): TodoServer's three
/// measured routes written by hand on Hummingbird 2 and PostgresNIO, as a team without
/// SwiftModel would write them.
let package = Package(
    name: "ServerLoad",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/vapor/postgres-nio.git", exact: "1.33.2"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
    ],
    targets: [
        .executableTarget(
            name: "HandWrittenTodoServer",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ])
    ],
    swiftLanguageModes: [.v6]
)
