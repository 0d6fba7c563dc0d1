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
        guard row.count == loadChecks.count else {
            throw StoreError(
                .invalidStoredValue, table: tableName, id: row.first,
                message: "the stored row has \(row.count) values for \(columns.count) columns")
        }
        // Reads only `loadChecks` (trivial values) and matches each value without binding
        // reference payloads: no retain or release per column on the way through.
        for k in 0..<row.count {
            let check = loadChecks[k]
            switch row[k] {
            case .null:
                if k == 0 ? !allowingNullID : !check.isOptional {
                    throw invalid(row, k, "NULL in a non-optional \(columns[k].castTarget) column")
                }
            case .string: if check.kind != .string && check.kind != .text { throw wrongKind(row, k) }
            case .bool: if check.kind != .bool { throw wrongKind(row, k) }
            case .uuid: if check.kind != .uuid { throw wrongKind(row, k) }
            case .data: if check.kind != .data { throw wrongKind(row, k) }
            case .int:
                if check.kind != .int { throw wrongKind(row, k) }
                if check.decodes, !columns[k].accepts(row[k]) {
                    throw invalid(row, k, "out of the range of the property's integer type")
                }
            case .double(let d):
                if check.kind != .double { throw wrongKind(row, k) }
                if d.isNaN { throw invalid(row, k, "NaN cannot be stored") }
            case .date(let d):
                if check.kind != .date { throw wrongKind(row, k) }
                if !ModelValue.isStorable(d), let reason = row[k].unstorableReason { throw invalid(row, k, reason) }
            case .array, .dictionary:
                guard row[k].isKind(of: check.kind) else { throw wrongKind(row, k) }
                if check.decodes, !columns[k].accepts(row[k]) {
                    throw invalid(
                        row, k, "an element is not a \(columns[k].elementType.map { "\($0)" } ?? "value") of the declared type")
                }
            }
        }
    }

    private func wrongKind(_ row: [ModelValue], _ k: Int) -> InvalidStoredValue {
        invalid(row, k, "not a \(columns[k].castTarget) value")
    }

    private func invalid(_ row: [ModelValue], _ k: Int, _ reason: String) -> InvalidStoredValue {
        InvalidStoredValue(table: tableName, id: k == 0 ? nil : row[0], column: columns[k].name, value: row[k], reason: reason)
    }

    /// Per column: its stored kind, whether it is optional, and whether a loaded value
    /// must also pass the property's own decoding (integers of a type narrower than
    /// `Int64`, arrays and dictionaries with typed elements). Computed once per schema.
    static func loadChecks(_ columns: [ColumnDefinition]) -> [ColumnLoadCheck] {
        columns.map { column in
            let decodes: Bool
            switch column.type {
            case .int: decodes = !(column.accepts(.int(.max)) && column.accepts(.int(.min)))
            case .array, .dictionary: decodes = column.elementType != nil
            default: decodes = false
            }
            return ColumnLoadCheck(kind: column.type, isOptional: column.isOptional, decodes: decodes)
        }
    }
}

/// What one column's loaded values must be: a trivial value, so checking a row touches no
/// reference counts (see ``ModelSchema/checkLoaded(_:allowingNullID:)``).
package struct ColumnLoadCheck: Sendable {
    /// The stored kind (`string` also accepts `text` values and the reverse).
    package let kind: ColumnType
    /// Whether NULL is allowed.
    package let isOptional: Bool
    /// Whether the property's own decoding must accept the value too.
    package let decodes: Bool
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
