/// The check every stored row passes before it becomes a record, on every adapter.
///
/// A row written by another tool, raw SQL or an older build can hold what the model's
/// properties cannot: NULL in a non-optional column, text in an integer column, `2^40` in
/// an `Int32` column, a date outside ``ModelValue/dateRange``. Such a row is a
/// ``InvalidStoredValue`` naming the table, the row's id, the column and the stored value,
/// in debug and release builds alike; it never reads as `0` or `""`.
extension ModelSchema {
    /// Throws ``InvalidStoredValue`` unless `row` fits this schema (a row of the wrong
    /// width is a ``StoreError`` `.invalidStoredValue`).
    ///
    /// - Complexity: O(columns): a kind check per value, plus the property's own decoding
    ///   for integer columns of a narrower Swift type and for typed arrays/dictionaries.
    /// `allowingNullID` accepts a nil id (a saved-state row of an unsaved record).
    package func checkLoaded(_ row: [ModelValue], allowingNullID: Bool = false) throws {
        guard row.count == columns.count else {
            throw StoreError(
                .invalidStoredValue, table: tableName, id: row.first,
                message: "the stored row has \(row.count) values for \(columns.count) columns")
        }
        for k in 0..<row.count {
            let value = row[k]
            if value.isNull {
                if (k == 0 && !allowingNullID) || (k > 0 && !columns[k].isOptional) {
                    throw invalid(row, k, "NULL in a non-optional \(columns[k].castTarget) column")
                }
                continue
            }
            guard value.isKind(of: columns[k].type) else {
                throw invalid(row, k, "not a \(columns[k].castTarget) value")
            }
            switch value {
            case .int:
                if deepLoadChecks[k], !columns[k].accepts(value) {
                    throw invalid(row, k, "out of the range of the property's integer type")
                }
            case .array, .dictionary:
                if deepLoadChecks[k], !columns[k].accepts(value) {
                    throw invalid(row, k, "an element is not a \(columns[k].elementType.map { "\($0)" } ?? "value") of the declared type")
                }
            case .double, .date:
                if let reason = value.unstorableReason { throw invalid(row, k, reason) }
            default: break
            }
        }
    }

    private func invalid(_ row: [ModelValue], _ k: Int, _ reason: String) -> InvalidStoredValue {
        InvalidStoredValue(table: tableName, id: k == 0 ? nil : row[0], column: columns[k].name, value: row[k], reason: reason)
    }

    /// Per column: whether a loaded value must also pass the property's own decoding
    /// (integers of a type narrower than `Int64`, arrays and dictionaries with typed
    /// elements). Computed once per schema.
    static func deepLoadChecks(_ columns: [ColumnDefinition]) -> [Bool] {
        columns.map { column in
            switch column.type {
            case .int: !(column.accepts(.int(.max)) && column.accepts(.int(.min)))
            case .array, .dictionary: column.elementType != nil
            default: false
            }
        }
    }
}

extension ModelValue {
    /// Whether the value is of the stored kind a column of `type` holds (`text` holds strings).
    @inlinable package func isKind(of type: ColumnType) -> Bool {
        switch (self, type) {
        case (.string, .string), (.string, .text), (.int, .int), (.double, .double), (.bool, .bool), (.date, .date),
            (.uuid, .uuid), (.data, .data), (.array, .array), (.dictionary, .dictionary):
            true
        default: false
        }
    }
}
