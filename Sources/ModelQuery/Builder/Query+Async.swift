/// The async forms of the query terminals: the same steps as the synchronous ones (see
/// ``StoreSteps``), run by the async driver. The query is bound to its store in the
/// caller's context (`ModelStore.using` scopes apply); each store call is awaited on an
/// ``AsyncPersistenceAdapter`` outside a transaction, else runs on ``BlockingPool``
/// threads, never on the cooperative pool or the main actor; records are made, filtered
/// and linked in the caller's isolation, so they belong to it. Same results and errors as
/// the synchronous forms; a task cancelled before the work starts throws
/// `CancellationError`.
///
/// ```swift
/// let open = try await Todo.where(\.done == false).order(by: \.due).all()
/// let total = try await Todo.query().count()
/// ```
extension Query {
    /// Every record the query selects (async; see ``all()``).
    nonisolated(nonsending) public func all() async throws -> [M] { try await recordsSteps().run() }

    /// The first record, or nil (async).
    nonisolated(nonsending) public func first() async throws -> M? { try await first(1).first }

    /// The first `count` records (async).
    nonisolated(nonsending) public func first(_ count: Int) async throws -> [M] { try await firstSteps(count).run() }

    /// The last record, or nil (async).
    nonisolated(nonsending) public func last() async throws -> M? { try await lastSteps(1).run().last }

    /// How many records the query selects (async).
    nonisolated(nonsending) public func count() async throws -> Int { try await countSteps().run() }

    /// Whether the query selects any record (async).
    nonisolated(nonsending) public func exists() async throws -> Bool { try await existsSteps().run() }

    /// One page of results (async; see ``page(_:per:)``).
    nonisolated(nonsending) public func page(_ number: Int, per size: Int) async throws -> Page<M> {
        try await pageSteps(number, per: size).run()
    }

    /// The values of one column (async).
    nonisolated(nonsending) public func pluck(_ column: String) async throws -> [ModelValue] {
        try await pluckSteps(slot: ColumnResolver<M>().slot(column)).run()
    }

    /// The typed values of one column (async; see ``pluck(_:)-(KeyPath<M,V>)``).
    nonisolated(nonsending) public func pluck<V: ColumnValue>(_ keyPath: KeyPath<M, V>) async throws -> [V] {
        try await pluckSteps(slot: ColumnResolver<M>().slot(keyPath)).run().compactMap { V(modelValue: $0) }
    }

    /// The sum of a column (async; see ``sum(_:)-(String)``).
    nonisolated(nonsending) public func sum(_ column: String) async throws -> ModelValue { try await singleSteps(.sum, column).run() }

    /// The average of a column (async).
    nonisolated(nonsending) public func average(_ column: String) async throws -> ModelValue {
        try await singleSteps(.average, column).run()
    }

    /// The smallest value of a column (async).
    nonisolated(nonsending) public func min(_ column: String) async throws -> ModelValue { try await singleSteps(.min, column).run() }

    /// The largest value of a column (async).
    nonisolated(nonsending) public func max(_ column: String) async throws -> ModelValue { try await singleSteps(.max, column).run() }

    /// Deletes every selected record in one bulk store operation (async; see
    /// ``deleteAll()``).
    @discardableResult
    nonisolated(nonsending) public func deleteAll() async throws -> Int { try await deleteAllSteps().run() }

    /// Sets columns on every selected record in one bulk store operation (async; see
    /// ``updateAll(_:)``).
    @discardableResult
    nonisolated(nonsending) public func updateAll(_ values: [String: ModelValue]) async throws -> Int {
        try await updateAllSteps(values).run()
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
