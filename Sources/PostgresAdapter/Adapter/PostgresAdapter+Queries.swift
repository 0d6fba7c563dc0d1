extension PostgresAdapter {
    /// The rows matching `query`: one prepared `SELECT` with `$n` parameters, ordered by
    /// the query's keys and then the store-order key.
    public func fetch(_ query: StoreQuery) throws -> [[ModelValue]] {
        let table = try table(for: query.schema)
        let (sql, arguments) = try PostgresCompiler.select(query, .shared, columns: table.columnList, dates: table.dates)
        return try reading { connection in try RowReader(table, try connection.query(sql, arguments)).rows() }
    }

    /// `SELECT count(*)` of the rows matching `query` (limit and offset apply).
    public func count(_ query: StoreQuery) throws -> Int {
        let table = try table(for: query.schema)
        let (sql, arguments) = try PostgresCompiler.count(query, .shared, dates: table.dates)
        return try reading { connection in try connection.query(sql, arguments).integer() ?? 0 }
    }

    /// Deletes the rows matching `query` in one `DELETE` statement.
    public func delete(_ query: StoreQuery) throws -> Int {
        let table = try table(for: query.schema)
        let (sql, arguments) = try PostgresCompiler.delete(query, .shared, dates: table.dates)
        return try writing(affectedTables(query.schema)) { connection in try connection.query(sql, arguments).affectedRows }
    }

    /// Sets columns on the rows matching `query` in one `UPDATE` statement; returns how
    /// many rows changed (rows already holding the values are not counted).
    ///
    /// - Throws: ``StoreError`` `.uniqueViolation` when a `.unique` column would hold one
    ///   value in two rows (no row changes).
    public func update(_ query: StoreQuery, set values: [Int: ModelValue]) throws -> Int {
        let table = try table(for: query.schema)
        try query.schema.checkUpdate(values)
        if values.isEmpty { return 0 }
        let (sql, arguments) = try PostgresCompiler.update(
            query, .shared, set: values.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }, dates: table.dates)
        do {
            return try writing([query.schema.tableName]) { connection in try connection.query(sql, arguments).affectedRows }
        } catch let error as PostgresError {
            throw error.storeError(table)
        }
    }

    /// Computes `query.aggregate` in SQL (`count`, `sum`, `avg`, `min`, `max`, `GROUP BY`),
    /// with the result types of ``Aggregate``.
    ///
    /// - Throws: ``StoreError`` `.invalidRequest` without an aggregate; `.storage` on
    ///   integer overflow in `sum`.
    public func aggregate(_ query: StoreQuery) throws -> [AggregateGroup] {
        let table = try table(for: query.schema)
        let aggregate = try query.checkedAggregate()
        let schema = query.schema
        let (sql, arguments) = try PostgresCompiler.aggregate(query, aggregate, .shared, dates: table.dates)
        do {
            return try reading { connection in
                let result = try connection.query(sql, arguments)
                var groups: [AggregateGroup] = []
                for r in 0..<result.rowCount {
                    var keys: [ModelValue] = []
                    for (k, column) in aggregate.groupBy.enumerated() {
                        keys.append(table.loaded(result.value(r, k, oid: result.oid(k)), column))
                    }
                    let index = aggregate.groupBy.count
                    var value = result.value(r, index, oid: result.oid(index))
                    if let column = aggregate.column, aggregate.function == .min || aggregate.function == .max {
                        value = table.loaded(value, column)
                    }
                    groups.append(AggregateGroup(keys: keys, value: value))
                }
                if groups.isEmpty, aggregate.groupBy.isEmpty {
                    groups.append(AggregateGroup(keys: [], value: aggregate.function == .count ? .int(0) : .null))
                }
                return groups
            }
        } catch let error as PostgresError where error.sqlState == "22003" {
            let column = aggregate.column.map { schema.columns[$0].name } ?? "?"
            throw StoreError(.storage, table: schema.tableName, message: "integer overflow in sum(\(column))")
        }
    }
}
