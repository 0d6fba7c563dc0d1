/// The async forms of the query terminals. The query is bound to its store in the
/// caller's context (`ModelStore.using` scopes apply), then runs — fetch, Swift filters,
/// eager loads — on ``BlockingPool`` threads, never on the cooperative pool or the main
/// actor; on an ``AsyncPersistenceAdapter`` outside a transaction, it awaits the adapter's
/// own operations instead and holds no thread while it waits (see ``AsyncStoreRoute``). The records returned belong to the caller (made for the call, shared with
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

    /// Runs a terminal of the bound query for the async API: `native` on an adapter the
    /// call can await, else the synchronous terminal `body` on the blocking pool.
    nonisolated(nonsending) private func run<T>(
        _ body: @escaping @Sendable (Query<M>) throws -> sending T,
        native: nonisolated(nonsending) (Query<M>, any AsyncPersistenceAdapter) async throws -> T
    ) async throws -> T {
        let query = try bound()
        guard let store = query.adapter else { return try await BlockingPool.shared.run { try body(query) } }
        if let awaited = AsyncStoreRoute.native(store) { return try await native(query, awaited) }
        return try await BlockingPool.shared.run(on: store) { try body(query) }
    }

    /// Every record the query selects (async; see ``all()``).
    nonisolated(nonsending) public func all() async throws -> [M] {
        try await run({ try $0.all() }, native: { try await $0.awaitRecords($1) })
    }

    /// The first record, or nil (async).
    nonisolated(nonsending) public func first() async throws -> M? {
        try await first(1).first
    }

    /// The first `count` records (async).
    nonisolated(nonsending) public func first(_ count: Int) async throws -> [M] {
        try await run({ try $0.first(count) }, native: { try await $0.awaitFirst(count, $1) })
    }

    /// The last record, or nil (async).
    nonisolated(nonsending) public func last() async throws -> M? {
        try await run({ try $0.last(1) }, native: { try await $0.awaitLast(1, $1) }).last
    }

    /// How many records the query selects (async).
    nonisolated(nonsending) public func count() async throws -> Int {
        try await run({ try $0.count() }, native: { try await $0.awaitCount($1) })
    }

    /// Whether the query selects any record (async).
    nonisolated(nonsending) public func exists() async throws -> Bool {
        try await run({ try $0.exists() }, native: { try await $0.awaitExists($1) })
    }

    /// One page of results (async; see ``page(_:per:)``).
    nonisolated(nonsending) public func page(_ number: Int, per size: Int) async throws -> Page<M> {
        try await run({ try $0.page(number, per: size) }, native: { try await $0.awaitPage(number, per: size, $1) })
    }

    /// The values of one column (async).
    nonisolated(nonsending) public func pluck(_ column: String) async throws -> [ModelValue] {
        try await run({ try $0.pluck(column) }, native: { try await $0.awaitPluck(column, $1) })
    }

    /// The sum of a column (async; see ``sum(_:)-(String)``).
    nonisolated(nonsending) public func sum(_ column: String) async throws -> ModelValue {
        try await run({ try $0.sum(column) }, native: { try await $0.awaitAggregate(.sum, column, $1) })
    }

    /// The average of a column (async).
    nonisolated(nonsending) public func average(_ column: String) async throws -> ModelValue {
        try await run({ try $0.average(column) }, native: { try await $0.awaitAggregate(.average, column, $1) })
    }

    /// The smallest value of a column (async).
    nonisolated(nonsending) public func min(_ column: String) async throws -> ModelValue {
        try await run({ try $0.min(column) }, native: { try await $0.awaitAggregate(.min, column, $1) })
    }

    /// The largest value of a column (async).
    nonisolated(nonsending) public func max(_ column: String) async throws -> ModelValue {
        try await run({ try $0.max(column) }, native: { try await $0.awaitAggregate(.max, column, $1) })
    }

    /// Deletes every selected record in one bulk store operation (async; see
    /// ``deleteAll()``).
    @discardableResult
    nonisolated(nonsending) public func deleteAll() async throws -> Int {
        try await run({ try $0.deleteAll() }, native: { try await $0.awaitDeleteAll($1) })
    }

    /// Sets columns on every selected record in one bulk store operation (async; see
    /// ``updateAll(_:)``).
    @discardableResult
    nonisolated(nonsending) public func updateAll(_ values: [String: ModelValue]) async throws -> Int {
        try await run({ try $0.updateAll(values) }, native: { try await $0.awaitUpdateAll(values, $1) })
    }

    /// ``updateAll(_:)-ModelValue`` with Swift values by column name, async.
    @discardableResult
    nonisolated(nonsending) public func updateAll(_ values: [String: any ModelValueConvertible]) async throws -> Int {
        try await updateAll(values.mapValues(\.modelValue))
    }

    /// Sets one column, named by key path, on every selected record, async.
    @discardableResult
    nonisolated(nonsending) public func updateAll<V: ColumnValue>(_ keyPath: KeyPath<M, V>, to value: V) async throws -> Int {
        try await updateAll([keyPath: value])
    }

    /// Sets columns named by key paths on every selected record, async.
    @discardableResult
    nonisolated(nonsending) public func updateAll(_ values: [PartialKeyPath<M>: any ModelValueConvertible]) async throws -> Int {
        try await updateAll(Self.named(values))
    }
}
