// Generated from the `///` comments of Sources/SwiftModelSQLite by Scripts/doc-snippets.py: do not edit;
// edit the comments and rerun. Compiled, not run.
// swift-format-ignore-file

@testable import SwiftModelSQLite
import ArrayAdapter
import FileAdapter
import Foundation
import PostgresAdapter
import RESTAdapter
import SQLiteAdapter
import Testing

extension SourceSwiftModelSQLiteDoc {
    /// Sources/SwiftModelSQLite/Adapter/SQLiteAdapter+RawSQL.swift, snippet 1.
    static func SQLiteAdapterRawSQL1(_ given: Context) throws {
        let store = given.store
        try show(store.execute("UPDATE todos SET done = 1 WHERE due < ?", [.date(.now)]))
    }

    /// Sources/SwiftModelSQLite/Adapter/SQLiteAdapter+RawSQL.swift, snippet 2.
    static func SQLiteAdapterRawSQL2(_ given: Context) throws {
        let store = given.store
        let late = try SourceDoc_Todo.fetch(sql: "SELECT * FROM todos WHERE due < ? ORDER BY due", [.date(.now)], in: store)
        show(late)
    }

    /// Sources/SwiftModelSQLite/Adapter/SQLiteAdapter+ReadAndClose.swift, snippet 1.
    static func SQLiteAdapterReadAndClose1(_ given: Context) throws {
        let store = given.store
        let (open, total) = try store.read {
            (try SourceDoc_Chore.where(\.done == false).count(), try SourceDoc_Chore.count())   // one snapshot
        }
        show(open, total)
    }

    /// Sources/SwiftModelSQLite/Adapter/SQLiteAdapter.swift, snippet 1.
    static func SQLiteAdapter1(_ given: Context) throws {

        let store = try SQLiteAdapter(path: "todos.sqlite")
        show(ModelStore.setDefault(store))
        try show(SourceDoc_Todo.create(["name": "walk the dog"]))
        let open = try SourceDoc_Todo.where(\.done == false).order(by: \.due).all()
        show(store, open)
    }

    /// Sources/SwiftModelSQLite/Adapter/SQLiteConfiguration.swift, snippet 1.
    static func SQLiteConfiguration1(_ given: Context) throws {
        var configuration = SQLiteConfiguration()
        configuration.readerCount = 8
        configuration.synchronous = .normal    // faster commits; a power cut may lose the last ones
        let store = try SQLiteAdapter(path: "app.sqlite", configuration: configuration)
        show(configuration, store)
    }

    /// Sources/SwiftModelSQLite/Connection/SQLiteError.swift, snippet 1.
    static func SQLiteError1(_ given: Context) throws {
        let store = given.store
        do {
            try store.execute("INSERT INTO users (email) VALUES (?)", ["ann@example.org"])
        } catch let error as SQLiteError where error.kind == .uniqueConstraint {
            print("taken:", error.message)      // "UNIQUE constraint failed: users.email"
        }
    }

    /// Sources/SwiftModelSQLite/Connection/SQLiteError.swift, snippet 2.
    static func SQLiteError2(_ given: Context) throws {
        let user = given.user
        do {
            try user.save()
        } catch let error as StoreError where error.kind == .uniqueViolation {
            print((error.underlying as? SQLiteError)?.extendedCode ?? 0)   // 2067
        }
    }

    /// Sources/SwiftModelSQLite/Migrations/SQLiteMigrator.swift, snippet 1.
    static func SQLiteMigrator1(_ given: Context) throws {
        let store = given.store
        var migrator = SQLiteMigrator()
        show(migrator.register("todo: backfill slugs") { db in
            try db.execute("UPDATE todos SET slug = lower(name) WHERE slug = ''")
        })
        try show(migrator.migrate(store))
        show(migrator)
    }
}
