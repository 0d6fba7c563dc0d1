// swift-tools-version: 6.0
import PackageDescription

/// Re-exported core modules: importing any adapter product gives the whole model API.
let coreModules: [Target.Dependency] = ["ModelCore", "ModelValidation", "ModelQuery"]

let package = Package(
    name: "SwiftModel",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11)],
    products: [
        .library(name: "ArrayAdapter", targets: ["ArrayAdapter"]),
        .library(name: "FileAdapter", targets: ["FileAdapter"]),
        .library(name: "SQLiteAdapter", targets: ["SQLiteAdapter"]),
        .library(name: "AdapterConformance", targets: ["AdapterConformance"]),
        .executable(name: "TaskManager", targets: ["TaskManager"]),
        .executable(name: "QuickStart", targets: ["QuickStart"]),
    ],
    targets: [
        .target(name: "ModelCore"),
        .target(name: "ModelValidation", dependencies: ["ModelCore"]),
        .target(name: "ModelQuery", dependencies: ["ModelCore"]),
        .target(name: "ArrayAdapter", dependencies: coreModules),
        .target(name: "FileAdapter", dependencies: coreModules + ["ArrayAdapter"]),
        // Named so that no client package (or another dependency, GRDB's included) picks the
        // same target name: SwiftPM refuses two targets of one name in a package graph.
        .systemLibrary(
            name: "SwiftModelCSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite3"])]
        ),
        .target(name: "SQLiteAdapter", dependencies: coreModules + ["SwiftModelCSQLite"]),
        .target(name: "AdapterConformance", dependencies: coreModules),
        .executableTarget(name: "TaskManager", dependencies: ["SQLiteAdapter"], path: "Examples/TaskManager"),
        .executableTarget(name: "QuickStart", dependencies: ["ArrayAdapter"], path: "Examples/QuickStart"),
        .testTarget(name: "ModelCoreTests", dependencies: ["ModelCore", "ArrayAdapter", "TestSupport"]),
        .testTarget(name: "ModelValidationTests", dependencies: ["ModelValidation", "ArrayAdapter"]),
        .testTarget(name: "ModelQueryTests", dependencies: ["ModelQuery", "ArrayAdapter", "TestSupport"]),
        .testTarget(name: "ArrayAdapterTests", dependencies: ["ArrayAdapter", "AdapterConformance"]),
        .target(name: "TestSupport", dependencies: ["ModelCore"], path: "Tests/TestSupport"),
        .testTarget(
            name: "SQLiteAdapterTests",
            dependencies: ["SQLiteAdapter", "ArrayAdapter", "TestSupport", "AdapterConformance", "CrashHelper"]),
        .executableTarget(name: "CrashHelper", dependencies: ["FileAdapter", "SQLiteAdapter"], path: "Tests/CrashHelper"),
        .testTarget(
            name: "FileAdapterTests",
            dependencies: ["FileAdapter", "ArrayAdapter", "TestSupport", "CrashHelper", "AdapterConformance"]),
        .testTarget(
            name: "DifferentialTests",
            dependencies: ["ArrayAdapter", "FileAdapter", "SQLiteAdapter", "AdapterConformance", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
