/// The async forms of relation reads: `load(_:)` and the reading methods of `Children`
/// and `Through`. The store work runs on ``BlockingPool`` threads; the records come back
/// to the caller and are linked there (the owner never leaves the caller's isolation).
extension ModelProtocol {
    /// Reads the parent of a `@BelongsTo` or the child of a `@HasOne` (async; see
    /// ``load(_:)-(KeyPath<Self,Related?>)``).
    @discardableResult
    nonisolated(nonsending) public func load<Related: ModelProtocol>(_ keyPath: KeyPath<Self, Related?>) async throws -> Related? {
        switch try ToOneRelation.resolve(keyPath, of: self) {
        case .belongsTo(let slot):
            let key = __values[slot]
            if key.isNull { return loadedParent(slot: slot, key: key, as: Related.self) ?? nil }
            let (schema, store) = try Related.context(__home)
            let parent = try await BlockingPool.shared.run(reading: store) {
                try Related.fetch(StoreQuery(schema: schema, predicate: .compare(column: 0, .equal, key), limit: 1), store: store).first
            }
            extras.related.parents[slot] = ParentLink(key: key, parent: parent, pending: false)
            return parent
        case .hasOne(let relation):
            return try await loadChildren(relation, as: Related.self).first
        }
    }

    /// Reads the children of a `@HasMany` and keeps them (async).
    @discardableResult
    nonisolated(nonsending) public func load<Child: ModelProtocol>(_ keyPath: KeyPath<Self, Children<Child>>) async throws -> [Child] {
        let relation = try self[keyPath: keyPath].relation()
        return try await loadChildren(relation, as: Child.self)
    }

    /// Reads and keeps the children of a `@HasMany`/`@HasOne` (async).
    nonisolated(nonsending) func loadChildren<Child: ModelProtocol>(_ relation: Relation, as type: Child.Type) async throws -> [Child] {
        guard __isPersisted else {
            setLoadedChildren([], at: relation.location)
            return []
        }
        let (_, store) = try Child.context(__home)
        let query = relation.childQuery(of: [__baseline[0]], as: Child.self, store: store)
        let children = try await query.all()
        linkInverse(of: children, foreignKey: relation.foreignKey)
        setLoadedChildren(children, at: relation.location)
        return children
    }
}

extension Children {
    /// Every child (async): the loaded ones, none for an unsaved owner, else read.
    nonisolated(nonsending) public func all() async throws -> [Child] {
        if let loaded { return loaded }
        guard owner.__isPersisted else { return [] }
        let children = try await query.all()
        owner.linkInverse(of: children, foreignKey: try relation().foreignKey)
        return children
    }

    /// How many children there are (async).
    nonisolated(nonsending) public func count() async throws -> Int {
        if let loaded { return loaded.count }
        guard owner.__isPersisted else { return 0 }
        return try await query.count()
    }

    /// Whether there is any child (async).
    nonisolated(nonsending) public func exists() async throws -> Bool {
        try await count() > 0
    }

    /// The first child in store order (async).
    nonisolated(nonsending) public func first() async throws -> Child? {
        if let loaded { return loaded.first }
        guard owner.__isPersisted else { return nil }
        guard let child = try await query.first() else { return nil }
        owner.linkInverse(of: [child], foreignKey: try relation().foreignKey)
        return child
    }
}

extension Through {
    /// The targets' query, built on a pool thread (reading the intermediate keys there).
    nonisolated(nonsending) private func asyncQuery() async throws -> Query<Target> {
        let (path, shape) = (self.path, self.shape)
        let ownerID: ModelValue? = owner.__isPersisted ? .some(owner.__baseline[0]) : .none
        let (_, store) = try Target.context(owner.__home)
        return try await BlockingPool.shared.run(reading: store) { try Self.query(path: path, ownerID: ownerID, home: store, shape: shape) }
    }

    /// Every target (async).
    nonisolated(nonsending) public func all() async throws -> [Target] { try await asyncQuery().all() }
    /// How many targets there are (async).
    nonisolated(nonsending) public func count() async throws -> Int { try await asyncQuery().count() }
    /// Whether there is any target (async).
    nonisolated(nonsending) public func exists() async throws -> Bool { try await asyncQuery().exists() }
    /// The first target (async).
    nonisolated(nonsending) public func first() async throws -> Target? { try await asyncQuery().first() }
}
