import Foundation

/// The one contract every store implements: memory, archive file, SQLite, and later
/// client-server databases.
///
/// It works on rows (`[ModelValue]` in ``ModelSchema`` column order, id at index 0), never
/// on model objects, so any store can implement it. Calls are synchronous and
/// thread-safe: an adapter may be used from many threads at once, and documents how it
/// serialises writers. See `Docs/Architecture.md` for the reasoning.
///
/// Adapters accept any schema in any call, preparing storage for it on first use;
/// ``prepare(_:)`` lets callers do that eagerly (for example to migrate at launch).
public protocol PersistenceAdapter: AnyObject, Sendable {
    /// Creates or migrates storage for `schema`. Idempotent.
    func prepare(_ schema: ModelSchema) throws

    /// Inserts a row and returns its id. For ``IDGeneration/autoIncrement`` schemas a
    /// `null` id is replaced by the next integer; any other id is kept. A duplicate id is a
    /// ``StoreError`` and stores nothing.
    func insert(_ row: [ModelValue], into schema: ModelSchema) throws -> ModelValue

    /// Replaces the stored row whose id is `row[0]`. `changedColumns` lists the row
    /// indexes that differ from what was loaded (adapters may write only those). A missing
    /// row is a ``StoreError``.
    func update(_ row: [ModelValue], changedColumns: [Int], in schema: ModelSchema) throws

    /// Inserts a row like ``insert(_:into:)`` and returns the row as the store now holds
    /// it, when that can differ from `row` beyond the id (a server that sets fields); nil
    /// means "as sent, with the returned id". A save applies the returned row to the record.
    /// The default calls ``insert(_:into:)`` and returns nil.
    func insertReturningStored(_ row: [ModelValue], into schema: ModelSchema) throws -> (id: ModelValue, stored: [ModelValue]?)

    /// Inserts a row like ``insertReturningStored(_:into:)`` and sets `row[0]` to the id
    /// the store assigned, writing into `row` itself: a row its caller holds alone is not
    /// copied (a save hands over the record's own row this way). Returns the row as the
    /// store now holds it when that differs beyond the id, else nil. If the call throws,
    /// `row` is unchanged. The default calls ``insertReturningStored(_:into:)``.
    func insertSettingID(_ row: inout [ModelValue], into schema: ModelSchema) throws -> [ModelValue]?

    /// Updates a row like ``update(_:changedColumns:in:)`` and returns the row as the store
    /// now holds it, when that can differ from `row` (a server that sets fields); nil means
    /// "as sent". The default calls ``update(_:changedColumns:in:)`` and returns nil.
    func updateReturningStored(_ row: [ModelValue], changedColumns: [Int], in schema: ModelSchema) throws -> [ModelValue]?

    /// Deletes the row with this id; returns whether one existed.
    func delete(id: ModelValue, from schema: ModelSchema) throws -> Bool

    /// Deletes the row of a record the caller loaded, which should still be stored; a row
    /// no longer there is an error. Unlike ``delete(id:from:)`` no answer is returned, so
    /// an adapter may send it without waiting inside a transaction (PostgreSQL pipelines
    /// it; the error then comes from a later call). The default calls
    /// ``delete(id:from:)``.
    ///
    /// - Throws: ``ModelError`` `.recordNotFound` when no row has this id.
    func deleteStored(id: ModelValue, from schema: ModelSchema) throws

    /// The row with this id, if any.
    func find(id: ModelValue, in schema: ModelSchema) throws -> [ModelValue]?

    /// The rows matching a query, in its order.
    func fetch(_ query: StoreQuery) throws -> [[ModelValue]]

    /// How the adapter honours a fetch's ``StoreQuery/rowLock``. Default: `.unsupported`
    /// (the query layer then refuses a locking fetch instead of running it unlocked).
    var rowLockSupport: RowLockSupport { get }

    /// The date column `column` of `schema` holds once `date` is written and read back:
    /// the model layer stamps timestamps (`created_at`, `updated_at`, field timestamps)
    /// with it, so the record a save leaves equals a reload, bit for bit. Default: `date`
    /// (a store that keeps dates exactly); PostgreSQL rounds to the microsecond, a SQLite
    /// column to its date storage.
    func storedDate(_ date: Date, column: Int, of schema: ModelSchema) -> Date

    /// How many rows match (limit and offset apply).
    func count(_ query: StoreQuery) throws -> Int

    /// Deletes the rows matching a query; returns how many.
    func delete(_ query: StoreQuery) throws -> Int

    /// Sets the given columns (row index → value, already cast) on every row the query
    /// selects, in one operation; returns how many rows it changed. The id cannot be set.
    func update(_ query: StoreQuery, set values: [Int: ModelValue]) throws -> Int

    /// Computes `query.aggregate` over the rows the query selects (see ``Aggregate`` for
    /// the semantics every adapter must match). A query without an aggregate is a
    /// ``StoreError`` `.invalidRequest`.
    func aggregate(_ query: StoreQuery) throws -> [AggregateGroup]

    /// Whether the store gives a new record of `schema` its id when the record has none,
    /// for models whose ids the caller otherwise sets (`String` ids): an API that assigns
    /// them (RESTAdapter with ``RESTIDAssignment/server``). The insert's answer carries the
    /// id. Default: false.
    func assignsIDs(for schema: ModelSchema) -> Bool

    /// Runs `body` atomically: if it throws, every write it made is undone. A nested call
    /// is a savepoint: throwing undoes exactly that level. Other threads' writes wait
    /// until the outermost level ends.
    ///
    /// Model code should call ``transaction(_:)`` instead, which also defers change
    /// notifications until commit and restores records on rollback.
    func withTransaction<R>(_ body: () throws -> R) throws -> R

    /// Opens the outermost level of an async transaction, owned by `handle` rather than by
    /// a thread: calls inside it are those for which `handle` is active
    /// (``TransactionHandle/isActive``), from any thread; others wait until it ends. Waiting
    /// for the store's writer or connection suspends. Runs on the transaction's executor
    /// (never the cooperative pool), as do ``StoreTransaction/commit()`` and
    /// ``StoreTransaction/rollback()``; nested levels inside are ``withTransaction(_:)``
    /// calls made while `handle` is active.
    ///
    /// Default: nil — the adapter's transactions belong to the thread that runs
    /// ``withTransaction(_:)``, so an async transaction runs its body on a thread of its own
    /// inside it.
    nonisolated(nonsending) func beginTransaction(for handle: TransactionHandle) async throws -> (any StoreTransaction)?

    /// Closes the store, with the same meaning on every adapter:
    /// - it waits for the calls and transactions in flight on other threads to finish
    ///   (and writes what must be written: a file store flushes, a database commits
    ///   nothing new), then releases connections, files and sessions;
    /// - every later call throws ``StoreError`` `.closed`; records loaded from the store
    ///   keep their values but cannot save to it;
    /// - closing again does nothing.
    ///
    /// - Throws: ``StoreError`` `.invalidRequest` when called inside one of this store's
    ///   transactions (nothing is closed); the adapter's error when writing what was
    ///   pending fails (the store then stays open, so nothing is lost).
    func close() throws
}

/// The outermost level of a transaction an adapter opened for a ``TransactionHandle``
/// (``PersistenceAdapter/beginTransaction(for:)``).
public protocol StoreTransaction: Sendable {
    /// Commits the transaction and lets other callers in. On failure the transaction is
    /// rolled back and the store let go before the error is thrown.
    func commit() throws
    /// Rolls the transaction back and lets other callers in.
    func rollback()
    /// ``commit()`` for an async transaction, which may suspend instead of blocking (a
    /// network database awaits its `COMMIT`). It must finish even when the calling task is
    /// cancelled: the caller has to learn whether the transaction committed. Default: calls
    /// ``commit()``.
    nonisolated(nonsending) func commit() async throws
    /// ``rollback()`` for an async transaction, which may suspend instead of blocking.
    /// Default: calls ``rollback()``.
    nonisolated(nonsending) func rollback() async
}

extension StoreTransaction {
    /// Calls the synchronous ``commit()``.
    nonisolated(nonsending) public func commit() async throws {
        let blocking: () throws -> Void = commit
        try blocking()
    }

    /// Calls the synchronous ``rollback()``.
    nonisolated(nonsending) public func rollback() async {
        let blocking: () -> Void = rollback
        blocking()
    }
}

extension PersistenceAdapter {
    /// Default: the adapter cannot lock rows.
    public var rowLockSupport: RowLockSupport { .unsupported }

    /// Default: nil (transactions belong to threads; see the requirement).
    nonisolated(nonsending) public func beginTransaction(for handle: TransactionHandle) async throws -> (any StoreTransaction)? { nil }

    /// Default: dates are kept exactly.
    public func storedDate(_ date: Date, column: Int, of schema: ModelSchema) -> Date { date }

    /// Default: the store assigns no ids but auto-increment ones.
    public func assignsIDs(for schema: ModelSchema) -> Bool { false }

    /// Calls ``insertReturningStored(_:into:)``, then sets the id it returned.
    public func insertSettingID(_ row: inout [ModelValue], into schema: ModelSchema) throws -> [ModelValue]? {
        let (id, stored) = try insertReturningStored(row, into: schema)
        if !row.isEmpty { row[0] = id }
        return stored
    }

    /// Calls ``insert(_:into:)``: the stored row is the row sent, with its id.
    public func insertReturningStored(_ row: [ModelValue], into schema: ModelSchema) throws -> (id: ModelValue, stored: [ModelValue]?) {
        (try insert(row, into: schema), nil)
    }

    /// Calls ``delete(id:from:)``; no row is ``ModelError`` `.recordNotFound`.
    public func deleteStored(id: ModelValue, from schema: ModelSchema) throws {
        guard try delete(id: id, from: schema) else {
            throw ModelError(.recordNotFound, model: schema.modelName, id: id, message: "the record is no longer stored")
        }
    }

    /// Calls ``update(_:changedColumns:in:)``: the stored row is the row sent.
    public func updateReturningStored(_ row: [ModelValue], changedColumns: [Int], in schema: ModelSchema) throws -> [ModelValue]? {
        try update(row, changedColumns: changedColumns, in: schema)
        return nil
    }
}
