import ModelCore

extension SQLCompiler {
    /// `SELECT columns FROM table WHERE … ORDER BY … LIMIT … OFFSET …`.
    package static func select(
        _ query: StoreQuery, _ dialect: Dialect, columns: String, dates: [DateStorage?] = []
    ) throws -> (String, [ModelValue]) {
        var compiler = SQLCompiler(query.schema, dialect, dates: dates)
        let table = SQLText.quote(query.schema.tableName)
        let sql =
            "SELECT \(columns) FROM \(table)" + (try compiler.whereClause(query)) + (try compiler.orderClause(query))
            + compiler.windowClause(query)
        return (sql, compiler.arguments)
    }

    /// `SELECT count(*) …`.
    package static func count(_ query: StoreQuery, _ dialect: Dialect, dates: [DateStorage?] = []) throws
        -> (String, [ModelValue])
    {
        if isWindowed(query) {
            let (inner, arguments) = try select(query, dialect, columns: "1", dates: dates)
            return ("SELECT count(*) FROM (\(inner)) AS selected", arguments)
        }
        var compiler = SQLCompiler(query.schema, dialect, dates: dates)
        let table = SQLText.quote(query.schema.tableName)
        return ("SELECT count(*) FROM \(table)" + (try compiler.whereClause(query)), compiler.arguments)
    }

    /// `DELETE FROM … WHERE …` (through the selected row keys when windowed).
    package static func delete(_ query: StoreQuery, _ dialect: Dialect, dates: [DateStorage?] = []) throws
        -> (String, [ModelValue])
    {
        let table = SQLText.quote(query.schema.tableName)
        if isWindowed(query) {
            let key = dialect.rowKey(query.schema)
            let (inner, arguments) = try select(query, dialect, columns: key, dates: dates)
            return ("DELETE FROM \(table) WHERE \(key) IN (\(inner))", arguments)
        }
        var compiler = SQLCompiler(query.schema, dialect, dates: dates)
        return ("DELETE FROM \(table)" + (try compiler.whereClause(query)), compiler.arguments)
    }

    /// `UPDATE … SET …` on the selected rows whose values differ (so the change count
    /// matches the in-memory engine's, which skips rows already holding the values).
    package static func update(
        _ query: StoreQuery, _ dialect: Dialect, set values: [(column: Int, value: ModelValue)], dates: [DateStorage?] = []
    ) throws -> (String, [ModelValue]) {
        let table = SQLText.quote(query.schema.tableName)
        var compiler = SQLCompiler(query.schema, dialect, dates: dates)
        let sets = try values.map { "\(try compiler.column($0.column)) = \(compiler.bind($0.value, column: $0.column))" }
            .joined(separator: ", ")
        let unchanged = try values.map {
            dialect.isNotDistinct(try compiler.column($0.column), compiler.bind($0.value, column: $0.column))
        }.joined(separator: " AND ")
        var sql = "UPDATE \(table) SET \(sets) WHERE NOT (\(unchanged))"
        if isWindowed(query) {
            // The subquery's placeholders continue the outer statement's numbering.
            var inner = SQLCompiler(query.schema, dialect, dates: dates)
            inner.arguments = compiler.arguments
            let key = dialect.rowKey(query.schema)
            let subquery =
                "SELECT \(key) FROM \(table)" + (try inner.whereClause(query)) + (try inner.orderClause(query))
                + inner.windowClause(query)
            sql += " AND \(key) IN (\(subquery))"
            return (sql, inner.arguments)
        }
        if let predicate = query.predicate { sql += " AND " + (try compiler.condition(predicate)) }
        return (sql, compiler.arguments)
    }

    /// `SELECT keys…, fn(column) FROM (selected rows) GROUP BY keys ORDER BY keys`.
    package static func aggregate(
        _ query: StoreQuery, _ aggregate: Aggregate, _ dialect: Dialect, dates: [DateStorage?] = []
    ) throws -> (String, [ModelValue]) {
        let schema = query.schema
        func name(_ index: Int) -> String { SQLText.quote(schema.columns[index].name) }
        let function = dialect.aggregate(
            aggregate.function, aggregate.column.map(name) ?? "*", columnType: aggregate.column.map { schema.columns[$0].type })
        let keys = aggregate.groupBy.map(name)
        let source: String
        var arguments: [ModelValue] = []
        if isWindowed(query) {
            let (inner, innerArguments) = try select(query, dialect, columns: "*", dates: dates)
            source = "(\(inner)) AS selected"
            arguments = innerArguments
        } else {
            var compiler = SQLCompiler(schema, dialect, dates: dates)
            source = SQLText.quote(schema.tableName) + (try compiler.whereClause(query))
            arguments = compiler.arguments
        }
        var sql = "SELECT " + (keys + [function]).joined(separator: ", ") + " FROM " + source
        if !keys.isEmpty {
            sql += " GROUP BY \(keys.joined(separator: ", ")) ORDER BY "
                + keys.map { dialect.orderKey($0, ascending: true, nullable: true) }.joined(separator: ", ")
        }
        return (sql, arguments)
    }
}
