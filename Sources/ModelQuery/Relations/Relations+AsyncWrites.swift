/// The async forms of the relation writes: `destroy()` with its delete rules, and adding
/// or removing children. As with `save()`, hooks run on the record in the caller's
/// isolation; the store work — the delete rules over related rows, which load their own
/// records on the pool thread and hand none back — runs on ``BlockingPool``.
extension ModelProtocol {
    /// Deletes the record honouring its relations' rules (async; see ``destroy()``): the
    /// same steps and hook order as the synchronous form — the before-hooks and the
    /// after-hooks here, the store work (rules and delete, one transaction) on the pool.
    @discardableResult
    nonisolated(nonsending) public func destroy() async throws -> Bool {
        try Task.checkCancellation()
        let (schema, store) = try destroyTarget()
        let isolation = #isolation
        if TransactionContext.runsHere(on: store) { return try destroyNow() }  // a transaction's own executor: may block
        if let inline = store as? any InlineRunningAdapter, let done = try inline.runInlineIfFree({ try destroyNow() }) {
            return done
        }
        guard let start = try beginDestroy(schema: schema, store: store) else { return false }
        try await BlockingPool.shared.run(on: store) { try Self.destroyRows(start) }
        WriteIsolation.declaring(isolation) { finishDestroy(start) }
        return true
    }

    /// The synchronous ``destroy()``, named for async contexts.
    private func destroyNow() throws -> Bool { try destroy() }

    /// Destroys every record one by one, in one store transaction (async; see
    /// ``destroyAll(in:)``). The records are loaded and destroyed on the pool.
    @discardableResult
    nonisolated(nonsending) public static func destroyAll(in adapter: (any PersistenceAdapter)? = nil) async throws -> Int {
        try await onPool(adapter) { store in try destroyAll(in: store) }
    }

    /// Loads the record with this id and destroys it (async; see ``destroy(id:in:)``).
    @discardableResult
    nonisolated(nonsending) public static func destroy(id: IDValue, in adapter: (any PersistenceAdapter)? = nil)
        async throws -> Bool
    {
        guard let record = try await find(id, in: adapter) else { return false }
        return try await record.destroy()
    }
}

extension Children {
    /// Links `child` to the owner and saves it (async; see ``append(_:)``).
    nonisolated(nonsending) public func append(_ child: Child) async throws {
        _ = child.recordSchema
        let relation = try self.relation()
        guard let ownerID else { throw unsaved("append") }
        try await link(child, to: ownerID, at: relation.foreignKey)
    }

    /// Detaches `child` and saves it (async; see ``remove(_:)``).
    @discardableResult
    nonisolated(nonsending) public func remove(_ child: Child) async throws -> Bool {
        _ = child.recordSchema
        let relation = try self.relation()
        guard let ownerID, child._value(at: relation.foreignKey) == ownerID else { return false }
        try await link(child, to: .null, at: relation.foreignKey)
        return true
    }

    /// Makes a child from attributes, links it and saves it (async; see ``create(_:)-ModelValue``).
    @discardableResult
    nonisolated(nonsending) public func create(_ attributes: [String: ModelValue] = [:]) async throws -> Child {
        let child = try Child(attributes)
        try await append(child)
        return child
    }

    /// ``create(_:)-ModelValue`` with Swift values, async.
    @discardableResult
    nonisolated(nonsending) public func create(_ attributes: [String: any ModelValueConvertible]) async throws -> Child {
        try await create(attributes.mapValues(\.modelValue))
    }

    /// ``link(_:to:at:)`` with an async save.
    nonisolated(nonsending) private func link(_ child: Child, to key: ModelValue, at foreignKey: Int) async throws {
        let undo = attach(child, to: key, at: foreignKey)
        do {
            try await child.save(to: owner._home)
        } catch {
            undo(child)
            throw error
        }
        owner.setLoadedChildren(nil, at: location)
    }
}
