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
                try Self.applyDeleteRules(schema.relations(), id: __baseline[0], schema: schema, store: store)
                guard try delete() else { throw DestroyDeclined() }
            }
        } catch is DestroyDeclined {
            return false
        }
        afterDestroy()
        return true
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
                        .cancelled, model: schema.modelName, id: record.__baseline[0],
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
