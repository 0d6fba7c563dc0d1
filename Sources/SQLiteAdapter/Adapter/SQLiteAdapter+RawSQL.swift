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

    /// Runs a SQL query and decodes each row as a model: result columns are matched to
    /// the model's columns by name, and every model column must be present.
    func records<M: ModelProtocol>(_ type: M.Type, _ sql: String, _ arguments: [ModelValue]) throws -> [M] {
        let schema = M.schema
        let dates = try mapping(for: schema).dates
        let rows: [[ModelValue]] = try reading { db in
            try db.query(sql, arguments) { statement in
                let positions: [Int32]
                switch SQLResultColumns.positions(of: schema, in: statement.columnNames) {
                case .success(let found): positions = found.map { Int32($0) }
                case .failure(let missing): throw SQLiteError.mismatch(missing.message, sql: sql)
                }
                var rows: [[ModelValue]] = []
                while try statement.step() {
                    var row: [ModelValue] = []
                    row.reserveCapacity(positions.count)
                    for (k, column) in schema.columns.enumerated() {
                        row.append(
                            try statement.value(
                                at: positions[k], as: column, table: schema.tableName, idAt: positions[0], dates: dates[k]))
                    }
                    rows.append(row)
                }
                return rows
            }
        }
        return try rows.map { try M.materialize($0, schema: schema, store: self) }
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
