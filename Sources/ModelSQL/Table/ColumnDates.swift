import ModelCore

/// Per column of a table, how it stores dates (nil: not a date, or the database's own
/// date type): the one conversion of bound values the SQL adapters and the compiler share.
extension Array where Element == DateStorage? {
    /// `value` as column `index` stores it (a date in the column's ``DateStorage``).
    @inline(__always) package func stored(_ value: ModelValue, column index: Int) -> ModelValue {
        if case .date(let date) = value, index < count, let storage = self[index] { return storage.stored(date) }
        return value
    }

    /// `row` with every date in its column's storage.
    package func stored(row: [ModelValue]) -> [ModelValue] {
        var out = row
        for k in out.indices { out[k] = stored(out[k], column: k) }
        return out
    }
}
