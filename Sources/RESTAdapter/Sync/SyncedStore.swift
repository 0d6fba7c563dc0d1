import Foundation

/// The local store as an app uses it while syncing: every call goes to the local
/// adapter, and writes to synced models are journaled in the same local transaction, so
/// the next push sends them (see ``RESTSync``).
///
/// New records of auto-increment models get negative temporary ids until a push gives
/// them the server's, so they never collide with ids pulled from the server.
///
/// Thread safety: the wrapped adapter's; the temporary id counter is behind a lock.
public final class SyncedStore: PersistenceAdapter {
    /// The local adapter underneath.
    public let local: any PersistenceAdapter
    let journal: SyncJournal
    private let synced: Locked<Set<ObjectIdentifier>>
    private let lastTemporary = Locked<[ObjectIdentifier: Int64]>([:])

    init(local: any PersistenceAdapter, synced: Locked<Set<ObjectIdentifier>>) {
        self.local = local
        self.synced = synced
        journal = SyncJournal(store: local)
    }

    func isSynced(_ schema: ModelSchema) -> Bool { synced.withLock { $0.contains(ObjectIdentifier(schema)) } }

    /// The next temporary id of `schema`: below every id stored and handed out.
    private func temporaryID(_ schema: ModelSchema) throws -> ModelValue {
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

    public func prepare(_ schema: ModelSchema) throws { try local.prepare(schema) }

    /// Closes the local adapter underneath (see ``PersistenceAdapter/close()``); the
    /// remote adapter belongs to the ``RESTSync`` and is closed on its own.
    public func close() throws { try local.close() }

    public func insert(_ row: [ModelValue], into schema: ModelSchema) throws -> ModelValue {
        guard isSynced(schema) else { return try local.insert(row, into: schema) }
        var row = row
        if row.first?.isNull == true, schema.idGeneration == .autoIncrement { row[0] = try temporaryID(schema) }
        return try local.withTransaction {
            let id = try local.insert(row, into: schema)
            try journal.record("insert", model: schema.modelName, id: id)
            return id
        }
    }

    public func update(_ row: [ModelValue], changedColumns: [Int], in schema: ModelSchema) throws {
        guard isSynced(schema) else { return try local.update(row, changedColumns: changedColumns, in: schema) }
        try local.withTransaction {
            try local.update(row, changedColumns: changedColumns, in: schema)
            try journal.record("update", model: schema.modelName, id: row[0])
        }
    }

    public func delete(id: ModelValue, from schema: ModelSchema) throws -> Bool {
        guard isSynced(schema) else { return try local.delete(id: id, from: schema) }
        return try local.withTransaction {
            guard try local.delete(id: id, from: schema) else { return false }
            try journal.record("delete", model: schema.modelName, id: id)
            return true
        }
    }

    public func find(id: ModelValue, in schema: ModelSchema) throws -> [ModelValue]? { try local.find(id: id, in: schema) }
    public func fetch(_ query: StoreQuery) throws -> [[ModelValue]] { try local.fetch(query) }
    public func count(_ query: StoreQuery) throws -> Int { try local.count(query) }
    public func aggregate(_ query: StoreQuery) throws -> [AggregateGroup] { try local.aggregate(query) }

    public func delete(_ query: StoreQuery) throws -> Int {
        guard isSynced(query.schema) else { return try local.delete(query) }
        return try local.withTransaction {
            let ids = try local.fetch(query).map { $0[0] }
            let count = try local.delete(query)
            for id in ids { try journal.record("delete", model: query.schema.modelName, id: id) }
            return count
        }
    }

    public func update(_ query: StoreQuery, set values: [Int: ModelValue]) throws -> Int {
        guard isSynced(query.schema) else { return try local.update(query, set: values) }
        return try local.withTransaction {
            let ids = try local.fetch(query).map { $0[0] }
            let count = try local.update(query, set: values)
            for id in ids { try journal.record("update", model: query.schema.modelName, id: id) }
            return count
        }
    }

    public func withTransaction<R>(_ body: () throws -> R) throws -> R { try local.withTransaction(body) }
}
