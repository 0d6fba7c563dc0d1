import Foundation
import ModelSQL

/// Ordered, named schema migrations for a SQLite database (see ``SQLMigrator``):
///
/// ```swift
/// var migrator = SQLiteMigrator()
/// migrator.register("todo: backfill slugs") { db in
///     try db.execute("UPDATE todos SET slug = lower(name) WHERE slug = ''")
/// }
/// try migrator.migrate(store)
/// ```
public typealias SQLiteMigrator = SQLMigrator<SQLiteAdapter>

extension SQLiteAdapter: SQLMigrationStore {
    /// Creates `swiftmodel_migrations` (name, applied_at) when missing.
    public func createMigrationLog() throws {
        try execute("CREATE TABLE IF NOT EXISTS swiftmodel_migrations (name TEXT NOT NULL PRIMARY KEY, applied_at REAL NOT NULL)")
    }

    /// The applied step names, in the order they ran.
    public func appliedMigrationNames() throws -> [String] {
        try rows("SELECT name FROM swiftmodel_migrations ORDER BY rowid").compactMap {
            if case .string(let name) = $0[0] { return name }
            return nil
        }
    }

    /// Nothing: a migration's write transaction (`BEGIN IMMEDIATE`) already excludes other
    /// writers.
    public func lockMigrations() throws {}

    /// Records a step as applied.
    public func recordMigration(_ name: String) throws {
        try execute("INSERT INTO swiftmodel_migrations (name, applied_at) VALUES (?, ?)", [.string(name), .date(Date())])
    }
}
