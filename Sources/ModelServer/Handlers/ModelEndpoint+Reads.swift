import Foundation

extension ModelEndpoint {
    /// `GET` of a collection: the query its parameters express (plain or Parse-style),
    /// within the call's constraints, one page at most, with `X-Total-Count` and a
    /// `Link: rel="next"` in the same format while rows remain.
    func list(_ call: ResourceCall) async throws -> ResourceResponse {
        let decoder = self.decoder(for: call.request.query)
        let asked: RESTListQuery
        do {
            asked = try decoder.decode(call.request.query, codec: codec, limits: options.limits)
        } catch {
            throw ResourceError.badRequest("bad_query", error.description)
        }
        let parts = [asked.predicate, call.constraint, try await call.gate?.listPredicate(in: call.store)].compactMap { $0 }
        let predicate: QueryPredicate? = parts.isEmpty ? nil : parts.count == 1 ? parts[0] : .and(parts)
        let pageSize = min(asked.limit ?? options.limits.pageSize, options.limits.pageSize)
        var query = Query<M>().using(call.store)
        if let predicate { query = query.where(QueryCondition(predicate: predicate)) }
        for key in asked.sort { query = query.order(by: schema.columns[key.column].name, key.ascending ? .ascending : .descending) }
        // The id last, so pages never overlap or skip rows that tie on the sort keys.
        if !asked.sort.contains(where: { $0.column == 0 }) { query = query.order(by: schema.columns[0].name) }
        let records = try await query.limit(pageSize).offset(asked.offset).all()
        // A short page that holds rows reached the end: the total is what it saw (a count
        // made separately could include a row written between the two reads, and a
        // client checking the total against the rows it read would find one missing).
        let reachedTheEnd = records.count < pageSize && (!records.isEmpty || asked.offset == 0)
        let total = reachedTheEnd ? asked.offset + records.count : try await query.count()
        var headers: [(name: String, value: String)] = [("X-Total-Count", String(total))]
        let next = asked.offset + records.count
        if records.count == pageSize, next < total, let encoder = decoder as? any RESTQueryEncoder {
            let following = RESTListQuery(predicate: asked.predicate, sort: asked.sort, limit: pageSize, offset: next, codec: codec)
            if let items = try? encoder.encode(following) {
                var components = URLComponents()
                components.queryItems = items
                let query = components.percentEncodedQuery.map { "?" + $0.replacingOccurrences(of: "+", with: "%2B") } ?? ""
                headers.append(("Link", "<\(call.request.path)\(query)>; rel=\"next\""))
            }
        }
        var objects: [ModelValue] = []
        objects.reserveCapacity(records.count)
        for record in records { objects.append(.dictionary(try object(record))) }
        let response = ResourceResponse.json(200, body(.array(objects)), headers: headers)
        return call.request.method == "HEAD" ? ResourceResponse(status: 200, headers: response.headers) : response
    }

    /// The decoder for a list request: the resource's own when its encoder decodes, else
    /// Parse-style for a request with `where`, `order` or `skip` (when no field has that
    /// key), plain otherwise.
    func decoder(for items: [URLQueryItem]) -> any RESTQueryDecoder {
        if let own = resource.queryEncoder as? any RESTQueryDecoder { return own }
        let parseStyle = items.contains { ["where", "order", "skip"].contains($0.name) && codec.column(forKey: $0.name) == nil }
        return parseStyle ? ParseQueryEncoder() : PlainQueryEncoder()
    }

    /// `GET` of one record, with its `ETag`; `If-None-Match` naming it is a 304.
    func read(_ call: ResourceCall) async throws -> ResourceResponse {
        let record = try await record(call, locking: false)
        let response = recordResponse(200, try self.object(record))
        if let wanted = call.request.header("If-None-Match"), let tag = response.header("ETag"), ETag.matches(wanted, tag, weakly: true) {
            return ResourceResponse(status: 304, headers: [("ETag", tag)])
        }
        return call.request.method == "HEAD" ? ResourceResponse(status: 200, headers: response.headers) : response
    }
}
