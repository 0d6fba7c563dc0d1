import Foundation
import Testing

import PostgresAdapter

/// Eager loads whose id lists are longer than one statement may bind. Sent as one
/// `IN (…)`, 70,000 ids overflow the protocol's 16-bit parameter count, and even 7,499 make
/// the server's parameter description longer than libpq reads ("lost synchronization
/// with server", the connection dropped). The loads cut their lists into chunks, and the
/// adapter refuses a longer statement before sending it.
@Suite(.enabled(if: PostgresTestServer.isAvailable, PostgresTestServer.skipReason))
struct PostgresEagerLoadingTests {
    /// 70,000 shelves with one book each, written by SQL (the rows another tool wrote).
    private func seed(_ store: PostgresAdapter) throws {
        try store.prepare(PgShelf.schema)
        try store.prepare(PgBook.schema)
        let shelves = "\"\(PgShelf.schema.tableName)\"", books = "\"\(PgBook.schema.tableName)\""
        _ = try store.execute("INSERT INTO \(shelves) (label) SELECT 's' || g FROM generate_series(1, 70000) AS g")
        _ = try store.execute("INSERT INTO \(books) (title, shelf_id) SELECT 'b' || id, id FROM \(shelves)")
    }

    @Test func belongsToLoadsMoreParentsThanOneStatementBinds() throws {
        let store = try PostgresTestServer.store()
        try ModelStore.using(store) {
            try seed(store)
            let books = try PgBook.query().including(\.shelf).all()
            #expect(books.count == 70_000)
            let linked = books.filter { $0.shelf.map { "b" + String($0.id ?? 0) } == $0.title }
            #expect(linked.count == 70_000, "every book has its own shelf loaded")
        }
    }

    @Test func hasManyByIDLoadsMoreOwnersThanOneStatementBinds() throws {
        let store = try PostgresTestServer.store()
        try ModelStore.using(store) {
            try seed(store)
            // A condition: the owners are not every row, so their ids are listed.
            let shelves = try PgShelf.query().where(\.label != "none").including(\.books).all()
            #expect(shelves.count == 70_000)
            let own = shelves.filter { shelf in shelf.books.loaded?.map(\.title) == ["b" + String(shelf.id ?? 0)] }
            #expect(own.count == 70_000, "every shelf has its own book loaded")
        }
    }

    @Test func aStatementBindingTooManyValuesIsRefusedAndTheConnectionStays() throws {
        let store = try PostgresTestServer.store { $0.maximumConnections = 1 }
        try ModelStore.using(store) {
            try seed(store)
            let ids = (1...7_499).map { Int64($0) }
            let error = #expect(throws: PostgresError.self) { try PgShelf.where("id").in(ids).count() }
            #expect(error?.kind == .invalidSQL)
            #expect(error?.message.contains("7499 values") == true)
            #expect(error.map { "\($0)" }.map { $0.count < 2_200 } == true, "the description shows the start of the SQL")
            // The one connection was not broken: the longest list allowed runs on it.
            #expect(try PgShelf.where("id").in(ids.dropLast()).count() == 7_498)
        }
    }
}
