import Foundation
import ModelSQL

/// The change history of the models that keep one (``ModelProtocol/keepsHistory``),
/// recorded by triggers (``SQLiteHistoryDDL``) and read here.
extension SQLiteAdapter: HistoryKeepingAdapter {
    public func history(after cursor: HistoryCursor, limit: Int, tables: Set<String>?) throws -> HistoryPage {
        guard limit >= 1 else { throw StoreError.historyLimit(limit, table: SQLiteHistoryDDL.table) }
        guard try hasHistory() else { return HistoryPage(entries: [], next: cursor, hasMore: false) }
        // The head first: entries of other tables skipped up to it need no second look.
        let head = try historyHead()
        var sql = "SELECT cursor, table_name, row_id, action, changed, recorded_at FROM \(SQLiteHistoryDDL.table) WHERE cursor > ?"
        var arguments: [ModelValue] = [.int(cursor.rawValue)]
        if let tables {
            sql += " AND table_name IN (\(tables.map { _ in "?" }.joined(separator: ", ")))"
            arguments += tables.sorted().map(ModelValue.string)
        }
        sql += " ORDER BY cursor LIMIT ?"
        arguments.append(.int(Int64(min(limit, Int(Int32.max) - 1)) + 1))
        let rows = try self.rows(sql, arguments)
        // Read after the entries: a compaction that removed any of them shows here.
        let horizon = try historyHorizon()
        if cursor < horizon { throw StoreError.historyCompacted(after: cursor, horizon: horizon, table: SQLiteHistoryDDL.table) }
        return HistoryPage(after: cursor, limit: limit, read: try rows.map(Self.entry), head: head, filtered: tables != nil)
    }

    public func historyHead() throws -> HistoryCursor {
        guard try hasHistory() else { return .start }
        let newest = try rows("SELECT max(cursor) FROM \(SQLiteHistoryDDL.table)").first?[0]
        return max(HistoryCursor(rawValue: newest?.intValue ?? 0), try historyHorizon())
    }

    @discardableResult
    public func compactHistory(before date: Date) throws -> HistoryCursor {
        guard try hasHistory() else { return .start }
        return try transaction {
            let seconds = ModelValue.double(date.timeIntervalSince1970)
            let last = try rows("SELECT max(cursor) FROM \(SQLiteHistoryDDL.table) WHERE recorded_at < ?", [seconds]).first?[0]
            let horizon = try historyHorizon()
            guard let last = last?.intValue, last > horizon.rawValue else { return horizon }
            try execute("DELETE FROM \(SQLiteHistoryDDL.table) WHERE cursor <= ?", [.int(last)])
            try execute(
                "INSERT INTO \(SQLiteHistoryDDL.horizonTable) (singleton, cursor) VALUES (1, ?) ON CONFLICT (singleton) DO UPDATE SET cursor = excluded.cursor",
                [.int(last)])
            return HistoryCursor(rawValue: last)
        }
    }

    /// The cursor below which entries were compacted away (0: none were).
    private func historyHorizon() throws -> HistoryCursor {
        let stored = try rows("SELECT cursor FROM \(SQLiteHistoryDDL.horizonTable) WHERE singleton = 1").first?[0]
        return HistoryCursor(rawValue: stored?.intValue ?? 0)
    }

    /// Whether the database has a history table (a model that keeps history was prepared).
    private func hasHistory() throws -> Bool {
        try !rows("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", [.string(SQLiteHistoryDDL.table)]).isEmpty
    }

    /// An entry from its stored row.
    private static func entry(_ row: SQLiteRow) throws -> HistoryEntry {
        try HistoryEntry(
            sqlCursor: row[0], table: row[1], id: row[2], action: row[3], changed: row[4], recordedAt: row[5],
            historyTable: SQLiteHistoryDDL.table)
    }
}
