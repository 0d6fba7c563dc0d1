// swift-tools-version: 6.0
import PackageDescription

// Benchmarks live in their own package so the library has no benchmark dependencies.
// Run from this folder: `swift run -c release ModelBenchmarks [--json] [--n 100000] [--runs 5]`.
let package = Package(
    name: "SwiftModelBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "SwiftModel", path: "..")],
    targets: [
        .executableTarget(
            name: "ModelBenchmarks",
            dependencies: [.product(name: "ArrayAdapter", package: "SwiftModel")]
        )
    ],
    swiftLanguageModes: [.v6]
)
