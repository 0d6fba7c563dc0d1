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
            EagerInclude { owners, store in
                guard let first = owners.records.first else { return .none }
                return try EagerLoad.children(of: owners, relation: relation(first), store: store, nested: nested)
            })
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
            EagerInclude { owners, store in
                guard let first = owners.records.first else { return .none }
                switch try ToOneRelation.resolve(keyPath, of: first) {
                case .belongsTo(let slot):
                    return try EagerLoad.parents(of: owners.records, foreignKey: slot, store: store, nested: nested)
                case .hasOne(let relation):
                    return try EagerLoad.children(of: owners, relation: relation, store: store, nested: nested)
                }
            })
        return query
    }
}

/// One eager load of a query: the steps of its related query and of linking the results,
/// which the synchronous and the async terminals both run (see ``StoreSteps``).
struct EagerInclude<M: ModelProtocol>: Sendable {
    let load: @Sendable (EagerOwners<M>, any PersistenceAdapter) throws -> StoreSteps<Void>
}

/// The records an eager load runs for, and whether they are every stored row of their
/// table (a query with no condition and no window, nothing filtered in Swift).
///
/// When they are, their children are "every row whose foreign key is set" — one plain
/// read, where a list of every owner's id makes SQLite probe the foreign-key index once
/// per owner and fetch each child by rowid (about 2.5× the instructions of a scan), grows
/// the statement with the table, and runs into bound-parameter limits. A child whose key
/// names no owner here (a dangling key, or an owner stored after the owners were read) is
/// left out, as the id list would have left it out.
struct EagerOwners<M: ModelProtocol> {
    let records: [M]
    let everyRow: Bool
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
/// Each is a ``StoreSteps`` value, run by the terminal's driver.
enum EagerLoad {
    /// Loads the children of `owners` in one query and stores each owner's share.
    static func children<Owner: ModelProtocol, Child: ModelProtocol>(
        of owners: EagerOwners<Owner>, relation: Relation, store: any PersistenceAdapter,
        nested: (@Sendable (Query<Child>) -> Query<Child>)?
    ) throws -> StoreSteps<Void> {
        guard let plan = childQueries(of: owners, relation: relation, store: store, nested: nested) else { return .none }
        let byID = {
            try plan.byID().steps { try $0.recordsSteps() }.map { link(Array($0.joined()), to: owners.records, relation: relation) }
        }
        guard let query = plan.everyChild else { return try byID() }
        return try query.recordsSteps().map { link($0, to: owners.records, relation: relation) }.recovering { error in
            // The adapter cannot ask for "key is set": ask for the ids.
            guard let error = error as? any QueryNotExpressible, error.unexpressedPart != nil else { return nil }
            return try byID()
        }
    }

    /// How to read the children of the saved `owners` (nil when none is saved):
    /// - `everyChild`, when the owners are every row of their table (see ``EagerOwners``)
    ///   and the nested query has no window (a limit counts children across owners, so
    ///   rows no owner takes must not use it up): every row whose foreign key is set;
    /// - `byID`, the children of the owners' ids, in chunks (see ``IDChunks``) — the
    ///   queries otherwise, and the fallback when the adapter cannot express the first
    ///   (made only then). Each owner's children come from one chunk, in the nested order.
    private static func childQueries<Owner: ModelProtocol, Child: ModelProtocol>(
        of owners: EagerOwners<Owner>, relation: Relation, store: any PersistenceAdapter,
        nested: (@Sendable (Query<Child>) -> Query<Child>)?
    ) -> (everyChild: Query<Child>?, byID: () -> [Query<Child>])? {
        let ids = ModelObject._savedIDs(of: owners.records)
        guard !ids.isEmpty else { return nil }
        let shaped = { (query: Query<Child>) in nested.map { $0(query) } ?? query }
        let byID = { IDChunks.queries(for: ids) { shaped(relation.childQuery(of: $0, as: Child.self, store: store)) } }
        guard owners.everyRow else { return (nil, byID) }
        var every = Query<Child>().using(store)
        every.predicate = relation.everyChildPredicate
        every = shaped(every)
        return (every.limitCount == nil && every.offsetCount == 0 ? every : nil, byID)
    }

    /// Gives each owner its share of `children`.
    private static func link<Owner: ModelProtocol, Child: ModelProtocol>(_ children: [Child], to owners: [Owner], relation: Relation) {
        // A child whose key names none of the owners (see `EagerOwners`) is left out.
        ModelObject._distribute(children, to: owners, foreignKey: relation.foreignKey, location: relation.location)
    }

    /// Loads the distinct parents of `children` in one query and links each child.
    static func parents<Child: ModelProtocol, Parent: ModelProtocol>(
        of children: [Child], foreignKey: Int, store: any PersistenceAdapter,
        nested: (@Sendable (Query<Parent>) -> Query<Parent>)?
    ) throws -> StoreSteps<Void> {
        try parentQueries(of: children, foreignKey: foreignKey, store: store, nested: nested).steps { try $0.recordsSteps() }.map {
            link(Array($0.joined()), toChildren: children, foreignKey: foreignKey)
        }
    }

    /// The queries for the distinct parents `children` name, in chunks (see ``IDChunks``).
    private static func parentQueries<Child: ModelProtocol, Parent: ModelProtocol>(
        of children: [Child], foreignKey: Int, store: any PersistenceAdapter,
        nested: (@Sendable (Query<Parent>) -> Query<Parent>)?
    ) -> [Query<Parent>] {
        let keys = ModelObject._distinctKeys(of: children, slot: foreignKey)
        return IDChunks.queries(for: keys) { chunk in
            var query = Query<Parent>().using(store)
            query.predicate = .isIn(column: 0, chunk)
            return nested.map { $0(query) } ?? query
        }
    }

    /// Links each child to its parent among `parents`.
    private static func link<Parent: ModelProtocol>(_ parents: [Parent], toChildren children: [some ModelProtocol], foreignKey: Int) {
        ModelObject._linkParents(parents, toChildren: children, foreignKey: foreignKey)
    }
}
