import Foundation

/// The change history of the models that keep one (``ModelProtocol/keepsHistory``), in
/// memory: each write appends its entry under the store's lock, and a rolled-back level
/// takes its entries back with its rows. Cursors follow commit order (one writer at a
/// time), a transaction's entries are consecutive, and compaction never lowers the next.
package struct ArrayHistory: Sendable {
    package private(set) var entries: [HistoryEntry] = []
    /// The cursor the next entry gets.
    package private(set) var nextCursor: Int64 = 1
    /// The cursor up to which entries were compacted away.
    package private(set) var horizon = HistoryCursor.start
    /// Whether a cursor that is neither an entry's nor at or below the horizon is refused
    /// as too old (a store whose history can lose its newest entries — FileAdapter's,
    /// after a crash before a save — so that a reader who saw them resyncs).
    package var refusesUnknownCursors = false

    /// An empty history.
    package init() {}

    /// A history as a store reloaded it: `entries` in cursor order, all above `horizon`
    /// and below `nextCursor`.
    package init(entries: [HistoryEntry], nextCursor: Int64, horizon: HistoryCursor) {
        self.entries = entries
        self.nextCursor = nextCursor
        self.horizon = horizon
    }

    /// The newest cursor.
    package var head: HistoryCursor { max(entries.last?.cursor ?? .start, horizon) }

    /// Appends the change of the row `id` of `table`.
    mutating func record(_ table: ArrayTable, id: ModelValue, _ action: HistoryEntry.Action, changed: [String]? = nil) {
        entries.append(
            HistoryEntry(
                cursor: HistoryCursor(rawValue: nextCursor), table: table.schema.tableName, id: id, action: action,
                changedColumns: changed, recordedAt: ModelClock.now()))
        nextCursor += 1
    }

    /// Takes back the newest entry (its write was rolled back).
    mutating func undoLast() {
        guard !entries.isEmpty else { return }
        entries.removeLast()
        nextCursor -= 1
    }

    /// The entries after `cursor`, in cursor order.
    func after(_ cursor: HistoryCursor) -> ArraySlice<HistoryEntry> {
        var (low, high) = (entries.startIndex, entries.endIndex)
        while low < high {
            let middle = (low + high) / 2
            if entries[middle].cursor <= cursor { low = middle + 1 } else { high = middle }
        }
        return entries[low...]
    }

    /// Removes the entries up to the last one recorded before `date`; returns the horizon.
    mutating func compact(before date: Date) -> HistoryCursor {
        guard let last = entries.lastIndex(where: { $0.recordedAt < date }) else { return horizon }
        horizon = max(horizon, entries[last].cursor)
        entries.removeSubrange(...last)
        return horizon
    }

    /// Whether a reader's `cursor` is too old to follow: below the horizon, or (with
    /// ``refusesUnknownCursors``) one this history never gave or no longer holds.
    func refuses(_ cursor: HistoryCursor) -> Bool {
        if cursor < horizon { return true }
        guard refusesUnknownCursors, cursor > horizon else { return false }
        let following = after(HistoryCursor(rawValue: cursor.rawValue - 1))
        return following.first?.cursor != cursor
    }

    /// Drops every entry as if compacted (``ArrayAdapter/reset()``): a reader's older
    /// cursor is then too old, and cursors go on growing.
    package mutating func clear() {
        horizon = head
        entries.removeAll()
    }

    /// The names of the columns whose values differ between `old` and `new`.
    static func changedColumns(_ old: [ModelValue], _ new: [ModelValue], in schema: ModelSchema) -> [String] {
        (0..<min(old.count, new.count, schema.columns.count)).compactMap { k in old[k] != new[k] ? schema.columns[k].name : nil }
    }
}

extension ArrayAdapter: HistoryKeepingAdapter {
    public func history(after cursor: HistoryCursor, limit: Int, tables: Set<String>?) throws -> HistoryPage {
        guard limit >= 1 else { throw StoreError.historyLimit(limit, table: "") }
        return try lock.withLock {
            if closed { throw StoreError.closed(label) }
            if history.refuses(cursor) { throw StoreError.historyCompacted(after: cursor, horizon: history.horizon, table: "") }
            var read: [HistoryEntry] = []
            for entry in history.after(cursor) where tables?.contains(entry.table) ?? true {
                read.append(entry)
                if read.count > limit { break }
            }
            return HistoryPage(after: cursor, limit: limit, read: read, head: history.head, filtered: tables != nil)
        }
    }

    public func historyHead() throws -> HistoryCursor {
        try lock.withLock {
            if closed { throw StoreError.closed(label) }
            return history.head
        }
    }

    /// - Throws: ``StoreError`` `.invalidRequest` inside a transaction (a rollback takes
    ///   its level's entries back, which must still be there).
    @discardableResult
    public func compactHistory(before date: Date) throws -> HistoryCursor {
        try lock.withLock {
            if closed { throw StoreError.closed(label) }
            guard journal.isEmpty else { throw StoreError(.invalidRequest, table: "", message: "compactHistory(before:) inside a transaction") }
            return history.compact(before: date)
        }
    }
}
