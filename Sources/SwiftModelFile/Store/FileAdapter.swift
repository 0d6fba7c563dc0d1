import SwiftModelArray
import Foundation
import Synchronization

/// A store kept in memory and persisted to files in `NSKeyedArchiver`'s keyed-archive
/// format (a binary property list that Foundation's `NSKeyedUnarchiver`, Python's
/// `plistlib` and other tools open).
///
/// Two ways to use files, which combine:
///
/// ```swift
/// import FileAdapter
///
/// // The whole store in one file, loaded now, saved after each commit.
/// let store = try FileAdapter(file: URL(filePath: "app.archive"), models: [Project.self, Todo.self])
/// ModelStore.setDefault(store)
/// try Todo(["name": "walk"]).save()
/// try store.flush()                     // write pending changes now (autosave is coalesced)
///
/// // One file per model type, as MotionModel's serialize_to_file did.
/// try Todo.serialize(to: URL(filePath: "todos.archive"))
/// try Todo.deserialize(from: URL(filePath: "todos.archive"))   // replaces Todo's rows
/// try Todo.serialize()                  // the remembered file
/// ```
///
/// ## Queries and threads
/// Rows live in an ``ArrayAdapter`` (the same tables, indexes, undo-journal transactions
/// and ``QueryEngine``), so everything ArrayAdapter documents about queries, ordering
/// and threads holds here. Saves take a consistent snapshot under the store's lock, then
/// encode and write without holding it, one save at a time.
///
/// ## Files
/// Saves are atomic and durable (temporary file, `fsync`, rename, `fsync` of the
/// directory); new files are owner-only (`0o600`) by default. Loading replaces the
/// in-memory rows (no hooks, no timestamp changes); ids continue above the largest
/// loaded one. A damaged or foreign file is an ``ArchiveError`` and changes nothing.
/// See `Docs/FileAdapter.md` for the format, versions and migrations.
public final class FileAdapter: PersistenceAdapter, @unchecked Sendable {
    // @unchecked Sendable: every `var` below is read and written only inside
    // `memory.withLock` (ArrayAdapter's lock, which its transactions own from start to
    // end); `fileLock` serialises saves; `pendingTables` is atomic; `autosave` is a Locked value.
    let memory = ArrayAdapter()
    /// The whole-store file, if any.
    public let file: URL?
    /// How files are written.
    public let configuration: Configuration
    /// This adapter's settings: ``FileAdapterConfiguration``.
    public typealias Configuration = FileAdapterConfiguration

    var registrations: [String: ArchiveRegistration] = [:]
    /// Per-model files (and the schema they were used with), by table name.
    var tableFiles: [String: (url: URL, schema: ModelSchema)] = [:]
    /// Tables loaded from the store file that no model has used yet, kept as stored (and
    /// written back by saves, so nothing is lost).
    var unclaimed: [String: ArchivedTable] = [:]
    let pendingTables = Atomic<Int>(0)
    /// Tables written since their last save, and whether the store file is behind.
    var dirtyTables: Set<String> = []
    var storeDirty = false
    let fileLock = Locked(())
    let autosave = Locked(AutosaveState())
    /// How many archive files this adapter has written (for tests and diagnostics).
    package let filesWritten = Atomic<Int>(0)
    let autosaveQueue = DispatchQueue(label: "SwiftModel.FileAdapter.autosave", qos: .utility)

    /// A store without a store file: use ``Model/serialize(to:in:)`` and
    /// ``Model/deserialize(from:ifMissing:in:)`` per model type.
    public init(configuration: Configuration = Configuration()) {
        self.file = nil
        self.configuration = configuration
        memory.label = "file store"
        memory.refusesHistory = true  // per-model files keep rows, not history (the store file keeps it)
    }

    /// A store without a store file (renamed ``init(configuration:)``).
    @available(*, deprecated, renamed: "init(configuration:)")
    public convenience init(options: Configuration) { self.init(configuration: options) }

    /// Opens the store kept in `file`, loading it now (a missing file is an empty store).
    ///
    /// - Parameters:
    ///   - models: Model types to load eagerly (schema version 1), so that a bad value is
    ///     reported here. Tables of other models load on their first use; versioned models
    ///     are declared with ``register(_:version:migrations:)``.
    /// - Throws: ``ArchiveError`` when the file cannot be read or does not fit the models.
    public init(file: URL, models: [any Model.Type] = [], configuration: Configuration = Configuration()) throws {
        self.file = file
        self.configuration = configuration
        memory.label = "file store at \(file.path)"
        for model in models { registrations[model.schema.tableName] = ArchiveRegistration(schema: model.schema) }
        try load()
    }

    /// Opens the store kept in `file` (renamed ``init(file:models:configuration:)``).
    @available(*, deprecated, renamed: "init(file:models:configuration:)")
    public convenience init(file: URL, models: [any Model.Type] = [], options: Configuration) throws {
        try self.init(file: file, models: models, configuration: options)
    }

    /// Declares a model's schema version and the steps that migrate older records. Rows
    /// of this model already loaded from the store file but not yet used are converted now.
    ///
    /// - Throws: ``StoreError`` `.invalidRequest` for a version below 1 or steps out of
    ///   `2...version` or repeated; ``ArchiveError`` when pending rows do not convert.
    public func register<M: Model>(_ type: M.Type, version: Int = 1, migrations: [ArchiveMigration] = []) throws {
        let schema = M.schema
        try schema.validate()
        let versions = migrations.map(\.version)
        guard version >= 1, versions.allSatisfy({ (2...max(2, version)).contains($0) }), Set(versions).count == versions.count
        else {
            throw StoreError(
                .invalidRequest, table: schema.tableName,
                message: "version \(version) with migrations to \(versions): versions start at 1 and each step targets a distinct version in 2...\(version)")
        }
        try memory.withLock {
            registrations[schema.tableName] = ArchiveRegistration(schema: schema, version: version, migrations: migrations)
            try claim(schema)
        }
    }

    /// Removes every row of every model from memory (files change on the next save).
    ///
    /// - Throws: ``StoreError`` `.invalidRequest` inside a transaction.
    public func reset() throws {
        let autosaves = try memory.withLock {
            try memory.reset()
            unclaimed.removeAll()
            pendingTables.store(0, ordering: .releasing)
            storeDirty = true
            dirtyTables.formUnion(tableFiles.keys)
            return hasFiles
        }
        if autosaves { scheduleAutosave() }
    }

    /// The schema version files of this table are written with.
    func version(of table: String) -> Int { registrations[table]?.version ?? 1 }

    /// Converts a table loaded from the store file the first time its model is used.
    /// Call with the lock held.
    func claim(_ schema: ModelSchema) throws {
        guard let archived = unclaimed[schema.tableName] else { return }
        let registration = registrations[schema.tableName].flatMap { $0.schema === schema ? $0 : nil }
            ?? ArchiveRegistration(schema: schema, version: version(of: schema.tableName))
        let path = file?.path ?? ""
        let rows = try TableImport.rows(from: archived, for: registration, path: path)
        try install([(schema, rows, archived.nextID ?? 1)], clearingOthers: false, from: path)
        unclaimed[schema.tableName] = nil
        pendingTables.store(unclaimed.count, ordering: .releasing)
    }

    /// ``claim(_:)`` when anything is pending (one atomic load otherwise).
    @inline(__always) func claimIfPending(_ schema: ModelSchema) throws {
        guard pendingTables.load(ordering: .acquiring) > 0 else { return }
        try memory.withLock { try claim(schema) }
    }

    /// Notes a committed-or-pending write to `table`; outside transactions it is committed,
    /// so autosave is scheduled.
    func didWrite(_ table: String) {
        let committed = memory.withLock {
            dirtyTables.insert(table)
            storeDirty = true
            return memory.openLevels == 0 && hasFiles
        }
        if committed { scheduleAutosave() }
    }

    // MARK: - PersistenceAdapter (rows live in the ArrayAdapter)

    /// Creates the table, converting rows loaded for it from the store file.
    public func prepare(_ schema: ModelSchema) throws {
        try claimIfPending(schema)
        try memory.prepare(schema)
    }

    /// Inserts a row (see ``ArrayAdapter/insert(_:into:)``).
    public func insert(_ row: [ModelValue], into schema: ModelSchema) throws -> ModelValue {
        try claimIfPending(schema)
        let id = try memory.insert(row, into: schema)
        didWrite(schema.tableName)
        return id
    }

    /// Replaces a row (see ``ArrayAdapter/update(_:changedColumns:in:)``).
    public func update(_ row: [ModelValue], changedColumns: [Int], in schema: ModelSchema) throws {
        try claimIfPending(schema)
        try memory.update(row, changedColumns: changedColumns, in: schema)
        didWrite(schema.tableName)
    }

    /// Deletes a row (see ``ArrayAdapter/delete(id:from:)``).
    public func delete(id: ModelValue, from schema: ModelSchema) throws -> Bool {
        try claimIfPending(schema)
        let deleted = try memory.delete(id: id, from: schema)
        if deleted { didWrite(schema.tableName) }
        return deleted
    }

    /// The row with this id.
    public func find(id: ModelValue, in schema: ModelSchema) throws -> [ModelValue]? {
        try claimIfPending(schema)
        return try memory.find(id: id, in: schema)
    }

    /// Rows matching the query, evaluated by ``QueryEngine``.
    /// Writers are serialised (a transaction owns the store), so fetches need no row lock.
    public var rowLockSupport: RowLockSupport { .serialisedWriters }

    public func fetch(_ query: StoreQuery) throws -> [[ModelValue]] {
        try claimIfPending(query.schema)
        return try memory.fetch(query)
    }

    /// How many rows match.
    public func count(_ query: StoreQuery) throws -> Int {
        try claimIfPending(query.schema)
        return try memory.count(query)
    }

    /// Deletes the rows matching the query.
    public func delete(_ query: StoreQuery) throws -> Int {
        try claimIfPending(query.schema)
        let deleted = try memory.delete(query)
        if deleted > 0 { didWrite(query.schema.tableName) }
        return deleted
    }

    /// Sets columns on the rows matching the query.
    public func update(_ query: StoreQuery, set values: [Int: ModelValue]) throws -> Int {
        try claimIfPending(query.schema)
        let changed = try memory.update(query, set: values)
        if changed > 0 { didWrite(query.schema.tableName) }
        return changed
    }

    /// Computes the query's aggregate.
    public func aggregate(_ query: StoreQuery) throws -> [AggregateGroup] {
        try claimIfPending(query.schema)
        return try memory.aggregate(query)
    }

    /// Runs `body` atomically (see ``ArrayAdapter/withTransaction(_:)``); when the outermost
    /// level commits with writes, autosave is scheduled.
    public func withTransaction<R>(_ body: () throws -> R) throws -> R {
        let outermost = !memory.isInTransactionHere
        let result = try memory.withTransaction(body)
        if outermost { scheduleAutosaveIfDirty() }
        return result
    }

    /// Opens an async transaction's outermost level (see
    /// ``ArrayAdapter/beginTransaction(for:)``); its commit schedules autosave.
    nonisolated(nonsending) public func beginTransaction(for handle: TransactionHandle) async throws -> (any StoreTransaction)? {
        guard let inner = try await memory.beginTransaction(for: handle) else { return nil }
        return FileTransaction(store: self, inner: inner)
    }

    /// Schedules autosave when a committed write left anything unsaved.
    func scheduleAutosaveIfDirty() {
        if memory.withLock({ (storeDirty || !dirtyTables.isEmpty) && hasFiles }) { scheduleAutosave() }
    }

    /// Whether there is any file to autosave to. Call with the lock held.
    var hasFiles: Bool { file != nil || !tableFiles.isEmpty }

    /// Whether the caller is inside one of this store's transactions.
    var callerIsInTransaction: Bool { memory.isInTransactionHere }
}

/// An async transaction's outermost level on a ``FileAdapter``.
private struct FileTransaction: StoreTransaction {
    let store: FileAdapter
    let inner: any StoreTransaction

    func commit() throws {
        try inner.commit()
        store.scheduleAutosaveIfDirty()
    }

    func rollback() { inner.rollback() }
}

extension FileAdapter: AdmittingAdapter {
    /// The in-memory store's lock, which every call takes.
    package func admission(reads: Bool) -> StoreLock? { memory.admission(reads: reads) }
}
