import Foundation
import ModelSQL

/// The change history of the models that keep one (``ModelProtocol/keepsHistory``),
/// recorded by triggers (``PostgresHistoryDDL``) and read by ``SQLHistoryReader`` on the
/// primary (a replica may lag behind a cursor the primary already gave).
extension PostgresAdapter: HistoryKeepingAdapter {
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

    /// PostgreSQL's spelling of the history reads: `$n` parameters, `timestamptz` times, the
    /// id in `row_int` or `row_text`.
    private var historyReader: SQLHistoryReader {
        SQLHistoryReader(
            table: PostgresHistoryDDL.table, horizonTable: PostgresHistoryDDL.horizonTable,
            columns: "cursor, table_name, row_int, row_text, action, changed, recorded_at", parameter: { "$\($0)" },
            rows: { try self.rows($0, $1) }, execute: { _ = try self.execute($0, $1) },
            exists: { try self.rows("SELECT to_regclass($1) IS NOT NULL", [.string(PostgresHistoryDDL.table)]).first?[0] == .bool(true) },
            time: { .date($0) },
            entry: { row in
                try HistoryEntry(
                    storedCursor: row[0], table: row[1], id: row[2].isNull ? row[3] : row[2], action: row[4], changed: row[5],
                    recordedAt: row[6], historyTable: PostgresHistoryDDL.table)
            })
    }
}
