import ModelCore

/// Commits made elsewhere — through another context, without one, by another task — reach
/// the instances this context holds: an unchanged instance takes the committed values (its
/// column observers and Observation hear each change once); one with unsaved changes keeps
/// them (the last save wins); a deleted record's instance becomes new, and leaves the
/// context.
///
/// Changes committed by the context's own task or thread (or, for a context made on the
/// main thread, by main-thread code) apply at once. Others wait in an inbox the context
/// applies on its next load or save, or when its user calls ``mergeChanges()``: a
/// context's records are only ever touched by its own user.
extension ModelContext {
    package func receive(_ change: ModelChange, from instance: AnyObject?, store: ObjectIdentifier) {
        switch change.action {
        case .insert, .update, .delete: break
        case .deleteAll, .updateAll: return
        }
        if let instance = instance as? ModelObject, let membership = instance._membership, membership.registry === self {
            return
        }
        let source = instance.map(ObjectIdentifier.init)
        if isOwnedByCaller {
            apply(change, from: source, store: store)
        } else {
            state.withLock { $0.inbox.append((change, source, store)) }
            inboxCount.add(1, ordering: .releasing)
        }
    }

    /// Applies the commits other tasks and threads made since the last load or save (see
    /// the discussion above). Call it from the context's own task, actor or thread.
    public func mergeChanges() {
        applyInbox()
    }

    /// Whether the caller is the context's user: its creator, a scope that runs it, or the
    /// main thread for a context made there.
    var isOwnedByCaller: Bool {
        if creator.isCaller || (createdOnMainThread && isMainThread()) { return true }
        var binding = RegistryScope.binding
        while let current = binding {
            if current.registry === self, current.owner.isCaller { return true }
            binding = current.outer
        }
        return false
    }

    func applyInbox() {
        guard inboxCount.load(ordering: .acquiring) > 0 else { return }
        let changes = state.withLock { state -> [(ModelChange, ObjectIdentifier?, ObjectIdentifier)] in
            defer { state.inbox = [] }
            return state.inbox
        }
        inboxCount.subtract(changes.count, ordering: .relaxed)
        for (change, source, store) in changes { apply(change, from: source, store: store) }
    }

    /// Brings the held instance of the changed record (other than the one that wrote it)
    /// up to the commit, unless it has unsaved changes. A commit to another store with the
    /// same id is about another record.
    func apply(_ change: ModelChange, from source: ObjectIdentifier?, store: ObjectIdentifier) {
        let key = Key(store: store, schema: change.schema, id: change.id)
        let found = state.withLock { state -> (ModelObject, Bool)? in
            guard let record = state.byID[key]?.record else { return nil }
            return (record, state.pending[record] != nil)
        }
        guard let (record, pending) = found, ObjectIdentifier(record) != source, record._isPersisted,
            let home = record._home, ObjectIdentifier(home) == store
        else { return }
        if pending, record._valuesChanged || hasUnsavedChanges(record) { return }
        switch change.action {
        case .insert, .update:
            guard change.values.count == record._currentValues.count, change.values != record.__baseline else { return }
            record._assignAll(change.values)
            record.__baseline = change.values
            record.forgetRelated()
            state.withLock { $0.untrack(record) }
        case .delete:
            record.__isPersisted = false
            detach(record)
        case .deleteAll, .updateAll:
            return
        }
    }
}
