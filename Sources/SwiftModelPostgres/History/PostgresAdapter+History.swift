import Foundation
import ModelSQL

/// The change history of the models that keep one (``ModelProtocol/keepsHistory``),
/// recorded by triggers (``PostgresHistoryDDL``) and read here, on the primary (a replica
/// may lag behind a cursor the primary already gave).
extension PostgresAdapter: HistoryKeepingAdapter {
    public func history(after cursor: HistoryCursor, limit: Int, tables: Set<String>?) throws -> HistoryPage {
        guard limit >= 1 else { throw StoreError.historyLimit(limit, table: PostgresHistoryDDL.table) }
        guard try hasHistory() else { return HistoryPage(entries: [], next: cursor, hasMore: false) }
        let head = try historyHead()
        var sql = """
            SELECT cursor, table_name, row_int, row_text, action, changed, recorded_at FROM \(PostgresHistoryDDL.table) \
            WHERE cursor > $1
            """
        var arguments: [ModelValue] = [.int(cursor.rawValue)]
        if let tables {
            sql += " AND table_name IN (\((0..<tables.count).map { "$\($0 + 2)" }.joined(separator: ", ")))"
            arguments += tables.sorted().map(ModelValue.string)
        }
        sql += " ORDER BY cursor LIMIT $\(arguments.count + 1)"
        arguments.append(.int(Int64(min(limit, Int(Int32.max) - 1)) + 1))
        let rows = try self.rows(sql, arguments)
        // Read after the entries: a compaction that removed any of them shows here.
        let horizon = try historyHorizon()
        if cursor < horizon { throw StoreError.historyCompacted(after: cursor, horizon: horizon, table: PostgresHistoryDDL.table) }
        let entries = try rows.map { row in
            try HistoryEntry(
                sqlCursor: row[0], table: row[1], id: row[2].isNull ? row[3] : row[2], action: row[4], changed: row[5],
                recordedAt: row[6], historyTable: PostgresHistoryDDL.table)
        }
        return HistoryPage(after: cursor, limit: limit, read: entries, head: head, filtered: tables != nil)
    }

    public func historyHead() throws -> HistoryCursor {
        guard try hasHistory() else { return .start }
        let newest = try rows("SELECT max(cursor) FROM \(PostgresHistoryDDL.table)").first?[0]
        return max(HistoryCursor(rawValue: newest?.intValue ?? 0), try historyHorizon())
    }

    @discardableResult
    public func compactHistory(before date: Date) throws -> HistoryCursor {
        guard try hasHistory() else { return .start }
        return try transaction {
            let last = try rows("SELECT max(cursor) FROM \(PostgresHistoryDDL.table) WHERE recorded_at < $1", [.date(date)]).first?[0]
            let horizon = try historyHorizon()
            guard let last = last?.intValue, last > horizon.rawValue else { return horizon }
            try execute("DELETE FROM \(PostgresHistoryDDL.table) WHERE cursor <= $1", [.int(last)])
            try execute(
                "INSERT INTO \(PostgresHistoryDDL.horizonTable) (singleton, cursor) VALUES (1, $1) ON CONFLICT (singleton) DO UPDATE SET cursor = excluded.cursor",
                [.int(last)])
            return HistoryCursor(rawValue: last)
        }
    }

    /// The cursor below which entries were compacted away (0: none were).
    private func historyHorizon() throws -> HistoryCursor {
        let stored = try rows("SELECT cursor FROM \(PostgresHistoryDDL.horizonTable) WHERE singleton = 1").first?[0]
        return HistoryCursor(rawValue: stored?.intValue ?? 0)
    }

    /// Whether the schema has a history table (a model that keeps history was prepared).
    private func hasHistory() throws -> Bool {
        try rows("SELECT to_regclass($1) IS NOT NULL", [.string(PostgresHistoryDDL.table)]).first?[0] == .bool(true)
    }
}
