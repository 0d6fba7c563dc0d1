import Foundation

/// Ordered, named schema migrations, each run once per database in its own transaction
/// and recorded in the `swiftmodel_migrations` table.
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
/// migrator.register("todo: backfill slugs") { db in
///     try db.execute("UPDATE todos SET slug = lower(name) WHERE slug = ''")
/// }
/// try migrator.migrate(store)      // runs the steps this database has not run yet
/// ```
///
/// A step that throws rolls back that step only; earlier steps stay applied and the error
/// is rethrown, so the next launch resumes at the failed step. Names must be unique.
public struct SQLiteMigrator: Sendable {
    /// One registered step.
    public struct Step: Sendable {
        /// The step's unique name, as recorded in `swiftmodel_migrations`.
        public let name: String
        let run: @Sendable (SQLiteAdapter) throws -> Void
    }

    /// The steps, in registration (= run) order.
    public private(set) var steps: [Step] = []

    /// An empty migrator.
    public init() {}

    /// Adds a step; it runs after every step registered before it.
    ///
    /// - Precondition-free: a duplicate name is reported by ``migrate(_:)`` as a
    ///   ``StoreError`` `.invalidRequest`, before anything runs.
    public mutating func register(_ name: String, _ run: @escaping @Sendable (SQLiteAdapter) throws -> Void) {
        steps.append(Step(name: name, run: run))
    }

    /// The names of the steps already applied to `store`'s database, in the order they ran.
    public func appliedMigrations(in store: SQLiteAdapter) throws -> [String] {
        try Self.createLog(store)
        return try store.rows("SELECT name FROM swiftmodel_migrations ORDER BY rowid").compactMap {
            if case .string(let name) = $0[0] { return name }
            return nil
        }
    }

    /// Runs, in order, each step `store` has not run yet, each in its own transaction
    /// together with its record in `swiftmodel_migrations`.
    ///
    /// - Returns: the names of the steps run now.
    @discardableResult
    public func migrate(_ store: SQLiteAdapter) throws -> [String] {
        var seen: Set<String> = []
        for step in steps where !seen.insert(step.name).inserted {
            throw StoreError(.invalidRequest, table: "swiftmodel_migrations", message: "migration \"\(step.name)\" is registered twice")
        }
        let applied = Set(try appliedMigrations(in: store))
        var ran: [String] = []
        for step in steps where !applied.contains(step.name) {
            try store.withTransaction {
                try step.run(store)
                try store.execute(
                    "INSERT INTO swiftmodel_migrations (name, applied_at) VALUES (?, ?)", [.string(step.name), .date(Date())])
            }
            ran.append(step.name)
        }
        return ran
    }

    private static func createLog(_ store: SQLiteAdapter) throws {
        try store.execute("CREATE TABLE IF NOT EXISTS swiftmodel_migrations (name TEXT NOT NULL PRIMARY KEY, applied_at REAL NOT NULL)")
    }
}
