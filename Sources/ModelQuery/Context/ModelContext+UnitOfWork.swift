import ModelCore

/// The unit of work: inserts, changes and deletes collect in the context until ``save()``
/// writes them all in one store transaction, or ``rollback()`` discards them.
extension ModelContext {
    /// Adds a record to the context: a new one is saved by the next ``save()``; a stored
    /// one joins the identity map.
    ///
    /// - Throws: ``ContextError`` `.foreignRecord` for a record of another live context,
    ///   `.notJoinable` for a model that opted out, `.duplicateRecord` when the context
    ///   holds another instance of the same stored record.
    public func insert(_ record: some ModelProtocol) throws {
        try join(record, schema: record.recordSchema)
    }

    /// Marks a record for deletion by the next ``save()`` (which destroys it, so its
    /// relations' delete rules and hooks run). A record inserted and never saved just
    /// leaves the context.
    public func delete(_ record: some ModelProtocol) throws {
        try join(record, schema: record.recordSchema)
        if !record._isPersisted {
            detach(record)
            return
        }
        state.withLock { $0.track(record, deleted: true) }
    }

    /// Whether ``save()`` has anything to write: an inserted, changed or deleted record.
    public var hasChanges: Bool { !pendingWork().isEmpty }

    /// The records ``save()`` would insert, update and delete.
    public var changes: (inserted: [any ModelProtocol], updated: [any ModelProtocol], deleted: [any ModelProtocol]) {
        let work = pendingWork()
        let writes = work.writes.compactMap(\.asModel)
        return (
            writes.filter { !$0._isPersisted }, writes.filter { $0._isPersisted },
            work.deletes.compactMap(\.asModel)
        )
    }

    /// Writes every inserted, changed and deleted record, in one transaction of their
    /// store: parents before children, deletions after writes and children before their
    /// parents, each through `save()` or `destroy()` (validations, hooks, timestamps and
    /// delete rules run as usual). All or nothing: if anything fails — an invalid record,
    /// a declining hook, a store error — nothing is stored, every record keeps its
    /// unsaved state, and the error is rethrown.
    ///
    /// A child context's save merges its changes into the parent instead (see
    /// ``init(parent:retainsRecords:name:)``); nothing reaches the store until the root
    /// context saves.
    ///
    /// - Throws: what the records' saves and destroys throw; ``ContextError``
    ///   `.mixedStores` (before writing) when the records use more than one store.
    public func save() throws {
        applyInbox()
        if let parent {
            try merge(into: parent)
            return
        }
        let work = pendingWork()
        if work.isEmpty { return }
        let store = try commonStore(work)
        // The members' updates need no word to the context while it saves (see
        // `RegistryMembership.membersNeedNoWordOfUpdates`); a generation made during the
        // save takes the locked path, which `isSaving` answers.
        let token = state.withLock { state in
            state.isSaving = true
            return state.token
        }
        token?.isSaving.store(true, ordering: .releasing)
        defer {
            token?.isSaving.store(false, ordering: .releasing)
            state.withLock { $0.isSaving = false }
        }
        try run {
            try store.transaction {
                for record in work.writes {
                    guard let model = record.asModel else { continue }
                    try model.save()
                }
                for record in work.deletes {
                    guard let model = record.asModel, model._isPersisted else { continue }
                    guard try model.destroy() else {
                        throw ModelError(
                            .cancelled, model: model.recordSchema.modelName, id: model.__baselineID,
                            message: "a before-hook declined the deletion; the context saved nothing")
                    }
                }
            }
        }
        state.withLock { state in
            let written = work.writes.count + work.deletes.count
            if work.pendingCount == written, state.sequence == work.sequence, state.pending.count == written {
                // Every pending record was to be written, none was tracked since and none
                // left: the pending records are the written ones. Clear the table at once
                // instead of removing each by key.
                for record in work.writes { record._registryTracked = false }
                for record in work.deletes { record._registryTracked = false }
                state.pending.removeAll()
                state.deletedCount = 0
            } else {
                for record in work.writes { state.untrack(record) }
                for record in work.deletes { state.untrack(record) }
            }
        }
        for record in work.deletes { detach(record) }
    }

    /// Discards every unsaved change: changed records get their saved values back,
    /// inserted ones leave the context, deleted ones stay.
    public func rollback() {
        let pending = state.withLock { state -> [Pending] in
            defer {
                state.pending.removeAll()
                state.deletedCount = 0
            }
            return state.pending.values
        }
        for entry in pending {
            let record = entry.record
            if !record._isPersisted {
                detach(record)
                continue
            }
            if record._valuesChanged { record._assignAll(record.__baseline) }
            record._extrasIfAny?.setSlots = []
            state.withLock { $0.untrack(record) }
        }
    }

    /// Makes `record` a member (or checks it already is one).
    func join(_ record: ModelObject, schema: ModelSchema) throws {
        guard schema.joinsContexts else {
            throw ContextError(.notJoinable, model: schema.modelName, message: "\(schema.modelName).joinsContexts is false")
        }
        if let other = record._membership?.registry as? ModelContext, other !== self, other.holds(record) {
            throw ContextError(
                .foreignRecord, model: schema.modelName, id: record._value(at: 0),
                message: "the record belongs to another context; load it in this one instead")
        }
        try state.withLock { (state: inout State) throws(ContextError) in
            if state.isMember(record) { return }
            if record._isPersisted {
                let key = Key(store: record._home, schema: schema, id: record.__baselineID)
                if let held = state.byID[key]?.record, held !== record, held._isPersisted {
                    throw ContextError(
                        .duplicateRecord, model: schema.modelName, id: record.__baselineID,
                        message: "the context already holds another instance of this record")
                }
                state.byID[key] = Slot(record, retains: retainsRecords)
            }
            let tracked = !record._isPersisted || record._valuesChanged
            record._membership = state.membership(for: self)
            record._registryTracked = tracked
            if tracked { state.track(record) }
        }
    }

    /// Whether the record is a current member of this context.
    func holds(_ record: ModelObject) -> Bool {
        state.withLock { state in
            state.isMember(record)
        }
    }

    /// The store every pending record writes to.
    /// A record's home store answers without opening it as its model; only a record that
    /// has none (never saved) resolves its model's store.
    private func commonStore(_ work: Work) throws -> any PersistenceAdapter {
        var found: (any PersistenceAdapter)?
        func check(_ record: ModelObject) throws {
            let store: any PersistenceAdapter
            if let home = record._home {
                if let found, found === home { return }
                store = home
            } else {
                guard let model = record.asModel else { return }
                store = try model.store(nil)
            }
            if let found, found !== store {
                throw ContextError(
                    .mixedStores, model: (record._attachedSchema ?? record._attachSchema()).modelName,
                    message: "the context's changes use more than one store; save them from one context per store")
            }
            found = store
        }
        for record in work.writes { try check(record) }
        for record in work.deletes { try check(record) }
        guard let found else {
            throw ContextError(.noStore, message: "no store for the context's changes")
        }
        return found
    }
}
