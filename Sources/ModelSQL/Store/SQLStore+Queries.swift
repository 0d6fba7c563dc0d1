import ModelCore

/// The query operations of every SQL adapter: each compiles to one statement
/// (``SQLCompiler``, with the table's date storage) run on a lent connection.
extension SQLStore {
    /// The rows matching `query`, ordered by its keys and then store order.
    package func fetchRows(_ query: StoreQuery) throws -> [[ModelValue]] {
        let table = try table(for: query.schema)
        let (sql, arguments) = try SQLCompiler.select(query, dialect, columns: table.columnList, dates: table.dates)
        return try reading { connection in try connection.rows(sql, arguments, of: table) }
    }

    /// `SELECT count(*)` of the rows matching `query` (limit and offset apply).
    package func countRows(_ query: StoreQuery) throws -> Int {
        let table = try table(for: query.schema)
        let (sql, arguments) = try SQLCompiler.count(query, dialect, dates: table.dates)
        return try reading { connection in try connection.integer(sql, arguments) }
    }

    /// Deletes the rows matching `query` in one `DELETE`.
    package func deleteRows(_ query: StoreQuery) throws -> Int {
        let table = try table(for: query.schema)
        let (sql, arguments) = try SQLCompiler.delete(query, dialect, dates: table.dates)
        return try writing(tablesChangedByDelete(from: query.schema)) { connection in try connection.run(sql, arguments) }
    }

    /// Sets columns on the rows matching `query` in one `UPDATE`; returns how many rows
    /// changed (rows already holding the values are not counted).
    ///
    /// - Throws: ``StoreError`` `.uniqueViolation` when a `.unique` column would hold one
    ///   value in two rows (no row changes).
    package func updateRows(_ query: StoreQuery, set values: [Int: ModelValue]) throws -> Int {
        let table = try table(for: query.schema)
        try query.schema.checkUpdate(values)
        if values.isEmpty { return 0 }
        let (sql, arguments) = try SQLCompiler.update(
            query, dialect, set: values.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }, dates: table.dates)
        return try table.mappingViolations(id: nil, { Connection.violation($0, in: table) }) {
            try writing([query.schema.tableName]) { connection in try connection.run(sql, arguments) }
        }
    }

    /// Computes `query.aggregate` in SQL (`count`, `sum`, `avg`, `min`, `max`, `GROUP BY`),
    /// with the result types of ``Aggregate``: group keys and `min`/`max` decode as their
    /// columns; without groups and rows, `count` is 0 and the others null.
    ///
    /// - Throws: ``StoreError`` `.invalidRequest` without an aggregate; `.storage` on
    ///   integer overflow in `sum`.
    package func aggregateRows(_ query: StoreQuery) throws -> [AggregateGroup] {
        let table = try table(for: query.schema)
        let aggregate = try query.checkedAggregate()
        let (sql, arguments) = try SQLCompiler.aggregate(query, aggregate, dialect, dates: table.dates)
        let keys = aggregate.groupBy.count
        let decodesValue = aggregate.function == .min || aggregate.function == .max
        let slots =
            aggregate.groupBy.enumerated().map { SQLResultSlot($0.offset, as: $0.element) }
            + [SQLResultSlot(keys, as: decodesValue ? aggregate.column : nil)]
        let rows: [[ModelValue]]
        do {
            rows = try reading { connection in try connection.rows(sql, arguments, of: table) { _ in slots } }
        } catch where Connection.isOverflow(error) {
            let column = aggregate.column.map { table.columns[$0].name } ?? "?"
            throw StoreError(.storage, table: table.schema.tableName, message: "integer overflow in sum(\(column))")
        }
        var groups = rows.map { AggregateGroup(keys: Array($0.prefix(keys)), value: $0[keys]) }
        if groups.isEmpty, aggregate.groupBy.isEmpty {
            groups.append(AggregateGroup(keys: [], value: aggregate.function == .count ? .int(0) : .null))
        }
        return groups
    }
}
