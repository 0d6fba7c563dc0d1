import ModelSQL

/// One row of a raw SQL result: values as SQLite stores them (integer, real, text, blob
/// or null), by column name or position.
public typealias SQLiteRow = SQLRow

extension SQLiteAdapter {
    /// Runs one SQL statement with bound arguments (`?` or `?NNN` placeholders) on the
    /// writer; returns the number of rows it changed.
    ///
    /// ```swift
    /// try store.execute("UPDATE todos SET done = 1 WHERE due < ?", [.date(.now)])
    /// ```
    ///
    /// Raw writes bypass the model layer: no hooks, validations or change notifications.
    @discardableResult
    public func execute(_ sql: String, _ arguments: [ModelValue] = []) throws -> Int {
        try writing { db in try db.run(sql, arguments) }
    }

    /// Runs one SQL query with bound arguments and returns its rows as stored.
    ///
    /// Read-only statements run on a reader outside transactions; anything else on the
    /// writer.
    public func rows(_ sql: String, _ arguments: [ModelValue] = []) throws -> [SQLiteRow] {
        func read(_ statement: SQLiteStatement) throws -> [SQLiteRow] {
            let names = statement.columnNames
            var rows: [SQLiteRow] = []
            while try statement.step() {
                rows.append(SQLiteRow(columns: names, values: (0..<statement.columnCount).map { statement.rawValue(at: $0) }))
            }
            return rows
        }
        // Prepared once on the read path; only a statement that writes moves to the writer.
        let rows = try reading { db -> [SQLiteRow]? in
            try db.cached(sql).isReadOnly ? db.query(sql, arguments, read) : nil
        }
        if let rows { return rows }
        return try writing { db in try db.query(sql, arguments, read) }
    }
}

extension ModelProtocol {
    /// Records from a raw SQL query (`SELECT *` or any query returning every column of
    /// the model's table), with bound arguments.
    ///
    /// ```swift
    /// let late = try Todo.fetch(sql: "SELECT * FROM todos WHERE due < ? ORDER BY due", [.date(.now)], in: store)
    /// ```
    public static func fetch(sql: String, _ arguments: [ModelValue] = [], in store: SQLiteAdapter) throws -> [Self] {
        try store.records(Self.self, sql, arguments)
    }
}
