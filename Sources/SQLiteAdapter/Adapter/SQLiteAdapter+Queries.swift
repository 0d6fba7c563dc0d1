import ModelSQL
import SwiftModelCSQLite

extension SQLiteAdapter {
    /// The rows matching `query`: one `SELECT` with bound parameters, ordered by the
    /// query's keys and then `rowid` (store order for ties).
    public func fetch(_ query: StoreQuery) throws -> [[ModelValue]] {
        let mapping = try mapping(for: query.schema)
        let (sql, arguments) = try SQLiteCompiler.select(query, .shared, columns: mapping.columnList, dates: mapping.dates)
        let layout = mapping.layout
        return try reading { db in
            try db.query(sql, arguments) { statement in
                var rows: [[ModelValue]] = []
                while try statement.step() { rows.append(try statement.row(layout)) }
                return rows
            }
        }
    }

    /// `SELECT count(*)` of the rows matching `query` (limit and offset apply).
    public func count(_ query: StoreQuery) throws -> Int {
        let mapping = try mapping(for: query.schema)
        let (sql, arguments) = try SQLiteCompiler.count(query, .shared, dates: mapping.dates)
        return try reading { db in
            try db.query(sql, arguments) { statement in
                try statement.step() ? Int(sqlite3_column_int64(statement.handle, 0)) : 0
            }
        }
    }

    /// Deletes the rows matching `query` in one `DELETE` statement.
    public func delete(_ query: StoreQuery) throws -> Int {
        let mapping = try mapping(for: query.schema)
        let (sql, arguments) = try SQLiteCompiler.delete(query, .shared, dates: mapping.dates)
        return try writing { db in try db.run(sql, arguments) }
    }

    /// Sets columns on the rows matching `query` in one `UPDATE` statement; returns how
    /// many rows changed (rows already holding the values are not counted).
    ///
    /// - Throws: ``StoreError`` `.uniqueViolation` when a `.unique` column would hold one
    ///   value in two rows (no row changes).
    public func update(_ query: StoreQuery, set values: [Int: ModelValue]) throws -> Int {
        let mapping = try mapping(for: query.schema)
        try query.schema.checkUpdate(values)
        if values.isEmpty { return 0 }
        let (sql, arguments) = try SQLiteCompiler.update(
            query, .shared, set: values.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }, dates: mapping.dates)
        do {
            return try writing { db in try db.run(sql, arguments) }
        } catch let error as SQLiteError {
            throw error.storeError(query.schema)
        }
    }

    /// Computes `query.aggregate` in SQL (`count`, `sum`, `avg`, `min`, `max`, `GROUP BY`),
    /// with the result types of ``Aggregate``.
    ///
    /// - Throws: ``StoreError`` `.invalidRequest` without an aggregate; `.storage` on
    ///   integer overflow in `sum`.
    public func aggregate(_ query: StoreQuery) throws -> [AggregateGroup] {
        let mapping = try mapping(for: query.schema)
        let aggregate = try query.checkedAggregate()
        let schema = query.schema
        let (sql, arguments) = try SQLiteCompiler.aggregate(query, aggregate, .shared, dates: mapping.dates)
        let keyColumns = aggregate.groupBy.map { schema.columns[$0] }
        let valueColumn = aggregate.column.map { schema.columns[$0] }
        do {
            return try reading { db in
                try db.query(sql, arguments) { statement in
                    var groups: [AggregateGroup] = []
                    while try statement.step() {
                        var keys: [ModelValue] = []
                        for (k, column) in keyColumns.enumerated() {
                            keys.append(try statement.value(at: Int32(k), as: column, dates: mapping.dates[column.index]))
                        }
                        let index = Int32(keyColumns.count)
                        let value: ModelValue
                        switch aggregate.function {
                        case .count, .sum, .average: value = statement.rawValue(at: index)
                        case .min, .max:
                            value = try valueColumn.map { try statement.value(at: index, as: $0, dates: mapping.dates[$0.index]) } ?? .null
                        }
                        groups.append(AggregateGroup(keys: keys, value: value))
                    }
                    if groups.isEmpty, aggregate.groupBy.isEmpty {
                        groups.append(AggregateGroup(keys: [], value: aggregate.function == .count ? .int(0) : .null))
                    }
                    return groups
                }
            }
        } catch let error as SQLiteError where error.message.contains("integer overflow") {
            let column = valueColumn?.name ?? "?"
            throw StoreError(.storage, table: schema.tableName, message: "integer overflow in sum(\(column))")
        }
    }
}

extension SQLiteConnection {
    /// Runs a cached statement with `arguments`, hands it to `read`, then resets it.
    @inline(__always) func query<R>(_ sql: String, _ arguments: [ModelValue], _ read: (SQLiteStatement) throws -> R) throws -> R {
        let statement = try cached(sql)
        defer { statement.reset() }
        do {
            try statement.bind(arguments)
            return try read(statement)
        } catch let error as SQLiteError {
            throw error.with(arguments: arguments)
        }
    }
}
