import Foundation

/// List requests: the route for a query, its parameters, and following pages.
extension RESTAdapter {
    /// The rows of `query`: one `GET` of the collection (the owner's, when the condition
    /// fixes the owner), then the next pages while the server links them.
    func list(_ query: StoreQuery, _ resource: ResolvedResource) throws -> [[ModelValue]] {
        let model = resource.schema.modelName
        var query = query
        if let predicate = query.predicate {
            switch PredicateRewriter.rewrite(predicate) {
            case .never: return []
            case .always: query.predicate = nil
            case .condition(let rewritten): query.predicate = rewritten
            }
        }
        let (path, predicate) = try route(for: query, resource)
        try checkSupport(predicate: predicate, query, resource)
        let items: [URLQueryItem]
        do {
            items = try resource.encoder.encode(
                RESTListQuery(predicate: predicate, sort: query.sort, limit: query.limit, offset: query.offset, codec: resource.codec))
        } catch {
            throw RESTError(.unsupportedQuery, model: model, message: error.description)
        }
        if query.limit == 0 { return [] }
        var next: URL? = try url(path, items, model: model)
        var rows: [[ModelValue]] = []
        var ids = Set<ModelValue>()
        var pages = 0
        // One deadline for the whole list, every page included.
        let deadline = ContinuousClock.now + configuration.deadline
        while let url = next {
            pages += 1
            if pages > configuration.pagination.maxPages {
                throw RESTError(
                    .tooManyPages, method: "GET", url: url, model: model,
                    message: "the list has more than \(configuration.pagination.maxPages) pages (RESTPagination.maxPages)")
            }
            let response = try send("GET", url, resource, deadline: deadline)
            for row in try self.rows(payload(response, resource), response, resource) {
                guard ids.insert(row[0]).inserted else {
                    throw invalid(response, model: model, "the list has id \(row[0]) twice (page \(pages)); a list must name each record once")
                }
                rows.append(row)
            }
            if let limit = query.limit, rows.count >= limit { break }
            next = configuration.pagination.followsLinks ? Self.nextLink(response.header("Link"), relativeTo: url) : nil
            if let link = next, !transport.origin.contains(link), configuration.crossOrigin == .refuse {
                throw RESTError(
                    .crossOrigin, method: "GET", url: url, status: response.status, model: model,
                    message: "the next page is on \(RESTOrigin(link)), outside \(transport.origin); not followed, so no credentials "
                        + "left it and no rows from it were merged (RESTConfiguration.crossOrigin)")
            }
        }
        if resource.settings.verifiesResults { try verify(rows, predicate: predicate, query, resource) }
        if let limit = query.limit, rows.count > limit { return Array(rows.prefix(limit)) }
        return rows
    }

    /// The collection path for a query and the condition left to encode: a nested
    /// resource whose condition fixes the owner (`company_id == 10`, at the top level)
    /// uses the owner's collection and drops that part.
    private func route(for query: StoreQuery, _ resource: ResolvedResource) throws -> (String, QueryPredicate?) {
        let routes = resource.routes
        let model = resource.schema.modelName
        if let nested = routes.nested {
            var parts: [QueryPredicate] = []
            if case .and(let list) = query.predicate { parts = list } else if let predicate = query.predicate { parts = [predicate] }
            var fixed: [Int: ModelValue] = [:]
            var rest: [QueryPredicate] = []
            for part in parts {
                if case .compare(let column, .equal, let value) = part, nested.collection.columns.contains(column),
                    fixed[column] == nil, !value.isNull
                {
                    fixed[column] = value
                } else {
                    rest.append(part)
                }
            }
            if let path = nested.collection.path({ fixed[$0] }) {
                return (path, rest.isEmpty ? nil : .and(rest))
            }
            guard routes.flatAllowed else {
                throw RESTError(
                    .unsupportedQuery, model: model,
                    message: "\(nested.collection) lists need a condition fixing \(resource.schema.columns[nested.foreignKey].name)")
            }
        }
        guard let path = routes.collection.path({ _ in nil }) else {
            throw RESTError(.route, model: model, message: "\(routes.collection) needs values a query does not give")
        }
        return (path, query.predicate)
    }

    /// The `rel="next"` target of a `Link` header.
    static func nextLink(_ header: String?, relativeTo base: URL) -> URL? {
        guard let header else { return nil }
        for part in header.split(separator: ",") {
            let pieces = part.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let target = pieces.first, target.hasPrefix("<"), target.hasSuffix(">") else { continue }
            let isNext = pieces.dropFirst().contains { piece in
                let compact = piece.replacingOccurrences(of: " ", with: "").lowercased()
                return compact == "rel=\"next\"" || compact == "rel=next"
            }
            if isNext { return URL(string: String(target.dropFirst().dropLast()), relativeTo: base)?.absoluteURL }
        }
        return nil
    }
}
