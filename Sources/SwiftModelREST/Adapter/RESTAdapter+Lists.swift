import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// List requests: the route for a query, its parameters, and following pages.
extension RESTAdapter {
    /// The rows of `query`: one `GET` of the collection (the owner's, when the condition
    /// fixes the owner), then the next pages while the server links them.
    func list(_ query: StoreQuery, _ resource: ResolvedResource) throws -> [[ModelValue]] {
        try walked(query, resource).rows
    }

    /// ``list(_:_:)``, and whether the server declared the list's total (so the rows read
    /// are provably all of it).
    func walked(_ query: StoreQuery, _ resource: ResolvedResource) throws -> (rows: [[ModelValue]], complete: Bool) {
        var walk = try ListWalk(query, resource, self)
        while let request = walk.next { try walk.take(send(request, resource, deadline: walk.deadline)) }
        return (try walk.rows(), walk.declaredTotal != nil || walk.askedNothing)
    }

    /// The rows of `query` and whether they are provably every row it selects on the
    /// server (a declared total matched them): what `RESTSync.pull(deletingMissing:)`
    /// needs before it deletes anything.
    package func fetchProvingCompleteness(_ query: StoreQuery) throws -> (rows: [[ModelValue]], complete: Bool) {
        try walked(query, resource(for: query.schema))
    }

    /// ``list(_:_:)``, suspending instead of blocking.
    func list(_ query: StoreQuery, _ resource: ResolvedResource) async throws -> [[ModelValue]] {
        var walk = try ListWalk(query, resource, self)
        while let request = walk.next { try walk.take(await send(request, resource, deadline: walk.deadline)) }
        return try walk.rows()
    }

    /// The route, parameters and encoded query of a list; nil when the query selects
    /// nothing without asking (a contradiction, a limit of 0).
    func listStart(_ query: StoreQuery, _ resource: ResolvedResource) throws -> (URL, QueryPredicate?, StoreQuery)? {
        let model = resource.schema.modelName
        var query = query
        if let predicate = query.predicate {
            switch PredicateRewriter.rewrite(predicate) {
            case .never: return nil
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
        if query.limit == 0 { return nil }
        let url = try url(path, items, model: model)
        let length = url.absoluteString.utf8.count
        guard length <= configuration.maxURLLength else {
            throw RESTError(
                .unsupportedQuery, model: model,
                message: "the query's URL would have \(length) bytes, more than maxURLLength (\(configuration.maxURLLength)) lets a server accept")
        }
        return (url, predicate, query)
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

/// A list in progress: the next page to ask for, the rows so far, and the rules every page
/// obeys (one deadline, at most ``RESTPagination/maxPages``, no id twice, next links only
/// within the origin unless allowed). ``RESTAdapter/list(_:_:)`` drives it, blocking or
/// suspended.
struct ListWalk {
    private let adapter: RESTAdapter
    private let resource: ResolvedResource
    private let query: StoreQuery
    private let predicate: QueryPredicate?
    /// The request for the next page; nil when the list is complete.
    private(set) var next: URLRequest?
    /// One deadline for the whole list, every page included.
    let deadline: ContinuousClock.Instant
    private var collected: [[ModelValue]] = []
    private var ids = Set<ModelValue>()
    private var pages = 0
    /// The list's total as the server declared it (the first page's `X-Total-Count` or
    /// envelope count), if it did.
    private(set) var declaredTotal: Int?
    /// Whether the query selected nothing without asking (a contradiction, a limit of 0).
    var askedNothing: Bool { pages == 0 }

    init(_ query: StoreQuery, _ resource: ResolvedResource, _ adapter: RESTAdapter) throws {
        self.adapter = adapter
        self.resource = resource
        deadline = ContinuousClock.now + adapter.configuration.deadline
        guard let (url, predicate, query) = try adapter.listStart(query, resource) else {
            (self.query, self.predicate) = (query, nil)
            return
        }
        (self.query, self.predicate) = (query, predicate)
        next = try request(url)
    }

    /// The `GET` of a page, counted against ``RESTPagination/maxPages``.
    private mutating func request(_ url: URL) throws -> URLRequest {
        pages += 1
        let pagination = adapter.configuration.pagination
        if pages > pagination.maxPages {
            throw RESTError(
                .tooManyPages, method: "GET", url: url, model: resource.schema.modelName,
                message: "the list has more than \(pagination.maxPages) pages (RESTPagination.maxPages)")
        }
        return adapter.request("GET", url, resource)
    }

    /// Takes a page's response: its rows, and the next page's request when it links one.
    mutating func take(_ response: RESTResponse) throws {
        let model = resource.schema.modelName
        let url = response.url
        let pagination = adapter.configuration.pagination
        let (payload, envelope) = try adapter.document(response, resource, list: true)
        if declaredTotal == nil {
            if let name = pagination.totalHeader, let text = response.header(name) {
                guard let total = Int(text.trimmingCharacters(in: .whitespaces)), total >= 0 else {
                    throw adapter.invalid(response, model: model, "\(name) is \"\(text)\", not a count")
                }
                declaredTotal = total
            } else if let key = pagination.countKey, let value = envelope?[key], !value.isNull {
                guard case .int(let total) = value, total >= 0 else {
                    throw adapter.invalid(response, model: model, "the envelope's \"\(key)\" is \(ModelJSON.serialize(value)), not a count")
                }
                declaredTotal = Int(clamping: total)
            }
        }
        for row in try adapter.rows(payload, response, resource) {
            guard ids.insert(row[0]).inserted else {
                throw adapter.invalid(response, model: model, "the list has id \(row[0]) twice (page \(pages)); a list must name each record once")
            }
            collected.append(row)
        }
        next = nil
        if let limit = query.limit, collected.count >= limit { return }
        let configuration = adapter.configuration
        guard configuration.pagination.followsLinks, let link = try nextPage(response, envelope) else { return }
        if !adapter.transport.origin.contains(link), configuration.crossOrigin == .refuse {
            throw RESTError(
                .crossOrigin, method: "GET", url: url, status: response.status, model: model,
                message: "the next page is on \(RESTOrigin(link)), outside \(adapter.transport.origin); not followed, so no credentials "
                    + "left it and no rows from it were merged (RESTConfiguration.crossOrigin)")
        }
        next = try request(link)
    }

    /// The next page a response links: its `Link` header, else the envelope's next key.
    private func nextPage(_ response: RESTResponse, _ envelope: [String: ModelValue]?) throws -> URL? {
        if let link = RESTAdapter.nextLink(response.header("Link"), relativeTo: response.url) { return link }
        guard let key = adapter.configuration.pagination.nextKey, let value = envelope?[key], !value.isNull else { return nil }
        guard case .string(let text) = value, let link = URL(string: text, relativeTo: response.url)?.absoluteURL,
            ["http", "https"].contains(link.scheme?.lowercased() ?? "")
        else {
            throw adapter.invalid(
                response, model: resource.schema.modelName, "the envelope's \"\(key)\" is \(ModelJSON.serialize(value)), not a page URL")
        }
        return link
    }

    /// The rows of the whole list, checked against the query (``RESTResource/verifiesResults``)
    /// and against the total the server declared: fewer rows than it promised is
    /// ``RESTError/Kind/incompleteList``.
    func rows() throws -> [[ModelValue]] {
        guard pages > 0 else { return [] }
        if let total = declaredTotal {
            var expected = max(0, total - query.offset)
            if let limit = query.limit { expected = min(expected, limit) }
            if collected.count < expected {
                throw RESTError(
                    .incompleteList, method: "GET", url: next?.url, model: resource.schema.modelName,
                    message: "the server declared \(total) records and \(collected.count) were read in \(pages) page(s); "
                        + "declare how its pages link (RESTPagination.nextKey, a Link header) rather than take a part for the whole")
            }
        }
        if resource.settings.verifiesResults { try adapter.verify(collected, predicate: predicate, query, resource) }
        if let limit = query.limit, collected.count > limit { return Array(collected.prefix(limit)) }
        return collected
    }
}
