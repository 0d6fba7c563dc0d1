/// The async forms of the class-level finders. Each resolves its store in the caller's
/// context (so `ModelStore.using` scopes apply), runs the blocking adapter work on
/// ``BlockingPool`` threads, and returns records that belong to the caller: they are
/// created for the call and handed over, never shared. Same results and errors as the
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
        let (_, store) = try context(adapter)
        let key = id.modelValue
        return try await BlockingPool.shared.run(on: store) { try findRow(key, store: store) }
    }

    /// Every stored record, in insertion order (async; see ``all(in:)``).
    nonisolated(nonsending) public static func all(in adapter: (any PersistenceAdapter)? = nil) async throws -> [Self] {
        try await onPool(adapter) { store in try all(in: store) }
    }

    /// How many records are stored (async; see ``count(in:)``).
    nonisolated(nonsending) public static func count(in adapter: (any PersistenceAdapter)? = nil) async throws -> Int {
        try await onPool(adapter) { store in try count(in: store) }
    }

    /// Replaces the values with the stored row (async; see ``reload()``).
    nonisolated(nonsending) public func reload() async throws {
        let (schema, store) = try reloadSource()
        let id = __baseline[0]
        let row = try await BlockingPool.shared.run(on: store) { try store.find(id: id, in: schema) }
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
