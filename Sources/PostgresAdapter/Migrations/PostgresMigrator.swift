import Foundation

/// Ordered, named schema migrations, each run once per database in its own transaction (under an advisory lock, so
/// processes migrating at once run each step once)
/// and recorded in the `swiftmodel_migrations` table.
///
/// Additive changes need no migration: opening a table that lacks a newly declared column
/// adds it. Register steps for everything else (renames, backfills, composite indexes,
/// dropping columns):
///
/// ```swift
/// var migrator = PostgresMigrator()
/// migrator.register("person: index city and age") { db in
///     try db.execute(#"CREATE INDEX IF NOT EXISTS "person_city_age" ON "person" ("city", "age")"#)
/// }
/// migrator.register("todo: backfill slugs") { db in
///     try db.execute("UPDATE todos SET slug = lower(name) WHERE slug = ''")
/// }
/// try migrator.migrate(store)      // runs the steps this database has not run yet
/// ```
///
/// A step that throws rolls back that step only; earlier steps stay applied and the error
/// is rethrown, so the next launch resumes at the failed step. Names must be unique.
public struct PostgresMigrator: Sendable {
    /// One registered step.
    public struct Step: Sendable {
        /// The step's unique name, as recorded in `swiftmodel_migrations`.
        public let name: String
        let run: @Sendable (PostgresAdapter) throws -> Void
    }

    /// The steps, in registration (= run) order.
    public private(set) var steps: [Step] = []

    /// An empty migrator.
    public init() {}

    /// Adds a step; it runs after every step registered before it.
    ///
    /// - Precondition-free: a duplicate name is reported by ``migrate(_:)`` as a
    ///   ``StoreError`` `.invalidRequest`, before anything runs.
    public mutating func register(_ name: String, _ run: @escaping @Sendable (PostgresAdapter) throws -> Void) {
        steps.append(Step(name: name, run: run))
    }

    /// The names of the steps already applied to `store`'s database, in the order they ran.
    public func appliedMigrations(in store: PostgresAdapter) throws -> [String] {
        try Self.createLog(store)
        return try store.rows("SELECT name FROM swiftmodel_migrations ORDER BY position").compactMap {
            if case .string(let name) = $0[0] { return name }
            return nil
        }
    }

    /// Runs, in order, each step `store` has not run yet, each in its own transaction
    /// together with its record in `swiftmodel_migrations`.
    ///
    /// - Returns: the names of the steps run now.
    @discardableResult
    public func migrate(_ store: PostgresAdapter) throws -> [String] {
        var seen: Set<String> = []
        for step in steps where !seen.insert(step.name).inserted {
            throw StoreError(.invalidRequest, table: "swiftmodel_migrations", message: "migration \"\(step.name)\" is registered twice")
        }
        let applied = Set(try appliedMigrations(in: store))
        var ran: [String] = []
        for step in steps where !applied.contains(step.name) {
            let didRun = try store.withTransaction { () throws -> Bool in
                // Another process migrating at the same time waits here, then skips the
                // steps it finds applied.
                try store.execute("SELECT pg_advisory_xact_lock(7186453920572)")
                let done = try store.rows("SELECT 1 FROM swiftmodel_migrations WHERE name = $1", [.string(step.name)])
                guard done.isEmpty else { return false }
                try step.run(store)
                try store.execute(
                    "INSERT INTO swiftmodel_migrations (name, applied_at) VALUES ($1, $2)", [.string(step.name), .date(Date())])
                return true
            }
            if didRun { ran.append(step.name) }
        }
        return ran
    }

    private static func createLog(_ store: PostgresAdapter) throws {
        try store.execute("CREATE TABLE IF NOT EXISTS swiftmodel_migrations (position bigint GENERATED ALWAYS AS IDENTITY, name text NOT NULL PRIMARY KEY, applied_at timestamptz NOT NULL)")
    }
}
