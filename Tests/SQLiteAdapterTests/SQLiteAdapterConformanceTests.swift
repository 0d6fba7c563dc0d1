import AdapterConformance
import Foundation
import SQLiteAdapter
import Testing

/// SQLiteAdapter runs the whole conformance suite on database files; reopening opens the
/// same file in a new adapter. Foreign keys make `delete()` apply relation rules in the
/// store.
@Suite struct SQLiteAdapterConformanceTests {
    static let suite = AdapterConformance(
        adapter: "SQLiteAdapter", capabilities: [.persistence, .foreignKeyActions],
        reopen: { store in
            guard let store = store as? SQLiteAdapter else { throw StoreError(.invalidRequest, table: "*", message: "not SQLite") }
            return try SQLiteAdapter(path: store.path)
        },
        makeStore: {
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("swiftmodel-conformance-\(UUID().uuidString).sqlite").path
            return try SQLiteAdapter(path: path)
        })

    @Test(arguments: ConformanceGroup.allCases) func conformance(_ group: ConformanceGroup) async {
        let report = await Self.suite.run([group])
        for failure in report.failures { Issue.record(Comment(rawValue: failure.description)) }
        #expect(report.skipped.isEmpty && (report.checked[group] ?? 0) > 0, "\(report)")
    }
}
