/// The owner's scope, applied to every route of a nested resource.
///
/// A resource nested under an owner (`RESTResource(nestedUnder: "todo")`) is reachable by
/// its nested routes (`/todos/5/todo_items`) and, when shallow, by flat ones
/// (`/todo_items`, `/todo_items/9`). Whatever the route, a request reaches only children
/// whose owner it could read: the authoriser is asked about the owner (a `.read`), and its
/// scope — with the owner's own owner's, up the chain of registered nested resources —
/// decides which owners, and so which children, exist for the request.
///
/// - A nested route names its owner: one that is out of reach is a 404.
/// - A flat list sees only children of owners within reach; a flat read, update or delete
///   of another child is a 404, like a row outside the request's own scope.
/// - A create, or an update that moves a child, must name an owner within reach
///   (`422 unknown_owner`, the same answer whether that owner exists or not).
struct OwnerGate: Sendable {
    /// The child's foreign key column.
    let column: Int
    /// The owner's schema.
    let owner: ModelSchema
    /// The owner rows the request may reach.
    let predicate: QueryPredicate

    /// The most owners a flat list is filtered by (one bound parameter each); a request
    /// reaching more lists the children through the owner's nested route.
    static let listLimit = 10_000

    /// The gate on `endpoint`'s rows for `request`, nil when the owner is not restricted
    /// (or the endpoint is not nested).
    static func gate(
        for endpoint: any ResourceEndpoint, _ request: ResourceRequest, _ resources: ModelResources, visited: [ModelSchema] = []
    ) async throws -> OwnerGate? {
        guard let column = endpoint.ownerKey, let owner = endpoint.owner else { return nil }
        guard let predicate = try await reach(owner, request, resources, visited: visited + [endpoint.schema]) else { return nil }
        return OwnerGate(column: column, owner: owner, predicate: predicate)
    }

    /// The owner rows `request` may reach: the authoriser's scope for reading them, and,
    /// when the owner is itself served nested, its own owner's gate. Nil for every row. A
    /// chain that comes back to a model already on it (a model nested under itself) stops
    /// there: the scopes met so far still apply.
    private static func reach(_ owner: ModelSchema, _ request: ResourceRequest, _ resources: ModelResources, visited: [ModelSchema])
        async throws -> QueryPredicate?
    {
        let access = try await resources.access(request, owner, .read)
        var parts = try ResourceCall.scope(access, owner).sorted { $0.key < $1.key }.map {
            QueryPredicate.compare(column: $0.key, .equal, $0.value)
        }
        if !visited.contains(where: { $0 === owner }), let endpoint = resources.endpoint(for: owner),
            let gate = try await gate(for: endpoint, request, resources, visited: visited)
        {
            parts.append(try await gate.listPredicate(in: resources.store))
        }
        return parts.isEmpty ? nil : parts.count == 1 ? parts[0] : .and(parts)
    }

    /// Whether the owner `id` names is within reach (false for null).
    func admits(_ id: ModelValue, in store: any PersistenceAdapter) async throws -> Bool {
        guard !id.isNull else { return false }
        return try await Self.exists(owner, .and([.compare(column: 0, .equal, id), predicate]), store)
    }

    /// The children of owners within reach, as a predicate on the child's rows.
    func listPredicate(in store: any PersistenceAdapter) async throws -> QueryPredicate {
        guard let type = owner.modelType else { return .or([]) }
        let ids = try await Self.ids(type, predicate, store)
        guard ids.count <= Self.listLimit else {
            throw ResourceError(
                status: 400, code: "too_many_owners",
                message: "this request reaches more than \(Self.listLimit) \(owner.modelName) records; list through one of them")
        }
        return .isIn(column: column, ids)
    }

    /// Refuses a child's owner key that names no owner within reach.
    func check(_ id: ModelValue, key: String, in store: any PersistenceAdapter) async throws {
        guard try await admits(id, in: store) else {
            throw ResourceError.unprocessable(
                "unknown_owner", "\(key) must name a \(owner.modelName) this request can reach", field: key)
        }
    }

    /// Whether a row of `schema`'s model matches `predicate`.
    static func exists(_ schema: ModelSchema, _ predicate: QueryPredicate, _ store: any PersistenceAdapter) async throws -> Bool {
        guard let type = schema.modelType else { return false }
        return try await exists(type, predicate, store)
    }

    private static func exists<O: ModelProtocol>(_ type: O.Type, _ predicate: QueryPredicate, _ store: any PersistenceAdapter)
        async throws -> Bool
    {
        try await Query<O>().where(QueryCondition(predicate: predicate)).using(store).exists()
    }

    private static func ids<O: ModelProtocol>(_ type: O.Type, _ predicate: QueryPredicate, _ store: any PersistenceAdapter)
        async throws -> [ModelValue]
    {
        try await Query<O>().where(QueryCondition(predicate: predicate)).using(store).limit(listLimit + 1)
            .pluck(O.schema.columns[0].name)
    }
}
