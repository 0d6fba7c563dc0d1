/// The async forms of relation reads: `load(_:)` and the reading methods of `Children`
/// and `Through`. The store work runs on ``BlockingPool`` threads, or is awaited on an
/// ``AsyncPersistenceAdapter`` (see ``AsyncStoreRoute``); the records come back to the
/// caller and are linked there (the owner never leaves the caller's isolation).
extension ModelProtocol {
    /// Reads the parent of a `@BelongsTo` or the child of a `@HasOne` (async; see
    /// ``load(_:)-(KeyPath<Self,Related?>)``).
    @discardableResult
    nonisolated(nonsending) public func load<Related: ModelProtocol>(_ keyPath: KeyPath<Self, Related?>) async throws -> Related? {
        switch try ToOneRelation.resolve(keyPath, of: self) {
        case .belongsTo(let slot):
            let key = _value(at: slot)
            if key.isNull { return loadedParent(slot: slot, key: key, as: Related.self) ?? nil }
            let (query, store) = try Related.parentQuery(key, from: _home)
            let parent: Related?
            if let native = AsyncStoreRoute.native(store) {
                parent = try Related.records(from: await native.fetch(query), schema: query.schema, store: store).first
            } else {
                parent = try await BlockingPool.shared.run(on: store) { try Related.fetch(query, store: store).first }
            }
            return rememberParent(parent, key: key, slot: slot)
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
        guard _isPersisted else {
            setLoadedChildren([], at: relation.location)
            return []
        }
        let (_, store) = try Child.context(_home)
        let query = relation.childQuery(of: [__baselineID], as: Child.self, store: store)
        return rememberChildren(try await query.all(), of: relation)
    }
}

extension Children {
    /// Every child (async): the loaded ones, none for an unsaved owner, else read.
    nonisolated(nonsending) public func all() async throws -> [Child] {
        if let memory { return memory }
        return try await read { try await $0.all() }
    }

    /// How many children there are (async).
    nonisolated(nonsending) public func count() async throws -> Int {
        if let memory { return memory.count }
        return try await query.count()
    }

    /// Whether there is any child (async).
    nonisolated(nonsending) public func exists() async throws -> Bool {
        try await count() > 0
    }

    /// The first child in store order (async).
    nonisolated(nonsending) public func first() async throws -> Child? {
        if let memory { return memory.first }
        return try await read { try await $0.first().map { [$0] } ?? [] }.first
    }

    /// Reads stored children of the saved owner (async), linked back to it.
    nonisolated(nonsending) private func read(
        _ fetch: (Query<Child>) async throws -> [Child]
    ) async throws -> [Child] {
        let relation = try self.relation()
        let children = try await fetch(relation.childQuery(of: [owner.__baselineID], as: Child.self, store: owner._home))
        owner.linkInverse(of: children, foreignKey: relation.foreignKey)
        return children
    }
}

extension Through {
    /// The targets' query, built on a pool thread (reading the intermediate keys there) or
    /// awaiting an ``AsyncPersistenceAdapter``.
    nonisolated(nonsending) private func asyncQuery() async throws -> Query<Target> {
        let (path, shape) = (self.path, self.shape)
        let ownerID: ModelValue? = owner._isPersisted ? .some(owner.__baselineID) : .none
        let (_, store) = try Target.context(owner._home)
        if let native = AsyncStoreRoute.native(store), let ownerID {
            let resolved = try Self.resolvedPath(path)
            let middleRows = try await native.fetch(Self.middleQuery(resolved, ownerID: ownerID))
            return Self.query(path: resolved, middleRows: middleRows, home: store, shape: shape)
        }
        return try await BlockingPool.shared.run(on: store) { try Self.query(path: path, ownerID: ownerID, home: store, shape: shape) }
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
