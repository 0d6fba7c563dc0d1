import Foundation

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

    /// `POST` to the (owner's) collection; returns the id the server assigned or kept.
    func create(_ row: [ModelValue], _ resource: ResolvedResource) throws -> ModelValue {
        let schema = resource.schema
        var body = try encode(row, columns: nil, resource)
        if row[0].isNull, let key = resource.codec.key(forColumn: 0) { body[key] = nil }
        if let hook = resource.settings.beforeCreate { try hook(&body) }
        let routes = resource.routes
        var path: String?
        if let nested = routes.nested, !row[nested.foreignKey].isNull { path = nested.collection.path { row[$0] } }
        if path == nil, routes.flatAllowed { path = routes.collection.path { row[$0] } }
        guard let path else {
            throw RESTError(.route, model: schema.modelName, message: "creating needs the owner's id (\(schema.columns[routes.nested?.foreignKey ?? 0].name))")
        }
        let response = try send("POST", url(path, model: schema.modelName), body: body, resource)
        if response.status == 409 {
            if row[0].isNull {
                throw StoreError.uniqueViolation(schema, column: nil, underlying: statusError(response, model: schema.modelName))
            }
            throw StoreError(.duplicateID, table: schema.tableName, id: row[0], message: "the server refused a duplicate (409)")
        }
        let stored = try self.row(payload(response, resource), response, resource)
        return stored[0]
    }

    /// `GET` the instance; nil on 404.
    func read(id: ModelValue, _ resource: ResolvedResource) throws -> [ModelValue]? {
        guard !id.isNull else { return nil }
        let url = try url(instancePath(id: id, row: nil, resource), model: resource.schema.modelName)
        let response = try send("GET", url, resource)
        if response.status == 404 { return nil }
        return try row(payload(response, resource), response, resource)
    }

    /// `PATCH` the changed columns (or `PUT` them all).
    func replace(_ row: [ModelValue], changedColumns: [Int], _ resource: ResolvedResource) throws {
        let schema = resource.schema
        let put = configuration.updateMethod == .put
        var body = try encode(row, columns: put ? nil : changedColumns.filter { $0 != 0 }, resource)
        if let hook = resource.settings.beforeUpdate { try hook(&body) }
        let url = try url(instancePath(id: row[0], row: row, resource), model: schema.modelName)
        let response = try send(put ? "PUT" : "PATCH", url, body: body, resource)
        if response.status == 404 {
            throw StoreError(.notFound, table: schema.tableName, id: row[0], message: "the server has no such record (404)")
        }
        if response.status == 409 {
            throw StoreError.uniqueViolation(schema, column: nil, id: row[0], underlying: statusError(response, model: schema.modelName))
        }
        let payload = try payload(response, resource)
        if case .dictionary = payload { _ = try self.row(payload, response, resource) }
    }

    /// `DELETE` the instance; false on 404.
    func remove(id: ModelValue, _ resource: ResolvedResource, owner row: [ModelValue]? = nil) throws -> Bool {
        guard !id.isNull else { return false }
        let url = try url(instancePath(id: id, row: row, resource), model: resource.schema.modelName)
        let response = try send("DELETE", url, resource)
        if response.status == 404 { return false }
        _ = try payload(response, resource)
        owners.withLock { _ = $0[ObjectIdentifier(resource.schema)]?.removeValue(forKey: id) }
        return true
    }

    private func encode(_ row: [ModelValue], columns: [Int]?, _ resource: ResolvedResource) throws -> [String: ModelValue] {
        try resource.codec.object(from: row, columns: columns)
    }
}
