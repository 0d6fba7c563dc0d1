import Foundation

/// A position in a store's change history: entries are numbered in commit order, and a
/// reader resumes after the cursor of the last entry it applied.
///
/// Cursors only grow. Within one store they are gap-free per commit: the entries of one
/// transaction carry consecutive cursors, and an entry never appears later with a cursor
/// below one already read. Store the cursor with the data it brought you (committed in
/// the same transaction), never a wall-clock time.
public struct HistoryCursor: RawRepresentable, Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    /// The cursor's number (0 before the first entry).
    public let rawValue: Int64

    /// A cursor from its number (as stored by a reader).
    public init(rawValue: Int64) { self.rawValue = rawValue }

    /// Before the first entry: reading after it starts at the oldest entry kept.
    public static let start = HistoryCursor(rawValue: 0)

    public static func < (lhs: HistoryCursor, rhs: HistoryCursor) -> Bool { lhs.rawValue < rhs.rawValue }

    public var description: String { String(rawValue) }
}

/// One committed change of one row, as the store's history recorded it.
public struct HistoryEntry: Sendable, Hashable {
    /// What happened to the row.
    public enum Action: Int, Sendable, Hashable {
        /// The row was inserted.
        case insert = 1
        /// Columns of the row changed (``HistoryEntry/changedColumns``).
        case update = 2
        /// The row was deleted: the entry is its tombstone.
        case delete = 3
    }

    /// The entry's position.
    public let cursor: HistoryCursor
    /// The table of the row.
    public let table: String
    /// The row's id, as stored.
    public let id: ModelValue
    /// What happened.
    public let action: Action
    /// For an update, the columns whose values changed (in table order); nil otherwise.
    public let changedColumns: [String]?
    /// When the store recorded the change (its clock; for retention, not for ordering).
    public let recordedAt: Date

    /// An entry as a store read it.
    public init(
        cursor: HistoryCursor, table: String, id: ModelValue, action: Action, changedColumns: [String]?, recordedAt: Date
    ) {
        self.cursor = cursor
        self.table = table
        self.id = id
        self.action = action
        self.changedColumns = changedColumns
        self.recordedAt = recordedAt
    }
}

/// Entries read from a history, and where to go on from.
public struct HistoryPage: Sendable, Hashable {
    /// The entries, in cursor order.
    public let entries: [HistoryEntry]
    /// The cursor to read after next time: the last entry's, or the cursor asked for when
    /// nothing newer was committed.
    public let next: HistoryCursor
    /// Whether more entries were committed after ``next`` when this page was read (the
    /// page was cut at its limit).
    public let hasMore: Bool

    /// A page as a store read it.
    public init(entries: [HistoryEntry], next: HistoryCursor, hasMore: Bool) {
        self.entries = entries
        self.next = next
        self.hasMore = hasMore
    }
}

extension HistoryPage {
    /// The page a store answers from `read`: the entries after `cursor` it read in cursor
    /// order (of the asked tables, at most `limit + 1`, the extra one telling that more
    /// follow), with `head`, the store's newest cursor read before them. Unfiltered, or
    /// cut at its limit, the page goes on from its last entry; filtered and complete, from
    /// the head, so the other tables' entries up to it are not read again.
    package init(after cursor: HistoryCursor, limit: Int, read: [HistoryEntry], head: HistoryCursor, filtered: Bool) {
        let entries = Array(read.prefix(limit))
        let hasMore = read.count > limit
        let last = entries.last?.cursor ?? cursor
        self.init(entries: entries, next: hasMore || !filtered ? max(cursor, last) : max(cursor, last, head), hasMore: hasMore)
    }
}

extension StoreError {
    /// A history read after `cursor`, older than the `horizon` the history was compacted to.
    package static func historyCompacted(after cursor: HistoryCursor, horizon: HistoryCursor, table: String) -> StoreError {
        StoreError(
            .historyCompacted, table: table,
            message: "the history after cursor \(cursor) was compacted (it starts after \(horizon)): read everything again, then follow it from historyHead()")
    }

    /// A history page asked with a limit below 1.
    package static func historyLimit(_ limit: Int, table: String) -> StoreError {
        StoreError(.invalidRequest, table: table, message: "a history page needs a limit of at least 1, not \(limit)")
    }
}
