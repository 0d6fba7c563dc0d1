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

    /// The table's DDL (see ``SQLTableDDL``).
    var ddl: SQLTableDDL<SQLiteDialect> { SQLTableDDL(schema, dates: dates, foreignKeys: foreignKeys, dialect: .shared) }

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

extension SQLiteDialect: SQLSchemaDialect {
    func columnType(_ type: ColumnType, dates: DateStorage?) -> String { dates?.sqliteType ?? type.sqliteType }

    func primaryKey(autoIncrement: Bool) -> String { autoIncrement ? " PRIMARY KEY AUTOINCREMENT" : " NOT NULL PRIMARY KEY" }

    func defaultLiteral(_ value: ModelValue, columnType: String) -> String? { Self.literal(value) }

    var indexesForeignKeys: Bool { false }
    var maxIdentifierBytes: Int? { nil }
}
