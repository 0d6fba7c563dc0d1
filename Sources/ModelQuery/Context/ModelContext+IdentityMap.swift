import ModelCore

/// The identity map: every load path (`find`, queries, relation loads, eager loading,
/// imports) resolves rows through ``RecordRegistry``, so a context hands out one instance
/// per record.
extension ModelContext: RecordRegistry {
    package func resolve<M: ModelProtocol>(
        _ row: [ModelValue], schema: ModelSchema, store: any PersistenceAdapter, as type: M.Type
    ) -> M {
        applyInbox()
        let key = Key(store: store, schema: schema, id: row[0])
        if parent == nil {
            // One lock and one probe of the table: the held instance, or a new one put in
            // its slot. (The closure answers a concrete type: a tuple with the generic `M`
            // in it needs its metadata made at run time, on every call.)
            var isNew = false
            let record = state.withLock { state -> ModelObject in
                let membership = state.membership(for: self)
                let record = Self.instance(
                    in: &state.byID[key, default: .empty], row: row, schema: schema, store: store,
                    as: M.self, retains: retainsRecords, isNew: &isNew)
                if isNew {
                    record._join(membership)
                    if !retainsRecords, state.byID.count >= state.pruneAt { state.prune() }
                }
                return record
            }
            if !isNew { refresh(record, from: row, store: store) }
            return unsafeDowncast(record, to: M.self)
        }
        if let held = state.withLock({ $0.byID[key]?.record }) as? M, held._isPersisted, held.__baselineID == row[0],
            held._isHome(store)
        {
            return held
        }
        return childInstance(key, schema: schema, store: store, row: row)
    }

    package func lookup<M: ModelProtocol>(id: ModelValue, schema: ModelSchema, store: any PersistenceAdapter, as type: M.Type)
        -> RegistryLookup
    {
        applyInbox()
        let key = Key(store: store, schema: schema, id: id)
        let (held, deleted) = state.withLock { state -> (ModelObject?, Bool) in
            guard let record = state.byID[key]?.record else { return (nil, false) }
            guard state.deletedCount > 0 else { return (record, false) }
            return (record, state.pending[record]?.deleted ?? false)
        }
        if let held, held._isPersisted, held.__baselineID == id {
            // The same id read from another store is not this record.
            guard held._isHome(store) else { return .miss }
            return deleted ? .deleted : .hit(held)
        }
        guard let inherited = parent?.state(for: key, as: M.self) else { return .miss }
        if inherited.values.isEmpty { return .deleted }
        let record: M = childInstance(key, schema: schema, store: store, row: inherited.values)
        return .hit(record)
    }

    package func didSave(_ record: ModelObject, schema: ModelSchema, store: any PersistenceAdapter, updated: Bool) {
        state.withLock { state in
            let member = state.isMember(record)
            // A member updated in its store keeps its slot (an id cannot change); during
            // ``save()`` the pending table is left as it is too.
            if member, updated, state.isSaving { return }
            guard member || RegistryScope.current === self else { return }
            if !member {
                record._join(state.membership(for: self))
            }
            if !member || !updated {
                let key = Key(store: store, schema: schema, id: record.__baselineID)
                // A registered record saved again finds its own slot: nothing to replace.
                if !member || state.byID[key]?.holds(record) != true {
                    state.byID[key] = Slot(record, retains: retainsRecords)
                }
            }
            guard !state.isSaving, let entry = state.pending[record], !entry.deleted else { return }
            if !record._valuesChanged {
                state.untrack(record)
            }
        }
    }

    package func noteChanged(_ record: ModelObject) {
        state.withLock { state in
            guard state.isMember(record) else { return }
            state.track(record)
        }
    }

    package func visible<M: ModelProtocol>(_ records: [M]) -> [M] {
        state.withLock { state in
            guard state.deletedCount > 0, !state.isSaving else { return records }
            return records.filter { state.pending[$0]?.deleted != true }
        }
    }

    /// The record in `slot` when it is the stored record `row` was read from (same id,
    /// same store); else a new instance loaded from `row`, put in the slot (`isNew`).
    private static func instance<M: ModelProtocol>(
        in slot: inout Slot, row: [ModelValue], schema: ModelSchema, store: any PersistenceAdapter, as type: M.Type,
        retains: Bool, isNew: inout Bool
    ) -> ModelObject {
        if let held = slot.record as? M, held._isPersisted, held.__baselineID == row[0], held._isHome(store) {
            return held
        }
        let record = M._loaded(row, schema: schema, from: store)
        slot = Slot(record, retains: retains)
        isNew = true
        return record
    }

    /// Registers a loaded record under `key`.
    func register(_ record: ModelObject, key: Key) {
        state.withLock { register(record, key: key, in: &$0) }
    }

    /// Registers a loaded record under `key` (holding the lock).
    func register(_ record: ModelObject, key: Key, in state: inout State) {
        record._join(state.membership(for: self))
        state.byID[key] = Slot(record, retains: retainsRecords)
        // A context that retains its records holds every slot strongly: nothing to prune.
        if !retainsRecords, state.byID.count >= state.pruneAt { state.prune() }
    }

    /// A child context's new instance for `key`: the parent's current state of the record
    /// (its unsaved changes included) as both values and saved state, else `row`.
    /// Registered.
    func childInstance<M: ModelProtocol>(_ key: Key, schema: ModelSchema, store: any PersistenceAdapter, row: [ModelValue]) -> M {
        let record = M()
        if let inherited = parent?.state(for: key, as: M.self), !inherited.values.isEmpty {
            record._load(inherited.values, schema: schema, from: inherited.home ?? store)
        } else {
            record._load(row, schema: schema, from: store)
        }
        register(record, key: key)
        return record
    }

    /// For a child context: the values this context (or its parent) has for `key` — its
    /// current values, its saved baseline and store — or empty values when it deleted the
    /// record; nil when neither holds it.
    func state<M: ModelProtocol>(for key: Key, as type: M.Type) -> (values: [ModelValue], baseline: [ModelValue], home: (any PersistenceAdapter)?)? {
        let (held, deleted) = state.withLock { state -> (ModelObject?, Bool) in
            guard let record = state.byID[key]?.record else { return (nil, false) }
            return (record, state.pending[record]?.deleted ?? false)
        }
        guard let held, held._isPersisted else { return parent?.state(for: key, as: type) }
        if deleted { return ([], [], nil) }
        return (held._currentValues, held.__baseline, held._home)
    }

    /// Brings an unchanged held record up to a row just read from its store. A record
    /// with unsaved changes keeps them.
    func refresh(_ record: ModelObject, from row: [ModelValue], store: any PersistenceAdapter) {
        guard parent == nil, !record._valuesChanged, record.__baseline != row else { return }
        record._assignAll(row)
        record.__baseline = row
        record.__home = store
        record.forgetRelated()
        // The refresh is not a change to save.
        state.withLock { state in
            if state.pending[record]?.deleted != true { state.untrack(record) }
        }
    }
}
