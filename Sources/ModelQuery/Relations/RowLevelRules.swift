/// A stored row, identified across tables (cycle detection in cascades).
package struct RowKey: Hashable, Sendable {
    package let table: ObjectIdentifier
    package let id: ModelValue
}

extension ModelProtocol {
    /// Bulk-deletes the rows `query` selects and applies, at row level, the rules of the
    /// relations that depend on them — what a SQL database's `ON DELETE` actions do, so
    /// that a `dependent: .delete` cascade ends the same on every adapter:
    ///
    /// - children under `.destroy` or `.delete` are bulk-deleted too (recursively, without
    ///   hooks: a bulk delete never runs hooks);
    /// - children under `.nullify` get a nil foreign key;
    /// - children under `.restrict` refuse the whole delete (``ModelError`` `.restricted`;
    ///   the enclosing `destroy()` transaction rolls everything back).
    ///
    /// Each level announces one `.deleteAll` (or `.updateAll`) change. Rows met again
    /// (cyclic data) are not visited twice.
    ///
    /// - Returns: how many rows of this model were deleted.
    package static func deleteRowsApplyingRules(
        _ query: StoreQuery, store: any PersistenceAdapter, visited: inout Set<RowKey>
    ) throws -> Int {
        let schema = query.schema
        let dependents = try schema.relations().filter { ($0.kind == .hasMany || $0.kind == .hasOne) && $0.rule != nil }
        guard !dependents.isEmpty else { return try deleteRows(query, schema: schema, store: store) }
        let table = ObjectIdentifier(schema)
        var ids: [ModelValue] = []
        var revisited = false
        for row in try store.fetch(query) {
            if visited.insert(RowKey(table: table, id: row[0])).inserted { ids.append(row[0]) } else { revisited = true }
        }
        guard !ids.isEmpty else { return 0 }
        let chunks = IDChunks.split(ids)
        for relation in dependents where relation.rule == .restrict {
            var count = 0
            for chunk in chunks { count += try store.count(relation.children(of: chunk)) }
            if count > 0 {
                throw ModelError(
                    .restricted, model: schema.modelName,
                    message: "cannot delete \(ids.count) \(schema.modelName) record(s): \(count) \(relation.target.modelName) record(s) still refer to them through \(relation.name)")
            }
        }
        for relation in dependents where relation.rule != .restrict {
            for chunk in chunks {
                try DeleteRuleAction.apply(
                    relation, to: relation.children(of: chunk), store: store, visited: &visited, rowLevel: true)
            }
        }
        guard revisited else { return try deleteRows(query, schema: schema, store: store) }
        var deleted = 0
        for chunk in chunks {
            deleted += try deleteRows(StoreQuery(schema: schema, predicate: .isIn(column: 0, chunk)), schema: schema, store: store)
        }
        return deleted
    }
}

/// What a delete rule does to the children a query selects, with the child type opened
/// from the relation (no stored closures).
enum DeleteRuleAction {
    /// Applies `relation`'s rule to the rows `children` selects: `.destroy` destroys each
    /// record (hooks run), `.delete` bulk-deletes them applying their own rules at row
    /// level, `.nullify` clears their foreign key. `.restrict` is checked by the callers
    /// before anything changes, so it does nothing here. At `rowLevel` (inside a bulk
    /// delete, where no hooks run) `.destroy` deletes in bulk too.
    static func apply(
        _ relation: Relation, to children: StoreQuery, store: any PersistenceAdapter, visited: inout Set<RowKey>,
        rowLevel: Bool = false
    ) throws {
        try apply(relation, relation.targetType, children, store, &visited, rowLevel)
    }

    private static func apply<Child: ModelProtocol>(
        _ relation: Relation, _ type: Child.Type, _ children: StoreQuery, _ store: any PersistenceAdapter,
        _ visited: inout Set<RowKey>, _ rowLevel: Bool
    ) throws {
        switch relation.rule {
        case .destroy where rowLevel, .delete:
            _ = try Child.deleteRowsApplyingRules(children, store: store, visited: &visited)
        case .destroy:
            for record in try Child.fetch(children, store: store) {
                guard try record.destroy() else {
                    throw ModelError(
                        .cancelled, model: children.schema.modelName, id: record.__baselineID,
                        message: "a before-hook declined while destroying dependent records; nothing was deleted")
                }
            }
        case .nullify:
            _ = try Child.updateRows(children, set: [relation.foreignKey: .null], schema: children.schema, store: store)
        case .restrict, nil:
            break
        }
    }
}
