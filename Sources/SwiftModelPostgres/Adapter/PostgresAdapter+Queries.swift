import Foundation
import ModelSQL

extension PostgresAdapter {
    /// The rows matching `query`: one prepared `SELECT` with `$n` parameters, ordered by
    /// the query's keys and then the store-order key.
    public func fetch(_ query: StoreQuery) throws -> [[ModelValue]] {
        try fetchRows(query)
    }

    /// `SELECT count(*)` of the rows matching `query` (limit and offset apply).
    /// Rows are locked one by one: `FOR UPDATE`, with `SKIP LOCKED` or `NOWAIT` (whose
    /// failure is ``PostgresError`` `.lockNotAvailable`).
    public var rowLockSupport: RowLockSupport { .rowLevel }

    /// The date as `timestamptz` gives it back: to the microsecond.
    public func storedDate(_ date: Date, column: Int, of schema: ModelSchema) -> Date { PGType.microsecondDate(date) }

    public func count(_ query: StoreQuery) throws -> Int {
        try countRows(query)
    }

    /// Deletes the rows matching `query` in one `DELETE` statement.
    public func delete(_ query: StoreQuery) throws -> Int {
        try deleteRows(query)
    }

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
    public func aggregate(_ query: StoreQuery) throws -> [AggregateGroup] {
        try aggregateRows(query)
    }
}
