/// The children of one record through a `@HasMany` relation: a query scoped to the owner,
/// plus ways to add, create and remove children.
///
/// Everything `Query` offers chains on: `todo.assignees.where(\.active == true).order(by: "name").all()`.
/// Children preloaded by `including(_:)` answer `all()` and `count()` without a query.
public struct Children<Child: ModelProtocol> {
    let owner: ModelObject
    let location: Int

    /// The children of `owner` through the relation declared at `location`.
    @usableFromInline package init(owner: ModelObject, location: Int) {
        self.owner = owner
        self.location = location
    }

    /// The relation, resolved from the owner's schema.
    func relation() throws(QueryError) -> Relation {
        try RelationLookup.relation(of: owner, at: location)
    }

    /// The owner's id, or nil while the owner is unsaved.
    var ownerID: ModelValue? { owner._isPersisted ? .some(owner.__baselineID) : .none }

    /// The children as a query (matches nothing while the owner is unsaved).
    public var query: Query<Child> {
        let relation: Relation
        do {
            relation = try self.relation()
        } catch {
            return Query(failing: error)
        }
        guard let ownerID else {
            var none = Query<Child>()
            none.predicate = .or([])
            if let home = owner._home { none.adapter = home }
            return none
        }
        return relation.childQuery(of: [ownerID], as: Child.self, store: owner._home)
    }

    /// The children held in memory — eager-loaded with `including(_:)`, loaded with
    /// `load(_:)` or read from a document — or nil when they were not loaded. Never
    /// touches the store.
    public var loaded: [Child]? { owner.loadedChildren(at: location, as: Child.self) }

    /// What the reading methods answer without the store: the loaded children, or none
    /// for an unsaved owner.
    var memory: [Child]? {
        if let loaded { return loaded }
        return owner._isPersisted ? nil : []
    }

    /// Reads stored children of the saved owner with `fetch`; the relation is resolved
    /// once, and the children read know their owner (`child.parent` needs no query).
    private func readSteps(_ fetch: (Query<Child>) throws -> StoreSteps<[Child]>) throws -> StoreSteps<[Child]> {
        let relation = try self.relation()
        let owner = self.owner
        return try fetch(relation.childQuery(of: [owner.__baselineID], as: Child.self, store: owner._home)).map { children in
            owner.linkInverse(of: children, foreignKey: relation.foreignKey)
            return children
        }
    }

    /// The steps of ``all()``, ``count()`` and ``first()`` (for both drivers).
    func allSteps() throws -> StoreSteps<[Child]> {
        if let memory { return .done(memory) }
        return try readSteps { try $0.recordsSteps() }
    }

    func countSteps() throws -> StoreSteps<Int> {
        if let memory { return .done(memory.count) }
        return try query.countSteps()
    }

    func firstSteps() throws -> StoreSteps<Child?> {
        if let memory { return .done(memory.first) }
        return try readSteps { try $0.firstSteps(1) }.map(\.first)
    }

    // MARK: Reading

    /// Every child, in store order: the loaded ones when loaded, none while the owner is
    /// unsaved, else read from the store.
    public func all() throws -> [Child] { try allSteps().run() }
    /// How many children there are.
    public func count() throws -> Int { try countSteps().run() }
    /// Whether there is any child.
    public func exists() throws -> Bool { try countSteps().run() > 0 }
    /// The first child in store order.
    public func first() throws -> Child? { try firstSteps().run() }
    /// The children matching a condition.
    public func `where`(_ condition: QueryCondition<Child>) -> Query<Child> { query.where(condition) }
    /// Starts a condition on a child column: `todo.assignees.where("name").eq("bob")`.
    public func `where`(_ column: String) -> ColumnCondition<Child> { query.where(column) }
    /// The children sorted by a column.
    public func order(by column: String, _ direction: SortDirection = .ascending) -> Query<Child> {
        query.order(by: column, direction)
    }
    /// The children sorted by a key path.
    public func order<V>(by keyPath: KeyPath<Child, V>, _ direction: SortDirection = .ascending) -> Query<Child> {
        query.order(by: keyPath, direction)
    }
    /// The children kept by a Swift filter.
    public func filter(_ filter: @escaping @Sendable (Child) -> Bool) -> Query<Child> { query.filter(filter) }
    /// At most `count` children.
    public func limit(_ count: Int) -> Query<Child> { query.limit(count) }

    // MARK: Changing

    /// Makes `child` one of these children: sets its foreign key (moving it from any other
    /// parent) and saves it to the owner's store.
    ///
    /// - Throws: ``QueryError`` `.invalidRelation` while the owner is unsaved; as `saveOrThrow()`.
    public func append(_ child: Child) throws {
        _ = child.recordSchema
        let relation = try self.relation()
        guard let ownerID else { throw unsaved("append") }
        try link(child, to: ownerID, at: relation.foreignKey)
    }

    /// Detaches `child` (sets its foreign key to nil and saves it).
    ///
    /// - Returns: `false` when `child` was not one of these children.
    @discardableResult
    public func remove(_ child: Child) throws -> Bool {
        _ = child.recordSchema
        let relation = try self.relation()
        guard let ownerID, child._value(at: relation.foreignKey) == ownerID else { return false }
        try link(child, to: .null, at: relation.foreignKey)
        return true
    }

    /// Sets `child`'s foreign key and saves it; on failure the key goes back to what it
    /// was. Drops any preloaded snapshot of the children.
    func link(_ child: Child, to key: ModelValue, at foreignKey: Int) throws {
        let undo = attach(child, to: key, at: foreignKey)
        do {
            try child.save(to: owner._home)
        } catch {
            undo(child)
            throw error
        }
        owner.setLoadedChildren(nil, at: location)
    }

    /// Sets `child`'s foreign key (linking it to the owner, or to nothing); returns what
    /// puts the previous key and links back.
    func attach(_ child: Child, to key: ModelValue, at foreignKey: Int) -> (Child) -> Void {
        let previous = child._value(at: foreignKey)
        let (previousLink, previousInverse) = (child._extrasIfAny?.related.parents[foreignKey], child.__inverse)
        if key.isNull { child._linkParent(nil, slot: foreignKey) } else { child._linkInverse(owner, slot: foreignKey) }
        return { child in
            child._assign(previous, at: foreignKey)
            child._extrasIfAny?.related.parents[foreignKey] = previousLink
            child.__inverse = previousInverse
        }
    }

    /// Makes a child from attributes (cast as `Child(_:)` casts them), links it and saves it.
    @discardableResult
    public func create(_ attributes: [String: ModelValue] = [:]) throws -> Child {
        let child = try Child(attributes)
        try append(child)
        return child
    }

    /// ``create(_:)-ModelValue`` with Swift values (`["title": title, "due": date]`).
    @discardableResult
    public func create(_ attributes: [String: any ModelValueConvertible]) throws -> Child {
        try create(attributes.mapValues(\.modelValue))
    }

    /// ``new(_:)-ModelValue`` with Swift values.
    public func new(_ attributes: [String: any ModelValueConvertible]) throws -> Child {
        try new(attributes.mapValues(\.modelValue))
    }

    /// Makes an unsaved child from attributes, already linked to the owner.
    public func new(_ attributes: [String: ModelValue] = [:]) throws -> Child {
        let relation = try self.relation()
        guard ownerID != nil else { throw unsaved("new") }
        let child = try Child(attributes)
        _ = child.recordSchema
        child._linkInverse(owner, slot: relation.foreignKey)
        return child
    }

    func unsaved(_ operation: String) -> QueryError {
        let schema = owner._attachedSchema ?? SchemaRegistry.schema(forObject: owner)
        return QueryError(
            .invalidRelation, model: schema.modelName,
            message: "\(operation) needs a saved \(schema.modelName); save it before adding children")
    }
}
