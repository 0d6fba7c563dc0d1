// Generated from the `///` comments of Sources/SwiftModelPostgres by Scripts/doc-snippets.py: do not edit;
// edit the comments and rerun. Compiled, not run.
// swift-format-ignore-file

@testable import SwiftModelPostgres
import ArrayAdapter
import FileAdapter
import Foundation
import PostgresAdapter
import RESTAdapter
import SQLiteAdapter
import Testing

extension SourceSwiftModelPostgresDoc {
    /// Sources/SwiftModelPostgres/Adapter/PostgresAdapter+Pipeline.swift, snippet 1.
    static func PostgresAdapterPipeline1(_ given: Context) throws {
        let store = given.store
        let user = given.user
        try show(store.transaction {
            try user.save(to: store)   // sent; returns without waiting
            try store.flush()          // a unique violation of that save throws here
        })
    }

    /// Sources/SwiftModelPostgres/Adapter/PostgresAdapter+RawSQL.swift, snippet 1.
    static func PostgresAdapterRawSQL1(_ given: Context) throws {
        let store = given.store
        try show(store.execute("UPDATE todos SET done = TRUE WHERE due < $1", [.date(.now)]))
    }

    /// Sources/SwiftModelPostgres/Adapter/PostgresAdapter+RawSQL.swift, snippet 2.
    static func PostgresAdapterRawSQL2(_ given: Context) throws {
        let store = given.store
        let late = try SourceDoc_Todo.fetch(sql: "SELECT * FROM todos WHERE due < $1 ORDER BY due", [.date(.now)], in: store)
        show(late)
    }

    /// Sources/SwiftModelPostgres/Adapter/PostgresAdapter.swift, snippet 1.
    static func PostgresAdapter1(_ given: Context) throws {

        let store = try PostgresAdapter(PostgresConfiguration("postgresql://app@localhost/app"))
        show(ModelStore.setDefault(store))
        try show(SourceDoc_Todo.create(["name": "walk the dog"]))
        let open = try SourceDoc_Todo.where(\.done == false).order(by: \.due).all()
        show(store, open)
    }

    /// Sources/SwiftModelPostgres/Adapter/PostgresConfiguration.swift, snippet 1.
    static func PostgresConfiguration1(_ given: Context) throws {
        var configuration = PostgresConfiguration("postgresql://app@db.internal/app")
        configuration.maximumConnections = 16
        configuration.replicas = ["postgresql://app@replica-1.internal/app"]
        let store = try PostgresAdapter(configuration)
        show(configuration, store)
    }

    /// Sources/SwiftModelPostgres/Connection/PostgresError.swift, snippet 1.
    static func PostgresError1(_ given: Context) throws {
        let user = given.user
        do {
            try user.save()
        } catch let error as StoreError where error.kind == .uniqueViolation {
            let server = error.underlying as? PostgresError   // a record write: StoreError, as on every adapter
            print("taken:", server?.constraint ?? "?")        // "users_email_unique"
        }
    }

    /// Sources/SwiftModelPostgres/Migrations/PostgresMigrator.swift, snippet 1.
    static func PostgresMigrator1(_ given: Context) throws {
        let store = given.store
        var migrator = PostgresMigrator()
        show(migrator.register("person: index city and age") { db in
            try db.execute(#"CREATE INDEX IF NOT EXISTS "person_city_age" ON "person" ("city", "age")"#)
        })
        try show(migrator.migrate(store))
        show(migrator)
    }
}
