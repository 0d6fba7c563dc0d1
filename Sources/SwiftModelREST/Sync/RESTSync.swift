import Foundation

/// Keeps a local store (SQLite, File or memory) in step with a REST API.
///
/// The app reads and writes ``store`` — the local adapter with a journal of unpushed
/// changes — so queries work offline; ``pull(_:where:policy:deletingMissing:)`` merges
/// server records into it, and ``push()`` sends the journaled inserts, updates and
/// deletes, giving records the ids the server assigns.
///
/// ```swift
/// let sync = RESTSync(remote: api, local: try SQLiteAdapter(path: "cache.sqlite"))
/// try sync.track(Todo.self)
/// ModelStore.setDefault(sync.store)
/// let report = try sync.pull(Todo.self)               // inserted 12, updated 3, …
/// try Todo.create(["name": "offline edit"])           // journaled
/// try sync.push()                                     // POST /todos
/// ```
///
/// Thread safety: pulls and pushes are serialised by one lock; the stores' own rules
/// apply to everything else.
public final class RESTSync: Sendable {
    /// The server.
    public let remote: RESTAdapter
    /// The local store with change journaling: use it as the app's store.
    public let store: SyncedStore
    let schemas = Locked<[String: ModelSchema]>([:])
    let running = Locked(())

    /// A sync between `remote` and the local adapter `local`.
    public init(remote: RESTAdapter, local: any PersistenceAdapter) {
        self.remote = remote
        store = SyncedStore(local: local)
    }

    /// Journals local writes of `type` from now on (and prepares its local storage).
    public func track<M: ModelProtocol>(_ type: M.Type) throws {
        let schema = M.schema
        guard store.tracking(schema) == nil else { return }
        try store.local.prepare(SyncChange.schema)
        try store.local.prepare(schema)
        let resource = try remote.resource(for: schema)
        let provisional =
            switch resource.settings.idAssignment {
            case .server: true
            case .client: false
            case .automatic: schema.idGeneration == .autoIncrement
            }
        try store.track(schema, provisional: provisional)
        schemas.withLock { $0[schema.modelName] = schema }
    }

    /// How many local changes wait for a push (failed ones included).
    public func pendingChanges() throws -> Int { try store.journal.entries().count }

    /// The journaled changes, in the order a push sends them; failed ones carry
    /// ``SyncEntry/failure``.
    public func journal() throws -> [SyncEntry] { try store.journal.entries() }

    /// Fetches `type`'s records matching `predicate` (all by default) from the server and
    /// merges them into the local store in one local transaction.
    ///
    /// For a resource with a changes feed (``RESTResource/changesFeed``) and no
    /// `predicate`, only the changes since the last pull are read, and records the server
    /// deleted (or moved out of this client's reach) are deleted locally; `deletingMissing`
    /// is then not needed (see `Docs/Sync.md`).
    ///
    /// Records only on the server are inserted; identical ones skipped; differing ones
    /// decided by `policy` (by default the server's version, unless the record has an
    /// unpushed change; a record with an unpushed change that differs is a conflict in the
    /// report). With `deletingMissing`, local records the server no longer has — and that
    /// have no unpushed change — are deleted (use with a query that selects everything it
    /// should keep); only after a list whose total the server declared and the pull read
    /// in full (``RESTPagination``), else ``RESTError/Kind/incompleteList`` and nothing is
    /// merged — a part of the list is never taken for the whole.
    ///
    /// - Throws: ``RESTError`` from the server (nothing is merged then); ``StoreError``
    ///   `.invalidRequest` for ``MergePolicy/newestWins`` on a model without `updated_at`.
    @discardableResult
    public func pull<M: ModelProtocol>(
        _ type: M.Type, where predicate: QueryPredicate? = nil, policy: MergePolicy = .serverWinsUnlessPending,
        deletingMissing: Bool = false
    ) throws -> SyncReport {
        let schema = M.schema
        if case .newestWins = policy, schema.updatedAtIndex == nil {
            throw StoreError(
                .invalidRequest, table: schema.tableName,
                message: "MergePolicy.newestWins compares updated_at, and \(schema.modelName) has no updated_at column; "
                    + "use .serverWinsUnlessPending or .custom")
        }
        try track(M.self)
        if predicate == nil, try remote.resource(for: schema).settings.changesFeed {
            return try running.withLock { _ in try pullChanges(schema, policy: policy) }
        }
        return try running.withLock { _ in
            let (remoteRows, complete) = try remote.fetchProvingCompleteness(StoreQuery(schema: schema, predicate: predicate))
            if deletingMissing, !complete {
                throw RESTError(
                    .incompleteList, method: "GET", model: schema.modelName,
                    message: "deletingMissing deletes only after a pull that provably read every record, and the server declared "
                        + "no total for this list (X-Total-Count, or a count in its envelope: RESTPagination); nothing was merged")
            }
            var report = SyncReport()
            var merge = PullMerge(sync: self, schema: schema, policy: policy)
            try store.local.withTransaction {
                try merge.merge(remoteRows, into: &report)
                if deletingMissing { try merge.deleteMissing(keeping: remoteRows, where: predicate, into: &report) }
            }
            let changes = merge.changes
            if report.inserted + report.updated + report.deleted > 0 {
                CommitBus.publishExternal(changes, schemas: [schema], store: store)
            }
            return report
        }
    }

    /// Gives an unpushed record a fresh provisional id, so a server record with its id fits.
    func moveAside(_ schema: ModelSchema, _ entry: SyncEntry) throws {
        guard let row = try store.local.find(id: entry.id, in: schema) else { return }
        let fresh = schema.idGeneration == .autoIncrement ? try store.temporaryID(schema) : .uuid(UUID())
        try rekey(schema, from: entry.id, to: fresh, row: row, provisional: true)
        ProvisionalIdentities.rekey(store: ObjectIdentifier(store), schema: schema, from: entry.id, to: fresh, stillProvisional: true)
    }

    func decide(_ policy: MergePolicy, local: [ModelValue], remote: [ModelValue], pending: Bool, schema: ModelSchema)
        -> MergeDecision
    {
        switch policy {
        case .keepLocal: return .keepLocal
        case .takeRemote: return .takeRemote
        case .serverWinsUnlessPending: return pending ? .keepLocal : .takeRemote
        case .newestWins:
            guard let k = schema.updatedAtIndex, case .date(let mine) = local[k], case .date(let theirs) = remote[k] else {
                return .keepLocal
            }
            return theirs > mine ? .takeRemote : .keepLocal
        case .custom(let decide):
            func named(_ row: [ModelValue]) -> [String: ModelValue] {
                Dictionary(uniqueKeysWithValues: zip(schema.columnNames, row))
            }
            return decide(named(local), named(remote))
        }
    }
}
