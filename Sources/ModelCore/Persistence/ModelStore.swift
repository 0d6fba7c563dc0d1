import Synchronization


/// Chooses the adapter each model uses.
///
/// Resolution order, first match wins: the adapter passed to the call
/// (`todo.save(to: store)`), the store the record was loaded from or saved to, a scope
/// set with ``using(_:_:)`` (task-local, so parallel tests each see their own), the
/// model type's adapter (``setAdapter(_:for:)``), then the process default.
///
/// ```swift
/// ModelStore.setDefault(try SQLiteAdapter(path: "app.sqlite"))   // once, at launch
/// ModelStore.setAdapter(ArrayAdapter(), for: Draft.self)         // per model type
///
/// @Test func createsTasks() throws {
///     try ModelStore.using(ArrayAdapter()) {                      // per scope (tests)
///         try Todo(["name": "walk"]).save()
///     }
/// }
/// ```
public enum ModelStore {
    private struct Configuration {
        var defaultAdapter: (any PersistenceAdapter)?
        var perType: [ObjectIdentifier: any PersistenceAdapter] = [:]
    }
    /// The process's settings, or a task's private ones (``withPrivateSettings(_:)``).
    private static let processConfiguration = Locked(Configuration())
    @TaskLocal private static var privateConfiguration: Locked<Configuration>?
    /// How many private settings are bound anywhere: while none is, the task-local is not
    /// read (resolution is on every record call's path).
    private static let privateScopes = Atomic<Int>(0)
    private static var configuration: Locked<Configuration> {
        if privateScopes.load(ordering: .relaxed) == 0 { return processConfiguration }
        return privateConfiguration ?? processConfiguration
    }
    @TaskLocal private static var scoped: (any PersistenceAdapter)?

    /// Runs `body` with private settings (no default, no per-type adapters): what
    /// ``setDefault(_:)`` and ``setAdapter(_:for:)`` set inside it stays inside it and the
    /// tasks it starts. For tests, which run in parallel.
    package static func withPrivateSettings<R>(_ body: () throws -> R) rethrows -> R {
        privateScopes.add(1, ordering: .relaxed)
        defer { privateScopes.subtract(1, ordering: .relaxed) }
        return try $privateConfiguration.withValue(Locked(Configuration()), operation: body)
    }

    /// Sets (or clears) the process-wide default adapter.
    public static func setDefault(_ adapter: (any PersistenceAdapter)?) {
        configuration.withLock { $0.defaultAdapter = adapter }
    }

    /// The process-wide default adapter.
    public static var defaultAdapter: (any PersistenceAdapter)? { configuration.withLock { $0.defaultAdapter } }

    /// Sets (or clears) the adapter one model type uses.
    public static func setAdapter<M: Model>(_ adapter: (any PersistenceAdapter)?, for type: M.Type) {
        configuration.withLock { $0.perType[ObjectIdentifier(type)] = adapter }
    }

    /// Runs `body` with `adapter` used by every model that has no record-specific store.
    /// Scopes nest; the previous one is restored when `body` returns or throws.
    @discardableResult
    public static func using<R>(_ adapter: any PersistenceAdapter, _ body: () throws -> R) rethrows -> R {
        try $scoped.withValue(adapter, operation: body)
    }

    /// Runs `body` with `adapter` used by every model that has no record-specific store.
    @discardableResult
    public static func using<R>(
        _ adapter: any PersistenceAdapter, isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> R
    ) async rethrows -> R {
        try await $scoped.withValue(adapter, operation: body, isolation: isolation)
    }

    /// The adapter `type` uses now (ignoring record-specific stores).
    public static func adapter<M: Model>(for type: M.Type) throws(ModelError) -> any PersistenceAdapter {
        try resolve(ObjectIdentifier(type), modelName: String(describing: type))
    }

    package static func resolve(_ type: ObjectIdentifier, modelName: String) throws(ModelError) -> any PersistenceAdapter {
        if let scoped { return scoped }
        let found = configuration.withLock { $0.perType[type] ?? $0.defaultAdapter }
        guard let found else {
            throw ModelError(
                .noStore, model: modelName,
                message: "no adapter: call ModelStore.setDefault(_:), ModelStore.setAdapter(_:for:), or pass one to the call")
        }
        return found
    }
}
