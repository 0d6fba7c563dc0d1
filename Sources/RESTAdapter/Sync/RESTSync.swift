import Foundation

/// Keeps a local store (SQLite, File or memory) in step with a REST API.
///
/// The app reads and writes ``store`` — the local adapter with a journal of unpushed
/// changes — so queries work offline; ``pull(_:where:policy:)`` merges server records
/// into it, and ``push()`` sends the journaled inserts, updates and deletes, recording
/// the ids the server assigns.
///
/// ```swift
/// let sync = RESTSync(remote: api, local: try SQLiteAdapter(path: "cache.sqlite"))
/// try sync.track(Todo.self)
/// ModelStore.setDefault(sync.store)
/// let report = try sync.pull(Todo.self, policy: .newestWins)   // inserted 12, updated 3, …
/// try Todo.create(["name": "offline edit"])                     // journaled
/// try sync.push()                                               // POST /todos
/// ```
///
/// Thread safety: pulls and pushes are serialised by one lock; the stores' own rules
/// apply to everything else.
public final class RESTSync: Sendable {
    /// The server.
    public let remote: RESTAdapter
    /// The local store with change journaling: use it as the app's store.
    public let store: SyncedStore
    private let synced = Locked<Set<ObjectIdentifier>>([])
    private let schemas = Locked<[String: ModelSchema]>([:])
    private let running = Locked(())

    /// A sync between `remote` and the local adapter `local`.
    public init(remote: RESTAdapter, local: any PersistenceAdapter) {
        self.remote = remote
        store = SyncedStore(local: local, synced: synced)
    }

    /// Journals local writes of `type` from now on (and prepares its local storage).
    public func track<M: ModelProtocol>(_ type: M.Type) throws {
        try store.local.prepare(SyncChange.schema)
        try store.local.prepare(M.schema)
        synced.withLock { _ = $0.insert(ObjectIdentifier(M.schema)) }
        schemas.withLock { $0[M.schema.modelName] = M.schema }
    }

    /// How many local changes wait for a push.
    public func pendingChanges() throws -> Int { try store.journal.entries().count }

    /// Fetches `type`'s records matching `query` (all by default) from the server and
    /// merges them into the local store in one local transaction.
    ///
    /// Records only on the server are inserted; identical ones skipped; differing ones
    /// decided by `policy` (a record with an unpushed local change that differs is also a
    /// conflict in the report). With `deletingMissing`, local records the server no
    /// longer has — and that have no unpushed change — are deleted (use with a query
    /// that selects everything it should keep).
    @discardableResult
    public func pull<M: ModelProtocol>(
        _ type: M.Type, where predicate: QueryPredicate? = nil, policy: MergePolicy = .newestWins,
        deletingMissing: Bool = false
    ) throws -> SyncReport {
        let schema = M.schema
        try track(M.self)
        return try running.withLock { _ in
            let remoteRows = try remote.fetch(StoreQuery(schema: schema, predicate: predicate))
            let local = store.local
            var report = SyncReport()
            try local.withTransaction {
                let pending = Dictionary(
                    try store.journal.entries(model: schema.modelName).map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
                var seen = Set<ModelValue>()
                for row in remoteRows {
                    seen.insert(row[0])
                    guard let mine = try local.find(id: row[0], in: schema) else {
                        if pending[row[0]]?.operation == "delete" {
                            report.conflicts.append(SyncConflict(model: schema.modelName, id: row[0], resolution: .keepLocal))
                            report.skipped += 1
                        } else {
                            _ = try local.insert(row, into: schema)
                            report.inserted += 1
                        }
                        continue
                    }
                    if mine == row {
                        report.skipped += 1
                        continue
                    }
                    let decision = decide(policy, local: mine, remote: row, schema: schema)
                    if let change = pending[row[0]] {
                        report.conflicts.append(SyncConflict(model: schema.modelName, id: row[0], resolution: decision))
                        if decision == .takeRemote { try store.journal.remove(change) }
                    }
                    if decision == .takeRemote {
                        try local.update(row, changedColumns: Array(1..<row.count), in: schema)
                        report.updated += 1
                    } else {
                        report.skipped += 1
                    }
                }
                if deletingMissing {
                    for row in try local.fetch(StoreQuery(schema: schema, predicate: predicate))
                    where !seen.contains(row[0]) && pending[row[0]] == nil {
                        if try local.delete(id: row[0], from: schema) { report.deleted += 1 }
                    }
                }
            }
            if report.inserted + report.updated + report.deleted > 0 {
                TableObservers.notify(store: ObjectIdentifier(store), schemas: [schema])
            }
            return report
        }
    }

    private func decide(_ policy: MergePolicy, local: [ModelValue], remote: [ModelValue], schema: ModelSchema) -> MergeDecision {
        switch policy {
        case .keepLocal: return .keepLocal
        case .takeRemote: return .takeRemote
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

    /// Sends every journaled change, oldest first: inserts are posted (with an
    /// `Idempotency-Key`, so a retry never duplicates) and take the server's id locally,
    /// updates send the record as it is now, deletes delete. Each change leaves the
    /// journal once the server has it.
    ///
    /// - Throws: the first ``RESTError`` (offline, a refused change); changes not yet
    ///   sent stay journaled for the next push.
    @discardableResult
    public func push() throws -> SyncReport {
        try running.withLock { _ in
            var report = SyncReport()
            for entry in try store.journal.entries() {
                guard let schema = schemas.withLock({ $0[entry.model] }) else { continue }
                try remote.withHeaders(["Idempotency-Key": entry.key]) {
                    try send(entry, schema, &report)
                }
            }
            return report
        }
    }

    private func send(_ entry: SyncJournal.Entry, _ schema: ModelSchema, _ report: inout SyncReport) throws {
        let local = store.local
        switch entry.operation {
        case "insert":
            guard var row = try local.find(id: entry.id, in: schema) else { return try store.journal.remove(entry) }
            let temporary = if case .int(let n) = entry.id, n < 0 { true } else { false }
            if temporary { row[0] = .null }
            let assigned = try remote.insert(row, into: schema)
            try local.withTransaction {
                if temporary, assigned != entry.id { try rekey(schema, from: entry.id, to: assigned, row: row) }
                try store.journal.remove(entry)
            }
            report.inserted += 1
        case "update":
            guard let row = try local.find(id: entry.id, in: schema) else { return try store.journal.remove(entry) }
            do {
                try remote.update(row, changedColumns: Array(1..<row.count), in: schema)
                report.updated += 1
            } catch let error as StoreError where error.kind == .notFound {
                report.conflicts.append(SyncConflict(model: schema.modelName, id: entry.id, resolution: .takeRemote))
                _ = try local.delete(id: entry.id, from: schema)  // deleted on the server
            }
            try store.journal.remove(entry)
        default:
            _ = try remote.delete(id: entry.id, from: schema)
            try store.journal.remove(entry)
            report.deleted += 1
        }
    }

    /// Gives a record the id the server assigned, and moves its children's foreign keys.
    private func rekey(_ schema: ModelSchema, from old: ModelValue, to new: ModelValue, row: [ModelValue]) throws {
        let local = store.local
        var moved = row
        moved[0] = new
        if try local.find(id: new, in: schema) != nil {
            // Pulled meanwhile: the same server record; ours is what the server now holds.
            try local.update(moved, changedColumns: Array(1..<moved.count), in: schema)
        } else {
            _ = try local.insert(moved, into: schema)
        }
        for child in schemas.withLock({ Array($0.values) }) {
            for relation in try child.relations() where relation.kind == .belongsTo && relation.target === schema {
                _ = try local.update(
                    StoreQuery(schema: child, predicate: .compare(column: relation.foreignKey, .equal, old)),
                    set: [relation.foreignKey: new])
            }
        }
        // Last, so a store with foreign key actions does not nullify the children first.
        _ = try local.delete(id: old, from: schema)
        try store.journal.rekey(model: schema.modelName, from: old, to: new)
    }
}
