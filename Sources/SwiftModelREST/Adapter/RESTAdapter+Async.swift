import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import ModelEngine

/// The async operations: the same requests and answers as the synchronous ones
/// (`RESTAdapter+Records`, ``ListWalk``), sent with the transport's suspending driver, so
/// an async call holds no thread while the request is in flight.
extension RESTAdapter: AsyncPersistenceAdapter {
    public func find(id: ModelValue, in schema: ModelSchema) async throws -> [ModelValue]? {
        let resource = try resource(for: schema)
        guard let request = try readRequest(id: id, resource) else { return nil }
        return try read(await send(request, resource), resource)
    }

    public func fetch(_ query: StoreQuery) async throws -> [[ModelValue]] {
        try await list(query, resource(for: query.schema))
    }

    public func count(_ query: StoreQuery) async throws -> Int {
        try await fetch(query).count
    }

    public func insertReturningStored(_ row: [ModelValue], into schema: ModelSchema) async throws -> (
        id: ModelValue, stored: [ModelValue]?
    ) {
        try schema.checkRow(row)
        let resource = try resource(for: schema)
        let (request, sendsID) = try createRequest(row, resource)
        let stored = try created(await send(request, resource), row, sendsID: sendsID, resource)
        return (stored[0], stored)
    }

    public func updateReturningStored(_ row: [ModelValue], changedColumns: [Int], in schema: ModelSchema) async throws
        -> [ModelValue]?
    {
        try schema.checkRow(row)
        let resource = try resource(for: schema)
        return try await replace(row, changedColumns: changedColumns, resource)
    }

    public func delete(id: ModelValue, from schema: ModelSchema) async throws -> Bool {
        try await remove(id: id, try resource(for: schema), owner: nil)
    }

    public func delete(_ query: StoreQuery) async throws -> Int {
        let resource = try resource(for: query.schema)
        var deleted = 0
        for row in try await list(query, resource) where try await remove(id: row[0], resource, owner: row) { deleted += 1 }
        return deleted
    }

    public func update(_ query: StoreQuery, set values: [Int: ModelValue]) async throws -> Int {
        try query.schema.checkUpdate(values)
        let resource = try resource(for: query.schema)
        var changed = 0
        for row in try await list(query, resource) {
            guard let (updated, columns) = Self.assigning(values, to: row) else { continue }
            _ = try await replace(updated, changedColumns: columns, resource)
            changed += 1
        }
        return changed
    }

    public func aggregate(_ query: StoreQuery) async throws -> [AggregateGroup] {
        let selection = try Self.aggregateSelection(query)
        return try QueryEngine.aggregate(StoreQuery(schema: query.schema, aggregate: query.aggregate), from: await fetch(selection))
    }

    /// `PATCH`/`PUT` of one row.
    private func replace(_ row: [ModelValue], changedColumns: [Int], _ resource: ResolvedResource) async throws -> [ModelValue]? {
        try replaced(await send(replaceRequest(row, changedColumns: changedColumns, resource), resource), row, resource)
    }

    /// `DELETE` of one row; false when there is no such record.
    private func remove(id: ModelValue, _ resource: ResolvedResource, owner: [ModelValue]?) async throws -> Bool {
        guard let request = try removeRequest(id: id, resource, owner: owner) else { return false }
        return try removed(await send(request, resource), id: id, resource)
    }
}

extension RESTAdapter: AdmittingAdapter {
    /// Transactions are local batches over HTTP: no call waits for one.
    package func admission(reads: Bool) -> StoreLock? { nil }
}
