// swift-tools-version: 6.0
import PackageDescription

/// Re-exported core modules: importing any adapter product gives the whole model API.
let coreModules: [Target.Dependency] = [
    "ModelCore", "ModelValidation", "ModelQuery", "ModelSerialization", "ModelForms",
]

let package = Package(
    name: "SwiftModel",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11)],
    products: [
        .library(name: "ArrayAdapter", targets: ["ArrayAdapter"]),
        .library(name: "FileAdapter", targets: ["FileAdapter"]),
        .library(name: "SQLiteAdapter", targets: ["SQLiteAdapter"]),
        .library(name: "RESTAdapter", targets: ["RESTAdapter"]),
        .library(name: "PostgresAdapter", targets: ["PostgresAdapter"]),
        .library(name: "ModelServer", targets: ["ModelServer"]),
        .library(name: "AdapterConformance", targets: ["AdapterConformance"]),
        // An in-process JSON resource server with fault injection, for testing REST clients.
        .library(name: "RESTTestServer", targets: ["RESTTestServer"]),
        // For adapters written outside this package: the in-memory query engine.
        .library(name: "ModelEngine", targets: ["ModelEngine"]),
        // SwiftUI `Form`s from form descriptors (Apple platforms; empty elsewhere).
        .library(name: "ModelFormsUI", targets: ["ModelFormsUI"]),
        .executable(name: "TaskManager", targets: ["TaskManager"]),
        .executable(name: "QuickStart", targets: ["QuickStart"]),
        .executable(name: "RESTSync", targets: ["RESTSync"]),
        .executable(name: "FormDemo", targets: ["FormDemo"]),
    ],
    targets: [
        .target(name: "ModelCore", dependencies: ["SwiftModelCRuntime"]),
        // The Swift runtime's try-retain, which `WeakRecord` calls (no library: libswiftCore).
        .systemLibrary(name: "SwiftModelCRuntime"),
        .target(name: "ModelValidation", dependencies: ["ModelCore"]),
        // The in-memory query engine adapters share, below the user-facing builder.
        .target(name: "ModelEngine", dependencies: ["ModelCore"]),
        // The query builder and relations (wrappers, loading, eager loading, delete rules).
        .target(name: "ModelQuery", dependencies: ["ModelCore", "ModelEngine"]),
        // JSON, dictionaries, Codable and import: above queries, reading relations through them.
        .target(name: "ModelSerialization", dependencies: ["ModelCore", "ModelQuery"]),
        // Forms and JSON Schema: a model's input described from its schema and rules.
        .target(name: "ModelForms", dependencies: ["ModelCore", "ModelValidation", "ModelSerialization"]),
        // SwiftUI forms from descriptors; empty where SwiftUI is missing (Linux).
        .target(name: "ModelFormsUI", dependencies: ["ModelForms"]),
        // The SQL compiler and quoting the SQL adapters share, spelled per database by a dialect.
        .target(name: "ModelSQL", dependencies: ["ModelCore", "ModelEngine"]),
        // Each adapter: its implementation (depending only on the modules it uses, so changing
        // queries, validations or forms rebuilds no adapter) and the product module re-exporting
        // it with the whole model API (`import SQLiteAdapter` is all an app writes).
        .target(name: "SwiftModelArray", dependencies: ["ModelCore", "ModelEngine"]),
        .target(name: "ArrayAdapter", dependencies: coreModules + ["SwiftModelArray"]),
        .target(name: "SwiftModelFile", dependencies: ["ModelCore", "SwiftModelArray"]),
        .target(name: "FileAdapter", dependencies: coreModules + ["SwiftModelFile"]),
        // Named so that no client package (or another dependency, GRDB's included) picks the
        // same target name: SwiftPM refuses two targets of one name in a package graph.
        .systemLibrary(
            name: "SwiftModelCSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite3"])]
        ),
        .target(name: "SwiftModelSQLite", dependencies: ["ModelCore", "ModelEngine", "ModelSQL", "SwiftModelCSQLite"]),
        .target(name: "SQLiteAdapter", dependencies: coreModules + ["ModelSQL", "SwiftModelSQLite"]),
        .systemLibrary(
            name: "SwiftModelCLibPQ",
            pkgConfig: "libpq",
            providers: [.apt(["libpq-dev"]), .brew(["libpq"])]
        ),
        .target(name: "SwiftModelPostgres", dependencies: ["ModelCore", "ModelEngine", "ModelSQL", "SwiftModelCLibPQ"]),
        .target(name: "PostgresAdapter", dependencies: coreModules + ["ModelSQL", "SwiftModelPostgres"]),
        // The REST contract client and server share: resources, routes, query encoders and
        // decoders, query limits (no HTTP client).
        .target(name: "RESTContract", dependencies: ["ModelCore", "ModelEngine", "ModelSerialization"]),
        .target(name: "SwiftModelREST", dependencies: ["ModelCore", "ModelEngine", "ModelSerialization", "RESTContract"]),
        .target(name: "RESTAdapter", dependencies: coreModules + ["SwiftModelREST"]),
        .target(name: "RESTTestServer", dependencies: ["ModelCore", "ModelServer"]),
        // Models served over HTTP from their RESTResource declarations (framework-agnostic).
        .target(name: "ModelServer", dependencies: coreModules + ["RESTContract"]),
        .target(name: "AdapterConformance", dependencies: coreModules),
        .executableTarget(name: "TaskManager", dependencies: ["SQLiteAdapter"], path: "Examples/TaskManager"),
        .executableTarget(name: "FormDemo", dependencies: ["SQLiteAdapter"], path: "Examples/FormDemo"),
        .executableTarget(name: "QuickStart", dependencies: ["ArrayAdapter"], path: "Examples/QuickStart"),
        .executableTarget(
            name: "RESTSync", dependencies: ["RESTAdapter", "RESTTestServer", "SQLiteAdapter"], path: "Examples/RESTSync"),
        .testTarget(name: "ModelCoreTests", dependencies: ["ModelCore", "ArrayAdapter", "AdapterConformance", "TestSupport"]),
        .testTarget(name: "ModelValidationTests", dependencies: ["ModelValidation", "ArrayAdapter"]),
        .testTarget(name: "ModelQueryTests", dependencies: ["ModelQuery", "ModelEngine", "ArrayAdapter", "AdapterConformance", "TestSupport"]),
        .testTarget(name: "ModelFormsTests", dependencies: ["ModelForms", "ArrayAdapter"]),
        .testTarget(name: "ArrayAdapterTests", dependencies: ["ArrayAdapter", "AdapterConformance", "TestSupport"]),
        .target(name: "TestSupport", dependencies: ["ModelCore", "ModelQuery", "ModelSerialization", "ArrayAdapter"], path: "Tests/TestSupport"),
        .testTarget(
            name: "SQLiteAdapterTests",
            dependencies: [
                "SQLiteAdapter", "SwiftModelSQLite", "ModelSQL", "ArrayAdapter", "TestSupport", "AdapterConformance", "CrashHelper",
                "PowerCutVFS", "SwiftModelCSQLite",
            ]),
        // A SQLite VFS that simulates power loss (test-only, C).
        .target(name: "PowerCutVFS", dependencies: ["SwiftModelCSQLite"], path: "Tests/PowerCutVFS"),
        .executableTarget(
            name: "CrashHelper", dependencies: ["FileAdapter", "SQLiteAdapter", "PostgresAdapter"], path: "Tests/CrashHelper"),
        .testTarget(
            name: "FileAdapterTests",
            dependencies: ["FileAdapter", "SwiftModelFile", "ArrayAdapter", "TestSupport", "CrashHelper", "AdapterConformance"]),
        // libFuzzer targets (Scripts/fuzz.sh builds them with -sanitize=fuzzer,address) and
        // the test that replays their seed corpora and past findings.
        .target(name: "FuzzTargets", dependencies: ["ArrayAdapter", "FileAdapter", "SQLiteAdapter"], path: "Tests/Fuzz/FuzzTargets"),
        .executableTarget(name: "FuzzJSONImport", dependencies: ["FuzzTargets"], path: "Tests/Fuzz/FuzzJSONImport"),
        .executableTarget(name: "FuzzArchiveReader", dependencies: ["FuzzTargets"], path: "Tests/Fuzz/FuzzArchiveReader"),
        .executableTarget(name: "FuzzSQLiteRows", dependencies: ["FuzzTargets"], path: "Tests/Fuzz/FuzzSQLiteRows"),
        .executableTarget(name: "FuzzCasting", dependencies: ["FuzzTargets"], path: "Tests/Fuzz/FuzzCasting"),
        .testTarget(name: "FuzzRegressionTests", dependencies: ["FuzzTargets"], path: "Tests/Fuzz/FuzzRegressionTests"),
        // Every Swift snippet of README.md, Docs/ and `///` comments, generated by Scripts/doc-snippets.py.
        .testTarget(
            name: "DocSnippetTests",
            dependencies: [
                "ArrayAdapter", "FileAdapter", "SQLiteAdapter", "RESTAdapter", "RESTTestServer", "PostgresAdapter",
                "AdapterConformance", "TestSupport", "ModelCore", "ModelQuery", "ModelValidation", "ModelSerialization",
                "ModelSQL", "ModelForms", "ModelFormsUI", "ModelServer", "SwiftModelArray", "SwiftModelFile", "SwiftModelSQLite",
                "SwiftModelPostgres", "SwiftModelREST", "RESTContract",
            ]),
        // A user module: the async API from the main actor and detached tasks, public API only.
        .testTarget(name: "AsyncAPITests", dependencies: ["ArrayAdapter", "SQLiteAdapter", "FileAdapter"]),
        .testTarget(
            name: "RESTAdapterTests",
            dependencies: ["RESTAdapter", "SwiftModelREST", "RESTContract", "RESTTestServer", "ArrayAdapter", "SQLiteAdapter", "FileAdapter", "AdapterConformance", "TestSupport"]),
        .testTarget(
            name: "ModelServerTests",
            dependencies: [
                "ModelServer", "RESTAdapter", "ArrayAdapter", "SQLiteAdapter", "RESTTestServer", "AdapterConformance", "TestSupport",
            ]),
        .testTarget(
            name: "DifferentialTests",
            dependencies: ["ArrayAdapter", "FileAdapter", "SQLiteAdapter", "PostgresAdapter", "AdapterConformance", "TestSupport"]),
        .testTarget(
            name: "PostgresAdapterTests",
            dependencies: [
                "PostgresAdapter", "SwiftModelPostgres", "SwiftModelCLibPQ", "ModelSQL", "ArrayAdapter", "SQLiteAdapter",
                "AdapterConformance", "TestSupport", "CrashHelper",
            ]),
    ],
    swiftLanguageModes: [.v6]
)
