/// A request path resolved to a served model: a collection or one record, with the values
/// the path fixes (`/todos/5/items` fixes `todo_id` to 5).
struct RouteTarget: Sendable {
    enum Kind: Sendable {
        case collection
        case instance(id: String)
    }

    let endpoint: any ResourceEndpoint
    let kind: Kind
    /// Path placeholders other than the id: column → text.
    let fixed: [(column: Int, text: String)]
    /// For a nested route: the owner relation's foreign key column.
    let ownerKey: Int?

    /// The operation `method` asks for here, or a 405 naming the methods allowed.
    func operation(_ method: String) throws(ResourceError) -> ResourceOperation {
        let served = endpoint.options.operations
        let (table, allowed): ([String: ResourceOperation], [String]) =
            switch kind {
            case .collection: (["GET": .list, "HEAD": .list, "POST": .create], ["GET", "HEAD", "POST"])
            case .instance: (["GET": .read, "HEAD": .read, "PATCH": .update, "PUT": .update, "DELETE": .delete], ["GET", "HEAD", "PATCH", "PUT", "DELETE"])
            }
        if let operation = table[method], served.contains(operation) { return operation }
        let allow = allowed.filter { table[$0].map(served.contains) ?? false }
        var error = ResourceError(
            status: 405, code: "method_not_allowed", message: "\(method) is not served at this \(endpoint.schema.modelName) route")
        error.headers["Allow"] = allow.joined(separator: ", ")
        throw error
    }
}

extension ModelResources {
    /// The served model and route `path` names: nested routes first, then flat ones (a
    /// nested resource's only when it is shallow), in registration order.
    func resolve(_ path: String) -> RouteTarget? {
        let prefix = configuration.pathPrefix
        guard prefix.isEmpty || path == prefix || path.hasPrefix(prefix + "/") else { return nil }
        let segments = path.dropFirst(prefix.count).split(separator: "/")
        for endpoint in endpoints {
            let routes = endpoint.routes
            var candidates: [(template: RESTRoutes.Template, instance: Bool, ownerKey: Int?)] = []
            if let nested = routes.nested {
                candidates += [(nested.collection, false, nested.foreignKey), (nested.instance, true, nested.foreignKey)]
            }
            if routes.flatAllowed { candidates += [(routes.collection, false, nil), (routes.instance, true, nil)] }
            for candidate in candidates {
                guard let captured = candidate.template.match(segments) else { continue }
                let id = captured.last { $0.column == 0 }
                if candidate.instance != (id != nil) { continue }
                let fixed = captured.filter { $0.column != 0 }
                return RouteTarget(
                    endpoint: endpoint, kind: id.map { .instance(id: $0.text) } ?? .collection, fixed: fixed,
                    ownerKey: candidate.ownerKey)
            }
        }
        return nil
    }
}
