import ModelSQL

/// Everything the adapter needs to store one model in one table, computed once per schema:
/// the SQL of the hot paths and the DDL.
final class TableMapping: Sendable {
    // Every stored property is an immutable `let` of Sendable values. A class, so the per-call lookup in `SQLiteAdapter.mapping(for:)` retains one
    // reference instead of copying a dozen fields.
    let schema: ModelSchema
    let table: String
    /// `"id", "name", …` in row order.
    let columnList: String
    /// How rows of this table decode.
    let layout: RowLayout
    let insertSQL: String
    let findSQL: String
    let deleteSQL: String
    /// The `@BelongsTo` foreign keys: row index, parent schema, `ON DELETE` action.
    let foreignKeys: [(column: Int, parent: ModelSchema, onDelete: String)]

    /// Per column, how dates are stored (nil for columns that are not dates).
    let dates: [DateStorage?]
    /// Whether some date column is stored other than as seconds since 2001 (the binder's
    /// own form), so rows need converting before they are bound.
    let convertsDates: Bool

    init(_ schema: ModelSchema, dates defaultDates: DateStorage = .secondsSinceReferenceDate) throws {
        try schema.validate()
        self.schema = schema
        table = SQLText.quote(schema.tableName)
        dates = schema.columns.map { $0.type == .date ? ($0.dateStorage ?? defaultDates) : nil }
        convertsDates = dates.contains { $0 != nil && $0 != .secondsSinceReferenceDate }
        layout = RowLayout(schema, dates: dates)
        columnList = schema.columns.map { SQLText.quote($0.name) }.joined(separator: ", ")
        insertSQL = "INSERT INTO \(table) (\(columnList)) VALUES (\(SQLiteDialect.placeholders(schema.columns.count)))"
        let id = SQLText.quote(schema.columns[0].name)
        findSQL = "SELECT \(columnList) FROM \(table) WHERE \(id) = ?"
        deleteSQL = "DELETE FROM \(table) WHERE \(id) = ?"
        foreignKeys = try SQLForeignKeys.of(schema)
    }

    /// `UPDATE … SET` the given columns `WHERE id = ?`.
    func updateSQL(_ columns: [Int]) -> String {
        let sets = columns.map { SQLText.quote(schema.columns[$0].name) + " = ?" }.joined(separator: ", ")
        return "UPDATE \(table) SET \(sets) WHERE \(SQLText.quote(schema.columns[0].name)) = ?"
    }

    // MARK: DDL

    /// The column's definition in `CREATE TABLE` (and, without the primary key, in
    /// `ALTER TABLE ADD COLUMN`).
    func columnDefinition(_ index: Int, forAdding: Bool = false) -> String {
        let column = schema.columns[index]
        var sql = SQLText.quote(column.name) + " " + (dates[index]?.sqliteType ?? column.type.sqliteType)
        if index == 0 {
            sql += schema.idGeneration == .autoIncrement ? " PRIMARY KEY AUTOINCREMENT" : " NOT NULL PRIMARY KEY"
            return sql
        }
        if !column.isOptional {
            sql += " NOT NULL"
            // A new NOT NULL column needs a default for the rows already stored: the
            // declared default, or the property's initial value evaluated once.
            let value = forAdding ? column.defaultValue.makeValue() : defaultLiteral(column)
            if let value, !value.isNull, let literal = SQLiteDialect.literal(stored(value, index)) { sql += " DEFAULT " + literal }
        } else if case .literal(let value) = column.defaultValue, !value.isNull,
            let literal = SQLiteDialect.literal(stored(value, index))
        {
            sql += " DEFAULT " + literal
        }
        if let key = foreignKeys.first(where: { $0.column == index }) {
            sql +=
                " REFERENCES \(SQLText.quote(key.parent.tableName))(\(SQLText.quote(key.parent.columns[0].name))) ON DELETE \(key.onDelete)"
        }
        return sql
    }

    private func defaultLiteral(_ column: ColumnDefinition) -> ModelValue? {
        if case .literal(let value) = column.defaultValue { return value }
        return nil
    }

    /// `CREATE TABLE …` (the caller checks that the table does not exist yet).
    var createTableSQL: String {
        let columns = schema.columns.indices.map { columnDefinition($0) }.joined(separator: ",\n  ")
        return "CREATE TABLE \(table) (\n  \(columns)\n)"
    }

    /// `CREATE [UNIQUE] INDEX IF NOT EXISTS …` for each indexed or unique column
    /// (foreign keys are indexed).
    var indexSQL: [String] {
        schema.columns.dropFirst().compactMap { column in
            let unique = column.options.contains(.unique)
            guard unique || column.options.contains(.indexed) else { return nil }
            let name = SQLText.quote("\(schema.tableName)_\(column.name)_\(unique ? "unique" : "index")")
            return "CREATE \(unique ? "UNIQUE " : "")INDEX IF NOT EXISTS \(name) ON \(table) (\(SQLText.quote(column.name)))"
        }
    }

    // MARK: Dates

    /// `value` as column `index` stores it (dates in the column's ``DateStorage``).
    @inline(__always) func stored(_ value: ModelValue, _ index: Int) -> ModelValue {
        dates.stored(value, column: index)
    }

    /// `row` with every date in its column's storage (the row itself when no column needs it).
    @inline(__always) func stored(_ row: [ModelValue]) -> [ModelValue] {
        guard convertsDates else { return row }
        return dates.stored(row: row)
    }
}

extension DateStorage {
    /// The SQLite column type of this storage.
    var sqliteType: String {
        switch self {
        case .millisecondsSince1970: "INTEGER"
        case .text: "TEXT"
        default: "REAL"
        }
    }
}
