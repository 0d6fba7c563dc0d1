import ModelCore

/// Child contexts: a scratch pad over a parent. A child loads the parent's instances' state
/// (unsaved changes included) into instances of its own; its ``ModelContext/save()``
/// hands its changes to the parent — changed columns onto the parent's instances, new
/// records moved into the parent, deletions marked there — without touching the store.
extension ModelContext {
    func merge(into parent: ModelContext) throws {
        let work = pendingWork()
        for record in work.writes {
            guard let model = record.asModel else { continue }
            if !record._isPersisted {
                detach(record)
                try parent.insert(model)
                continue
            }
            let target = try parent.counterpart(of: model)
            let baseline = record.__baseline
            for slot in record._currentValues.indices where record._value(at: slot) != baseline[slot] {
                target._assign(record._value(at: slot), at: slot)
            }
            record.__baseline = record._currentValues
            state.withLock { $0.untrack(record) }
        }
        for record in work.deletes {
            guard let model = record.asModel else { continue }
            try parent.delete(parent.counterpart(of: model))
            record.__isPersisted = false
            detach(record)
        }
    }

    /// This context's instance of the stored record a child holds: the one it has, or a
    /// new one made from the state the child started from.
    func counterpart<M: ModelProtocol>(of record: M) throws -> M {
        let schema = record.recordSchema
        let home = try record._home ?? ModelStore.resolve(ObjectIdentifier(M.self), modelName: schema.modelName)
        let key = Key(store: home, schema: schema, id: record.__baselineID)
        if let held = state.withLock({ $0.byID[key]?.record }) as? M, held._isPersisted { return held }
        let copy = M()
        copy._load(record.__baseline, schema: schema, from: home)
        register(copy, key: key)
        return copy
    }
}
