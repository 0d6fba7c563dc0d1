import Foundation
import SQLiteAdapter
import Testing

/// Version 1 of a model, then version 2 with more columns, on the same table.
final class MemoV1: Model {
    static var tableName: String { "memo" }
    @Column var title: String = ""
    init() {}
}

final class MemoV2: Model {
    static var tableName: String { "memo" }
    @Column var title: String = ""
    @Column var body: String = "(empty)"
    @Column(default: 3) var priority: Int?
    @Column var pinned: Bool = false
    @Column(options: .indexed) var tag: String?
    init() {}
}

@Suite struct SQLiteSchemaTests {
    @Test func tablesHaveRealTypesConstraintsAndIndexes() throws {
        try withSQLite { (store: SQLiteAdapter) throws in
            try store.prepare(Gadget.schema)
            let info = try table(store, "SELECT name, type, \"notnull\" AS nn, dflt_value, pk FROM pragma_table_info('gadgets')")
            func column(_ name: String) -> [String: ModelValue]? { info.first { $0["name"] == .string(name) } }
            #expect(column("id")?["type"] == "INTEGER" && column("id")?["pk"] == 1)
            #expect(column("name")?["type"] == "TEXT" && column("name")?["nn"] == 1)
            #expect(column("count")?["type"] == "INTEGER")
            #expect(column("ratio")?["type"] == "REAL" && column("made")?["type"] == "REAL")
            #expect(column("enabled")?["type"] == "INTEGER" && column("payload")?["type"] == "BLOB")
            #expect(column("serial")?["type"] == "TEXT" && column("tags")?["type"] == "TEXT")
            #expect(column("note")?["nn"] == 0)
            #expect(column("level")?["dflt_value"] == "7")
            let indexes = try table(store, "SELECT name, \"unique\" AS u FROM pragma_index_list('gadgets')")
            #expect(indexes.contains { $0["name"] == "gadgets_code_unique" && $0["u"] == 1 })
            let sql = try store.rows("SELECT sql FROM sqlite_master WHERE name = 'gadgets'").first?[0]
            #expect(sql.map { "\($0)".contains("AUTOINCREMENT") } == true)
        }
    }

    @Test func foreignKeysCarryTheRelationRules() throws {
        try withSQLite { (store: SQLiteAdapter) throws in
            try store.prepare(Shelf.schema)
            try store.prepare(Book.schema)
            try store.prepare(Bookmark.schema)
            let books = try table(store, "SELECT \"table\" AS t, \"from\" AS f, on_delete FROM pragma_foreign_key_list('books')")
            #expect(books == [["t": "shelves", "f": "shelf_id", "on_delete": "CASCADE"]])
            let marks = try table(store, "SELECT on_delete FROM pragma_foreign_key_list('bookmarks')")
            #expect(marks == [["on_delete": "SET NULL"]])
            let indexed = try table(store, "SELECT name FROM pragma_index_list('books')")
            #expect(indexed.contains { $0["name"] == "books_shelf_id_index" })
        }
    }

    @Test func reopeningAFileKeepsRowsAndIDs() throws {
        try withTemporaryDirectory { dir in
            let path = dir.appendingPathComponent("store.sqlite").path
            do {
                let store = try SQLiteAdapter(path: path)
                for name in ["a", "b", "c"] { try MemoV1.create(["title": .string(name)], in: store) }
                _ = try MemoV1.find(3, in: store)?.delete()
            }
            let store = try SQLiteAdapter(path: path)
            #expect(try MemoV1.all(in: store).map(\.title) == ["a", "b"])
            let next = try MemoV1.create(["title": "d"], in: store)
            #expect(next.id == 4)  // AUTOINCREMENT: a deleted id is never reused
        }
    }

    @Test func anOlderTableGainsNewColumns() throws {
        try withTemporaryDirectory { dir in
            let path = dir.appendingPathComponent("store.sqlite").path
            do {
                let store = try SQLiteAdapter(path: path)
                try MemoV1.create(["title": "old"], in: store)
            }
            let store = try SQLiteAdapter(path: path)
            let memo = try #require(try MemoV2.find(1, in: store))
            #expect(memo.title == "old")
            #expect(memo.body == "(empty)")  // the initial value, for rows already stored
            #expect(memo.priority == 3)
            #expect(memo.pinned == false)
            #expect(memo.tag == nil)
            memo.tag = "x"
            try memo.save()
            #expect(try MemoV2.where(\.tag == "x").using(store).count() == 1)
            let indexes = try table(store, "SELECT name FROM pragma_index_list('memo')")
            #expect(indexes.contains { $0["name"] == "memo_tag_index" })
        }
    }

    @Test func versionedMigrationsRunOnceInOrderAndResumeAfterAFailure() throws {
        try withTemporaryDirectory { dir in
            let path = dir.appendingPathComponent("store.sqlite").path
            let store = try SQLiteAdapter(path: path)
            try MemoV2.create(["title": "a", "body": "x"], in: store)
            var migrator = SQLiteMigrator()
            migrator.register("index title+pinned") { db in
                try db.execute(#"CREATE INDEX "memo_title_pinned" ON "memo" ("title", "pinned")"#)
            }
            migrator.register("uppercase titles") { db in try db.execute("UPDATE memo SET title = upper(title)") }
            var failing = migrator
            failing.register("broken") { db in
                try db.execute("UPDATE memo SET body = 'half-done'")
                try db.execute("UPDATE no_such_table SET x = 1")
            }
            #expect(throws: SQLiteError.self) { try failing.migrate(store) }
            #expect(try failing.appliedMigrations(in: store) == ["index title+pinned", "uppercase titles"])
            #expect(try MemoV2.find(1, in: store)?.body == "x")  // the failed step left nothing
            #expect(try migrator.migrate(store) == [])  // already applied: nothing runs twice
            #expect(try MemoV2.find(1, in: store)?.title == "A")
            let reopened = try SQLiteAdapter(path: path)
            #expect(try migrator.appliedMigrations(in: reopened).count == 2)
            var duplicate = SQLiteMigrator()
            duplicate.register("same") { _ in }
            duplicate.register("same") { _ in }
            #expect(throws: StoreError.self) { try duplicate.migrate(reopened) }
        }
    }

    @Test func theSQLiteCommandLineToolReadsTheFile() throws {
        try withTemporaryDirectory { dir in
            let path = dir.appendingPathComponent("store.sqlite").path
            do {
                let store = try SQLiteAdapter(path: path)
                try store.withTransaction {
                    try MemoV2.create(["title": "it's \"quoted\"", "priority": 9], in: store)
                    try MemoV2.create(["title": "second"], in: store)
                }
            }
            let output = try runSQLite3(path, "SELECT id, title, priority FROM memo ORDER BY id;")
            #expect(output == "1|it's \"quoted\"|9\n2|second|3\n")
            let schema = try runSQLite3(path, ".schema memo")
            #expect(schema.contains("\"memo\"") && schema.contains("\"title\" TEXT NOT NULL"))
            #expect(try runSQLite3(path, "PRAGMA integrity_check;") == "ok\n")
        }
    }

    @Test func aFileThatIsNotADatabaseIsATypedErrorAndStaysUntouched() throws {
        try withTemporaryDirectory { dir in
            let url = dir.appendingPathComponent("notes.txt")
            let text = Data(repeating: 0x41, count: 4096)
            try text.write(to: url)
            do {
                _ = try SQLiteAdapter(url: url)
                Issue.record("opened a text file as a database")
            } catch let error as SQLiteError {
                #expect(error.kind == .corrupt)
            }
            #expect(try Data(contentsOf: url) == text)
        }
    }

    @Test func configurationReachesTheConnection() throws {
        try withTemporaryDirectory { dir in
            let wal = try SQLiteAdapter(path: dir.appendingPathComponent("wal.sqlite").path)
            #expect(try wal.rows("PRAGMA journal_mode").first?[0] == "wal")
            #expect(try wal.rows("PRAGMA foreign_keys").first?[0] == 1)
            var configuration = SQLiteConfiguration()
            configuration.journalMode = .delete
            configuration.synchronous = .normal
            configuration.foreignKeys = false
            let classic = try SQLiteAdapter(path: dir.appendingPathComponent("classic.sqlite").path, configuration: configuration)
            #expect(try classic.rows("PRAGMA journal_mode").first?[0] == "delete")
            #expect(try classic.rows("PRAGMA synchronous").first?[0] == 1)
            #expect(try classic.rows("PRAGMA foreign_keys").first?[0] == 0)
            try MemoV1.create(["title": "a"], in: classic)
            #expect(try MemoV1.count(in: classic) == 1)
        }
    }

    @Test func twoModelsCannotShareATableWithDifferentColumns() throws {
        try withSQLite { (store: SQLiteAdapter) throws in
            try store.prepare(MemoV1.schema)
            #expect(throws: StoreError.self) { try store.prepare(MemoV2.schema) }
        }
    }
}

/// Runs the `sqlite3` command-line tool on a database file and returns its output.
func runSQLite3(_ path: String, _ command: String) throws -> String {
    try runTool("sqlite3", [path, command]).output
}
