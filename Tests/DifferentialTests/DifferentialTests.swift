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

/// Rows with nulls, for comparisons against values of another kind.
final class DiffMark: Model {
    @Column var score: Int?
    @Column var label: String?
    init() {}
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

    /// `!=` against a value of another kind is true for every non-null value and unknown for
    /// null (SQL's three values), so null rows are left out — on PostgreSQL as in memory.
    /// (The differential generator's cross-kind comparisons never reach this case.)
    @Test func notEqualToAnotherKindLeavesNullRowsOut() throws {
        var configuration = PostgresConfiguration(ProcessInfo.processInfo.environment["SWIFTMODEL_POSTGRES_URL"] ?? "")
        configuration.schema = "differential_kinds_\(UInt32.random(in: 0...UInt32.max))"
        configuration.listensForChanges = false
        let postgres = try PostgresAdapter(configuration)
        defer { try? postgres.close() }
        let memory = ArrayAdapter()
        let schema = DiffMark.schema
        let score = try #require(schema.index(ofColumn: "score")), label = try #require(schema.index(ofColumn: "label"))
        for store in [memory, postgres] as [any PersistenceAdapter] {
            for (s, l) in [(nil, nil), (1, "a"), (2, nil), (nil, "b")] as [(Int?, String?)] {
                let mark = DiffMark()
                (mark.score, mark.label) = (s, l)
                try mark.save(to: store)
            }
        }
        let cases: [(QueryPredicate, column: Int)] = [
            (.compare(column: score, .notEqual, .string("x")), score), (.compare(column: label, .notEqual, .int(5)), label),
            (.not(.compare(column: label, .equal, .double(1.5))), label),
        ]
        for (predicate, column) in cases {
            let query = StoreQuery(schema: schema, predicate: predicate, sort: [SortKey(column: 0)])
            let expected = try memory.fetch(query)
            #expect(try postgres.fetch(query).map { $0[0] } == expected.map { $0[0] }, "\(predicate)")
            #expect(expected.count == 2 && expected.allSatisfy { !$0[column].isNull }, "\(predicate): the non-null rows, no null row")
        }
    }
}
