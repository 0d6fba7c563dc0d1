/// Checks of adapter requests that every adapter makes the same way, so they report the
/// same ``StoreError`` for the same malformed request. Adapters written outside this
/// package can call them too.
extension ModelSchema {
    /// Throws ``StoreError`` `.invalidRequest` unless `row` has one value per column, and a
    /// ``CastError`` for a value no adapter stores (NaN, a date outside
    /// ``ModelValue/dateRange``): the shared rule of `Docs/Casting.md`, "Limits".
    public func checkRow(_ row: [ModelValue]) throws {
        guard row.count == columns.count else {
            throw StoreError(
                .invalidRequest, table: tableName, message: "row has \(row.count) values for \(columns.count) columns")
        }
        try checkStorable(row)
    }

    /// ``checkRow(_:)`` for an update that writes only `columns` of `row`: the other
    /// values do not reach the store, so only these are checked.
    package func checkRow(_ row: [ModelValue], writing columns: [Int]) throws {
        guard row.count == self.columns.count else { return try checkRow(row) }
        try checkStorable(row, at: columns)
    }

    /// Checks a batch update: ``checkUpdateColumns(_:)`` for its columns, and that every
    /// value can be stored (``CastError`` for NaN or a date outside ``ModelValue/dateRange``).
    public func checkUpdate(_ values: [Int: ModelValue]) throws {
        try checkUpdateColumns(values.keys)
        try checkStorable(values)
    }

    /// Throws ``StoreError`` `.invalidRequest` when a batch update would set the id or a
    /// column index out of range.
    public func checkUpdateColumns<C: Collection<Int>>(_ indexes: C) throws {
        for column in indexes where column <= 0 || column >= columns.count {
            throw StoreError(
                .invalidRequest, table: tableName,
                message: column == 0 ? "updateAll cannot change ids" : "column index \(column) out of range")
        }
    }
}

extension StoreQuery {
    /// The query's aggregate, checked: ``StoreError`` `.invalidRequest` when there is none
    /// or it names a column out of range (only `count` may omit its column).
    public func checkedAggregate() throws -> Aggregate {
        guard let aggregate else {
            throw StoreError(.invalidRequest, table: schema.tableName, message: "the query has no aggregate")
        }
        let width = schema.columns.count
        guard aggregate.column.map({ (0..<width).contains($0) }) ?? (aggregate.function == .count),
            aggregate.groupBy.allSatisfy({ (0..<width).contains($0) })
        else {
            throw StoreError(.invalidRequest, table: schema.tableName, message: "aggregate columns out of range")
        }
        return aggregate
    }
}
