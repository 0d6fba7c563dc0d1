import Foundation
import ModelCore

/// The reads and compaction of a SQL change-history table (`cursor`, `table_name`, the
/// id, `action`, `changed`, `recorded_at`) and its horizon table, written once for SQLite
/// and PostgreSQL; each adapter says how it runs SQL, spells parameters and stores times.
package struct SQLHistoryReader {
    /// The history table and the one-row horizon table.
    package let table: String, horizonTable: String
    /// The selected columns, in ``HistoryEntry/init(storedCursor:table:id:action:changed:recordedAt:historyTable:)``'s
    /// order but the id, which ``entry`` reads.
    package let columns: String
    /// The `n`th parameter (1-based): `?` or `$n`.
    package let parameter: (Int) -> String
    package let rows: (String, [ModelValue]) throws -> [SQLRow]
    package let execute: (String, [ModelValue]) throws -> Void
    /// Whether the history table exists (a model that keeps history was prepared).
    package let exists: () throws -> Bool
    /// A time as `recorded_at` stores it.
    package let time: (Date) -> ModelValue
    /// An entry from a selected row.
    package let entry: (SQLRow) throws -> HistoryEntry

    package init(
        table: String, horizonTable: String, columns: String, parameter: @escaping (Int) -> String,
        rows: @escaping (String, [ModelValue]) throws -> [SQLRow], execute: @escaping (String, [ModelValue]) throws -> Void,
        exists: @escaping () throws -> Bool, time: @escaping (Date) -> ModelValue, entry: @escaping (SQLRow) throws -> HistoryEntry
    ) {
        (self.table, self.horizonTable, self.columns, self.parameter) = (table, horizonTable, columns, parameter)
        (self.rows, self.execute, self.exists, self.time, self.entry) = (rows, execute, exists, time, entry)
    }

    /// See ``HistoryKeepingAdapter/history(after:limit:tables:)``.
    package func history(after cursor: HistoryCursor, limit: Int, tables: Set<String>?) throws -> HistoryPage {
        guard limit >= 1 else { throw StoreError.historyLimit(limit, table: table) }
        guard try exists() else { return HistoryPage(entries: [], next: cursor, hasMore: false) }
        // The head first: entries of other tables skipped up to it need no second look.
        let head = try self.head()
        var sql = "SELECT \(columns) FROM \(table) WHERE cursor > \(parameter(1))"
        var arguments: [ModelValue] = [.int(cursor.rawValue)]
        if let tables {
            sql += " AND table_name IN (\((0..<tables.count).map { parameter($0 + 2) }.joined(separator: ", ")))"
            arguments += tables.sorted().map(ModelValue.string)
        }
        sql += " ORDER BY cursor LIMIT \(parameter(arguments.count + 1))"
        arguments.append(.int(Int64(min(limit, Int(Int32.max) - 1)) + 1))
        let read = try rows(sql, arguments)
        // Read after the entries: a compaction that removed any of them shows here.
        let horizon = try self.horizon()
        if cursor < horizon { throw StoreError.historyCompacted(after: cursor, horizon: horizon, table: table) }
        return HistoryPage(after: cursor, limit: limit, read: try read.map(entry), head: head, filtered: tables != nil)
    }

    /// See ``HistoryKeepingAdapter/historyHead()``.
    package func head() throws -> HistoryCursor {
        guard try exists() else { return .start }
        let newest = try rows("SELECT max(cursor) FROM \(table)", []).first?[0]
        return max(HistoryCursor(rawValue: newest?.intValue ?? 0), try horizon())
    }

    /// The compaction's statements; the caller runs it in a transaction of the store's.
    package func compact(before date: Date) throws -> HistoryCursor {
        let last = try rows("SELECT max(cursor) FROM \(table) WHERE recorded_at < \(parameter(1))", [time(date)]).first?[0]
        let horizon = try self.horizon()
        guard let last = last?.intValue, last > horizon.rawValue else { return horizon }
        try execute("DELETE FROM \(table) WHERE cursor <= \(parameter(1))", [.int(last)])
        try execute(
            "INSERT INTO \(horizonTable) (singleton, cursor) VALUES (1, \(parameter(1))) ON CONFLICT (singleton) DO UPDATE SET cursor = excluded.cursor",
            [.int(last)])
        return HistoryCursor(rawValue: last)
    }

    /// The cursor below which entries were compacted away (0: none were).
    private func horizon() throws -> HistoryCursor {
        let stored = try rows("SELECT cursor FROM \(horizonTable) WHERE singleton = 1", []).first?[0]
        return HistoryCursor(rawValue: stored?.intValue ?? 0)
    }
}
