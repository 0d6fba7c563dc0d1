extension Query {
    /// Eager-loads a `@HasMany` for every record the query returns: one query for all
    /// their children (no N+1); `record.children.all()` then answers from memory.
    ///
    /// ```swift
    /// let tasks = try Task.query().including(\.assignees).all()          // 2 store queries
    /// let deep = try Task.query().including(\.assignees) { $0.including(\.comments) }.all()
    /// ```
    ///
    /// `nested` shapes the children's query (nested includes, order, conditions); limits
    /// in it apply across all parents' children, not per parent. Preloaded children are a
    /// snapshot: `append`/`remove` through the relation and `reload()` drop it.
    public func including<Child: ModelProtocol>(
        _ keyPath: KeyPath<M, Children<Child>> & Sendable,
        _ nested: (@Sendable (Query<Child>) -> Query<Child>)? = nil
    ) -> Query<M> {
        var query = self
        query.includes.append { records, store in
            guard let first = records.first else { return }
            let location = ColumnResolver<M>().prototypeValue(keyPath) { $0[keyPath: keyPath].location }
            let relation = try RelationLookup.relation(of: first, at: location)
            try EagerLoad.children(
                of: records, location: location, foreignKey: relation.foreignKey, store: store, nested: nested)
        }
        return query
    }

    /// Eager-loads a `@BelongsTo` parent (one query for all distinct parents) or a
    /// `@HasOne` child (one query for all owners' children).
    public func including<Related: ModelProtocol>(
        _ keyPath: KeyPath<M, Related?> & Sendable,
        _ nested: (@Sendable (Query<Related>) -> Query<Related>)? = nil
    ) -> Query<M> {
        var query = self
        query.includes.append { records, store in
            guard let first = records.first else { return }
            if let slot = ColumnResolver<M>().columnSlot(ifAny: keyPath) {
                try EagerLoad.parents(of: records, foreignKey: slot, store: store, nested: nested)
                return
            }
            let schema = first.recordSchema
            let candidates = try schema.relations().filter { $0.kind == .hasOne && $0.target === Related.schema }
            guard candidates.count == 1, let relation = candidates.first else {
                throw QueryError(
                    .invalidRelation, model: schema.modelName, column: "\(keyPath)",
                    message: "including(_:) needs a @BelongsTo or the one @HasOne of this type")
            }
            try EagerLoad.children(
                of: records, location: relation.location, foreignKey: relation.foreignKey, store: store, nested: nested)
        }
        return query
    }
}

enum EagerLoad {
    /// Loads the children of `owners` in one query and stores each owner's share.
    static func children<Owner: ModelProtocol, Child: ModelProtocol>(
        of owners: [Owner], location: Int, foreignKey: Int, store: any PersistenceAdapter,
        nested: (@Sendable (Query<Child>) -> Query<Child>)?
    ) throws {
        let ids = owners.filter(\.__isPersisted).map { $0.__baseline[0] }
        var query = Query<Child>().using(store)
        query.predicate = .isIn(column: foreignKey, ids)
        if let nested { query = nested(query) }
        var groups: [ModelValue: [Child]] = [:]
        for child in try query.all() { groups[child.__values[foreignKey], default: []].append(child) }
        for owner in owners where owner.__isPersisted {
            owner.extras.related[location] = groups[owner.__baseline[0]] ?? []
        }
    }

    /// Loads the distinct parents of `children` in one query and links each child.
    static func parents<Child: ModelProtocol, Parent: ModelProtocol>(
        of children: [Child], foreignKey: Int, store: any PersistenceAdapter,
        nested: (@Sendable (Query<Parent>) -> Query<Parent>)?
    ) throws {
        var seen = Set<ModelValue>()
        let keys = children.map { $0.__values[foreignKey] }.filter { !$0.isNull && seen.insert($0).inserted }
        var query = Query<Parent>().using(store)
        query.predicate = .isIn(column: 0, keys)
        if let nested { query = nested(query) }
        var byID: [ModelValue: Parent] = [:]
        for parent in try query.all() { byID[parent.__values[0]] = parent }
        for child in children {
            let key = child.__values[foreignKey]
            guard !key.isNull else { continue }
            child.extras.parents[foreignKey] = ParentLink(key: key, parent: byID[key], pending: false)
        }
    }
}
