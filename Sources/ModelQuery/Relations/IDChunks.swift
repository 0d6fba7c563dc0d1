/// Lists of ids the model layer binds into one `IN (…)` (eager loads, delete rules) are cut
/// into chunks, so a statement stays well inside every store's limit on bound values:
/// PostgresAdapter sends at most 7,498 (libpq cannot read the server's description of
/// more parameters), SQLite allows 32,766 unless built otherwise, and an HTTP API's URL
/// grows with each one.
package enum IDChunks {
    /// How many ids one statement binds.
    package static let size = 5_000

    /// `ids` in consecutive chunks of at most ``size`` (one chunk, possibly empty, when
    /// they fit).
    static func split(_ ids: [ModelValue]) -> [[ModelValue]] {
        guard ids.count > size else { return [ids] }
        return stride(from: 0, to: ids.count, by: size).map { Array(ids[$0..<min($0 + size, ids.count)]) }
    }

    /// One query per chunk of `ids`, made by `query`; one query for all of them when the
    /// query has a window, because a limit or offset counts rows across the whole list
    /// and chunks cannot keep that (the store's own limit on bound values then applies).
    static func queries<M: ModelProtocol>(for ids: [ModelValue], _ query: ([ModelValue]) -> Query<M>) -> [Query<M>] {
        let chunks = split(ids)
        guard chunks.count > 1 else { return [query(ids)] }
        let first = query(chunks[0])
        guard first.limitCount == nil, first.offsetCount == 0 else { return [query(ids)] }
        return [first] + chunks.dropFirst().map(query)
    }
}
