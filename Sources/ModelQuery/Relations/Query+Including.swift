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
        let relation: @Sendable (M) throws -> Relation = { first in
            let location = ColumnResolver<M>().prototypeValue(keyPath) { $0[keyPath: keyPath].location }
            return try RelationLookup.relation(of: first, at: location)
        }
        query.includes.append(
            EagerInclude(
                load: { records, store in
                    guard let first = records.first else { return }
                    try EagerLoad.children(of: records, relation: relation(first), store: store, nested: nested)
                },
                loadAsync: { records, store in
                    guard let first = records.first else { return }
                    try await EagerLoad.children(of: records, relation: relation(first), store: store, nested: nested)
                }))
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
        query.includes.append(
            EagerInclude(
                load: { records, store in
                    guard let first = records.first else { return }
                    switch try ToOneRelation.resolve(keyPath, of: first) {
                    case .belongsTo(let slot):
                        try EagerLoad.parents(of: records, foreignKey: slot, store: store, nested: nested)
                    case .hasOne(let relation):
                        try EagerLoad.children(of: records, relation: relation, store: store, nested: nested)
                    }
                },
                loadAsync: { records, store in
                    guard let first = records.first else { return }
                    switch try ToOneRelation.resolve(keyPath, of: first) {
                    case .belongsTo(let slot):
                        try await EagerLoad.parents(of: records, foreignKey: slot, store: store, nested: nested)
                    case .hasOne(let relation):
                        try await EagerLoad.children(of: records, relation: relation, store: store, nested: nested)
                    }
                }))
        return query
    }
}

/// One eager load of a query, in its synchronous form and the form the async terminals
/// await on an ``AsyncPersistenceAdapter`` (each runs its related query the same way).
struct EagerInclude<M: ModelProtocol>: Sendable {
    let load: @Sendable ([M], any PersistenceAdapter) throws -> Void
    let loadAsync: nonisolated(nonsending) @Sendable ([M], any PersistenceAdapter) async throws -> Void
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

/// Eager loads: the related query for a set of records, and linking its results to them.
/// The sync and async forms differ only in how they run the related query.
enum EagerLoad {
    /// Loads the children of `owners` in one query and stores each owner's share.
    static func children<Owner: ModelProtocol, Child: ModelProtocol>(
        of owners: [Owner], relation: Relation, store: any PersistenceAdapter,
        nested: (@Sendable (Query<Child>) -> Query<Child>)?
    ) throws {
        guard let query = childQuery(of: owners, relation: relation, store: store, nested: nested) else { return }
        link(try query.all(), to: owners, relation: relation)
    }

    /// ``children(of:relation:store:nested:)``, awaiting the children's query.
    nonisolated(nonsending) static func children<Owner: ModelProtocol, Child: ModelProtocol>(
        of owners: [Owner], relation: Relation, store: any PersistenceAdapter,
        nested: (@Sendable (Query<Child>) -> Query<Child>)?
    ) async throws {
        guard let query = childQuery(of: owners, relation: relation, store: store, nested: nested) else { return }
        link(try await query.all(), to: owners, relation: relation)
    }

    /// The query for the children of the saved `owners`; nil when none is saved.
    private static func childQuery<Owner: ModelProtocol, Child: ModelProtocol>(
        of owners: [Owner], relation: Relation, store: any PersistenceAdapter,
        nested: (@Sendable (Query<Child>) -> Query<Child>)?
    ) -> Query<Child>? {
        let ids = owners.filter(\.__isPersisted).map { $0.__baseline[0] }
        guard !ids.isEmpty else { return nil }
        let query = relation.childQuery(of: ids, as: Child.self, store: store)
        return nested.map { $0(query) } ?? query
    }

    /// Gives each owner its share of `children`.
    private static func link<Owner: ModelProtocol>(_ children: [some ModelProtocol], to owners: [Owner], relation: Relation) {
        let foreignKey = relation.foreignKey
        var groups: [ModelValue: [ModelObject]] = [:]
        for child in children { groups[child.__values[foreignKey], default: []].append(child) }
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
        let query = parentQuery(of: children, foreignKey: foreignKey, store: store, nested: nested)
        link(try query.all(), toChildren: children, foreignKey: foreignKey)
    }

    /// ``parents(of:foreignKey:store:nested:)``, awaiting the parents' query.
    nonisolated(nonsending) static func parents<Child: ModelProtocol, Parent: ModelProtocol>(
        of children: [Child], foreignKey: Int, store: any PersistenceAdapter,
        nested: (@Sendable (Query<Parent>) -> Query<Parent>)?
    ) async throws {
        let query = parentQuery(of: children, foreignKey: foreignKey, store: store, nested: nested)
        link(try await query.all(), toChildren: children, foreignKey: foreignKey)
    }

    /// The query for the distinct parents `children` name.
    private static func parentQuery<Child: ModelProtocol, Parent: ModelProtocol>(
        of children: [Child], foreignKey: Int, store: any PersistenceAdapter,
        nested: (@Sendable (Query<Parent>) -> Query<Parent>)?
    ) -> Query<Parent> {
        var seen = Set<ModelValue>()
        let keys = children.map { $0.__values[foreignKey] }.filter { !$0.isNull && seen.insert($0).inserted }
        var query = Query<Parent>().using(store)
        query.predicate = .isIn(column: 0, keys)
        return nested.map { $0(query) } ?? query
    }

    /// Links each child to its parent among `parents`.
    private static func link<Parent: ModelProtocol>(_ parents: [Parent], toChildren children: [some ModelProtocol], foreignKey: Int) {
        var byID: [ModelValue: Parent] = [:]
        for parent in parents { byID[parent.__values[0]] = parent }
        for child in children {
            let key = child.__values[foreignKey]
            guard !key.isNull else { continue }
            child.extras.related.parents[foreignKey] = ParentLink(key: key, parent: byID[key], pending: false)
        }
    }
}
