import Foundation

extension HistoryEntry {
    /// An entry from the values of a stored history row (as SQLite, PostgreSQL and
    /// FileAdapter's archive store them: `action` 1/2/3, `changed` a JSON array of names or
    /// null, `recorded_at` seconds since 1970 or a date); a row another tool wrote that
    /// does not fit throws an error naming the column and value.
    package init(
        storedCursor cursor: ModelValue, table: ModelValue, id: ModelValue, action: ModelValue, changed: ModelValue,
        recordedAt: ModelValue, historyTable: String
    ) throws {
        func invalid(_ column: String, _ value: ModelValue) -> StoreError {
            StoreError(
                .invalidStoredValue, table: historyTable, id: cursor, column: column,
                message: "the history entry's \(column) cannot be read: \(value)")
        }
        guard let number = cursor.intValue else { throw invalid("cursor", cursor) }
        guard case .string(let tableName) = table else { throw invalid("table_name", table) }
        guard let code = action.intValue, let kind = Action(rawValue: Int(truncatingIfNeeded: code)) else {
            throw invalid("action", action)
        }
        var names: [String]?
        switch changed {
        case .null: names = nil
        case .string(let json):
            guard let decoded = try? JSONDecoder().decode([String].self, from: Data(json.utf8)) else { throw invalid("changed", changed) }
            names = decoded
        default: throw invalid("changed", changed)
        }
        let date: Date
        switch recordedAt {
        case .double(let seconds): date = Date(timeIntervalSince1970: seconds)
        case .int(let seconds): date = Date(timeIntervalSince1970: Double(seconds))
        case .date(let value): date = value
        default: throw invalid("recorded_at", recordedAt)
        }
        self.init(
            cursor: HistoryCursor(rawValue: number), table: tableName, id: id, action: kind, changedColumns: names, recordedAt: date)
    }
}
