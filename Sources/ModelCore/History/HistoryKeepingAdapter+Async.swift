import Foundation

/// The history reads and compaction, async: the store's blocking call runs on the
/// blocking pool (inside a transaction, on its executor), never on the caller's thread
/// (see ``BlockingPool/run(on:reads:_:)``).
extension HistoryKeepingAdapter {
    /// Up to `limit` entries after `cursor` (async; see ``history(after:limit:tables:)``).
    nonisolated(nonsending) public func history(after cursor: HistoryCursor, limit: Int, tables: Set<String>?) async throws
        -> HistoryPage
    {
        try await BlockingPool.shared.run(on: self, reads: true) { try self.history(after: cursor, limit: limit, tables: tables) }
    }

    /// The newest cursor (async; see ``historyHead()``).
    nonisolated(nonsending) public func historyHead() async throws -> HistoryCursor {
        try await BlockingPool.shared.run(on: self, reads: true) { try self.historyHead() }
    }

    /// Folds the entries recorded before `date` (async; see ``compactHistory(before:)``).
    @discardableResult
    nonisolated(nonsending) public func compactHistory(before date: Date) async throws -> HistoryCursor {
        try await BlockingPool.shared.run(on: self) { try self.compactHistory(before: date) }
    }
}

extension ModelProtocol {
    /// Up to `limit` changes to this model's rows after `cursor` (async; see
    /// the synchronous form).
    nonisolated(nonsending) public static func history(
        after cursor: HistoryCursor, limit: Int = 1_000, in store: some HistoryKeepingAdapter
    ) async throws -> HistoryPage {
        try checkKeepsHistory()
        return try await store.history(after: cursor, limit: limit, tables: [schema.tableName])
    }
}
