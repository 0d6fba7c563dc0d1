import Foundation
import SQLiteAdapter
import Testing

@Suite struct SQLiteWriteTests {
    @Test func everyColumnTypeRoundTripsExactly() throws {
        try withSQLite { (store: SQLiteAdapter) throws in
            let g = Gadget()
            g.name = "Ünïcødé 🐶 'quote' \"double\" ; --"
            g.manual = String(repeating: "long text ", count: 10_000)
            g.count = -42
            g.big = Int64.min
            g.ratio = -0.1 + 0.2
            g.enabled = true
            g.made = Date()  // fractional seconds, full precision
            g.serial = UUID()
            g.payload = Data([0, 1, 2, 0, 255])
            g.tags = ["", "a,b", "ü"]
            g.specs = ["n": 1, "d": 2.5, "nested": ["x": [true, .null]], "s": "t"]
            g.note = ""
            try g.save()
            let h = Gadget()
            h.big = Int64.max
            h.payload = Data()
            try h.save()
            let back = try #require(try Gadget.find(1))
            for column in Gadget.schema.columns {
                #expect(try back[column.name] == g[column.name], "\(column.name)")
            }
            let empty = try #require(try Gadget.find(2))
            #expect(empty.big == Int64.max && empty.payload == Data() && empty.note == nil)
            #expect(!back.isDirty)
        }
    }

    @Test func anInsertSetsTheIdInTheRecordsOwnRow() throws {
        try withSQLite { (_: SQLiteAdapter) throws in
            let g = Gadget()
            g.name = "kept in place"
            let handed = g.__values.withUnsafeBufferPointer { $0.baseAddress }
            try g.save()
            #expect(g.id == 1)
            #expect(g.__values.withUnsafeBufferPointer { $0.baseAddress } == handed, "the id was set without copying the row")
            #expect(try Gadget.find(1)?.name == "kept in place")
        }
    }

    /// A loaded record's row is shared only with its baseline: changing one column moves the
    /// old value aside and writes the row in place (no copy), and the save keeps that row.
    @Test func aLoadedRecordsOneColumnChangeIsWrittenInPlace() throws {
        try withSQLite { (_: SQLiteAdapter) throws in
            try Gadget.create(["name": "before", "count": 1])
            let g = try #require(try Gadget.find(1))
            let row = g.__values.withUnsafeBufferPointer { $0.baseAddress }
            g.count = 2
            #expect(g.__values.withUnsafeBufferPointer { $0.baseAddress } == row, "the row was changed in place")
            #expect(g.changes == ["count": ColumnChange(old: 1, new: 2)])
            try g.save()
            #expect(g.__values.withUnsafeBufferPointer { $0.baseAddress } == row)
            #expect(!g.isDirty && g.__baseline == g.__values)
            #expect(try Gadget.find(1)?.count == 2)
        }
    }

    @Test func nanIsRefusedRatherThanStoredAsNull() throws {
        try withSQLite { (_: SQLiteAdapter) throws in
            let g = Gadget()
            g.ratio = .nan
            #expect(throws: CastError.self) { try g.save() }
            #expect(try Gadget.count() == 0)
        }
    }

    @Test func anUpdateChecksTheColumnsItWrites() throws {
        try withSQLite { (store: SQLiteAdapter) throws in
            let g = Gadget()
            g.name = "kept"
            try g.save()
            // Through the model: the changed column is refused and nothing is written.
            g.ratio = .nan
            g.count = 3
            let error = #expect(throws: CastError.self) { try g.save() }
            #expect(error?.column == "ratio")
            #expect(g.isDirty)
            let stored = try #require(try Gadget.find(g.id!))
            #expect(stored.ratio == 0 && stored.count == 0)
            // Through the adapter: only the listed columns are written, so only they are
            // checked; a value the update leaves alone is not read.
            let schema = Gadget.schema
            var row = stored.__values
            let ratio = try #require(schema.index(ofColumn: "ratio"))
            let count = try #require(schema.index(ofColumn: "count"))
            row[ratio] = .double(.nan)
            row[count] = .int(9)
            try store.update(row, changedColumns: [count], in: schema)
            #expect(try Gadget.find(g.id!)?.count == 9)
            #expect(try Gadget.find(g.id!)?.ratio == 0)
            row[count] = .int(11)
            let refused = #expect(throws: CastError.self) { try store.update(row, changedColumns: [count, ratio], in: schema) }
            #expect(refused?.column == "ratio" && refused?.model == "Gadget")
            #expect(try Gadget.find(g.id!)?.count == 9, "the refused update wrote nothing")
            row.removeLast()
            #expect(throws: StoreError.self) { try store.update(row, changedColumns: [count], in: schema) }
        }
    }

    @Test func duplicateIDsAndUniqueViolationsAreTypedAndLeaveNothingHalfWritten() throws {
        try withSQLite { (store: SQLiteAdapter) throws in
            try Gadget.create(["code": "A"])
            let clash = Gadget()
            clash.code = "A"
            do {
                try clash.save()
                Issue.record("saved a duplicate code")
            } catch let thrown as StoreError {
                #expect(thrown.kind == .uniqueViolation && thrown.column == "code" && thrown.table == "gadgets")
                let error = try #require(thrown.underlying as? SQLiteError)
                #expect(error.kind == .uniqueConstraint)
                #expect((error as any SwiftModelError).storeErrorKind == .uniqueViolation && (error as any SwiftModelError).isConstraintFailure)
                #expect(error.message.contains("gadgets.code"))
                #expect(error.sql?.hasPrefix("INSERT INTO \"gadgets\"") == true)
                #expect(!error.description.contains("\"A\""))  // bound values stay out of the text
                #expect(error.arguments.contains("A"))
            }
            #expect(clash.isNew)
            // A transaction that fails halfway leaves no row behind.
            #expect(throws: StoreError.self) {
                try store.withTransaction {
                    try Gadget.create(["code": "B"])
                    try Gadget.create(["code": "A"])
                }
            }
            #expect(try Gadget.query().pluck(\.code) == ["A"])
            let row = try #require(try store.find(id: 1, in: Gadget.schema))
            #expect(throws: StoreError.self) { try store.insert(row, into: Gadget.schema) }
        }
    }

    @Test func foreignKeysAreEnforcedAndNotNullIsTyped() throws {
        try withSQLite { (store: SQLiteAdapter) throws in
            let orphan = Book()
            orphan.title = "orphan"
            try orphan.set("shelf_id", to: 999)
            do {
                try orphan.save()
                Issue.record("saved a book on a missing shelf")
            } catch let error as SQLiteError {
                #expect(error.kind == .foreignKeyConstraint)
            }
            #expect(try Book.count() == 0)
            do {
                try store.execute("INSERT INTO books (title, shelf_id) VALUES (?, NULL)", [.null])
                Issue.record("stored a null title")
            } catch let error as SQLiteError {
                #expect(error.kind == .notNullConstraint)
            }
        }
    }

    @Test func relationsAndDeleteRulesWorkOnSQLite() throws {
        try withSQLite { (store: SQLiteAdapter) throws in
            let shelf = try Shelf.create(["label": "fiction"])
            let book = try shelf.books.create(["title": "Dune"])
            try shelf.books.create(["title": "Emma"])
            let mark = Bookmark()
            mark.book = book
            try mark.save()
            let loan = try book.loans.create(["borrower": "ann"])
            #expect(loan.id != UUID(uuidString: "00000000-0000-0000-0000-000000000000"))
            #expect(try shelf.books.where(\.title == "Emma").count() == 1)
            let eager = try Shelf.query().including(\.books).all()
            #expect(try eager.first?.books.count() == 2)
            // restrict: the loan blocks destroying the book, so the shelf's cascade fails whole.
            #expect(throws: ModelError.self) { try shelf.destroy() }
            #expect(try Book.count() == 2 && Shelf.count() == 1)
            #expect(try loan.delete())
            #expect(try shelf.destroy())
            #expect(try Book.count() == 0)
            #expect(try Bookmark.find(try #require(mark.id), in: store)?.book == nil)  // nullified
            // delete() skips the model's cascade, but the database keeps keys consistent.
            let other = try Shelf.create(["label": "poetry"])
            try other.books.create(["title": "Odes"])
            #expect(try other.delete())
            #expect(try Book.count() == 0)  // ON DELETE CASCADE
            #expect(try store.rows("PRAGMA foreign_key_check").isEmpty)
        }
    }

    @Test func savepointsRollBackOnlyTheirLevel() throws {
        try withSQLite { (store: SQLiteAdapter) throws in
            try store.transaction {
                try MemoV1.create(["title": "outer"])
                struct Abort: Error {}
                #expect(throws: Abort.self) {
                    try store.transaction {
                        try MemoV1.create(["title": "inner"])
                        throw Abort()
                    }
                }
                try store.transaction { try MemoV1.create(["title": "kept"]) }
            }
            #expect(try MemoV1.query().pluck(\.title) == ["outer", "kept"])
            struct Fail: Error {}
            #expect(throws: Fail.self) {
                try store.transaction {
                    try MemoV1.create(["title": "gone"])
                    throw Fail()
                }
            }
            #expect(try MemoV1.count() == 2)
        }
    }

    /// A table first used inside a savepoint that rolls back goes with it (SQLite's DDL is
    /// transactional): the table is prepared again by the next use, in the same transaction
    /// and after its commit — never "no such table".
    @Test func aTableFirstPreparedInARolledBackSavepointIsPreparedAgain() throws {
        struct Abort: Error {}
        /// A transaction whose first use of the table is in a savepoint that rolls back.
        func preparedInARolledBackSavepoint(_ store: SQLiteAdapter, thenInside: () throws -> Void) throws {
            try store.transaction {
                #expect(throws: Abort.self) {
                    try store.transaction {
                        try MemoV1.create(["title": "rolled back with its table"])
                        throw Abort()
                    }
                }
                try thenInside()
            }
        }
        try withSQLite { (store: SQLiteAdapter) throws in
            try preparedInARolledBackSavepoint(store) { try MemoV1.create(["title": "after the savepoint"]) }
            #expect(try MemoV1.query().pluck(\.title) == ["after the savepoint"])
        }
        try withSQLite { (store: SQLiteAdapter) throws in
            try preparedInARolledBackSavepoint(store) {}
            // First use after the commit.
            #expect(try MemoV1.count() == 0)
            try MemoV1.create(["title": "later"])
            #expect(try MemoV1.count() == 1)
        }
    }

    @Test func aTableCreatedInARolledBackTransactionIsCreatedAgain() throws {
        try withSQLite { (store: SQLiteAdapter) throws in
            struct Fail: Error {}
            #expect(throws: Fail.self) {
                try store.withTransaction {
                    try MemoV2.create(["title": "x"], in: store)
                    throw Fail()
                }
            }
            try MemoV2.create(["title": "y"], in: store)
            #expect(try MemoV2.all(in: store).map(\.title) == ["y"])
        }
    }

    @Test func rawSQLBindsArgumentsAndDecodesModels() throws {
        try withSQLite { (store: SQLiteAdapter) throws in
            try seedCitizens(store)
            let hostile = "x' OR '1'='1"
            #expect(try store.rows("SELECT * FROM citizens WHERE name = ?", [.string(hostile)]).isEmpty)
            let rows = try store.rows("SELECT city, count(*) AS n FROM citizens WHERE city IS NOT NULL GROUP BY city ORDER BY n DESC, city LIMIT 1")
            #expect(rows.first?["city"] == "Paris" && rows.first?["n"] == 3)
            let young = try Citizen.fetch(sql: "SELECT * FROM citizens WHERE age < ? ORDER BY age", [30], in: store)
            #expect(young.map(\.name) == ["100% _real_ \\o/", "'; DROP TABLE citizen; --", "Finn"])
            #expect(try store.execute("UPDATE citizens SET score = score + 1 WHERE active = ?", [false]) == 3)
            let partial = #expect(throws: SQLiteError.self) { try Citizen.fetch(sql: "SELECT id, name FROM citizens", in: store) }
            #expect(partial?.kind == .mismatch && partial?.message.contains("lacks Citizen column(s) age") == true)
            #expect(throws: SQLiteError.self) { try store.execute("DELETE FROM citizens; DROP TABLE citizens") }
            do {
                _ = try store.rows("SELECT * FROM citizens WHERE age > ? AND city = ?", [30])
                Issue.record("ran with a parameter left unbound")
            } catch let error as SQLiteError {
                #expect(error.kind == .mismatch)
                #expect(error.message.contains("2 parameter(s) but 1 value(s)"))
            }
            #expect(try Citizen.count() == citizens.count)
        }
    }
}
