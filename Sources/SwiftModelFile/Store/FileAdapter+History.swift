import SwiftModelArray
import Foundation

/// The change history of a store file (``HistoryKeepingAdapter``): entries are kept in
/// memory as ``ArrayAdapter`` keeps them and saved in the store file beside the rows —
/// in the same atomic write, so a file's history always matches its rows.
///
/// Two tables in the archive hold it, named as SQLite's: `swiftmodel_history` (one
/// record per entry: `cursor`, `table_name`, `row_id`, `action` 1/2/3, `changed` a JSON
/// array or null, `recorded_at` a date; its `nextID` is the next cursor) and
/// `swiftmodel_history_horizon` (one record: the cursor below which entries were
/// compacted away).
///
/// Committed changes not yet saved are lost with the process (autosave coalesces), and
/// their entries with them. So that a reader who saw such an entry is not led past the
/// entries that replace it, each load starts its cursors at the larger of the file's next
/// cursor and the clock in microseconds since 1970, never handing a lost cursor out
/// again (unless the clock went back, or writes outpaced one per microsecond), and a
/// cursor the history does not hold is answered `.historyCompacted` ("read everything
/// again").
extension FileAdapter: HistoryKeepingAdapter {
    static let historyTable = "swiftmodel_history"
    static let horizonTable = "swiftmodel_history_horizon"
    private static let historyColumns = ["cursor", "table_name", "row_id", "action", "changed", "recorded_at"]

    public func history(after cursor: HistoryCursor, limit: Int, tables: Set<String>?) throws -> HistoryPage {
        try memory.history(after: cursor, limit: limit, tables: tables)
    }

    public func historyHead() throws -> HistoryCursor { try memory.historyHead() }

    /// Compacts the history in memory (see ``ArrayAdapter/compactHistory(before:)``); the
    /// store file is written with the next save.
    @discardableResult
    public func compactHistory(before date: Date) throws -> HistoryCursor {
        let (horizon, changed) = try memory.withLock {
            let before = memory.history.horizon
            let horizon = try memory.compactHistory(before: date)
            if horizon != before { storeDirty = true }
            return (horizon, horizon != before && hasFiles)
        }
        if changed { scheduleAutosave() }
        return horizon
    }

    /// The history's two tables for the store file, when it holds anything. Call with the
    /// lock held.
    func historySnapshots() -> [TableSnapshot] {
        let history = memory.history
        guard !history.entries.isEmpty || history.horizon > .start else { return [] }
        let rows = history.entries.map { entry -> [ModelValue] in
            let changed = entry.changedColumns.map { names -> ModelValue in
                .string((try? String(decoding: JSONEncoder().encode(names), as: UTF8.self)) ?? "[]")
            }
            return [
                .int(entry.cursor.rawValue), .string(entry.table), entry.id, .int(Int64(entry.action.rawValue)),
                changed ?? .null, .date(entry.recordedAt),
            ]
        }
        return [
            TableSnapshot(
                name: Self.historyTable, model: Self.historyTable, version: 1, nextID: history.nextCursor,
                columns: Self.historyColumns, count: rows.count, rows: .rows(rows)),
            TableSnapshot(
                name: Self.horizonTable, model: Self.horizonTable, version: 1, nextID: 2, columns: ["singleton", "cursor"],
                count: 1, rows: .rows([[.int(1), .int(history.horizon.rawValue)]])),
        ]
    }

    /// Whether `name` is one of the history's tables (not a model's).
    static func isHistoryTable(_ name: String?) -> Bool { name == historyTable || name == horizonTable }

    /// The history a store file holds (empty when it holds none), its cursors continuing
    /// at the larger of the file's next cursor and the clock.
    ///
    /// - Throws: ``ArchiveError`` `.invalidValue` naming the table, column and record when a
    ///   stored entry does not fit (out of order, at or below the horizon, a bad value).
    static func loadedHistory(from tables: [ArchivedTable], path: String) throws -> ArrayHistory {
        func invalid(_ table: String, _ column: String?, _ message: String) -> ArchiveError {
            ArchiveError(.invalidValue, path: path, table: table, column: column, message: message)
        }
        var horizon = HistoryCursor.start
        if let table = tables.first(where: { $0.name == horizonTable }) {
            guard table.records.count == 1, let k = table.columns.firstIndex(of: "cursor"),
                let value = table.records[0][k].intValue, value >= 0
            else { throw invalid(horizonTable, "cursor", "expected one record with a cursor of at least 0") }
            horizon = HistoryCursor(rawValue: value)
        }
        var entries: [HistoryEntry] = []
        var next: Int64 = 1
        if let table = tables.first(where: { $0.name == historyTable }) {
            let index = historyColumns.map { table.columns.firstIndex(of: $0) }
            for (k, record) in table.records.enumerated() {
                let values = index.map { $0.map { record[$0] } ?? .null }
                let entry: HistoryEntry
                do {
                    entry = try HistoryEntry(
                        storedCursor: values[0], table: values[1], id: values[2], action: values[3], changed: values[4],
                        recordedAt: values[5], historyTable: historyTable)
                } catch let error as StoreError {
                    throw invalid(historyTable, error.column, "record \(k): \(error.message)")
                }
                guard entry.cursor > horizon, entry.cursor > (entries.last?.cursor ?? .start), !entry.id.isNull else {
                    throw invalid(
                        historyTable, "cursor",
                        "record \(k): cursor \(entry.cursor) is not above the previous one and the horizon \(horizon), or has no row id")
                }
                entries.append(entry)
            }
            next = table.nextID ?? 1
        }
        // Far below Int64.max, so that counting on from a file another tool wrote never overflows.
        let ceiling: Int64 = 1 << 62
        let last = max(entries.last?.cursor.rawValue ?? 0, horizon.rawValue)
        guard last < ceiling, next < ceiling else {
            throw invalid(historyTable, "cursor", "cursors above \(ceiling) (the file's next cursor is \(next), its last \(last))")
        }
        let clock = Int64(min(max(Date().timeIntervalSince1970, 0), 1e12) * 1_000_000)
        var history = ArrayHistory(entries: entries, nextCursor: max(next, last + 1, clock), horizon: horizon)
        history.refusesUnknownCursors = true
        return history
    }
}
