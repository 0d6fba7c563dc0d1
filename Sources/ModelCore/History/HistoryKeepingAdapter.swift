import Foundation

/// A store that keeps a durable history of the committed changes to the models that ask
/// for one (``ModelProtocol/keepsHistory``).
///
/// Every insert, update (with its changed columns) and delete of such a model's rows —
/// whoever made it: a record's save, a bulk `updateAll`/`deleteAll`, raw SQL, another
/// process or tool writing the same database — is appended to the history in the write's
/// own transaction, so an entry exists exactly when its change committed. Deletes leave
/// a tombstone. Readers follow it by cursor (``history(after:limit:tables:)``); old
/// entries fold away with ``compactHistory(before:)``, after which a cursor from before
/// the fold is answered with ``StoreError`` `.historyCompacted`, never with a gap.
///
/// A store that keeps no history refuses to prepare a model that asks for one
/// (``StoreError`` `.invalidRequest`), so history is never silently missing.
public protocol HistoryKeepingAdapter: PersistenceAdapter {
    /// Up to `limit` entries committed after `cursor`, in cursor order; with `tables`,
    /// only the entries of those tables (the page's ``HistoryPage/next`` still moves past
    /// the others it skipped).
    ///
    /// - Throws: ``StoreError`` `.historyCompacted` when entries after `cursor` were
    ///   compacted away (read everything again, then follow from
    ///   ``historyHead()``); `.invalidRequest` for a limit below 1; the store's errors.
    func history(after cursor: HistoryCursor, limit: Int, tables: Set<String>?) throws -> HistoryPage

    /// The newest cursor: reading after it returns only changes committed later. Take it
    /// in the same transaction as a full read to follow the history from that read.
    func historyHead() throws -> HistoryCursor

    /// Removes the entries recorded before `date` and returns the horizon: the cursor of
    /// the newest entry removed, up to which the history is gone (reads after an older
    /// cursor throw `.historyCompacted`; reading after the horizon itself goes on).
    @discardableResult
    func compactHistory(before date: Date) throws -> HistoryCursor
}

extension HistoryKeepingAdapter {
    /// Every entry committed after `cursor`, read in pages of `pageSize`.
    public func history(after cursor: HistoryCursor, tables: Set<String>? = nil, pageSize: Int = 1_000) throws -> HistoryPage {
        var entries: [HistoryEntry] = []
        var next = cursor
        while true {
            let page = try history(after: next, limit: pageSize, tables: tables)
            entries += page.entries
            next = page.next
            if !page.hasMore { return HistoryPage(entries: entries, next: next, hasMore: false) }
        }
    }
}

extension ModelProtocol {
    /// Up to `limit` changes to this model's rows committed after `cursor` (see
    /// ``HistoryKeepingAdapter/history(after:limit:tables:)``).
    ///
    /// ```swift
    /// func deletedTodos(after cursor: HistoryCursor, in store: some HistoryKeepingAdapter) throws -> ([ModelValue], HistoryCursor) {
    ///     let page = try Todo.history(after: cursor, limit: 100, in: store)
    ///     return (page.entries.filter { $0.action == .delete }.map(\.id), page.next)   // keep `next` with what you applied
    /// }
    /// ```
    ///
    /// - Throws: ``StoreError`` `.invalidRequest` when the model does not keep history;
    ///   what the store's read throws.
    public static func history(after cursor: HistoryCursor, limit: Int = 1_000, in store: some HistoryKeepingAdapter) throws
        -> HistoryPage
    {
        try checkKeepsHistory()
        return try store.history(after: cursor, limit: limit, tables: [schema.tableName])
    }

    /// Throws ``StoreError`` `.invalidRequest` unless the model keeps history.
    package static func checkKeepsHistory() throws {
        guard keepsHistory else {
            throw StoreError(
                .invalidRequest, table: tableName,
                message: "\(String(describing: Self.self)) keeps no history; declare `static var keepsHistory: Bool { true }`")
        }
    }
}

extension StoreError {
    /// A store that keeps no change history was asked to prepare a model that keeps one.
    package static func keepsNoHistory(_ schema: ModelSchema, store: String) -> StoreError {
        StoreError(
            .invalidRequest, table: schema.tableName,
            message: "\(schema.modelName) keeps history (keepsHistory), which this store (\(store)) does not keep")
    }
}
