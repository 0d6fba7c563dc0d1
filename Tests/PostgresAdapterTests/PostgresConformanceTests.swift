import AdapterConformance
import Foundation
import PostgresAdapter
import Testing

/// PostgresAdapter runs the whole conformance suite against a real server, each group in
/// a fresh schema; reopening connects a new adapter to the same schema.
@Suite(.enabled(if: PostgresTestServer.isAvailable, PostgresTestServer.skipReason))
struct PostgresConformanceTests {
    static let suite = suite("PostgresAdapter") { PostgresTestServer.configuration() }

    /// The suite on adapters made from `configuration` (each store in a fresh schema);
    /// reopening connects a new adapter with the same configuration.
    static func suite(_ name: String, _ configuration: @escaping @Sendable () -> PostgresConfiguration) -> AdapterConformance {
        AdapterConformance(
            adapter: name, capabilities: [.persistence, .foreignKeyActions],
            limitations: [.textWithoutNUL, .microsecondDates],
            reopen: { store in
                guard let store = store as? PostgresAdapter else { throw StoreError(.invalidRequest, table: "*", message: "not Postgres") }
                try? store.close()
                return try PostgresAdapter(store.configuration)
            },
            makeStore: { try PostgresAdapter(configuration()) })
    }

    @Test(arguments: ConformanceGroup.allCases) func conformance(_ group: ConformanceGroup) async {
        let report = await Self.suite.run([group])
        for failure in report.failures { Issue.record(Comment(rawValue: failure.description)) }
        #expect((report.checked[group] ?? 0) > 0, "\(report)")
    }
}
