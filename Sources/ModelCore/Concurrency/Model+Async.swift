/// The async forms of the class-level finders. Each resolves its store in the caller's
/// context (so `ModelStore.using` scopes apply), awaits an ``AsyncPersistenceAdapter``'s
/// own operations or runs the blocking adapter work on ``BlockingPool`` threads (see
/// ``AsyncStoreRoute``), and returns records that belong to the caller: they are created
/// for the call and handed over, never shared. Same results and errors as the
/// synchronous forms; a task cancelled before the work starts throws `CancellationError`.
///
/// ```swift
/// @MainActor final class TodoScreen {
///     var title = ""
///
///     func show(id: Int64) async throws {
///         let todo = try await Todo.find(id)      // the main actor is not blocked
///         title = todo?.name ?? ""
///     }
/// }
/// ```
extension ModelProtocol {
    /// The stored record with this id, or nil (async; see ``find(_:in:)``).
    nonisolated(nonsending) public static func find(
        _ id: IDValue, in adapter: (any PersistenceAdapter)? = nil
    ) async throws -> Self? {
        let (schema, store) = try context(adapter)
        let key = id.modelValue
        guard let native = AsyncStoreRoute.native(store) else {
            return try await BlockingPool.shared.run(on: store, reads: true) { try findRow(key, store: store) }
        }
        let registry = contextRegistry(schema)  // the same task after the await
        if let registry, let held = held(in: registry, key, schema: schema, store: store) { return held }
        guard let row = try await native.find(id: key, in: schema) else { return nil }
        return try materialize(row, schema: schema, store: store, registry: registry)
    }

    /// The stored record with the id `key` (already the id column's value), or nil: for
    /// code that holds ids as values (a server reading them from paths).
    nonisolated(nonsending) package static func find(key: ModelValue, in adapter: any PersistenceAdapter) async throws -> Self? {
        let (schema, store) = try context(adapter)
        guard let native = AsyncStoreRoute.native(store) else {
            return try await BlockingPool.shared.run(on: store, reads: true) { try findRow(key, store: store) }
        }
        let registry = contextRegistry(schema)  // the same task after the await
        if let registry, let held = held(in: registry, key, schema: schema, store: store) { return held }
        guard let row = try await native.find(id: key, in: schema) else { return nil }
        return try materialize(row, schema: schema, store: store, registry: registry)
    }

    /// Every stored record, in insertion order (async; see ``all(in:)``).
    nonisolated(nonsending) public static func all(in adapter: (any PersistenceAdapter)? = nil) async throws -> [Self] {
        try await allSteps(adapter).run()
    }

    /// How many records are stored (async; see ``count(in:)``).
    nonisolated(nonsending) public static func count(in adapter: (any PersistenceAdapter)? = nil) async throws -> Int {
        try await countSteps(adapter).run()
    }

    /// Replaces the values with the stored row (async; see ``reload()``).
    nonisolated(nonsending) public func reload() async throws {
        let (schema, store) = try reloadSource()
        let id = __baselineID
        let row: [ModelValue]?
        if let native = AsyncStoreRoute.native(store) {
            row = try await native.find(id: id, in: schema)
        } else {
            row = try await BlockingPool.shared.run(on: store, reads: true) { try store.find(id: id, in: schema) }
        }
        try applyReloaded(row, schema: schema)
    }

    /// Runs `body` with the store a class-level call resolves to now (so `ModelStore.using`
    /// scopes apply), on the blocking pool (or inline, see ``BlockingPool/run(on:_:)``).
    nonisolated(nonsending) package static func onPool<T>(
        _ adapter: (any PersistenceAdapter)?, _ body: @escaping @Sendable (any PersistenceAdapter) throws -> sending T
    ) async throws -> sending T {
        let (_, store) = try context(adapter)
        return try await BlockingPool.shared.run(on: store) { try body(store) }
    }

    /// `find` by a stored id value, on the calling thread.
    private static func findRow(_ key: ModelValue, store: any PersistenceAdapter) throws -> Self? {
        let (schema, store) = try context(store)
        return try findRow(key, schema: schema, store: store)
    }
}
