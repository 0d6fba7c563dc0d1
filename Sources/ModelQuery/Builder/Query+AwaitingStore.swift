import ModelEngine

/// The async terminals on an ``AsyncPersistenceAdapter``: the steps of the synchronous
/// terminals (`Query+Fetching`, `Query+Aggregates`, `Query+Batch`), with each store call
/// awaited in the caller's isolation instead of run on a blocking-pool thread. Records are
/// made where the caller runs, so they belong to it.
extension Query {
    /// ``records()``, awaiting the store.
    nonisolated(nonsending) func awaitRecords(_ store: any AsyncPersistenceAdapter) async throws -> [M] {
        let (query, home) = try prepared()
        let rows = try await store.fetch(runsInSwift ? storeSide(query) : query)
        let fetched = try M.records(from: rows, schema: query.schema, store: home)
        guard runsInSwift else { return try await awaitLoaded(fetched, home, everyRow: query.selectsEveryRow) }
        return try await awaitLoaded(swiftSide(fetched), home)
    }

    /// The records of `query`, eager loads run.
    nonisolated(nonsending) private func awaitFetch(_ query: StoreQuery, _ store: any AsyncPersistenceAdapter) async throws -> [M] {
        let records = try M.records(from: await store.fetch(query), schema: query.schema, store: store)
        return try await awaitLoaded(records, store)
    }

    /// ``loaded(_:_:)``, awaiting each eager load's query.
    nonisolated(nonsending) private func awaitLoaded(
        _ records: [M], _ store: any PersistenceAdapter, everyRow: Bool = false
    ) async throws -> [M] {
        let owners = EagerOwners(records: records, everyRow: everyRow)
        for include in includes { try await include.loadAsync(owners, store) }
        return records
    }

    /// ``first(_:)``, awaiting the store.
    nonisolated(nonsending) func awaitFirst(_ count: Int, _ store: any AsyncPersistenceAdapter) async throws -> [M] {
        guard count >= 0 else { throw argument("first(\(count)) needs a count of at least 0") }
        if runsInSwift { return Array(try await awaitRecords(store).prefix(count)) }
        var (query, _) = try prepared()
        query.limit = Swift.min(query.limit ?? count, count)
        return try await awaitFetch(query, store)
    }

    /// ``last(_:)``, awaiting the store.
    nonisolated(nonsending) func awaitLast(_ count: Int, _ store: any AsyncPersistenceAdapter) async throws -> [M] {
        guard count >= 0 else { throw argument("last(\(count)) needs a count of at least 0") }
        if runsInSwift { return Array(try await awaitRecords(store).suffix(count)) }
        var (query, _) = try prepared()
        let total = try await store.count(query)
        query.offset += Swift.max(0, total - count)
        query.limit = Swift.min(count, total)
        return try await awaitFetch(query, store)
    }

    /// ``count()``, awaiting the store.
    nonisolated(nonsending) func awaitCount(_ store: any AsyncPersistenceAdapter) async throws -> Int {
        if runsInSwift { return try await awaitRecords(store).count }
        return try await store.count(prepared(fetching: false).0)
    }

    /// ``exists()``, awaiting the store.
    nonisolated(nonsending) func awaitExists(_ store: any AsyncPersistenceAdapter) async throws -> Bool {
        if runsInSwift { return try await !awaitRecords(store).isEmpty }
        var (query, _) = try prepared(fetching: false)
        if query.limit != 0 { query.limit = 1 }
        return try await store.count(query) > 0
    }

    /// ``page(_:per:)``, awaiting the store.
    nonisolated(nonsending) func awaitPage(_ number: Int, per size: Int, _ store: any AsyncPersistenceAdapter) async throws -> Page<M> {
        let skip = try pageSkip(number, per: size)
        if runsInSwift {
            let all = try await awaitRecords(store)
            return Page(items: Array(all.dropFirst(skip).prefix(size)), number: number, size: size, total: all.count)
        }
        var (query, _) = try prepared()
        let total = try await store.count(query)
        guard skip < total else { return Page(items: [], number: number, size: size, total: total) }
        query.offset += skip
        query.limit = Swift.min(size, total - skip)
        return Page(items: try await awaitFetch(query, store), number: number, size: size, total: total)
    }

    /// ``pluck(_:)-(String)``, awaiting the store.
    nonisolated(nonsending) func awaitPluck(_ column: String, _ store: any AsyncPersistenceAdapter) async throws -> [ModelValue] {
        let slot = try ColumnResolver<M>().slot(column)
        if runsInSwift { return try await awaitRecords(store).map { $0._value(at: slot) } }
        return try await store.fetch(prepared().0).map { $0[slot] }
    }

    /// ``resolvedByID()``, awaiting the store.
    nonisolated(nonsending) private func awaitResolvedByID(_ store: any AsyncPersistenceAdapter) async throws -> StoreQuery {
        let (query, _) = try prepared(fetching: false)
        guard runsInSwift else { return query }
        let ids = try await awaitRecords(store).map { $0._value(at: 0) }
        return StoreQuery(schema: query.schema, predicate: .isIn(column: 0, ids))
    }

    /// One aggregate over the selected records, awaiting the store.
    nonisolated(nonsending) func awaitAggregate(_ function: Aggregate.Function, _ column: String, _ store: any AsyncPersistenceAdapter)
        async throws -> ModelValue
    {
        let slot = try ColumnResolver<M>().slot(column)
        try Self.check(function, on: slot)
        var query = try await awaitResolvedByID(store)
        query.aggregate = Aggregate(function, column: slot)
        return try await store.aggregate(query).first?.value ?? .null
    }

    /// ``deleteAll()``, awaiting the store.
    nonisolated(nonsending) func awaitDeleteAll(_ store: any AsyncPersistenceAdapter) async throws -> Int {
        let query = try await awaitResolvedByID(store)
        let count = try await store.delete(query)
        M.announceBulk(.deleteAll, schema: query.schema, store: store, count: count)
        return count
    }

    /// ``updateAll(_:)-ModelValue``, awaiting the store.
    nonisolated(nonsending) func awaitUpdateAll(_ values: [String: ModelValue], _ store: any AsyncPersistenceAdapter) async throws -> Int {
        let assignments = try bulkAssignments(values)
        guard !assignments.isEmpty else { return 0 }
        let query = try await awaitResolvedByID(store)
        let count = try await store.update(query, set: assignments)
        M.announceBulk(.updateAll, schema: query.schema, store: store, count: count, slots: assignments.keys.sorted())
        return count
    }
}
