import ModelSQL

/// One row of a raw SQL result, values decoded by their PostgreSQL type (see
/// `Docs/PostgreSQL.md`): integers, doubles, booleans, text, bytes, UUIDs, timestamps as
/// dates, JSON as arrays and dictionaries, `numeric` as an integer when integral.
public typealias PostgresRow = SQLRow

extension PostgresAdapter {
    /// Runs one SQL statement with bound arguments (`$1`, `$2`, …) on the primary (or the
    /// thread's transaction); returns the number of rows it changed.
    ///
    /// ```swift
    /// try store.execute("UPDATE todos SET done = TRUE WHERE due < $1", [.date(.now)])
    /// ```
    ///
    /// Values are converted to the parameter types PostgreSQL infers (an `.int` bound to
    /// a `double precision` column is sent as a double). Raw writes bypass the model
    /// layer: no hooks, validations or change notifications.
    @discardableResult
    public func execute(_ sql: String, _ arguments: [ModelValue] = []) throws -> Int {
        try writing([]) { connection in try connection.query(sql, arguments).affectedRows }
    }

    /// Runs one SQL query with bound arguments and returns its rows. It runs on the primary
    /// (or the thread's transaction): a raw statement may write.
    public func rows(_ sql: String, _ arguments: [ModelValue] = []) throws -> [PostgresRow] {
        try writing([]) { connection in Self.rows(try connection.query(sql, arguments)) }
    }

    /// Runs a read-only SQL query with bound arguments on a replica when one is configured
    /// (see ``PostgresConfiguration/replicas``), else like ``rows(_:_:)``.
    public func readRows(_ sql: String, _ arguments: [ModelValue] = []) throws -> [PostgresRow] {
        try reading { connection in Self.rows(try connection.query(sql, arguments)) }
    }

    static func rows(_ result: PGResult) -> [PostgresRow] {
        let names = result.columnNames
        let oids = (0..<result.columnCount).map(result.oid)
        return (0..<result.rowCount).map { r in
            PostgresRow(columns: names, values: oids.enumerated().map { result.value(r, $0.offset, oid: $0.element) })
        }
    }
}

extension ModelProtocol {
    /// Records from a raw SQL query (`SELECT *` or any query returning every column of the
    /// model's table), with bound arguments.
    ///
    /// ```swift
    /// let late = try Todo.fetch(sql: "SELECT * FROM todos WHERE due < $1 ORDER BY due", [.date(.now)], in: store)
    /// ```
    public static func fetch(sql: String, _ arguments: [ModelValue] = [], in store: PostgresAdapter) throws -> [Self] {
        try store.records(Self.self, sql, arguments)
    }
}
