/// An adapter that performs its operations without holding a thread while it waits: the
/// async API awaits these instead of running the synchronous requirements of
/// ``PersistenceAdapter`` on ``BlockingPool`` threads.
///
/// An adapter adopts it when its work is waiting on something outside the process (a
/// network round trip) and it has a way to be told when that ends (`RESTAdapter` over
/// URLSession's callbacks). Each requirement must behave exactly as its synchronous
/// twin — same results, same errors — and must not block the calling thread: the caller
/// is a task on the cooperative pool or the main actor.
///
/// The async API uses these only when no transaction ties the call to a thread: inside a
/// synchronous `transaction { }` or an async transaction's body, the synchronous
/// requirements run as they do today (see ``AsyncStoreRoute``).
public protocol AsyncPersistenceAdapter: PersistenceAdapter {
    /// The row with this id, or nil (async ``PersistenceAdapter/find(id:in:)``).
    func find(id: ModelValue, in schema: ModelSchema) async throws -> [ModelValue]?

    /// The rows a query matches (async ``PersistenceAdapter/fetch(_:)``).
    func fetch(_ query: StoreQuery) async throws -> [[ModelValue]]

    /// How many rows a query matches (async ``PersistenceAdapter/count(_:)``).
    func count(_ query: StoreQuery) async throws -> Int

    /// Inserts a row; the id and the row as stored (async
    /// ``PersistenceAdapter/insertReturningStored(_:into:)``).
    func insertReturningStored(_ row: [ModelValue], into schema: ModelSchema) async throws -> (
        id: ModelValue, stored: [ModelValue]?
    )

    /// Updates a row; the row as stored when the adapter learns it (async
    /// ``PersistenceAdapter/updateReturningStored(_:changedColumns:in:)``).
    func updateReturningStored(_ row: [ModelValue], changedColumns: [Int], in schema: ModelSchema) async throws
        -> [ModelValue]?

    /// Deletes the row with this id; whether there was one (async
    /// ``PersistenceAdapter/delete(id:from:)``).
    func delete(id: ModelValue, from schema: ModelSchema) async throws -> Bool

    /// Deletes the rows a query matches; how many (async ``PersistenceAdapter/delete(_:)``).
    func delete(_ query: StoreQuery) async throws -> Int

    /// Sets columns on the rows a query matches; how many changed (async
    /// ``PersistenceAdapter/update(_:set:)``).
    func update(_ query: StoreQuery, set values: [Int: ModelValue]) async throws -> Int

    /// Grouped aggregates (async ``PersistenceAdapter/aggregate(_:)``).
    func aggregate(_ query: StoreQuery) async throws -> [AggregateGroup]
}

/// How an async call reaches its store: the adapter's own async operations when it has
/// them and nothing ties the call to a thread, else the synchronous ones on
/// ``BlockingPool`` (or inline, see ``BlockingPool/run(on:_:)``).
package enum AsyncStoreRoute {
    /// `store` as an ``AsyncPersistenceAdapter`` to await, or nil to use the blocking pool:
    /// inside a transaction on `store` the call belongs to the transaction (see
    /// ``BlockingPool/run(on:_:)``).
    package static func native(_ store: any PersistenceAdapter) -> (any AsyncPersistenceAdapter)? {
        guard let native = store as? any AsyncPersistenceAdapter else { return nil }
        if TransactionContext.isOpen(on: store) { return nil }
        return native
    }
}
