import Foundation
import ModelSQL

/// Ordered, named schema migrations for a PostgreSQL database (see ``SQLMigrator``), each
/// step under an advisory lock so processes migrating at once run it once:
///
/// ```swift
/// var migrator = PostgresMigrator()
/// migrator.register("person: index city and age") { db in
///     try db.execute(#"CREATE INDEX IF NOT EXISTS "person_city_age" ON "person" ("city", "age")"#)
/// }
/// try migrator.migrate(store)
/// ```
public typealias PostgresMigrator = SQLMigrator<PostgresAdapter>

extension PostgresAdapter: SQLMigrationStore {
    /// Creates `swiftmodel_migrations` (position, name, applied_at) when missing.
    public func createMigrationLog() throws {
        try execute(
            "CREATE TABLE IF NOT EXISTS swiftmodel_migrations (position bigint GENERATED ALWAYS AS IDENTITY, name text NOT NULL PRIMARY KEY, applied_at timestamptz NOT NULL)"
        )
    }

    /// The applied step names, in the order they ran.
    public func appliedMigrationNames() throws -> [String] {
        try rows("SELECT name FROM swiftmodel_migrations ORDER BY position").compactMap {
            if case .string(let name) = $0[0] { return name }
            return nil
        }
    }

    /// Takes the transaction-scoped advisory lock that serialises migrations across
    /// processes.
    public func lockMigrations() throws {
        try execute("SELECT pg_advisory_xact_lock(7186453920572)")
    }

    /// Records a step as applied.
    public func recordMigration(_ name: String) throws {
        try execute("INSERT INTO swiftmodel_migrations (name, applied_at) VALUES ($1, $2)", [.string(name), .date(Date())])
    }
}
