import ModelCore

/// The query operations of every SQL adapter: each compiles to one statement
/// (``SQLCompiler``, with the table's date storage) run on a lent connection.
extension SQLStore {
    /// The rows matching `query`, ordered by its keys and then store order.
    package func fetchRows(_ query: StoreQuery) throws -> [[ModelValue]] {
        let table = try table(for: query.schema)
        let (sql, arguments) = try table.select(query, dialect)
        return try reading { connection in try connection.rows(sql, arguments, of: table) }
    }

    /// `SELECT count(*)` of the rows matching `query` (limit and offset apply).
    package func countRows(_ query: StoreQuery) throws -> Int {
        let table = try table(for: query.schema)
        let (sql, arguments) = try table.count(query, dialect)
        return try reading { connection in try connection.integer(sql, arguments) }
    }

    /// Deletes the rows matching `query` in one `DELETE`.
    package func deleteRows(_ query: StoreQuery) throws -> Int {
        let table = try table(for: query.schema)
        let (sql, arguments) = try table.delete(query, dialect)
        return try writing(tablesChangedByDelete(from: query.schema)) { connection in try connection.run(sql, arguments) }
    }

    /// Sets columns on the rows matching `query` in one `UPDATE`; returns how many rows
    /// changed (rows already holding the values are not counted).
    ///
    /// - Throws: ``StoreError`` `.uniqueViolation` when a `.unique` column would hold one
    ///   value in two rows (no row changes).
    package func updateRows(_ query: StoreQuery, set values: [Int: ModelValue]) throws -> Int {
        let table = try table(for: query.schema)
        guard let (sql, arguments) = try table.update(query, set: values, dialect) else { return 0 }
        return try table.mappingViolations(id: nil, { Connection.violation($0, in: table) }) {
            try writing([query.schema.tableName]) { connection in try connection.run(sql, arguments) }
        }
    }

    /// Computes `query.aggregate` in SQL (`count`, `sum`, `avg`, `min`, `max`, `GROUP BY`),
    /// with the result types of ``Aggregate`` (see ``SQLAggregatePlan``).
    ///
    /// - Throws: ``StoreError`` `.invalidRequest` without an aggregate; `.storage` on
    ///   integer overflow in `sum`.
    package func aggregateRows(_ query: StoreQuery) throws -> [AggregateGroup] {
        let plan = try table(for: query.schema).aggregate(query, dialect)
        do {
            return plan.groups(try reading { connection in try connection.rows(plan.sql, plan.arguments, of: plan.table) { _ in plan.slots } })
        } catch where Connection.isOverflow(error) {
            throw plan.overflow
        }
    }
}
