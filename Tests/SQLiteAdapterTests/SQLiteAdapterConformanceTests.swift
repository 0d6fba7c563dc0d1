import AdapterConformance
import Foundation
import SQLiteAdapter
import TestSupport
import Testing

/// SQLiteAdapter runs the whole conformance suite on database files; reopening opens the
/// same file in a new adapter. Foreign keys make `delete()` apply relation rules in the
/// store.
@Suite struct SQLiteAdapterConformanceTests {
    /// The suite on a database file at `path`, removed with its `-wal` and `-shm` once the
    /// group has run.
    static func suite(at path: String) -> AdapterConformance {
        AdapterConformance(
            adapter: "SQLiteAdapter", capabilities: [.persistence, .foreignKeyActions],
            reopen: { store in
                guard let store = store as? SQLiteAdapter else { throw StoreError(.invalidRequest, table: "*", message: "not SQLite") }
                return try SQLiteAdapter(path: store.path)
            },
            removeStore: { store in
                try store.close()
                try removeSQLiteFiles(at: path)
            },
            makeStore: { try SQLiteAdapter(path: path) })
    }

    @Test(arguments: ConformanceGroup.allCases) func conformance(_ group: ConformanceGroup) async {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("swiftmodel-conformance-\(UUID().uuidString).sqlite").path
        let report = await Self.suite(at: path).run([group])
        for failure in report.failures { Issue.record(Comment(rawValue: failure.description)) }
        #expect(report.skipped.isEmpty && (report.checked[group] ?? 0) > 0, "\(report)")
        #expect(sqliteFiles(at: path).isEmpty, "the group's database files are removed")
    }
}
