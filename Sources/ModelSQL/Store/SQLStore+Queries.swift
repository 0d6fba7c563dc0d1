import ModelCore

/// The query operations of every SQL adapter: each compiles to one statement
/// (``SQLCompiler``, with the table's date storage) described as an ``SQLOperation`` and run
/// on a lent connection.
extension SQLStore {
    /// The rows matching `query`, ordered by its keys and then store order.
    package func fetchRows(_ query: StoreQuery) throws -> [[ModelValue]] {
        try run(try table(for: query.schema).fetchOperation(query, dialect))
    }

    /// `SELECT count(*)` of the rows matching `query` (limit and offset apply).
    package func countRows(_ query: StoreQuery) throws -> Int {
        try run(try table(for: query.schema).countOperation(query, dialect))
    }

    /// Deletes the rows matching `query` in one `DELETE`.
    package func deleteRows(_ query: StoreQuery) throws -> Int {
        try run(try table(for: query.schema).deleteOperation(query, dialect, changing: tablesChangedByDelete(from: query.schema)))
    }

    /// Sets columns on the rows matching `query` in one `UPDATE`; returns how many rows
    /// changed (rows already holding the values are not counted).
    ///
    /// - Throws: ``StoreError`` `.uniqueViolation` when a `.unique` column would hold one
    ///   value in two rows (no row changes).
    package func updateRows(_ query: StoreQuery, set values: [Int: ModelValue]) throws -> Int {
        guard let operation = try table(for: query.schema).updateOperation(query, set: values, dialect, on: Connection.self) else {
            return 0
        }
        return try run(operation)
    }

    /// Computes `query.aggregate` in SQL (`count`, `sum`, `avg`, `min`, `max`, `GROUP BY`),
    /// with the result types of ``Aggregate`` (see ``SQLAggregatePlan``).
    ///
    /// - Throws: ``StoreError`` `.invalidRequest` without an aggregate; `.storage` on
    ///   integer overflow in `sum`.
    package func aggregateRows(_ query: StoreQuery) throws -> [AggregateGroup] {
        try run(try table(for: query.schema).aggregateOperation(query, dialect, on: Connection.self))
    }
}
