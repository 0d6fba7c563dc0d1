/// The async forms of the query terminals. The query is bound to its store in the
/// caller's context (`ModelStore.using` scopes apply), then runs — fetch, Swift filters,
/// eager loads — on ``BlockingPool`` threads, never on the cooperative pool or the main
/// actor. The records returned belong to the caller (made for the call, shared with
/// nothing). Same results and errors as the synchronous forms; a task cancelled before
/// the work starts throws `CancellationError`.
///
/// ```swift
/// let open = try await Todo.where(\.done == false).order(by: \.due).all()
/// let total = try await Todo.query().count()
/// ```
extension Query {
    /// This query bound to the store it resolves to now.
    private func bound() throws -> Query<M> {
        let (_, store) = try M.context(adapter)
        return using(store)
    }

    /// Every record the query selects (async; see ``all()``).
    nonisolated(nonsending) public func all() async throws -> [M] {
        let query = try bound()
        return try await BlockingPool.shared.run { try query.all() }
    }

    /// The first record, or nil (async).
    nonisolated(nonsending) public func first() async throws -> M? {
        let query = try bound()
        return try await BlockingPool.shared.run { try query.first() }
    }

    /// The first `count` records (async).
    nonisolated(nonsending) public func first(_ count: Int) async throws -> [M] {
        let query = try bound()
        return try await BlockingPool.shared.run { try query.first(count) }
    }

    /// The last record, or nil (async).
    nonisolated(nonsending) public func last() async throws -> M? {
        let query = try bound()
        return try await BlockingPool.shared.run { try query.last() }
    }

    /// How many records the query selects (async).
    nonisolated(nonsending) public func count() async throws -> Int {
        let query = try bound()
        return try await BlockingPool.shared.run { try query.count() }
    }

    /// Whether the query selects any record (async).
    nonisolated(nonsending) public func exists() async throws -> Bool {
        let query = try bound()
        return try await BlockingPool.shared.run { try query.exists() }
    }

    /// One page of results (async; see ``page(_:per:)``).
    nonisolated(nonsending) public func page(_ number: Int, per size: Int) async throws -> Page<M> {
        let query = try bound()
        return try await BlockingPool.shared.run { try query.page(number, per: size) }
    }

    /// The values of one column (async).
    nonisolated(nonsending) public func pluck(_ column: String) async throws -> [ModelValue] {
        let query = try bound()
        return try await BlockingPool.shared.run { try query.pluck(column) }
    }

    /// The sum of a column (async; see ``sum(_:)-(String)``).
    nonisolated(nonsending) public func sum(_ column: String) async throws -> ModelValue {
        let query = try bound()
        return try await BlockingPool.shared.run { try query.sum(column) }
    }

    /// The average of a column (async).
    nonisolated(nonsending) public func average(_ column: String) async throws -> ModelValue {
        let query = try bound()
        return try await BlockingPool.shared.run { try query.average(column) }
    }

    /// The smallest value of a column (async).
    nonisolated(nonsending) public func min(_ column: String) async throws -> ModelValue {
        let query = try bound()
        return try await BlockingPool.shared.run { try query.min(column) }
    }

    /// The largest value of a column (async).
    nonisolated(nonsending) public func max(_ column: String) async throws -> ModelValue {
        let query = try bound()
        return try await BlockingPool.shared.run { try query.max(column) }
    }
}
