/// `destroy()`: a delete that honours the record's relations — the delete rules
/// (`dependent:`) of its `@HasMany` and `@HasOne` relations and the destroy hooks.
/// `delete()` (ModelCore) ignores relations.
extension ModelProtocol {
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
    /// transaction: if any step fails, nothing is deleted. A record met again while it is
    /// being destroyed (a cycle) is skipped, so cycles end.
    ///
    /// Hook order, the same for the async form: `beforeDestroy`, `beforeDelete` (either may
    /// decline: nothing has changed then), the delete rules and the delete in one store
    /// transaction, then `afterDelete` and `afterDestroy`.
    ///
    /// - Returns: `false` when `beforeDestroy` or `beforeDelete` declined (nothing changed).
    @discardableResult
    public func destroy() throws -> Bool {
        let (schema, store) = try destroyTarget()
        guard let start = try beginDestroy(schema: schema, store: store) else { return !isAlive(schema) }
        try Self.destroyRows(start)
        finishDestroy(start)
        return true
    }

    /// The record's schema and store, or ``ModelError`` `.notPersisted`.
    package func destroyTarget() throws -> (ModelSchema, any PersistenceAdapter) {
        let schema = recordSchema
        try schema.validate()
        guard _isPersisted, let store = _home else {
            throw ModelError(.notPersisted, model: schema.modelName, message: "destroy() needs a saved record")
        }
        return (schema, store)
    }

    /// Whether the record is not being destroyed further up this thread's cascade.
    private func isAlive(_ schema: ModelSchema) -> Bool {
        !DestroyGuard.isActive(DestroyGuard.Key(schema: ObjectIdentifier(schema), id: __baselineID))
    }

    /// The first steps of a destroy, in the caller's isolation: the before-hooks. Nil when
    /// one declined, or when the record is being destroyed further up this cascade (a
    /// cycle: nothing runs again).
    package func beginDestroy(schema: ModelSchema, store: any PersistenceAdapter) throws -> DestroyStart? {
        guard isAlive(schema) else { return nil }
        guard try beforeDestroy(), try beforeDelete() else { return nil }
        return DestroyStart(schema: schema, store: store, id: __baselineID, relations: try schema.relations(), before: state)
    }

    /// The store work of a destroy, on any thread (no record of the caller is touched):
    /// the delete rules and the delete, as one store transaction.
    package static func destroyRows(_ start: DestroyStart) throws {
        let (schema, store, id) = (start.schema, start.store, start.id)
        let key = DestroyGuard.Key(schema: ObjectIdentifier(schema), id: id)
        let entered = DestroyGuard.enter(key)
        defer { if entered { DestroyGuard.leave(key) } }
        try store.transaction {
            try applyDeleteRules(start.relations, id: id, schema: schema, store: store)
            try store.deleteStored(id: id, from: schema)
        }
    }

    /// The last steps of a destroy, in the caller's isolation: the record is new again,
    /// the change is recorded, and the after-hooks run.
    package func finishDestroy(_ start: DestroyStart) {
        didDelete(store: start.store, schema: start.schema, undoing: start.before)
        afterDelete()
        afterDestroy()
    }

    /// Applies each relation's rule to the records related to `id` (restrict first).
    static func applyDeleteRules(
        _ relations: [Relation], id: ModelValue, schema: ModelSchema, store: any PersistenceAdapter
    ) throws {
        let dependents = relations.filter { ($0.kind == .hasMany || $0.kind == .hasOne) && $0.rule != nil }
        for relation in dependents where relation.rule == .restrict {
            let count = try store.count(relation.children(of: [id]))
            if count > 0 {
                throw ModelError(
                    .restricted, model: schema.modelName, id: id,
                    message: "cannot destroy: \(count) \(relation.target.modelName) record(s) still refer to it through \(relation.name)")
            }
        }
        for relation in dependents {
            var visited: Set<RowKey> = [RowKey(table: ObjectIdentifier(schema), id: id)]
            try DeleteRuleAction.apply(relation, to: relation.children(of: [id]), store: store, visited: &visited)
        }
    }

    /// Destroys every record one by one (hooks run, relations' rules apply), all in one
    /// store transaction: if any is declined or fails, none is deleted.
    ///
    /// - Returns: how many were destroyed.
    @discardableResult
    public static func destroyAll(in adapter: (any PersistenceAdapter)? = nil) throws -> Int {
        let (schema, store) = try context(adapter)
        return try store.transaction {
            let records = try fetch(StoreQuery(schema: schema), store: store)
            for record in records {
                guard try record.destroy() else {
                    throw ModelError(
                        .cancelled, model: schema.modelName, id: record.__baselineID,
                        message: "destroyAll() stopped: a before-hook declined; nothing was deleted")
                }
            }
            return records.count
        }
    }


    /// Loads the record with this id and destroys it: `beforeDestroy`, the delete hooks,
    /// every relation rule and `afterDestroy` run (see ``destroy()``).
    ///
    /// - Returns: `false` when no record has this id or a before-hook declined.
    @discardableResult
    public static func destroy(id: IDValue, in adapter: (any PersistenceAdapter)? = nil) throws -> Bool {
        guard let record = try find(id, in: adapter) else { return false }
        return try record.destroy()
    }
}

/// A destroy between its before-hooks and its store work: `Sendable` values only, so the
/// store work can run on another thread.
package struct DestroyStart: Sendable {
    let schema: ModelSchema
    let store: any PersistenceAdapter
    let id: ModelValue
    let relations: [Relation]
    /// The record's state before, for the change record's undo.
    let before: RecordState
}

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

    static func isActive(_ key: Key) -> Bool { active.value?.keys.contains(key) ?? false }
}
