// Generated from Docs/SQLite.md by Scripts/doc-snippets.py: do not edit; edit the document and rerun.
// swift-format-ignore-file

import ArrayAdapter
import FileAdapter
import Foundation
import SQLiteAdapter
import Testing

// Docs/SQLite.md, snippet 2 (line 69)
final class SQLiteDoc_Visit: Model {
    @Column(options: .dateStorage(.secondsSince1970)) var started: Date = .now
    @Column(options: .dateStorage(.text)) var ended: Date?
    init() {}
}

extension SQLiteDoc {
    /// Docs/SQLite.md, snippet 1 (line 7).
    static func snippet1(_ context: Context) throws {

        let store = try SQLiteAdapter(path: "todos.sqlite")     // created if missing
        show(ModelStore.setDefault(store))

        try show(SQLiteDoc_Todo.create(["name": "walk the dog"]))
        let open = try SQLiteDoc_Todo.where(\.done == false).order(by: \.due).all()
        show(store, open)
    }

    /// Docs/SQLite.md, snippet 2 (line 69).
    static func snippet2(_ context: Context) throws {
        _ = context
    }

    /// Docs/SQLite.md, snippet 3 (line 120).
    static func snippet3(_ context: Context) throws {
        let store = context.store
        var migrator = SQLiteMigrator()
        show(migrator.register("todos: index project and due") { db in
            try db.execute(#"CREATE INDEX "tasks_project_due" ON "todos" ("project_id", "due")"#)
        })
        show(migrator.register("todos: backfill priority") { db in
            try db.execute("UPDATE todos SET priority = 3 WHERE priority IS NULL")
        })
        try show(migrator.migrate(store))          // at launch; returns the names it ran
        try show(migrator.appliedMigrations(in: store))
        show(migrator)
    }

    /// Docs/SQLite.md, snippet 4 (line 171).
    static func snippet4(_ context: Context) throws {
        let store = context.store
        try show(store.execute("UPDATE todos SET done = 1 WHERE due < ?", [.date(.now)]))     // rows changed
        for row in try store.rows("SELECT city, count(*) AS n FROM people GROUP BY city") {
            print(row["city"] ?? .null, row["n"] ?? .null)
        }
        let late = try SQLiteDoc_Todo.fetch(sql: "SELECT * FROM todos WHERE due < ?", [.date(.now)], in: store)
        show(late)
    }

    /// Docs/SQLite.md, snippet 5 (line 211).
    static func snippet5(_ context: Context) throws {
        let store = context.store
        let (total, open) = try store.read {
            (try SQLiteDoc_Chore.count(in: store), try SQLiteDoc_Chore.where(\.done == false).count())
        }
        try show(store.close())
        show(total, open)
    }

    /// Docs/SQLite.md, snippet 6 (line 219).
    static func snippet6(_ context: Context) throws {
        var configuration = SQLiteConfiguration()
        configuration.readerCount = 8
        configuration.synchronous = .normal
        configuration.busyTimeoutMilliseconds = 10_000
        let store = try SQLiteAdapter(path: "app.sqlite", configuration: configuration)
        show(configuration, store)
    }
}

@Suite("Docs/SQLite.md snippets") struct SQLiteDocSnippetTests {
    // snippet 1 is compiled only (marked compile-only in the document)
    @Test func snippet2() throws { try privately { try SQLiteDoc.withContext { try SQLiteDoc.snippet2($0) } } }
    @Test func snippet3() throws { try privately { try SQLiteDoc.withContext { try SQLiteDoc.snippet3($0) } } }
    @Test func snippet4() throws { try privately { try SQLiteDoc.withContext { try SQLiteDoc.snippet4($0) } } }
    @Test func snippet5() throws { try privately { try SQLiteDoc.withContext { try SQLiteDoc.snippet5($0) } } }
    // snippet 6 is compiled only (marked compile-only in the document)
}
