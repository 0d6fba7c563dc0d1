import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Requests on one record: create, read, update, delete.
extension RESTAdapter {
    /// The instance path of the record `id`, nested when the owner is known.
    func instancePath(id: ModelValue, row: [ModelValue]?, _ resource: ResolvedResource) throws -> String {
        let routes = resource.routes
        if let nested = routes.nested {
            let owner = row.map { $0[nested.foreignKey] } ?? knownOwner(of: id, resource)
            if let owner, !owner.isNull,
                let path = nested.instance.path({ $0 == 0 ? id : ($0 == nested.foreignKey ? owner : row?[$0]) })
            {
                return path
            }
            guard routes.flatAllowed else {
                throw RESTError(
                    .route, model: resource.schema.modelName,
                    message: "\(nested.instance) needs the owner's id, which is not known for id \(id)")
            }
        }
        guard let path = routes.instance.path({ $0 == 0 ? id : row?[$0] }) else {
            throw RESTError(
                .route, model: resource.schema.modelName, message: "\(routes.instance) needs values the request does not have")
        }
        return path
    }

    /// Whether a create sends the id of `row`.
    private func sendsID(_ row: [ModelValue], _ resource: ResolvedResource) -> Bool {
        guard !row[0].isNull else { return false }
        switch resource.settings.idAssignment {
        case .automatic, .client: return true
        case .server: return false
        }
    }

    /// The `POST` to the (owner's) collection that creates `row`, and whether it sends the id.
    func createRequest(_ row: [ModelValue], _ resource: ResolvedResource) throws -> (URLRequest, sendsID: Bool) {
        let schema = resource.schema
        let sendsID = sendsID(row, resource)
        var body = try encode(row, columns: nil, resource)
        if !sendsID, let key = resource.codec.key(forColumn: 0) { body[key] = nil }
        if let hook = resource.settings.beforeCreate { try hook(&body) }
        let routes = resource.routes
        var path: String?
        if let nested = routes.nested, !row[nested.foreignKey].isNull { path = nested.collection.path { row[$0] } }
        if path == nil, routes.flatAllowed { path = routes.collection.path { row[$0] } }
        guard let path else {
            throw RESTError(.route, model: schema.modelName, message: "creating needs the owner's id (\(schema.columns[routes.nested?.foreignKey ?? 0].name))")
        }
        return (request("POST", try url(path, model: schema.modelName), body: body, resource), sendsID)
    }

    /// The record as the server answered a create.
    func created(_ response: RESTResponse, _ row: [ModelValue], sendsID: Bool, _ resource: ResolvedResource) throws -> [ModelValue] {
        let schema = resource.schema
        if response.status == 409 {
            if !sendsID {
                throw StoreError.uniqueViolation(schema, column: nil, underlying: statusError(response, model: schema.modelName))
            }
            throw StoreError(.duplicateID, table: schema.tableName, id: row[0], message: "the server refused a duplicate (409)")
        }
        let answer = try payload(response, resource)
        // An empty 201 (a Location header only) is the record as sent, when its id was sent.
        if answer == .null, sendsID { return row }
        return try self.row(answer, response, resource, over: row, keepsID: sendsID)
    }

    /// The `GET` of the instance; nil for a null id (no such record).
    func readRequest(id: ModelValue, _ resource: ResolvedResource) throws -> URLRequest? {
        guard !id.isNull else { return nil }
        return request("GET", try url(instancePath(id: id, row: nil, resource), model: resource.schema.modelName), resource)
    }

    /// The record a `GET` answered; nil on a "not found" status (``RESTResource/notFoundStatuses``).
    func read(_ response: RESTResponse, _ resource: ResolvedResource) throws -> [ModelValue]? {
        if resource.settings.notFoundStatuses.contains(response.status) { return nil }
        return try row(payload(response, resource), response, resource)
    }

    /// The `PATCH` of the changed columns (or `PUT` of them all: configured, or clearing a
    /// column with ``RESTClearing/put``), never the read-only ones.
    func replaceRequest(_ row: [ModelValue], changedColumns: [Int], _ resource: ResolvedResource) throws -> URLRequest {
        let clears = resource.settings.clearing == .put && changedColumns.contains { $0 != 0 && row[$0].isNull }
        let put = configuration.updateMethod == .put || clears
        var columns = put ? Array(1..<row.count) : changedColumns.filter { $0 != 0 }
        if !resource.readOnly.isEmpty { columns.removeAll { resource.readOnly.contains($0) } }
        var body = try encode(row, columns: columns, resource)
        if let hook = resource.settings.beforeUpdate { try hook(&body) }
        let url = try url(instancePath(id: row[0], row: row, resource), model: resource.schema.modelName)
        return request(put ? "PUT" : "PATCH", url, body: body, resource)
    }

    /// The record as the server answered an update, when the answer has a body.
    func replaced(_ response: RESTResponse, _ row: [ModelValue], _ resource: ResolvedResource) throws -> [ModelValue]? {
        let schema = resource.schema
        if resource.settings.notFoundStatuses.contains(response.status), !(200..<300).contains(response.status) {
            throw StoreError(.notFound, table: schema.tableName, id: row[0], message: "the server has no such record (\(response.status))")
        }
        if response.status == 409 {
            throw StoreError.uniqueViolation(schema, column: nil, id: row[0], underlying: statusError(response, model: schema.modelName))
        }
        let payload = try payload(response, resource)
        guard case .dictionary = payload else { return nil }
        return try self.row(payload, response, resource, over: row)
    }

    /// The `DELETE` of the instance; nil for a null id (no such record).
    func removeRequest(id: ModelValue, _ resource: ResolvedResource, owner row: [ModelValue]?) throws -> URLRequest? {
        guard !id.isNull else { return nil }
        return request("DELETE", try url(instancePath(id: id, row: row, resource), model: resource.schema.modelName), resource)
    }

    /// Whether a `DELETE` removed the record: false on a "not found" status.
    func removed(_ response: RESTResponse, id: ModelValue, _ resource: ResolvedResource) throws -> Bool {
        if resource.settings.notFoundStatuses.contains(response.status), !(200..<300).contains(response.status) { return false }
        _ = try payload(response, resource)
        owners.withLock { _ = $0[ObjectIdentifier(resource.schema)]?.removeValue(forKey: id) }
        return true
    }

    /// The JSON object of `row` (all columns, or `columns`), without read-only columns.
    private func encode(_ row: [ModelValue], columns: [Int]?, _ resource: ResolvedResource) throws -> [String: ModelValue] {
        var object = try resource.codec.object(from: row, columns: columns)
        for column in resource.readOnly { if let key = resource.codec.key(forColumn: column) { object[key] = nil } }
        return object
    }
}
