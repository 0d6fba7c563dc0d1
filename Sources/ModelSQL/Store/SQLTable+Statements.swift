import ModelCore

/// The statements of a table's query operations, compiled in one dialect with the table's
/// date storage; ``SQLStore`` runs them on a lent connection, and an adapter with its own
/// async I/O runs the same statements without blocking.
extension SQLTable {
    /// `SELECT` of the table's columns for `query`, locking the rows when it asks
    /// (``StoreQuery/rowLock``).
    package func select<D: SQLDialect>(_ query: StoreQuery, _ dialect: D) throws -> (String, [ModelValue]) {
        let (sql, arguments) = try SQLCompiler.select(query, dialect, columns: columnList, dates: dates)
        guard let lock = query.rowLock else { return (sql, arguments) }
        return (sql + dialect.rowLockClause(lock), arguments)
    }

    /// `SELECT count(*)` for `query` (limit and offset apply).
    package func count<D: SQLDialect>(_ query: StoreQuery, _ dialect: D) throws -> (String, [ModelValue]) {
        try SQLCompiler.count(query, dialect, dates: dates)
    }

    /// `DELETE` of the rows `query` matches.
    package func delete<D: SQLDialect>(_ query: StoreQuery, _ dialect: D) throws -> (String, [ModelValue]) {
        try SQLCompiler.delete(query, dialect, dates: dates)
    }

    /// `UPDATE` setting `values` on the rows `query` matches, or nil when there is nothing to
    /// set.
    ///
    /// - Throws: ``StoreError`` `.invalidRequest` for a value the schema refuses.
    package func update<D: SQLDialect>(_ query: StoreQuery, set values: [Int: ModelValue], _ dialect: D) throws
        -> (String, [ModelValue])?
    {
        try schema.checkUpdate(values)
        if values.isEmpty { return nil }
        return try SQLCompiler.update(
            query, dialect, set: values.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }, dates: dates)
    }

    /// The aggregate `query` asks for: its statement, the result slots to decode (group
    /// keys and `min`/`max` as their columns) and how to assemble the decoded rows.
    ///
    /// - Throws: ``StoreError`` `.invalidRequest` without an aggregate.
    package func aggregate<D: SQLDialect>(_ query: StoreQuery, _ dialect: D) throws -> SQLAggregatePlan {
        let aggregate = try query.checkedAggregate()
        let (sql, arguments) = try SQLCompiler.aggregate(query, aggregate, dialect, dates: dates)
        let keys = aggregate.groupBy.count
        let decodesValue = aggregate.function == .min || aggregate.function == .max
        let slots =
            aggregate.groupBy.enumerated().map { SQLResultSlot($0.offset, as: $0.element) }
            + [SQLResultSlot(keys, as: decodesValue ? aggregate.column : nil)]
        return SQLAggregatePlan(table: self, aggregate: aggregate, sql: sql, arguments: arguments, slots: slots)
    }
}

/// An aggregate's statement and how its rows become ``AggregateGroup``s.
package struct SQLAggregatePlan {
    package let table: SQLTable
    package let aggregate: Aggregate
    package let sql: String
    package let arguments: [ModelValue]
    /// Per result value: its column and the model column it decodes as.
    package let slots: [SQLResultSlot]

    /// The groups of the decoded rows (keys, then the value); without groups and rows,
    /// `count` is 0 and the others null.
    package func groups(_ rows: [[ModelValue]]) -> [AggregateGroup] {
        let keys = aggregate.groupBy.count
        var groups = rows.map { AggregateGroup(keys: Array($0.prefix(keys)), value: $0[keys]) }
        if groups.isEmpty, aggregate.groupBy.isEmpty {
            groups.append(AggregateGroup(keys: [], value: aggregate.function == .count ? .int(0) : .null))
        }
        return groups
    }

    /// The ``StoreError`` for an integer overflow of a `sum`.
    package var overflow: StoreError {
        let column = aggregate.column.map { table.columns[$0].name } ?? "?"
        return StoreError(.storage, table: table.schema.tableName, message: "integer overflow in sum(\(column))")
    }
}
