/// One request on its way to a served model, once routed and authorised: what it does,
/// the record it names and the column values every row it touches must hold (fixed by the
/// path, like a nested route's owner key, or by the authoriser's scope).
struct ResourceCall: Sendable {
    let request: ResourceRequest
    let operation: ResourceOperation
    /// The id's text from an instance path.
    let id: String?
    /// Column → value from the path (owner keys): a body may not contradict them (422).
    let fixed: [Int: ModelValue]
    /// Column → value from the authoriser's scope: a body may not contradict them (403).
    let scope: [Int: ModelValue]
    /// For a nested resource reached without its owner in the path: the owners within
    /// the request's reach (see ``OwnerGate``); nil when unrestricted.
    let gate: OwnerGate?
    let resources: ModelResources

    var store: any PersistenceAdapter { resources.store }

    /// Every constraint, the path's and the scope's, as one predicate (nil for none).
    var constraint: QueryPredicate? {
        let all = fixed.sorted { $0.key < $1.key } + scope.sorted { $0.key < $1.key }
        let parts = all.map { QueryPredicate.compare(column: $0.key, .equal, $0.value) }
        return parts.isEmpty ? nil : parts.count == 1 ? parts[0] : .and(parts)
    }

    init(request: ResourceRequest, target: RouteTarget, operation: ResourceOperation, resources: ModelResources) async throws {
        let endpoint = target.endpoint
        var fixed: [Int: ModelValue] = [:]
        for (column, text) in target.fixed {
            guard let value = PathValues.value(text, column: column, codec: endpoint.codec) else {
                let name = endpoint.codec.key(forColumn: column) ?? endpoint.schema.columns[column].name
                throw ResourceError(status: 404, code: "not_found", message: "no resource at \(request.path) (\(name) \"\(text)\")")
            }
            fixed[column] = value
        }
        // The owner's scope, whatever the route: a nested route's owner must be within
        // reach; a flat route's rows are narrowed to children of owners within reach.
        let gate = try await OwnerGate.gate(for: endpoint, request, resources)
        if let ownerKey = target.ownerKey, let owner = endpoint.owner, let ownerID = fixed[ownerKey] {
            let reachable =
                if let gate { try await gate.admits(ownerID, in: resources.store) } else {
                    try await OwnerGate.exists(owner, .compare(column: 0, .equal, ownerID), resources.store)
                }
            guard reachable else { throw ResourceError.notFound(owner.modelName, PathValues.text(ownerID)) }
            self.gate = nil  // the path fixes the owner key: every row the call touches has this owner
        } else {
            self.gate = gate
        }
        let access = try await resources.access(request, endpoint.schema, operation)
        self.request = request
        self.operation = operation
        if case .instance(let id) = target.kind { self.id = id } else { id = nil }
        self.fixed = fixed
        scope = try Self.scope(access, endpoint.schema)
        self.resources = resources
    }

    /// The scope of `access` by column index.
    static func scope(_ access: ResourceAccess, _ schema: ModelSchema) throws(ResourceError) -> [Int: ModelValue] {
        guard case .scoped(let values) = access else { return [:] }
        var scope: [Int: ModelValue] = [:]
        for (name, value) in values {
            guard let column = schema.index(ofColumn: name) else {
                throw ResourceError(
                    status: 500, code: "bad_scope", message: "the authoriser's scope names \"\(name)\", which is not a column of \(schema.modelName)")
            }
            scope[column] = value
        }
        return scope
    }
}

extension ModelResources {
    /// The authoriser's answer for `operation` on `schema`'s model (allow without one);
    /// a denial is thrown as its error.
    func access(_ request: ResourceRequest, _ schema: ModelSchema, _ operation: ResourceOperation) async throws -> ResourceAccess {
        guard let authorize = configuration.authorize else { return .allow }
        let access = try await authorize(ResourceAccessRequest(request: request, schema: schema, operation: operation))
        if case .deny(let status, let message) = access {
            throw ResourceError(status: status, code: status == 401 ? "unauthorized" : "forbidden", message: message)
        }
        return access
    }
}

extension ModelResources {
    /// The endpoint serving `schema`'s model, if it is registered.
    func endpoint(for schema: ModelSchema) -> (any ResourceEndpoint)? {
        endpoints.first { $0.schema === schema }
    }
}

extension Dictionary {
    var nonEmpty: Self? { isEmpty ? nil : self }
}
