/// Explicit loading: the one way a relation reads the store outside a query.
///
/// Relation properties never touch the store. `@BelongsTo` and `@HasOne` properties return
/// what was assigned or loaded (nil otherwise); `@HasMany` and `@HasManyThrough`
/// properties return a handle whose reading methods throw. To read a to-one relation, load
/// it — one record with `load(_:)`, many with `Query.including(_:)`:
///
/// ```swift
/// let todo = try assignee.load(\.todo)                      // one query; then assignee.todo
/// let profile = try user.load(\.profile)
/// let todos = try Todo.query().including(\.assignees).all()  // 2 queries for all todos
/// ```
///
/// Store errors are thrown by `load`, never turned into nil.
extension ModelProtocol {
    /// Reads the parent of a `@BelongsTo` or the child of a `@HasOne` from the store and
    /// remembers it, so the property returns it from now on.
    ///
    /// - Returns: the related record, or nil when there is none (a nil foreign key, no row
    ///   with that id, no child).
    /// - Throws: ``QueryError`` `.invalidRelation` when the key path is not such a
    ///   relation; adapter errors.
    @discardableResult
    public func load<Related: ModelProtocol>(_ keyPath: KeyPath<Self, Related?>) throws -> Related? {
        try loadSteps(keyPath).run()
    }

    /// The steps of ``load(_:)-(KeyPath<Self,Related?>)`` (for both drivers).
    func loadSteps<Related: ModelProtocol>(_ keyPath: KeyPath<Self, Related?>) throws -> StoreSteps<Related?> {
        switch try ToOneRelation.resolve(keyPath, of: self) {
        case .belongsTo(let slot): try loadParentSteps(slot: slot, as: Related.self)
        case .hasOne(let relation): try loadChildrenSteps(relation, as: Related.self).map(\.first)
        }
    }

    /// Reads the children of a `@HasMany` from the store and remembers them, so that
    /// `all()`, `count()`, `first()`, `exists()` and ``Children/loaded`` answer from memory.
    ///
    /// - Returns: the children, in store order (none while the owner is unsaved).
    @discardableResult
    public func load<Child: ModelProtocol>(_ keyPath: KeyPath<Self, Children<Child>>) throws -> [Child] {
        try loadChildrenSteps(self[keyPath: keyPath].relation(), as: Child.self).run()
    }

    /// Whether a `@BelongsTo` or `@HasOne` property has its record in memory (assigned or
    /// loaded), so that a nil from the property means "none" rather than "not loaded". A
    /// `@BelongsTo` whose foreign key is nil is always loaded.
    public func isLoaded<Related: ModelProtocol>(_ keyPath: KeyPath<Self, Related?>) throws -> Bool {
        switch try ToOneRelation.resolve(keyPath, of: self) {
        case .belongsTo(let slot):
            return loadedParent(slot: slot, key: _value(at: slot), as: Related.self) != nil
        case .hasOne(let relation):
            let related = _extrasIfAny?.related
            return related?.staged[relation.location] != nil || related?.children[relation.location] != nil
        }
    }

    /// Whether a `@HasMany` has its children in memory (eager-loaded or loaded).
    public func isLoaded<Child: ModelProtocol>(_ keyPath: KeyPath<Self, Children<Child>>) -> Bool {
        _extrasIfAny?.related.children[self[keyPath: keyPath].location] != nil
    }

    /// The parent behind a `@BelongsTo`, read from the store.
    @available(*, deprecated, renamed: "load(_:)", message: "use load(_:), which works for every to-one relation")
    public func parent<P: ModelProtocol>(_ keyPath: KeyPath<Self, P?>) throws -> P? {
        try load(keyPath)
    }

    /// The parent of a `@BelongsTo` relation as its property sees it, read from the store
    /// (and remembered) when not in memory.
    package func relatedParent<P: ModelProtocol>(_ relation: Relation, as type: P.Type) throws -> P? {
        let slot = relation.foreignKey
        if let known = loadedParent(slot: slot, key: _value(at: slot), as: P.self) { return known }
        return try loadParent(slot: slot, as: P.self)
    }

    /// The children of a `@HasMany`/`@HasOne` as its property sees them: the staged
    /// `@HasOne` child, else the loaded children, else the stored ones (read, not
    /// remembered); none for an unsaved record.
    package func relatedChildren<C: ModelProtocol>(_ relation: Relation, as type: C.Type) throws -> [C] {
        if let staged = _extrasIfAny?.related.staged[relation.location] {
            return (staged.child as? C).map { [$0] } ?? []
        }
        let children = Children<C>(owner: self, location: relation.location)
        if let loaded = children.loaded { return loaded }
        return try children.all()
    }

    /// Reads the parent for the foreign key at `slot` and remembers it.
    package func loadParent<P: ModelProtocol>(slot: Int, as type: P.Type) throws -> P? {
        try loadParentSteps(slot: slot, as: P.self).run()
    }

    /// The steps of ``loadParent(slot:as:)``.
    func loadParentSteps<P: ModelProtocol>(slot: Int, as type: P.Type) throws -> StoreSteps<P?> {
        let key = _value(at: slot)
        if key.isNull {
            // Nothing to read: a pending (unsaved) parent or owner, or none.
            return .done(loadedParent(slot: slot, key: key, as: P.self) ?? nil)
        }
        let (query, store) = try P.parentQuery(key, from: _home)
        return .fetch(query, on: store) { rows in
            .done(self.rememberParent(try P.records(from: rows, schema: query.schema, store: store).first, key: key, slot: slot))
        }
    }

    /// Remembers the parent loaded for the foreign-key value `key` at `slot`.
    func rememberParent<P: ModelProtocol>(_ parent: P?, key: ModelValue, slot: Int) -> P? {
        _rememberLoadedParent(parent, key: key, slot: slot)
        return parent
    }

    /// The query reading the record whose id is `key`, and the store it runs on.
    static func parentQuery(_ key: ModelValue, from home: (any PersistenceAdapter)?) throws -> (StoreQuery, any PersistenceAdapter) {
        let (schema, store) = try context(home)
        return (StoreQuery(schema: schema, predicate: .compare(column: 0, .equal, key), limit: 1), store)
    }

    /// Remembers children loaded for `relation` and links them back to this owner.
    func rememberChildren<Child: ModelProtocol>(_ children: [Child], of relation: Relation) -> [Child] {
        linkInverse(of: children, foreignKey: relation.foreignKey)
        setLoadedChildren(children, at: relation.location)
        return children
    }

    /// The steps of reading the children of a `@HasMany`/`@HasOne` and remembering them.
    func loadChildrenSteps<Child: ModelProtocol>(_ relation: Relation, as type: Child.Type) throws -> StoreSteps<[Child]> {
        guard _isPersisted else {
            setLoadedChildren([], at: relation.location)
            return .done([])
        }
        return try relation.childQuery(of: [__baselineID], as: Child.self, store: _home).recordsSteps().map {
            self.rememberChildren($0, of: relation)
        }
    }
}

extension ModelObject {
    /// The parent in memory for the foreign-key value `key`: `.some(parent)` (possibly
    /// `.some(nil)`: no such parent, or a nil key) when known, nil when not loaded.
    package final func loadedParent<P: ModelProtocol>(slot: Int, key: ModelValue, as type: P.Type) -> P?? {
        if let known = _loadedParent(slot: slot, key: key, extras: _extrasIfAny) { return .some(known as? P) }
        return key.isNull ? .some(nil) : nil
    }
}

extension ModelProtocol {
    /// What assigning a `@BelongsTo` property declared at `location` does: links `parent`
    /// (its id becomes the foreign key, or the link waits for its save) or, nil, unlinks.
    @usableFromInline package func _setParent<P: ModelProtocol>(_ parent: P?, location: Int) {
        let slot = recordSchema.slot(for: location)
        _ = parent?.recordSchema
        _linkParent(parent, slot: slot, clearingKeyWhilePending: true)
    }
}

/// The relation a to-one key path names, resolved once per key path.
enum ToOneRelation {
    /// A `@BelongsTo`, by its foreign key's row index.
    case belongsTo(slot: Int)
    /// A `@HasOne`.
    case hasOne(Relation)

    static func resolve<M: ModelProtocol, R: ModelProtocol>(_ keyPath: KeyPath<M, R?>, of record: M) throws(QueryError) -> ToOneRelation {
        let schema = record.recordSchema
        let resolver = ColumnResolver<M>()
        if let slot = resolver.columnSlot(ifAny: keyPath) {
            let relations = try relations(of: schema)
            guard relations.contains(where: { $0.kind == .belongsTo && $0.foreignKey == slot }) else {
                throw notARelation(keyPath, schema)
            }
            return .belongsTo(slot: slot)
        }
        let location = resolver.prototypeValue(keyPath) { prototype in
            prototype.extras.related.probe = -1
            _ = prototype[keyPath: keyPath]
            return prototype._extrasIfAny?.related.probe ?? -1
        }
        guard let relation = try relations(of: schema).first(where: { $0.location == location }), relation.kind == .hasOne else {
            throw notARelation(keyPath, schema)
        }
        return .hasOne(relation)
    }

    private static func relations(of schema: ModelSchema) throws(QueryError) -> [Relation] {
        do {
            return try schema.relations()
        } catch {
            throw QueryError(relation: error)
        }
    }

    private static func notARelation(_ keyPath: AnyKeyPath, _ schema: ModelSchema) -> QueryError {
        QueryError(
            .invalidRelation, model: schema.modelName, column: "\(keyPath)",
            message: "the key path is not a @BelongsTo or @HasOne property of \(schema.modelName)")
    }
}
