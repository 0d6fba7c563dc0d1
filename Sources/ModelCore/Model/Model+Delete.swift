extension ModelProtocol {
    /// Removes the record from its store, without touching related records.
    ///
    /// Runs `beforeDelete` (which may decline) and `afterDelete`. Afterwards the record is
    /// new again (``isNew``) and keeps its values, so it can be saved again.
    ///
    /// - Returns: `false` when `beforeDelete` declined.
    /// - Throws: ``ModelError`` `.notPersisted` for a record never saved,
    ///   `.recordNotFound` when the row is already gone; adapter errors.
    @discardableResult
    public func delete() throws -> Bool {
        let schema = recordSchema
        try schema.validate()
        guard __isPersisted, let store = __home else {
            throw ModelError(.notPersisted, model: schema.modelName, message: "delete() needs a saved record")
        }
        guard try beforeDelete() else { return false }
        let before = state
        let id = __baseline[0]
        guard try store.delete(id: id, from: schema) else {
            throw ModelError(.recordNotFound, model: schema.modelName, id: id, message: "the record is no longer stored")
        }
        __isPersisted = false
        TransactionContext.record(
            ModelChange(action: .delete, schema: schema, modelType: ObjectIdentifier(Self.self), id: id, values: __baseline),
            instance: self, adapter: store, undo: (self, before))
        afterDelete()
        return true
    }

    /// Deletes the record honouring its relations' rules, running `beforeDestroy`, the
    /// delete hooks, and `afterDestroy`.
    ///
    /// For each `hasMany`/`hasOne` relation: `.restrict` refuses while related records
    /// exist (``ModelError`` `.restricted`, checked before anything changes); `.destroy`
    /// destroys each child (recursively, hooks included); `.delete` bulk-deletes the
    /// children and applies their own relations' rules at row level, without hooks, as a
    /// SQL `ON DELETE` action would (grandchildren under `.destroy`/`.delete` are
    /// bulk-deleted, under `.nullify` unlinked, under `.restrict` refuse); `.nullify`
    /// clears their foreign key. The whole cascade is one store
    /// transaction: if any step fails or a hook declines, nothing is deleted. A record met
    /// again while it is being destroyed (a cycle) is skipped, so cycles end.
    ///
    /// - Returns: `false` when `beforeDestroy` or `beforeDelete` declined (nothing changed).
    @discardableResult
    public func destroy() throws -> Bool {
        let schema = recordSchema
        try schema.validate()
        guard __isPersisted, let store = __home else {
            throw ModelError(.notPersisted, model: schema.modelName, message: "destroy() needs a saved record")
        }
        let key = DestroyGuard.Key(schema: ObjectIdentifier(schema), id: __baseline[0])
        guard DestroyGuard.enter(key) else { return true }  // already being destroyed further up
        defer { DestroyGuard.leave(key) }
        guard try beforeDestroy() else { return false }
        do {
            try store.transaction {
                try applyDeleteRules(schema.relations(), id: __baseline[0], store: store)
                guard try delete() else { throw DestroyDeclined() }
            }
        } catch is DestroyDeclined {
            return false
        }
        afterDestroy()
        return true
    }

    /// Applies each relation's rule to the records related to `id` (restrict first).
    private func applyDeleteRules(_ relations: [Relation], id: ModelValue, store: any PersistenceAdapter) throws {
        let dependents = relations.filter { $0.kind == .hasMany || $0.kind == .hasOne }
        func query(_ relation: Relation) -> StoreQuery {
            StoreQuery(schema: relation.target, predicate: .compare(column: relation.foreignKey, .equal, id))
        }
        for relation in dependents where relation.rule == .restrict {
            let count = try store.count(query(relation))
            if count > 0 {
                throw ModelError(
                    .restricted, model: recordSchema.modelName, id: id,
                    message: "cannot destroy: \(count) \(relation.target.modelName) record(s) still refer to it through \(relation.name)")
            }
        }
        for relation in dependents {
            guard let ops = relation.ops else { continue }
            switch relation.rule {
            case .destroy: try ops.destroy(query(relation), store)
            case .delete:
                var visited: Set<RowKey> = [RowKey(table: ObjectIdentifier(recordSchema), id: id)]
                try ops.delete(query(relation), store, &visited)
            case .nullify: try ops.nullify(query(relation), relation.foreignKey, store)
            case .restrict, nil: break
            }
        }
    }
}

/// Thrown inside `destroy()`'s transaction to roll back when `beforeDelete` declines.
private struct DestroyDeclined: Error {}

/// The records being destroyed on this thread, so a cascade that comes back to one of
/// them (a cycle) stops instead of looping.
enum DestroyGuard {
    struct Key: Hashable {
        let schema: ObjectIdentifier
        let id: ModelValue
    }
    private final class Active { var keys: Set<Key> = [] }
    private static let active = ThreadLocal<Active>()

    static func enter(_ key: Key) -> Bool {
        let set = active.value ?? Active()
        active.value = set
        return set.keys.insert(key).inserted
    }

    static func leave(_ key: Key) { active.value?.keys.remove(key) }
}
