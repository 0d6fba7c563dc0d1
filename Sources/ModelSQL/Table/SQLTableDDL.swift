import ModelCore

/// The DDL of one model's table, written once for every SQL database: `CREATE TABLE`, the
/// column definitions (also used by `ALTER TABLE ADD COLUMN` for a declared column a table
/// lacks) and the indexes. The dialect supplies types, literals and key clauses.
package struct SQLTableDDL<Dialect: SQLSchemaDialect>: Sendable {
    let schema: ModelSchema
    /// Per column, how dates are stored (nil: not a date, or the database's own type).
    let dates: [DateStorage?]
    let foreignKeys: [(column: Int, parent: ModelSchema, onDelete: String)]
    let dialect: Dialect

    package init(
        _ schema: ModelSchema, dates: [DateStorage?], foreignKeys: [(column: Int, parent: ModelSchema, onDelete: String)],
        dialect: Dialect
    ) {
        self.schema = schema
        self.dates = dates
        self.foreignKeys = foreignKeys
        self.dialect = dialect
    }

    /// The declared type of column `index`.
    package func columnType(_ index: Int) -> String { dialect.columnType(schema.columns[index].type, dates: dates[index]) }

    /// The column's definition in `CREATE TABLE`, and with `forAdding` in `ALTER TABLE ADD
    /// COLUMN`: a new `NOT NULL` column then needs a default for the rows already stored —
    /// the declared default, or the property's initial value evaluated once.
    package func columnDefinition(_ index: Int, forAdding: Bool = false) -> String {
        let column = schema.columns[index]
        let type = columnType(index)
        var sql = SQLText.quote(column.name) + " " + type
        if index == 0 { return sql + dialect.primaryKey(autoIncrement: schema.idGeneration == .autoIncrement) }
        var declared: ModelValue?
        if case .literal(let value) = column.defaultValue { declared = value }
        if !column.isOptional {
            sql += " NOT NULL"
            if forAdding { declared = column.defaultValue.makeValue() }
        }
        if let value = declared, !value.isNull, let literal = dialect.defaultLiteral(dates.stored(value, column: index), columnType: type) {
            sql += " DEFAULT " + literal
        }
        if let key = foreignKeys.first(where: { $0.column == index }) {
            sql +=
                " REFERENCES \(SQLText.quote(key.parent.tableName))(\(SQLText.quote(key.parent.columns[0].name))) ON DELETE \(key.onDelete)"
        }
        return sql
    }

    /// `CREATE TABLE IF NOT EXISTS …`.
    package var createTable: String {
        let columns = schema.columns.indices.map { columnDefinition($0) } + dialect.extraColumns(schema).map(\.definition)
        return "CREATE TABLE IF NOT EXISTS \(SQLText.quote(schema.tableName)) (\n  \(columns.joined(separator: ",\n  "))\n)"
    }

    /// What makes the table match the schema, given the columns it has now (`existing`,
    /// empty when it does not exist): `CREATE TABLE`, or `ADD COLUMN` for the columns it
    /// lacks; then the indexes (all `IF NOT EXISTS`).
    package func preparation(existing: Set<String>) -> [String] {
        (existing.isEmpty ? [createTable] : missingColumns(existing: existing)) + indexes
    }

    /// `ALTER TABLE … ADD COLUMN …` for each declared (or dialect-added) column an existing
    /// table with the columns `existing` lacks.
    package func missingColumns(existing: Set<String>) -> [String] {
        let table = SQLText.quote(schema.tableName)
        let declared = schema.columns.indices.filter { !existing.contains(schema.columns[$0].name) }.map {
            "ALTER TABLE \(table) ADD COLUMN \(columnDefinition($0, forAdding: true))"
        }
        let extra = dialect.extraColumns(schema).filter { !existing.contains($0.name) }.map {
            "ALTER TABLE \(table) ADD COLUMN \($0.definition)"
        }
        return declared + extra
    }

    /// `CREATE [UNIQUE] INDEX IF NOT EXISTS …` for each indexed or unique column (and each
    /// foreign key, where the dialect asks for it).
    package var indexes: [String] {
        schema.columns.indices.dropFirst().compactMap { index in
            let column = schema.columns[index]
            let unique = column.options.contains(.unique)
            let indexesKey = dialect.indexesForeignKeys && foreignKeys.contains { $0.column == index }
            guard unique || column.options.contains(.indexed) || indexesKey else { return nil }
            let name = SQLText.quote(indexName(column.name, unique: unique))
            let key = dialect.indexKey(SQLText.quote(column.name), optional: column.isOptional)
            return "CREATE \(unique ? "UNIQUE " : "")INDEX IF NOT EXISTS \(name) ON \(SQLText.quote(schema.tableName)) (\(key))"
        }
    }

    /// The name of a column's index, cut to the dialect's identifier limit.
    package func indexName(_ column: String, unique: Bool) -> String {
        let name = "\(schema.tableName)_\(column)_\(unique ? "unique" : "index")"
        guard let limit = dialect.maxIdentifierBytes else { return name }
        return String(name.utf8.prefix(limit)) ?? name
    }
}

extension StoreError {
    /// A model's table name already stores another model in this database.
    package static func tableTaken(by schema: ModelSchema) -> StoreError {
        StoreError(
            .invalidRequest, table: schema.tableName,
            message: "the table already stores another model; \(schema.modelName) needs its own tableName")
    }
}
