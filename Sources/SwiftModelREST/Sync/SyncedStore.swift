import Foundation

/// The local store as an app uses it while syncing: every call goes to the local
/// adapter, and writes to synced models are journaled in the same local transaction, so
/// the next push sends them (see ``RESTSync``).
///
/// A new record whose id the server assigns (auto-increment models, and any model whose
/// resource says ``RESTIDAssignment/server``) has a provisional local id until it is
/// pushed — a negative integer for auto-increment models, the generated UUID otherwise.
/// The journal marks it provisional explicitly, so a server id of 0 or below is never
/// mistaken for one. When the server's id arrives it replaces the local id in the stored
/// row, in children's foreign keys, in the journal and in the record instances the app
/// still holds; an id the app kept from before (in a variable, or a child's foreign key
/// in memory) is translated on the way in for as long as this store lives.
///
/// Thread safety: the wrapped adapter's; the temporary id counter, the tracked schemas
/// and the id translations are each behind their own lock.
public final class SyncedStore: PersistenceAdapter {
    /// How one synced model is journaled.
    struct Tracking: Sendable {
        /// The synced model.
        let schema: ModelSchema
        /// Whether new records' ids are provisional (the server assigns the real one).
        let provisional: Bool
        /// `belongsTo` foreign key columns and the schemas they point to.
        let parents: [(column: Int, target: ModelSchema)]
    }

    /// The local adapter underneath.
    public let local: any PersistenceAdapter
    let journal: SyncJournal
    private let tracked = Locked<[ObjectIdentifier: Tracking]>([:])
    private let lastTemporary = Locked<[ObjectIdentifier: Int64]>([:])
    /// Provisional ids the server replaced, by schema: old → new.
    private let translations = Locked<[ObjectIdentifier: [ModelValue: ModelValue]]>([:])

    init(local: any PersistenceAdapter) {
        self.local = local
        journal = SyncJournal(store: local)
    }

    deinit { ProvisionalIdentities.release(ObjectIdentifier(self)) }

    func track(_ schema: ModelSchema, provisional: Bool) throws {
        let parents = try schema.relations().filter { $0.kind == .belongsTo }.map { ($0.foreignKey, $0.target) }
        tracked.withLock { $0[ObjectIdentifier(schema)] = Tracking(schema: schema, provisional: provisional, parents: parents) }
        if provisional { ProvisionalIdentities.adopt(self, schema: schema) }
    }

    func tracking(_ schema: ModelSchema) -> Tracking? { tracked.withLock { $0[ObjectIdentifier(schema)] } }

    /// The tracked schemas whose `belongsTo` foreign keys point at `schema`, with those columns.
    func children(of schema: ModelSchema) -> [(schema: ModelSchema, column: Int)] {
        tracked.withLock { tracked in
            tracked.values.flatMap { tracking in
                tracking.parents.filter { $0.target === schema }.map { (tracking.schema, $0.column) }
            }
        }
    }

    /// The next temporary id of `schema`: below every id stored and handed out.
    func temporaryID(_ schema: ModelSchema) throws -> ModelValue {
        let key = ObjectIdentifier(schema)
        var floor: Int64 = 0
        if let known = lastTemporary.withLock({ $0[key] }) {
            floor = known
        } else if case .int(let n) = try local.fetch(StoreQuery(schema: schema, sort: [SortKey(column: 0)], limit: 1)).first?[0] {
            floor = min(n, 0)
        }
        return .int(
            lastTemporary.withLock { ids in
                let next = min(ids[key] ?? floor, floor) - 1
                ids[key] = next
                return next
            })
    }

    /// Remembers that the server replaced `old` with `new`.
    func translate(_ schema: ModelSchema, from old: ModelValue, to new: ModelValue) {
        translations.withLock { $0[ObjectIdentifier(schema), default: [:]][old] = new }
    }

    /// `id` as the store knows it now (a replaced provisional id becomes the server's).
    func current(_ id: ModelValue, _ schema: ModelSchema) -> ModelValue {
        translations.withLock { $0[ObjectIdentifier(schema)]?[id] } ?? id
    }

    /// `row` with its id and its parents' ids as the store knows them now.
    private func current(_ row: [ModelValue], _ schema: ModelSchema, _ tracking: Tracking) -> [ModelValue] {
        var row = row
        row[0] = current(row[0], schema)
        for parent in tracking.parents where !row[parent.column].isNull {
            row[parent.column] = current(row[parent.column], parent.target)
        }
        return row
    }

    private func names(_ columns: [Int], _ schema: ModelSchema) -> [String] {
        columns.filter { $0 > 0 && $0 < schema.columns.count }.map { schema.columns[$0].name }
    }

    public func prepare(_ schema: ModelSchema) throws { try local.prepare(schema) }

    /// Closes the local adapter underneath (see ``PersistenceAdapter/close()``); the
    /// remote adapter belongs to the ``RESTSync`` and is closed on its own.
    public func close() throws { try local.close() }

    /// Whether a tracked model's ids are the server's: a new record then takes a
    /// provisional local id, replaced on push.
    public func assignsIDs(for schema: ModelSchema) -> Bool {
        tracking(schema)?.provisional ?? local.assignsIDs(for: schema)
    }

    public func insert(_ row: [ModelValue], into schema: ModelSchema) throws -> ModelValue {
        guard let tracking = tracking(schema) else { return try local.insert(row, into: schema) }
        var row = current(row, schema, tracking)
        if row[0].isNull {
            switch schema.idGeneration {
            case .autoIncrement: row[0] = try temporaryID(schema)
            // A String id the server will assign: a local one no server id looks like.
            case .provided: row[0] = .string("local-" + UUID().uuidString.lowercased())
            case .uuid: break
            }
        }
        return try local.withTransaction {
            let id = try local.insert(row, into: schema)
            try journal.record(.insert, model: schema.modelName, id: id, provisional: tracking.provisional)
            return id
        }
    }

    public func update(_ row: [ModelValue], changedColumns: [Int], in schema: ModelSchema) throws {
        guard let tracking = tracking(schema) else { return try local.update(row, changedColumns: changedColumns, in: schema) }
        let row = current(row, schema, tracking)
        try local.withTransaction {
            try local.update(row, changedColumns: changedColumns, in: schema)
            try journal.record(.update, model: schema.modelName, id: row[0], columns: names(changedColumns, schema))
        }
    }

    public func delete(id: ModelValue, from schema: ModelSchema) throws -> Bool {
        guard tracking(schema) != nil else { return try local.delete(id: id, from: schema) }
        let id = current(id, schema)
        return try local.withTransaction {
            guard try local.delete(id: id, from: schema) else { return false }
            try journal.record(.delete, model: schema.modelName, id: id)
            return true
        }
    }

    public func find(id: ModelValue, in schema: ModelSchema) throws -> [ModelValue]? {
        try local.find(id: tracking(schema) == nil ? id : current(id, schema), in: schema)
    }

    public func fetch(_ query: StoreQuery) throws -> [[ModelValue]] { try local.fetch(query) }
    public func count(_ query: StoreQuery) throws -> Int { try local.count(query) }
    public func aggregate(_ query: StoreQuery) throws -> [AggregateGroup] { try local.aggregate(query) }

    public func delete(_ query: StoreQuery) throws -> Int {
        guard tracking(query.schema) != nil else { return try local.delete(query) }
        return try local.withTransaction {
            let ids = try local.fetch(query).map { $0[0] }
            let count = try local.delete(query)
            for id in ids { try journal.record(.delete, model: query.schema.modelName, id: id) }
            return count
        }
    }

    public func update(_ query: StoreQuery, set values: [Int: ModelValue]) throws -> Int {
        guard tracking(query.schema) != nil else { return try local.update(query, set: values) }
        let columns = names(values.keys.sorted(), query.schema)
        return try local.withTransaction {
            let ids = try local.fetch(query).map { $0[0] }
            let count = try local.update(query, set: values)
            for id in ids { try journal.record(.update, model: query.schema.modelName, id: id, columns: columns) }
            return count
        }
    }

    public func withTransaction<R>(_ body: () throws -> R) throws -> R { try local.withTransaction(body) }

    /// Opens the local store's transaction for an async transaction (the journal is written
    /// in it).
    nonisolated(nonsending) public func beginTransaction(for handle: TransactionHandle) async throws -> (any StoreTransaction)? {
        try await local.beginTransaction(for: handle)
    }
}

extension SyncedStore: AdmittingAdapter {
    /// The local store's admission; for a local store whose transactions belong to
    /// threads, the lock this store's own async transactions own.
    package func admission(reads: Bool) -> StoreLock? {
        if let admitting = local as? any AdmittingAdapter { return admitting.admission(reads: reads) }
        return ThreadTransactions.lock(for: self)
    }
}
