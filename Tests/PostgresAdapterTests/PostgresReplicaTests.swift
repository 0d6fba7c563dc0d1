import Foundation
import PostgresAdapter
import Testing

/// Read replicas against the streaming hot standby `Scripts/postgres-cluster.sh --replica`
/// starts: reads outside transactions go to the replica, an adapter reads its own writes
/// even from a lagging replica (replay paused with `pg_wal_replay_pause()`), and a replica
/// that cannot be reached is skipped.
@Suite(
    .enabled(if: PostgresTestServer.replicaURL != nil, "no replica: run `Scripts/postgres-cluster.sh run --replica -- swift test`"),
    .serialized)
struct PostgresReplicaTests {
    /// A plain connection to the replica itself, to pause and resume its replay.
    func replicaAdmin() throws -> PostgresAdapter {
        var configuration = PostgresConfiguration(PostgresTestServer.replicaURL ?? "")
        configuration.publishesChanges = false
        configuration.listensForChanges = false
        return try PostgresAdapter(configuration)
    }

    /// An adapter reading from the replica, on `schema`.
    func reader(_ schema: String?, replicas: [String]) throws -> PostgresAdapter {
        var configuration = PostgresTestServer.configuration(schema: schema)
        configuration.replicas = replicas
        configuration.listensForChanges = false
        return try PostgresAdapter(configuration)
    }

    /// Waits until the replica has replayed every commit the primary has made so far.
    func waitForReplay(_ admin: PostgresAdapter, primary: PostgresAdapter) throws {
        let target = try primary.rows("SELECT pg_current_wal_lsn()::text")[0][0]
        for _ in 0..<500 {
            let caught = try admin.rows("SELECT pg_last_wal_replay_lsn() >= $1::text::pg_lsn", [target])[0][0]
            if caught == .bool(true) { return }
            Thread.sleep(forTimeInterval: 0.02)
        }
        Issue.record("the replica did not catch up within 10 s")
    }

    @Test func readsGoToTheReplicaAndAnAdapterReadsItsOwnWritesWhileItLags() throws {
        let writer = try PostgresTestServer.store()
        defer { try? writer.close() }
        let admin = try replicaAdmin()
        defer { try? admin.close() }
        try PgAccount.create(["owner": "a", "balance": 1], in: writer)
        let reader = try reader(writer.configuration.schema, replicas: [PostgresTestServer.replicaURL ?? ""])
        defer { try? reader.close() }
        #expect(try reader.rows("SELECT pg_is_in_recovery()")[0][0] == .bool(false), "raw statements go to the primary")
        try waitForReplay(admin, primary: writer)
        #expect(try reader.readRows("SELECT pg_is_in_recovery()")[0][0] == .bool(true), "reads go to the replica")
        #expect(try PgAccount.count(in: reader) == 1)

        _ = try admin.rows("SELECT pg_wal_replay_pause()")
        defer { _ = try? admin.rows("SELECT pg_wal_replay_resume()") }
        try PgAccount.create(["owner": "b", "balance": 2], in: writer)  // another process's write
        #expect(try PgAccount.count(in: reader) == 1, "the paused replica lags: another adapter's write is not there yet")
        try PgAccount.create(["owner": "c", "balance": 3], in: reader)  // this adapter's own write
        #expect(try PgAccount.count(in: reader) == 3, "read-your-writes: after its own write it reads the primary")
        #expect(try PgAccount.where(\.owner == "c").using(reader).count() == 1)
        let inside = try reader.withTransaction { try PgAccount.count(in: reader) }
        #expect(inside == 3, "a transaction reads the primary")

        _ = try admin.rows("SELECT pg_wal_replay_resume()")
        try waitForReplay(admin, primary: writer)
        let table = PgAccount.schema.tableName
        #expect(try reader.readRows("SELECT count(*)::int FROM \"\(table)\"")[0][0] == .int(3), "the replica caught up")
    }

    @Test func aReplicaThatCannotBeReachedIsSkipped() throws {
        let writer = try PostgresTestServer.store()
        defer { try? writer.close() }
        try PgAccount.create(["owner": "a", "balance": 1], in: writer)
        let admin = try replicaAdmin()
        defer { try? admin.close() }
        try waitForReplay(admin, primary: writer)
        let dead = "host=127.0.0.1 port=1 dbname=swiftmodel user=postgres connect_timeout=2"
        let reader = try reader(writer.configuration.schema, replicas: [dead, PostgresTestServer.replicaURL ?? ""])
        defer { try? reader.close() }
        for _ in 0..<6 {
            #expect(try PgAccount.count(in: reader) == 1)
            #expect(try reader.readRows("SELECT pg_is_in_recovery()")[0][0] == .bool(true), "the live replica serves")
        }
        let alone = try self.reader(writer.configuration.schema, replicas: [dead])
        defer { try? alone.close() }
        #expect(try PgAccount.count(in: alone) == 1, "with no live replica, reads go to the primary")
        #expect(try alone.readRows("SELECT pg_is_in_recovery()")[0][0] == .bool(false))
    }

    @Test func aConnectionHandedBackInsideARawTransactionIsDropped() throws {
        let store = try PostgresTestServer.store { $0.maximumConnections = 1 }
        defer { try? store.close() }
        let other = try PostgresTestServer.store { $0.schema = store.configuration.schema }
        defer { try? other.close() }
        try store.prepare(PgAccount.schema)
        try store.execute("BEGIN")  // left open by a raw statement
        try PgAccount.create(["owner": "after", "balance": 1], in: store)
        #expect(try PgAccount.count(in: other) == 1, "the next call ran on a fresh connection, not inside the open BEGIN")
        let pids = try (0..<3).map { _ in try store.rows("SELECT pg_backend_pid()")[0][0] }
        #expect(Set(pids).count == 1, "the fresh connection is kept and reused")
    }
}
