/// The async forms of relation reads: `load(_:)` and the reading methods of `Children`
/// and `Through`. They run the same steps as the synchronous forms (see ``StoreSteps``)
/// with the async driver: each store call is awaited on an ``AsyncPersistenceAdapter`` or
/// runs on ``BlockingPool`` threads, and the records are made and linked in the caller's
/// isolation (the owner never leaves it).
extension ModelProtocol {
    /// Reads the parent of a `@BelongsTo` or the child of a `@HasOne` (async; see
    /// ``load(_:)-(KeyPath<Self,Related?>)``).
    @discardableResult
    nonisolated(nonsending) public func load<Related: ModelProtocol>(_ keyPath: KeyPath<Self, Related?>) async throws -> Related? {
        try await loadSteps(keyPath).run()
    }

    /// Reads the children of a `@HasMany` and keeps them (async).
    @discardableResult
    nonisolated(nonsending) public func load<Child: ModelProtocol>(_ keyPath: KeyPath<Self, Children<Child>>) async throws -> [Child] {
        try await loadChildrenSteps(self[keyPath: keyPath].relation(), as: Child.self).run()
    }
}

extension Children {
    /// Every child (async): the loaded ones, none for an unsaved owner, else read.
    nonisolated(nonsending) public func all() async throws -> [Child] { try await allSteps().run() }

    /// How many children there are (async).
    nonisolated(nonsending) public func count() async throws -> Int { try await countSteps().run() }

    /// Whether there is any child (async).
    nonisolated(nonsending) public func exists() async throws -> Bool { try await countSteps().run() > 0 }

    /// The first child in store order (async).
    nonisolated(nonsending) public func first() async throws -> Child? { try await firstSteps().run() }
}

extension Through {
    /// Every target (async).
    nonisolated(nonsending) public func all() async throws -> [Target] { try await querySteps { try $0.recordsSteps() }.run() }
    /// How many targets there are (async).
    nonisolated(nonsending) public func count() async throws -> Int { try await querySteps { try $0.countSteps() }.run() }
    /// Whether there is any target (async).
    nonisolated(nonsending) public func exists() async throws -> Bool { try await querySteps { try $0.existsSteps() }.run() }
    /// The first target (async).
    nonisolated(nonsending) public func first() async throws -> Target? {
        try await querySteps { try $0.firstSteps(1) }.run().first
    }
}
