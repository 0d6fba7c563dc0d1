/// The results of a query, now and after every committed change that can affect them:
/// an `AsyncSequence` (see ``Query/values(removingDuplicates:)`` and
/// ``Query/observe(_:)``).
///
/// - The first element is the current result. Then one fresh result per committed write
///   or transaction that wrote a table the query reads (its model's, and those of its
///   eager loads), on the same store. Writes to other tables, other stores and work that
///   rolled back yield nothing. Changes that commit while a result is being read or
///   waits to be consumed are coalesced into one fresh read: a batch or a transaction of
///   ten thousand rows yields once.
/// - No polling: the sequence sleeps until a commit signals it.
/// - Results are read like the async terminals (on the blocking pool, or inline for a
///   free in-memory store) and belong to the iterating task's isolation.
/// - Iteration ends (returns nil) when the task is cancelled; a failing read throws.
/// - Only writes made through SwiftModel are seen (not raw SQL); other processes' commits
///   too on `PostgresAdapter`, which listens for them (`Docs/PostgreSQL.md`).
public struct QueryObservation<M: ModelProtocol, Value>: AsyncSequence, Sendable {
    public typealias Element = Value
    public typealias Failure = any Error

    let query: Result<Query<M>, any Error>
    let read: @Sendable (Query<M>) throws -> sending Value
    let isSame: (@Sendable (Value, Value) -> Bool)?

    /// Starts watching the store now, so no commit between this call and the first
    /// result is missed.
    public func makeAsyncIterator() -> Iterator {
        Iterator(observation: self, watch: (try? query.get()).map { ChangeWatch(query: $0) })
    }

    /// Reads the first result, then waits for relevant commits.
    public struct Iterator: AsyncIteratorProtocol {
        let observation: QueryObservation
        let watch: ChangeWatch?
        var last: Value?
        var started = false

        /// The next result, or nil once the task is cancelled.
        public mutating func next(isolation actor: isolated (any Actor)? = #isolation) async throws -> Value? {
            let query = try observation.query.get()
            guard let watch, let store = query.adapter else { return nil }
            while true {
                if started {
                    guard await watch.wait() else { return nil }
                }
                started = true
                let value: Value
                do {
                    let read = observation.read
                    value = try await BlockingPool.shared.run(on: store, reads: true) { try read(query) }
                } catch is CancellationError {
                    return nil
                }
                if let isSame = observation.isSame, let last, isSame(last, value) { continue }
                last = value
                return value
            }
        }

        /// The next result, or nil once the task is cancelled.
        public mutating func next() async throws -> Value? {
            try await next(isolation: nil)
        }
    }
}

extension Query {
    /// Observes the records the query selects: the current ones, then fresh ones after
    /// every committed change to the tables it reads (see ``QueryObservation``).
    ///
    /// ```swift
    /// for try await todos in Todo.where(\.done == false).order(by: \.due).values() {
    ///     render(todos)                 // now, and after each relevant commit
    /// }
    /// ```
    ///
    /// - Parameter removingDuplicates: skip a result whose rows equal the previous one's
    ///   (compares the records' stored values, not eager-loaded relations).
    public func values(removingDuplicates: Bool = false) -> QueryObservation<M, [M]> {
        let read: @Sendable (Query<M>) throws -> sending [M] = { query in try query.all() }
        let sameRows: @Sendable ([M], [M]) -> Bool = { lhs, rhs in
            lhs.count == rhs.count && zip(lhs, rhs).allSatisfy { $0._currentValues == $1._currentValues }
        }
        return QueryObservation(
            query: Result { try boundForObservation() }, read: read, isSame: removingDuplicates ? sameRows : nil)
    }

    /// Observes any read of the query — a count, an aggregate, the first record — now and
    /// after every committed change to the tables it reads (see ``QueryObservation``).
    ///
    /// ```swift
    /// for try await open in Todo.where(\.done == false).observe({ try $0.count() }) {
    ///     updateBadge(open)
    /// }
    /// ```
    public func observe<Value>(_ read: @escaping @Sendable (Query<M>) throws -> sending Value) -> QueryObservation<M, Value> {
        QueryObservation(query: Result { try boundForObservation() }, read: read, isSame: nil)
    }

    /// This query bound to the store it resolves to now (so store scopes apply).
    private func boundForObservation() throws -> Query<M> {
        let (_, store) = try M.context(adapter)
        return using(store)
    }

    /// The tables this query reads.
    var readTables: Set<String> { Set([M.schema.tableName] + includedTables) }
}
