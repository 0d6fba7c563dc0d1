/// One call an operation makes to a store (see ``StoreSteps``): the requirements of
/// ``PersistenceAdapter`` that ``AsyncPersistenceAdapter`` has async twins of.
package enum StoreCall: Sendable {
    case fetch(StoreQuery)
    case count(StoreQuery)
    case aggregate(StoreQuery)
    case delete(StoreQuery)
    case update(StoreQuery, set: [Int: ModelValue])
    case find(id: ModelValue, in: ModelSchema)
    case deleteID(ModelValue, from: ModelSchema)
    case insert([ModelValue], into: ModelSchema)
    case updateRow([ModelValue], changedColumns: [Int], in: ModelSchema)

    /// The call made on `store`, blocking.
    package func perform(on store: any PersistenceAdapter) throws -> StoreReply {
        switch self {
        case .fetch(let query): .rows(try store.fetch(query))
        case .count(let query): .count(try store.count(query))
        case .aggregate(let query): .groups(try store.aggregate(query))
        case .delete(let query): .count(try store.delete(query))
        case .update(let query, let values): .count(try store.update(query, set: values))
        case .find(let id, let schema): .row(try store.find(id: id, in: schema))
        case .deleteID(let id, let schema): .deleted(try store.delete(id: id, from: schema))
        case .insert(let row, let schema):
            .written(StoreWrite(try store.insertReturningStored(row, into: schema)))
        case .updateRow(let row, let changed, let schema):
            .written(StoreWrite(id: nil, stored: try store.updateReturningStored(row, changedColumns: changed, in: schema)))
        }
    }

    /// The call awaited on an adapter with async operations.
    nonisolated(nonsending) package func perform(on store: any AsyncPersistenceAdapter) async throws -> StoreReply {
        switch self {
        case .fetch(let query): .rows(try await store.fetch(query))
        case .count(let query): .count(try await store.count(query))
        case .aggregate(let query): .groups(try await store.aggregate(query))
        case .delete(let query): .count(try await store.delete(query))
        case .update(let query, let values): .count(try await store.update(query, set: values))
        case .find(let id, let schema): .row(try await store.find(id: id, in: schema))
        case .deleteID(let id, let schema): .deleted(try await store.delete(id: id, from: schema))
        case .insert(let row, let schema):
            .written(StoreWrite(try await store.insertReturningStored(row, into: schema)))
        case .updateRow(let row, let changed, let schema):
            .written(StoreWrite(id: nil, stored: try await store.updateReturningStored(row, changedColumns: changed, in: schema)))
        }
    }

    /// The call made for the async API: awaited on the adapter's own async operations when
    /// nothing ties it to a thread (``AsyncStoreRoute``), else the blocking call on
    /// ``BlockingPool`` (inline inside a synchronous transaction, on the transaction's
    /// executor inside an async one). Never blocks the caller.
    nonisolated(nonsending) package func reply(from store: any PersistenceAdapter) async throws -> StoreReply {
        if let native = AsyncStoreRoute.native(store) { return try await perform(on: native) }
        let call = self
        return try await BlockingPool.shared.run(on: store, reads: call.reads) { try call.perform(on: store) }
    }

    /// Whether the call only reads.
    var reads: Bool {
        switch self {
        case .fetch, .count, .aggregate, .find: true
        case .delete, .update, .deleteID, .insert, .updateRow: false
        }
    }
}

/// What a store answered a ``StoreCall``.
package enum StoreReply: Sendable {
    case rows([[ModelValue]])
    case count(Int)
    case groups([AggregateGroup])
    case row([ModelValue]?)
    case deleted(Bool)
    case written(StoreWrite)

    /// The rows of a fetch (a reply of another kind is an adapter's error, not a trap).
    package func rows(for query: StoreQuery) throws -> [[ModelValue]] {
        if case .rows(let rows) = self { return rows }
        throw mismatch("rows", query)
    }

    /// The number a count, delete or update answered.
    package func count(for query: StoreQuery) throws -> Int {
        if case .count(let count) = self { return count }
        throw mismatch("a count", query)
    }

    /// The groups of an aggregate.
    package func groups(for query: StoreQuery) throws -> [AggregateGroup] {
        if case .groups(let groups) = self { return groups }
        throw mismatch("aggregate groups", query)
    }

    /// The row a find answered (nil: none with that id).
    package func row(in schema: ModelSchema) throws -> [ModelValue]? {
        if case .row(let row) = self { return row }
        throw mismatch("a row", StoreQuery(schema: schema))
    }

    /// Whether a delete by id found its row.
    package func deleted(from schema: ModelSchema) throws -> Bool {
        if case .deleted(let deleted) = self { return deleted }
        throw mismatch("a delete's answer", StoreQuery(schema: schema))
    }

    /// What an insert or a row update wrote.
    package func written(in schema: ModelSchema) throws -> StoreWrite {
        if case .written(let written) = self { return written }
        throw mismatch("a write's answer", StoreQuery(schema: schema))
    }

    private func mismatch(_ expected: String, _ query: StoreQuery) -> StoreError {
        StoreError(.invalidRequest, table: query.schema.tableName, message: "expected \(expected) from the store, got \(kind)")
    }

    private var kind: String {
        switch self {
        case .rows: "rows"
        case .count: "a count"
        case .groups: "aggregate groups"
        case .row: "a row"
        case .deleted: "a delete's answer"
        case .written: "a write's answer"
        }
    }
}

extension StoreSteps {
    /// Runs the steps, each store call blocking the calling thread.
    package func run() throws -> T {
        var steps = self
        while true {
            switch steps.next {
            case .done(let value): return value
            case .call(let call, let store, let then): steps = try then(Result { try call.perform(on: store) })
            }
        }
    }

    /// Runs the steps for the async API: the code between calls in the caller's isolation,
    /// each store call suspending the caller (``StoreCall/reply(from:)``).
    ///
    /// - Throws: `CancellationError` when the task is cancelled before the first call.
    nonisolated(nonsending) package func run() async throws -> T {
        try Task.checkCancellation()
        var steps = self
        while true {
            switch steps.next {
            case .done(let value): return value
            case .call(let call, let store, let then):
                let reply: Result<StoreReply, any Error>
                do {
                    reply = .success(try await call.reply(from: store))
                } catch {
                    reply = .failure(error)
                }
                steps = try then(reply)
            }
        }
    }
}

extension StoreWrite {
    /// What an insert answered: the id and the row as stored.
    init(_ inserted: (id: ModelValue, stored: [ModelValue]?)) { self.init(id: inserted.id, stored: inserted.stored) }
}
