import Foundation
import ModelSQL

extension SQLiteAdapter {
    /// The rows matching `query`: one `SELECT` with bound parameters, ordered by the
    /// query's keys and then `rowid` (store order for ties).
    public func fetch(_ query: StoreQuery) throws -> [[ModelValue]] { try fetchRows(query) }

    /// SQLite serialises writers (`BEGIN IMMEDIATE` takes the write lock for the whole
    /// transaction), so rows read inside a transaction cannot change until it ends: a row
    /// lock needs no work (`FOR UPDATE` does not exist in SQLite).
    public var rowLockSupport: RowLockSupport { .serialisedWriters }

    /// The date as the column's date storage gives it back (REAL seconds since 2001 keep it
    /// exactly; Unix seconds, milliseconds and text round it).
    public func storedDate(_ date: Date, column: Int, of schema: ModelSchema) -> Date {
        let storage =
            catalog.table(for: schema).flatMap { $0.dates.indices.contains(column) ? $0.dates[column] : nil }
            ?? (schema.columns.indices.contains(column) ? schema.columns[column].dateStorage : nil) ?? configuration.dateStorage
        return storage.roundTrip(date)
    }

    /// `SELECT count(*)` of the rows matching `query` (limit and offset apply).
    public func count(_ query: StoreQuery) throws -> Int { try countRows(query) }

    /// Deletes the rows matching `query` in one `DELETE` statement.
    public func delete(_ query: StoreQuery) throws -> Int { try deleteRows(query) }

    /// Sets columns on the rows matching `query` in one `UPDATE` statement; returns how
    /// many rows changed (rows already holding the values are not counted).
    ///
    /// - Throws: ``StoreError`` `.uniqueViolation` when a `.unique` column would hold one
    ///   value in two rows (no row changes).
    public func update(_ query: StoreQuery, set values: [Int: ModelValue]) throws -> Int {
        try updateRows(query, set: values)
    }

    /// Computes `query.aggregate` in SQL (`count`, `sum`, `avg`, `min`, `max`, `GROUP BY`),
    /// with the result types of ``Aggregate``.
    ///
    /// - Throws: ``StoreError`` `.invalidRequest` without an aggregate; `.storage` on
    ///   integer overflow in `sum`.
    public func aggregate(_ query: StoreQuery) throws -> [AggregateGroup] { try aggregateRows(query) }
}
