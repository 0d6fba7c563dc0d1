import Foundation
import PostgresAdapter
import Testing

/// The server the PostgreSQL suites run against: `SWIFTMODEL_POSTGRES_URL` (and
/// `SWIFTMODEL_POSTGRES_REPLICA_URL`), as `Scripts/postgres-cluster.sh run` exports them.
/// Without it the suites are skipped, saying why; `.ci/run` sets
/// `SWIFTMODEL_REQUIRE_POSTGRES=1`, which turns the skip into a failure.
enum PostgresTestServer {
    static let environment = ProcessInfo.processInfo.environment
    static let url = environment["SWIFTMODEL_POSTGRES_URL"]
    static let replicaURL = environment["SWIFTMODEL_POSTGRES_REPLICA_URL"]
    static let isAvailable = url != nil
    /// PgBouncer in transaction pooling mode in front of the primary
    /// (`SWIFTMODEL_PGBOUNCER_URL`, exported by `Scripts/postgres-cluster.sh` when
    /// `pgbouncer` is installed).
    static let poolerURL = environment["SWIFTMODEL_PGBOUNCER_URL"]
    static let poolerSkipReason: Comment = "no PgBouncer: install `pgbouncer` and run through `Scripts/postgres-cluster.sh`"

    /// A configuration through PgBouncer (transaction pooling), in a fresh schema.
    static func pooledConfiguration(schema: String? = nil) -> PostgresConfiguration {
        var configuration = PostgresConfiguration(poolerURL ?? "")
        configuration.transactionPooling = true
        configuration.schema = schema ?? freshSchema()
        configuration.acquireTimeout = loadedRunnerAcquireTimeout
        return configuration
    }
    static let skipReason: Comment =
        "no PostgreSQL server: run `Scripts/postgres-cluster.sh run --replica -- swift test` (sets SWIFTMODEL_POSTGRES_URL)"

    /// A configuration in a fresh schema of its own (so suites running at once never see
    /// each other's tables).
    static func configuration(schema: String? = nil) -> PostgresConfiguration {
        var configuration = PostgresConfiguration(url ?? "")
        configuration.schema = schema ?? freshSchema()
        configuration.acquireTimeout = loadedRunnerAcquireTimeout
        return configuration
    }

    /// How long the tests' adapters wait for a connection (opened or free): far above the
    /// default 10 s, which bounds a stall and is no property under test. Under Thread
    /// Sanitizer on a loaded 2-core runner, 16 connections opened at once once took longer
    /// than 10 s (`PostgresAsyncIOTests`, `PostgresPoolerTests`). Tests of the timeout set
    /// their own.
    static let loadedRunnerAcquireTimeout: Duration = .seconds(90)

    static func freshSchema() -> String {
        "test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(16)
    }

    /// An adapter on a fresh schema.
    static func store(_ adjust: (inout PostgresConfiguration) -> Void = { _ in }) throws -> PostgresAdapter {
        var configuration = configuration()
        adjust(&configuration)
        return try PostgresAdapter(configuration)
    }
}

/// Fails when PostgreSQL is required (CI) but not configured, so its suites never skip
/// silently there.
@Suite struct PostgresAvailabilityTests {
    @Test func serverIsConfiguredWhenRequired() {
        if PostgresTestServer.environment["SWIFTMODEL_REQUIRE_POSTGRES"] == "1" {
            #expect(PostgresTestServer.isAvailable, "SWIFTMODEL_REQUIRE_POSTGRES=1 but SWIFTMODEL_POSTGRES_URL is not set")
            #expect(PostgresTestServer.poolerURL != nil, "SWIFTMODEL_REQUIRE_POSTGRES=1 but SWIFTMODEL_PGBOUNCER_URL is not set")
        }
    }
}
