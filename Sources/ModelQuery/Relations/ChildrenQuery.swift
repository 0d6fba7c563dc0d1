/// The one definition of "the children of these owners" for a `@HasMany` or `@HasOne`:
/// the target rows whose foreign key holds one of the owners' ids, in store order.
///
/// Every path that reaches children goes through here — `Children` (and so serialization),
/// `@HasOne` reads and replacement, eager loading, `load(_:)` and the delete rules — so
/// they select the same rows in the same order.
extension Relation {
    /// The condition selecting the children of `ownerIDs`.
    package func childrenPredicate(of ownerIDs: [ModelValue]) -> QueryPredicate {
        if ownerIDs.count == 1 { return .compare(column: foreignKey, .equal, ownerIDs[0]) }
        return .isIn(column: foreignKey, ownerIDs)
    }

    /// The condition selecting the children of every stored owner, and rows whose key names
    /// no stored owner: a caller keeps the rows whose key is one of its owners' ids.
    package var everyChildPredicate: QueryPredicate { .isNotNull(column: foreignKey) }

    /// The children of `ownerIDs`, as a store query.
    package func children(of ownerIDs: [ModelValue]) -> StoreQuery {
        StoreQuery(schema: target, predicate: childrenPredicate(of: ownerIDs))
    }

    /// The children of `ownerIDs` as a query on `Child` (the relation's target type),
    /// reading from `store` when given.
    func childQuery<Child: ModelProtocol>(
        of ownerIDs: [ModelValue], as child: Child.Type, store: (any PersistenceAdapter)?
    ) -> Query<Child> {
        var query = Query<Child>()
        query.predicate = childrenPredicate(of: ownerIDs)
        if let store { query.adapter = store }
        return query
    }
}

extension ModelObject {
    /// The children of a `@HasMany`/`@HasOne` held in memory (eager-loaded, loaded, read
    /// from a document), or nil when none were loaded.
    package final func loadedChildren<Child: ModelProtocol>(at location: Int, as type: Child.Type) -> [Child]? {
        guard let records = _extrasIfAny?.related.children[location] else { return nil }
        // Only this relation's code stores here, always with its own target type: checked,
        // and copied in place (see ``ModelObject/_makeArray(of:count:_:)``).
        var allChildren = true
        let children = ModelObject._makeArray(of: Child.self, count: records.count) { objects, initialized in
            for record in records {
                guard record is Child else {
                    allChildren = false
                    return
                }
                objects.initializeElement(at: initialized, to: record)
                initialized += 1
            }
        }
        return allChildren ? children : nil
    }

    /// Links each child back to this owner through the relation's `@BelongsTo`, weakly (in
    /// memory: `child.parent` then returns this record without a query).
    package final func linkInverse(of children: [ModelObject], foreignKey: Int) {
        let id = _value(at: 0)
        for child in children where child._value(at: foreignKey) == id {
            if id.isNull {
                child._linkInverse(self, slot: foreignKey)
            } else {
                child._linkInverse(toOwnerWhoseIDIsTheKey: self, slot: foreignKey)
            }
        }
    }

    /// Remembers loaded children of the relation at `location` (nil forgets them).
    package final func setLoadedChildren(_ children: [ModelObject]?, at location: Int) {
        if let children {
            extras.related.children[location] = children
        } else {
            _extrasIfAny?.related.children[location] = nil
        }
    }
}
