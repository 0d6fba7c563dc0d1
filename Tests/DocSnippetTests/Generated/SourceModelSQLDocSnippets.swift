// Generated from the `///` comments of Sources/ModelSQL by Scripts/doc-snippets.py: do not edit;
// edit the comments and rerun. Compiled, not run.
// swift-format-ignore-file

@testable import ModelSQL
import ArrayAdapter
import FileAdapter
import Foundation
import PostgresAdapter
import RESTAdapter
import SQLiteAdapter
import Testing

extension SourceModelSQLDoc {
    /// Sources/ModelSQL/SQLMigrator.swift, snippet 1.
    static func SQLMigrator1(_ given: Context) throws {
        let store = given.store
        var migrator = SQLiteMigrator()
        show(migrator.register("person: index city and age") { db in
            try db.execute(#"CREATE INDEX "person_city_age" ON "person" ("city", "age")"#)
        })
        try show(migrator.migrate(store))      // runs the steps this database has not run yet
        show(migrator)
    }

    /// Sources/ModelSQL/Table/SQLForeignKeys.swift, snippet 1.
    static func SQLForeignKeys1(_ given: Context) throws {
        let store = given.store
        for row in try store.rows("SELECT city, count(*) AS n FROM people GROUP BY city") {
            print(row["city"] ?? .null, row["n"] ?? .null)
        }
    }
}
