import Synchronization

/// Records whose id is provisional — given by a local store until a server assigns its
/// own (RESTSync's `SyncedStore`) — so the instances an app still holds take the server's
/// id when it arrives.
///
/// A store opts in with ``adopt(_:)``; until one does, a save pays one atomic load
/// (``isActive``). Instances are held weakly (``WeakRecord``) and forgotten once re-keyed or released.
///
/// Thread safety: the table is behind a `Mutex`. Re-keying assigns the record's id from
/// the thread that learnt it (a push), as any write to a shared record does: the app owns
/// when it reads its records during a push.
package enum ProvisionalIdentities {
    private struct Key: Hashable {
        let store: ObjectIdentifier
        let schema: ObjectIdentifier
        let id: ModelValue
    }

    private struct Table {
        /// The schemas whose ids each opted-in store hands out provisionally.
        var stores: [ObjectIdentifier: Set<ObjectIdentifier>] = [:]
        var records: [Key: [WeakRecord]] = [:]
    }

    private static let active = Atomic<Bool>(false)
    // `Locked`, not `Mutex`: Thread Sanitizer cannot see Mutex's futex calls on Linux (see Locks.swift).
    private static let table = Locked(Table())

    /// Whether any store has opted in.
    package static var isActive: Bool { active.load(ordering: .relaxed) }

    /// `store` hands out provisional ids for `schema`: records of it inserted into the
    /// store are remembered.
    package static func adopt(_ store: any PersistenceAdapter, schema: ModelSchema) {
        table.withLock { _ = $0.stores[ObjectIdentifier(store), default: []].insert(ObjectIdentifier(schema)) }
        active.store(true, ordering: .relaxed)
    }

    /// `store` is gone: forget it and its records.
    package static func release(_ store: ObjectIdentifier) {
        table.withLock { table in
            table.stores[store] = nil
            table.records = table.records.filter { $0.key.store != store }
        }
    }

    /// A record was inserted into `store` with `id`.
    package static func noteInsert(_ record: ModelObject, id: ModelValue, schema: ModelSchema, store: any PersistenceAdapter) {
        let storeID = ObjectIdentifier(store)
        table.withLock { table in
            guard table.stores[storeID]?.contains(ObjectIdentifier(schema)) == true else { return }
            let key = Key(store: storeID, schema: ObjectIdentifier(schema), id: id)
            var list = table.records[key, default: []].filter { $0.record != nil }
            record._noteHeldWeakly()
            list.append(WeakRecord(record))
            table.records[key] = list
        }
    }

    /// The record `old` of `schema` in `store` now has the id `new` (the server's, or
    /// another provisional one when `stillProvisional`): every live instance inserted with
    /// `old` takes `new` — and the values of `stored` (what the server set) for the columns
    /// it has not changed since — and is forgotten unless the new id is provisional too.
    package static func rekey(
        store: ObjectIdentifier, schema: ModelSchema, from old: ModelValue, to new: ModelValue, stored: [ModelValue]? = nil,
        stillProvisional: Bool = false
    ) {
        let records = table.withLock { table in
            let moved = table.records.removeValue(forKey: Key(store: store, schema: ObjectIdentifier(schema), id: old)) ?? []
            if stillProvisional, !moved.isEmpty { table.records[Key(store: store, schema: ObjectIdentifier(schema), id: new)] = moved }
            return moved
        }
        for weak in records {
            guard let record = weak.record, record.__values.first == old else { continue }
            record._assign(new, at: 0)
            if !record.__baseline.isEmpty { record.__baseline[0] = new }
            if let stored { adopt(stored, into: record) }
        }
    }

    /// The record `id` was pushed and keeps its id: its live instances take the values of
    /// `stored` for the columns they have not changed since, and are forgotten.
    package static func settle(store: ObjectIdentifier, schema: ModelSchema, id: ModelValue, stored: [ModelValue]? = nil) {
        let records = table.withLock { $0.records.removeValue(forKey: Key(store: store, schema: ObjectIdentifier(schema), id: id)) } ?? []
        guard let stored else { return }
        for weak in records {
            if let record = weak.record, record.__values.first == id { adopt(stored, into: record) }
        }
    }

    /// What the server stored, into a saved instance: each column whose value is still the
    /// saved one (not edited since) takes the stored value, which becomes the saved one.
    private static func adopt(_ stored: [ModelValue], into record: ModelObject) {
        record._settleBaseline()
        guard stored.count == record.__values.count, record.__baseline.count == stored.count else { return }
        for k in 1..<stored.count where record.__values[k] == record.__baseline[k] && stored[k] != record.__values[k] {
            record._assign(stored[k], at: k)
            record.__baseline[k] = stored[k]
        }
    }
}
