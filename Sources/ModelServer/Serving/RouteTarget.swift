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

/// One path template the served models answer at, and its methods: for frameworks
/// that route by themselves (Hummingbird's trie) before handing the request over.
public struct ResourceRouteTemplate: Sendable, Hashable {
    /// The path template with the prefix, `:column` placeholders (`/todos/:todo_id/items/:id`).
    public let path: String
    /// The methods served there (`GET`, `HEAD`, `POST` / `PATCH`, `PUT`, `DELETE`).
    public let methods: [String]
    /// The model's name.
    public let model: String
}

extension ModelResources {
    /// Every route the served models answer at, nested before flat, in registration order.
    public var routeTemplates: [ResourceRouteTemplate] {
        var templates: [ResourceRouteTemplate] = []
        var seen: Set<String> = []
        for endpoint in endpoints {
            let routes = endpoint.routes
            var pairs: [(RESTRoutes.Template, Bool)] = []
            if let nested = routes.nested { pairs += [(nested.collection, false), (nested.instance, true)] }
            if routes.flatAllowed { pairs += [(routes.collection, false), (routes.instance, true)] }
            if endpoint.servesChanges(on: store) {
                for (template, instance) in pairs where !instance {
                    let path = configuration.pathPrefix + "/" + template.description.split(separator: "/").joined(separator: "/") + "/changes"
                    guard seen.insert(path).inserted else { continue }
                    templates.append(ResourceRouteTemplate(path: path, methods: ["GET"], model: endpoint.schema.modelName))
                }
            }
            for (template, instance) in pairs {
                let path = configuration.pathPrefix + "/" + template.description.split(separator: "/").joined(separator: "/")
                guard seen.insert(path).inserted else { continue }
                let served = endpoint.options.operations
                let methods: [(String, ResourceOperation)] =
                    instance
                    ? [("GET", .read), ("HEAD", .read), ("PATCH", .update), ("PUT", .update), ("DELETE", .delete)]
                    : [("GET", .list), ("HEAD", .list), ("POST", .create)]
                templates.append(
                    ResourceRouteTemplate(
                        path: path, methods: methods.filter { served.contains($0.1) }.map(\.0), model: endpoint.schema.modelName))
            }
        }
        return templates
    }

    /// Whether a request path (percent-encoded, query allowed) names a served route.
    public func serves(_ target: Substring) -> Bool {
        resolve(String(target.prefix { $0 != "?" })) != nil
    }

    /// The collection a changes-feed path (`<collection>/changes`) names, when its model
    /// keeps history in a store that keeps it and lists are served. It takes precedence
    /// over an instance whose id is the text `changes`.
    func changesTarget(_ path: String) -> RouteTarget? {
        var path = Substring(path)
        if path.count > 1, path.hasSuffix("/") { path.removeLast() }
        guard path.hasSuffix("/changes") else { return nil }
        guard let target = resolve(String(path.dropLast("/changes".count))), case .collection = target.kind,
            target.endpoint.servesChanges(on: store)
        else { return nil }
        return target
    }

    /// The served model and route `path` names: nested routes first, then flat ones (a
    /// nested resource's only when it is shallow), in registration order.
    func resolve(_ path: String) -> RouteTarget? {
        let prefix = configuration.pathPrefix
        guard prefix.isEmpty || path == prefix || path.hasPrefix(prefix + "/") else { return nil }
        // One record, one path: no empty segment (`//todos/1`, `/todos//1`); one trailing
        // slash is read as none.
        var rest = path.dropFirst(prefix.count)
        if rest.count > 1, rest.hasSuffix("/") { rest.removeLast() }
        guard rest.first == "/" || rest.isEmpty else { return nil }
        let segments = rest.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
        guard !segments.contains(where: \.isEmpty) else { return nil }
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
