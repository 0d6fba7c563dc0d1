import AdapterConformance
import ArrayAdapter
import FileAdapter
import Foundation
import PostgresAdapter
import SQLiteAdapter
import Testing

/// The same random data and queries on all three adapters must give identical results.
/// 8 seeds × 260 queries in CI (2,080); set `SWIFTMODEL_DIFFERENTIAL_QUERIES` for more per
/// seed. A failure prints the seed, the query number and the query.
@Suite struct DifferentialTests {
    @Test(arguments: 1...8 as ClosedRange<UInt64>) func allAdaptersAgree(seed: UInt64) throws {
        var options = FileAdapterConfiguration()
        options.autosave = .never
        let run = DifferentialRun(seed: seed, rows: 60, queries: ProcessInfo.processInfo.environment["SWIFTMODEL_DIFFERENTIAL_QUERIES"].flatMap(Int.init) ?? 260)
        let mismatches = try run.compare([
            "ArrayAdapter": ArrayAdapter(),
            "FileAdapter": FileAdapter(configuration: options),
            "SQLiteAdapter": try SQLiteAdapter(),
        ])
        #expect(mismatches.isEmpty, "\(mismatches.count) mismatches:\n\(mismatches.prefix(10).joined(separator: "\n"))")
    }
}

/// The same run with PostgreSQL beside the in-memory engine (the reference) and SQLite,
/// against the server `Scripts/postgres-cluster.sh` starts; skipped without one.
@Suite(
    .enabled(
        if: ProcessInfo.processInfo.environment["SWIFTMODEL_POSTGRES_URL"] != nil,
        "no PostgreSQL server: run `Scripts/postgres-cluster.sh run -- swift test` (sets SWIFTMODEL_POSTGRES_URL)"))
struct PostgresDifferentialTests {
    @Test(arguments: 1...8 as ClosedRange<UInt64>) func postgresAgreesWithMemory(seed: UInt64) throws {
        var configuration = PostgresConfiguration(ProcessInfo.processInfo.environment["SWIFTMODEL_POSTGRES_URL"] ?? "")
        configuration.schema = "differential_\(seed)_\(UInt32.random(in: 0...UInt32.max))"
        configuration.listensForChanges = false
        let postgres = try PostgresAdapter(configuration)
        defer { try? postgres.close() }
        var run = DifferentialRun(
            seed: seed, rows: 60,
            queries: ProcessInfo.processInfo.environment["SWIFTMODEL_DIFFERENTIAL_QUERIES"].flatMap(Int.init) ?? 260)
        run.textWithoutNUL = true
        let mismatches = try run.compare(["ArrayAdapter": ArrayAdapter(), "PostgresAdapter": postgres])
        #expect(mismatches.isEmpty, "\(mismatches.count) mismatches:\n\(mismatches.prefix(10).joined(separator: "\n"))")
    }
}
