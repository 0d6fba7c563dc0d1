// swift-tools-version: 6.0
import PackageDescription

// Benchmarks live in their own package so the library has no benchmark dependencies.
// Run from this folder: `swift run -c release ModelBenchmarks [--json] [--n 100000] [--runs 5]`.
let package = Package(
    name: "SwiftModelBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "SwiftModel", path: "..")],
    targets: [
        // The raw SQLite C API baseline (its own module name: SwiftModel's CSQLite is internal).
        .systemLibrary(name: "CSQLiteRaw", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        // The raw libpq baseline (its own module name: SwiftModel's CLibPQ is internal).
        .systemLibrary(name: "CLibPQRaw", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        .executableTarget(
            name: "ModelBenchmarks",
            dependencies: [
                .product(name: "ArrayAdapter", package: "SwiftModel"),
                .product(name: "SQLiteAdapter", package: "SwiftModel"),
                .product(name: "FileAdapter", package: "SwiftModel"),
                .product(name: "RESTAdapter", package: "SwiftModel"),
                .product(name: "RESTTestServer", package: "SwiftModel"),
                .product(name: "PostgresAdapter", package: "SwiftModel"),
                "CSQLiteRaw",
                "CLibPQRaw",
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
