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
