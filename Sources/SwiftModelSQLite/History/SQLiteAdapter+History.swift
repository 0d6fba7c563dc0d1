import Foundation
import ModelSQL

/// The change history of the models that keep one (``ModelProtocol/keepsHistory``),
/// recorded by triggers (``SQLiteHistoryDDL``) and read by ``SQLHistoryReader``.
extension SQLiteAdapter: HistoryKeepingAdapter {
    public func history(after cursor: HistoryCursor, limit: Int, tables: Set<String>?) throws -> HistoryPage {
        try historyReader.history(after: cursor, limit: limit, tables: tables)
    }

    public func historyHead() throws -> HistoryCursor { try historyReader.head() }

    @discardableResult
    public func compactHistory(before date: Date) throws -> HistoryCursor {
        let reader = historyReader
        guard try reader.exists() else { return .start }
        return try transaction { try reader.compact(before: date) }
    }

    /// SQLite's spelling of the history reads: `?` parameters, times as seconds since 1970.
    private var historyReader: SQLHistoryReader {
        SQLHistoryReader(
            table: SQLiteHistoryDDL.table, horizonTable: SQLiteHistoryDDL.horizonTable,
            columns: "cursor, table_name, row_id, action, changed, recorded_at", parameter: { _ in "?" },
            rows: { try self.rows($0, $1) }, execute: { _ = try self.execute($0, $1) },
            exists: {
                try !self.rows("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", [.string(SQLiteHistoryDDL.table)]).isEmpty
            },
            time: { .double($0.timeIntervalSince1970) },
            entry: { row in
                try HistoryEntry(
                    storedCursor: row[0], table: row[1], id: row[2], action: row[3], changed: row[4], recordedAt: row[5],
                    historyTable: SQLiteHistoryDDL.table)
            })
    }
}
