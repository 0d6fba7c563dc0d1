extension Query {
    /// Eager-loads a `@HasMany` for every record the query returns: one query for all
    /// their children (no N+1); `record.children.all()` then answers from memory.
    ///
    /// ```swift
    /// let todos = try Todo.query().including(\.assignees).all()          // 2 store queries
    /// let deep = try Todo.query().including(\.assignees) { $0.including(\.comments) }.all()
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
        query.noteIncludedTables(Child.self, nested)
        query.includes.append { records, store in
            guard let first = records.first else { return }
            let location = ColumnResolver<M>().prototypeValue(keyPath) { $0[keyPath: keyPath].location }
            let relation = try RelationLookup.relation(of: first, at: location)
            try EagerLoad.children(of: records, relation: relation, store: store, nested: nested)
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
        query.noteIncludedTables(Related.self, nested)
        query.includes.append { records, store in
            guard let first = records.first else { return }
            switch try ToOneRelation.resolve(keyPath, of: first) {
            case .belongsTo(let slot):
                try EagerLoad.parents(of: records, foreignKey: slot, store: store, nested: nested)
            case .hasOne(let relation):
                try EagerLoad.children(of: records, relation: relation, store: store, nested: nested)
            }
        }
        return query
    }
}

extension Query {
    /// Notes the tables an eager load of `Related` (and its nested loads) reads.
    mutating func noteIncludedTables<Related: ModelProtocol>(
        _ type: Related.Type, _ nested: (@Sendable (Query<Related>) -> Query<Related>)?
    ) {
        includedTables.append(Related.schema.tableName)
        if let nested { includedTables += nested(Query<Related>()).includedTables }
    }
}

enum EagerLoad {
    /// Loads the children of `owners` in one query and stores each owner's share.
    static func children<Owner: ModelProtocol, Child: ModelProtocol>(
        of owners: [Owner], relation: Relation, store: any PersistenceAdapter,
        nested: (@Sendable (Query<Child>) -> Query<Child>)?
    ) throws {
        let ids = owners.filter(\.__isPersisted).map { $0.__baseline[0] }
        guard !ids.isEmpty else { return }
        var query = relation.childQuery(of: ids, as: Child.self, store: store)
        if let nested { query = nested(query) }
        let foreignKey = relation.foreignKey
        var groups: [ModelValue: [ModelObject]] = [:]
        for child in try query.all() { groups[child.__values[foreignKey], default: []].append(child) }
        for owner in owners where owner.__isPersisted {
            let children = groups[owner.__baseline[0]] ?? []
            owner.linkInverse(of: children, foreignKey: foreignKey)
            owner.extras.related.children[relation.location] = children
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
            child.extras.related.parents[foreignKey] = ParentLink(key: key, parent: byID[key], pending: false)
        }
    }
}
