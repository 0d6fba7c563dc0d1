import Foundation
import ModelCore
import PostgresAdapter
import TestSupport
import Testing

/// What another adapter's commits announce to this one through `LISTEN/NOTIFY`: exactly
/// the tables a commit changed, in this adapter's schema. Each check ends with a commit to
/// a sentinel table: notifications arrive in commit order, so once the sentinel's is in,
/// a table that was not announced by then never will be.
@Suite(.enabled(if: PostgresTestServer.isAvailable, PostgresTestServer.skipReason), .runsOffThePool, .serialized)
struct PostgresNotificationTests {
    /// How many announcements a watcher adapter received per table.
    final class Announcements: Sendable {
        let counts = Locked<[String: Int]>([:])
        private let tokens = Locked<[UInt64]>([])

        init(_ store: PostgresAdapter, _ schemas: [ModelSchema]) throws {
            for schema in schemas {
                try store.prepare(schema)
                let table = schema.tableName
                let token = TableObservers.add(store: store, tables: [table]) { [counts] in counts.withLock { $0[table, default: 0] += 1 } }
                tokens.withLock { $0.append(token) }
            }
        }

        deinit { for token in tokens.withLock({ $0 }) { TableObservers.remove(token) } }

        func count(_ table: String) -> Int { counts.withLock { $0[table] ?? 0 } }

        /// Waits (bounded by progress: at most 30 s of no news) until `table` has `count` announcements.
        func wait(for table: String, count: Int) async throws {
            for _ in 0..<1_500 where self.count(table) < count { try await Task.sleep(for: .milliseconds(20)) }
            #expect(self.count(table) >= count, "\(table) was announced \(self.count(table)) times, not \(count)")
        }
    }

    let schema = PostgresTestServer.freshSchema()

    func adapter(_ schema: String) throws -> PostgresAdapter {
        try PostgresAdapter(PostgresTestServer.configuration(schema: schema))
    }

    /// A commit of the sentinel table, then the wait for its announcement.
    func sentinel(_ writer: PostgresAdapter, _ seen: Announcements, _ round: Int) async throws {
        try writer.withTransaction { _ = try PgTicket.create(["code": "sentinel \(round)"], in: writer) }
        try await seen.wait(for: PgTicket.tableName, count: round)
    }

    @Test func aCommitInAnotherSchemaIsNotAnnounced() async throws {
        let watcher = try adapter(schema)
        let seen = try Announcements(watcher, [PgAccount.schema, PgTicket.schema])
        let writer = try adapter(schema)
        let tenant = try adapter(PostgresTestServer.freshSchema())
        // The same table name, in another schema of the same database.
        try tenant.withTransaction { _ = try PgAccount.create(["owner": "other tenant", "balance": 1], in: tenant) }
        try await sentinel(writer, seen, 1)
        #expect(seen.count(PgAccount.tableName) == 0, "another schema's commit refreshed this schema's observers")
        try writer.withTransaction { _ = try PgAccount.create(["owner": "same schema", "balance": 1], in: writer) }
        try await seen.wait(for: PgAccount.tableName, count: 1)
    }

    @Test func aTransactionThatOnlyInsertsAnnouncesItsTableAtCommit() async throws {
        let watcher = try adapter(schema)
        let seen = try Announcements(watcher, [PgAccount.schema, PgTicket.schema])
        let writer = try adapter(schema)
        try writer.withTransaction {
            _ = try PgAccount.create(["owner": "a", "balance": 1], in: writer)
            _ = try PgAccount.create(["owner": "b", "balance": 2], in: writer)
        }
        try await seen.wait(for: PgAccount.tableName, count: 1)
        try await sentinel(writer, seen, 1)
        #expect(seen.count(PgAccount.tableName) == 1, "one commit, one announcement")
    }

    @Test func aDeleteAnnouncesTheChildTableItsCascadeChanged() async throws {
        let watcher = try adapter(schema)
        let seen = try Announcements(watcher, [PgShelf.schema, PgBook.schema, PgTicket.schema])
        let writer = try adapter(schema)
        try writer.prepare(PgBook.schema)
        let shelf = try await PgShelf.create(["label": "top"], in: writer)
        _ = try await PgBook.create(["title": "kept by the cascade", "shelf_id": .int(shelf.id ?? 0)], in: writer)
        try await sentinel(writer, seen, 1)
        let booksBefore = seen.count(PgBook.tableName)
        // `delete()` skips the model layer's rules: the rows go by ON DELETE CASCADE.
        try writer.withTransaction { _ = try shelf.delete() }
        #expect(try await PgBook.count(in: writer) == 0)
        try await seen.wait(for: PgBook.tableName, count: booksBefore + 1)
    }

    @Test func aTableChangedOnlyInARolledBackSavepointIsNotAnnounced() async throws {
        let watcher = try adapter(schema)
        let seen = try Announcements(watcher, [PgAccount.schema, PgTicket.schema])
        let writer = try adapter(schema)
        try writer.prepare(PgAccount.schema)
        struct Undo: Error {}
        try writer.withTransaction {
            _ = try PgTicket.create(["code": "kept"], in: writer)
            #expect(throws: Undo.self) {
                try writer.withTransaction {
                    _ = try PgAccount.create(["owner": "rolled back", "balance": 1], in: writer)
                    throw Undo()
                }
            }
        }
        try await seen.wait(for: PgTicket.tableName, count: 1)
        try await sentinel(writer, seen, 2)
        #expect(seen.count(PgAccount.tableName) == 0, "the savepoint's table was announced")
        #expect(try await PgAccount.count(in: writer) == 0)
    }
}
