import Foundation
import ModelCore

/// A store ``SQLMigrator`` can migrate: it keeps the log of applied steps in its
/// `swiftmodel_migrations` table. `SQLiteAdapter` and `PostgresAdapter` conform.
public protocol SQLMigrationStore: PersistenceAdapter {
    /// Creates the `swiftmodel_migrations` log when missing.
    func createMigrationLog() throws
    /// The names of the applied steps, in the order they ran.
    func appliedMigrationNames() throws -> [String]
    /// Called first inside each step's transaction: waits while another process migrates
    /// the same database (an advisory lock on PostgreSQL; nothing on SQLite, whose write
    /// transaction already excludes other writers).
    func lockMigrations() throws
    /// Records `name` as applied, inside the step's transaction.
    func recordMigration(_ name: String) throws
}

/// Ordered, named schema migrations, each run once per database in its own transaction
/// and recorded in the `swiftmodel_migrations` table (spelled `SQLiteMigrator` and
/// `PostgresMigrator`).
///
/// Additive changes need no migration: opening a table that lacks a newly declared column
/// adds it. Register steps for everything else (renames, backfills, composite indexes,
/// dropping columns):
///
/// ```swift
/// var migrator = SQLiteMigrator()
/// migrator.register("person: index city and age") { db in
///     try db.execute(#"CREATE INDEX "person_city_age" ON "person" ("city", "age")"#)
/// }
/// try migrator.migrate(store)      // runs the steps this database has not run yet
/// ```
///
/// A step that throws rolls back that step only; earlier steps stay applied and the error
/// is rethrown, so the next launch resumes at the failed step. Names must be unique. Two
/// processes migrating at once run each step once: a step re-checks the log after taking
/// the store's migration lock.
public struct SQLMigrator<Store: SQLMigrationStore>: Sendable {
    /// One registered step.
    public struct Step: Sendable {
        /// The step's unique name, as recorded in `swiftmodel_migrations`.
        public let name: String
        let run: @Sendable (Store) throws -> Void
    }

    /// The steps, in registration (= run) order.
    public private(set) var steps: [Step] = []

    /// An empty migrator.
    public init() {}

    /// Adds a step; it runs after every step registered before it. A duplicate name is
    /// reported by ``migrate(_:)`` as a ``StoreError`` `.invalidRequest`, before anything runs.
    public mutating func register(_ name: String, _ run: @escaping @Sendable (Store) throws -> Void) {
        steps.append(Step(name: name, run: run))
    }

    /// The names of the steps already applied to `store`'s database, in the order they ran.
    public func appliedMigrations(in store: Store) throws -> [String] {
        try store.createMigrationLog()
        return try store.appliedMigrationNames()
    }

    /// Runs, in order, each step `store` has not run yet, each in its own transaction
    /// together with its record in `swiftmodel_migrations`.
    ///
    /// - Returns: the names of the steps run now.
    @discardableResult
    public func migrate(_ store: Store) throws -> [String] {
        var seen: Set<String> = []
        for step in steps where !seen.insert(step.name).inserted {
            throw StoreError(.invalidRequest, table: "swiftmodel_migrations", message: "migration \"\(step.name)\" is registered twice")
        }
        let applied = Set(try appliedMigrations(in: store))
        var ran: [String] = []
        for step in steps where !applied.contains(step.name) {
            let didRun = try store.withTransaction { () throws -> Bool in
                try store.lockMigrations()
                guard !(try store.appliedMigrationNames().contains(step.name)) else { return false }
                try step.run(store)
                try store.recordMigration(step.name)
                return true
            }
            if didRun { ran.append(step.name) }
        }
        return ran
    }
}
