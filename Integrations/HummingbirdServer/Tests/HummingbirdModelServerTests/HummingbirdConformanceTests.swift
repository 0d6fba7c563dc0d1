import AdapterConformance
import Foundation
import HummingbirdModelServer
import PostgresAdapter
import RESTAdapter
import SQLiteAdapter
import Testing

/// The whole conformance suite through RESTAdapter, over HTTP, against the resource core
/// on Hummingbird — with SQLite behind it, and PostgreSQL when `SWIFTMODEL_POSTGRES_URL`
/// names a server (CI starts one).
@Suite struct HummingbirdConformanceTests {
    static let limitations: AdapterLimitations = [.noTransactions, .partialQueries, .jsonValues, .unnamedConstraintColumns, .modelServer, .remoteHistory]
    /// Groups that skip checks by nature over HTTP (no transactions, no server push).
    static let expectedSkips: Set<ConformanceGroup> = [
        .transactions, .asyncAPI, .concurrency, .notifications, .observation, .contexts, .closing, .writesByID, .relations,
        .uniqueness, .hostileValues, .history,
    ]

    static func suite(_ name: String, base: URL, also: AdapterLimitations = [], makeServerStore: @escaping @Sendable () throws -> any PersistenceAdapter) -> AdapterConformance {
        AdapterConformance(
            adapter: "RESTAdapter → Hummingbird → \(name)", capabilities: [.persistence], limitations: limitations.union(also),
            reopen: { old in
                guard let old = old as? RESTAdapter else { throw CocoaError(.featureUnsupported) }
                return RESTAdapter(baseURL: old.baseURL, configuration: old.configuration)
            }
        ) {
            let encoder = ParseQueryEncoder()
            let url = try TenantServer.shared.tenant(base, store: try makeServerStore()) { resources in
                for schema in AdapterConformance.modelSchemas { try resources.register(schema: schema, RESTResource(queryEncoder: encoder, idAssignment: .client)) }
            }
            var configuration = RESTConfiguration()
            configuration.queryEncoder = encoder
            // A loaded machine may keep a request waiting for a core: not a failure.
            configuration.requestTimeout = .seconds(300)
            configuration.deadline = .seconds(600)
            return RESTAdapter(baseURL: url, configuration: configuration)
        }
    }

    static func check(_ report: ConformanceReport, _ group: ConformanceGroup) {
        for failure in report.failures { Issue.record(Comment(rawValue: failure.description)) }
        #expect(report.checked[group] ?? 0 > 0 || group == .transactions || group == .history, "\(report)")
        #expect(report.skipped.isEmpty || expectedSkips.contains(group), "\(report)")
    }

    @Test(arguments: ConformanceGroup.allCases) func onSQLite(_ group: ConformanceGroup) async throws {
        let base = try await TenantServer.shared.baseURL()
        let report = await Self.suite("SQLite", base: base) { try SQLiteAdapter() }.run([group])
        Self.check(report, group)
    }

    @Test(.enabled(if: PostgresServer.url != nil, "no PostgreSQL server: set SWIFTMODEL_POSTGRES_URL (CI does)"),
          arguments: ConformanceGroup.allCases)
    func onPostgreSQL(_ group: ConformanceGroup) async throws {
        let base = try await TenantServer.shared.baseURL()
        let report = await Self.suite("PostgreSQL", base: base, also: .textWithoutNUL) { try PostgresServer.freshStore() }.run([group])
        Self.check(report, group)
    }
}

/// The PostgreSQL server CI starts (`Scripts/postgres-cluster.sh`), if any.
enum PostgresServer {
    static let url = ProcessInfo.processInfo.environment["SWIFTMODEL_POSTGRES_URL"]

    /// An adapter in a fresh schema of its own.
    static func freshStore() throws -> PostgresAdapter {
        var configuration = PostgresConfiguration(url ?? "")
        configuration.schema = "hb_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(16)
        return try PostgresAdapter(configuration)
    }
}
