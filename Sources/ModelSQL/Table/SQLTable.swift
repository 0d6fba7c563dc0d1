import ModelCore

/// A `@BelongsTo` foreign key of a table: the key's row index, the parent schema and the
/// `ON DELETE` action.
package typealias SQLForeignKey = (column: Int, parent: ModelSchema, onDelete: String)

/// One model's table in one SQL database, computed once per schema: the column list, the
/// hot-path statements, how each column stores dates, the foreign keys, and what the
/// database reported about it at preparation (``SQLTableFacts``). Its DDL is ``ddl(_:)``.
///
/// A class so that the per-call lookup in ``SQLTableCatalog`` retains one reference
/// instead of copying a dozen fields; every stored property is an immutable `let` of
/// Sendable values.
package final class SQLTable: Sendable {
    package let schema: ModelSchema
    /// The schema's columns, and their types apart (decoding a row reads only the types).
    package let columns: [ColumnDefinition]
    package let types: [ColumnType]
    /// The quoted table name.
    package let name: String
    /// `"id", "name", …` in row order.
    package let columnList: String
    /// Per column, how dates are stored (nil: not a date, or the database's own type).
    package let dates: [DateStorage?]
    /// Whether some date column is stored other than as the dialect binds a date, so rows
    /// need converting before they are bound.
    package let convertsDates: Bool
    /// Per column, whether it holds JSON (arrays, dictionaries) read through the casting rules.
    package let castsJSON: [Bool]
    package let foreignKeys: [SQLForeignKey]
    /// `INSERT` of every column.
    package let insertSQL: String
    /// `INSERT` of every column but the id, `RETURNING` it, where the dialect reads
    /// generated ids back that way.
    package let insertGeneratingIDSQL: String?
    package let findSQL: String
    package let deleteSQL: String
    /// What the database reported at preparation.
    package let facts: SQLTableFacts
    /// Placeholders 1…(columns + 1), for the `UPDATE`s of column subsets.
    private let placeholders: [String]
    /// The `.unique` columns by the name of their index.
    private let uniqueIndexes: [String: String]

    /// The table of `schema` in a database speaking `dialect`, with date columns in
    /// `defaultDates` unless they declare their own storage.
    ///
    /// - Throws: the schema's validation error (``ModelSchema/validate()``) or a relation
    ///   that cannot be resolved.
    package init<Dialect: SQLSchemaDialect>(_ schema: ModelSchema, _ dialect: Dialect, dates defaultDates: DateStorage?) throws {
        try schema.validate()
        self.schema = schema
        columns = schema.columns
        types = columns.map(\.type)
        name = SQLText.quote(schema.tableName)
        dates = columns.map { $0.type == .date ? ($0.dateStorage ?? defaultDates) : nil }
        let bound = dialect.boundDateStorage
        convertsDates = dates.contains { $0 != nil && $0 != bound }
        castsJSON = columns.map { $0.type == .array || $0.type == .dictionary }
        foreignKeys = try SQLForeignKeys.of(schema)
        facts = SQLTableFacts()
        let count = columns.count
        placeholders = (1...count + 1).map(dialect.placeholder)
        let quoted = columns.map { SQLText.quote($0.name) }
        columnList = quoted.joined(separator: ", ")
        insertSQL = "INSERT INTO \(name) (\(columnList)) VALUES (\(placeholders.prefix(count).joined(separator: ", ")))"
        if dialect.returnsInsertedIDs {
            insertGeneratingIDSQL =
                count == 1
                ? "INSERT INTO \(name) DEFAULT VALUES RETURNING \(quoted[0])"
                : "INSERT INTO \(name) (\(quoted.dropFirst().joined(separator: ", "))) VALUES (\(placeholders.prefix(count - 1).joined(separator: ", "))) RETURNING \(quoted[0])"
        } else {
            insertGeneratingIDSQL = nil
        }
        findSQL = "SELECT \(columnList) FROM \(name) WHERE \(quoted[0]) = \(placeholders[0])"
        deleteSQL = "DELETE FROM \(name) WHERE \(quoted[0]) = \(placeholders[0])"
        let ddl = SQLTableDDL(schema, dates: dates, foreignKeys: foreignKeys, dialect: dialect)
        var unique: [String: String] = [:]
        for column in columns.dropFirst() where column.options.contains(.unique) {
            unique[ddl.indexName(column.name, unique: true)] = column.name
        }
        uniqueIndexes = unique
    }

    /// `table` with the facts its preparation read.
    private init(_ table: SQLTable, facts: SQLTableFacts) {
        schema = table.schema
        columns = table.columns
        types = table.types
        name = table.name
        columnList = table.columnList
        dates = table.dates
        convertsDates = table.convertsDates
        castsJSON = table.castsJSON
        foreignKeys = table.foreignKeys
        insertSQL = table.insertSQL
        insertGeneratingIDSQL = table.insertGeneratingIDSQL
        findSQL = table.findSQL
        deleteSQL = table.deleteSQL
        placeholders = table.placeholders
        uniqueIndexes = table.uniqueIndexes
        self.facts = facts
    }

    /// This table with `facts` (read after its DDL ran).
    package func with(_ facts: SQLTableFacts) -> SQLTable { SQLTable(self, facts: facts) }

    /// The table's DDL in `dialect` (see ``SQLTableDDL``).
    package func ddl<Dialect: SQLSchemaDialect>(_ dialect: Dialect) -> SQLTableDDL<Dialect> {
        SQLTableDDL(schema, dates: dates, foreignKeys: foreignKeys, dialect: dialect)
    }

    /// Whether the database generates ids (auto-increment models).
    package var generatesIDs: Bool { schema.idGeneration == .autoIncrement }

    /// `UPDATE … SET` the given columns `WHERE id = …`, values bound in that order, the id last.
    package func updateSQL(_ columns: [Int]) -> String {
        let sets = columns.enumerated().map { "\(SQLText.quote(self.columns[$0.element].name)) = \(placeholders[$0.offset])" }
        return "UPDATE \(name) SET \(sets.joined(separator: ", ")) WHERE \(SQLText.quote(self.columns[0].name)) = \(placeholders[columns.count])"
    }

    /// The `.unique` column whose index is named `constraint` (as a violation reports it).
    package func uniqueColumn(index constraint: String?) -> String? {
        constraint.flatMap { uniqueIndexes[$0] }
    }

    // MARK: Values

    /// `value` as column `index` stores it (dates in the column's storage).
    @inline(__always) package func stored(_ value: ModelValue, _ index: Int) -> ModelValue {
        dates.stored(value, column: index)
    }

    /// `row` with every date in its column's storage (the row itself when none needs it).
    @inline(__always) package func stored(_ row: [ModelValue]) -> [ModelValue] {
        guard convertsDates else { return row }
        return dates.stored(row: row)
    }

    /// A read value as the model's: dates stored as numbers or text back to dates.
    @inline(__always) package func loaded(_ value: ModelValue, _ index: Int) -> ModelValue {
        guard let storage = dates[index] else { return value }
        switch value {
        case .double(let d): return .date(storage.date(fromNumber: d))
        case .int(let i): return .date(storage.date(fromNumber: Double(i)))
        case .string(let s): return DateCodec.parse(s).map(ModelValue.date) ?? value
        default: return value
        }
    }
}

/// What a database reports about a table once it is prepared, which its DDL alone cannot
/// tell: the primary key constraint's name (to tell a duplicate id from other unique
/// violations) and the sequence behind generated ids (moved past explicit ids).
package struct SQLTableFacts: Sendable {
    package var primaryKeyConstraint: String?
    package var idSequence: String?

    package init(primaryKeyConstraint: String? = nil, idSequence: String? = nil) {
        self.primaryKeyConstraint = primaryKeyConstraint
        self.idSequence = idSequence
    }
}
