import Foundation

/// A served model, its generic type erased: what routing needs and the handler.
protocol ResourceEndpoint: Sendable {
    var schema: ModelSchema { get }
    var codec: RowJSONCodec { get }
    var routes: RESTRoutes { get }
    var options: ResourceOptions { get }
    /// The schema of the owner a nested resource sits under.
    var owner: ModelSchema? { get }
    /// For a nested resource: its foreign key column to the owner.
    var ownerKey: Int? { get }
    func handle(_ call: ResourceCall) async throws -> ResourceResponse
    /// `GET <collection>/changes`: see ``ModelEndpoint/changes(_:feed:waitLimit:)``.
    func handleChanges(_ call: ResourceCall, feed: FeedSignal, waitLimit: Duration) async throws -> ResourceResponse
}

/// Serves model `M`: lists and reads through queries, writes through `save()` and
/// `destroy()` inside a store transaction.
struct ModelEndpoint<M: ModelProtocol>: ResourceEndpoint {
    let schema: ModelSchema
    let codec: RowJSONCodec
    let routes: RESTRoutes
    let resource: RESTResource
    let options: ResourceOptions
    let owner: ModelSchema?
    /// Columns a client never writes (the id is handled on its own).
    let readOnly: Set<Int>
    /// The timestamps: a body's values for them are dropped (clients that stamp records
    /// themselves send them); the model layer stamps the server's.
    let stamped: Set<Int>

    init(resource: RESTResource, options: ResourceOptions) throws {
        let schema = M.schema
        try schema.validate()
        self.schema = schema
        codec = try RowJSONCodec.codec(for: schema)
        routes = try RESTRoutes(schema: schema, resource: resource)
        self.resource = resource
        self.options = options
        if let name = resource.nestedUnder, let relation = try schema.relation(named: name) {
            owner = relation.target
        } else {
            owner = nil
        }
        stamped = Set([schema.createdAtIndex, schema.updatedAtIndex].compactMap { $0 })
        var readOnly = Set<Int>()
        for name in resource.readOnlyColumns.union(options.readOnlyColumns) {
            guard let column = schema.index(ofColumn: name) else {
                throw ResourceError(
                    status: 500, code: "bad_resource", message: "read-only column \"\(name)\" is not a column of \(schema.modelName)")
            }
            readOnly.insert(column)
        }
        readOnly.remove(0)
        self.readOnly = readOnly
    }

    var ownerKey: Int? { owner == nil ? nil : routes.nested?.foreignKey }

    func handle(_ call: ResourceCall) async throws -> ResourceResponse {
        do {
            switch call.operation {
            case .list: return try await list(call)
            case .read: return try await read(call)
            case .create: return try await create(call)
            case .update: return try await update(call)
            case .delete: return try await delete(call)
            }
        } catch {
            throw ResourceFailure.error(from: error, codec: codec)
        }
    }

    func handleChanges(_ call: ResourceCall, feed: FeedSignal, waitLimit: Duration) async throws -> ResourceResponse {
        do {
            return try await changes(call, feed: feed, waitLimit: waitLimit)
        } catch {
            throw ResourceFailure.error(from: error, codec: codec)
        }
    }

    // MARK: Shared

    /// The JSON object of a record's values.
    func object(_ record: M) throws -> [String: ModelValue] {
        try codec.object(from: record._currentValues)
    }

    /// A record's response: its object serialized once, for the `ETag` and the body (bare
    /// or in the resource's envelope).
    func recordResponse(_ status: Int, _ object: [String: ModelValue], headers: [(name: String, value: String)] = []) -> ResourceResponse {
        let bytes = ModelJSON.serializedBytes(.dictionary(object))
        let body: Data
        if case .some(.some(let key)) = resource.envelope {
            body = Data(ModelJSON.serializedBytes([key: .dictionary(object)]))
        } else {
            body = Data(bytes)
        }
        return ResourceResponse(
            status: status, headers: [("Content-Type", "application/json; charset=utf-8"), ("ETag", ETag.of(bytes: bytes))] + headers,
            body: body)
    }

    /// A single object's body: bare, or wrapped in the resource's envelope.
    func body(_ value: ModelValue) -> ModelValue {
        if case .some(.some(let key)) = resource.envelope { return [key: value] }
        return value
    }

    /// The record the call's id names within its constraints, or a 404.
    func record(_ call: ResourceCall, locking: Bool) async throws -> M {
        let idText = call.id ?? ""
        guard let id = PathValues.value(idText, column: 0, codec: codec) else {
            throw ResourceError.notFound(schema.modelName, idText)
        }
        if !locking || call.store.rowLockSupport == .unsupported {
            // By primary key (the store's prepared lookup), then the constraints in memory.
            guard let record = try await M.find(key: id, in: call.store),
                call.fixed.allSatisfy({ record._value(at: $0.key) == $0.value }),
                call.scope.allSatisfy({ record._value(at: $0.key) == $0.value }),
                try await reachable(record, call)
            else { throw ResourceError.notFound(schema.modelName, idText) }
            return record
        }
        let byID = QueryPredicate.compare(column: 0, .equal, id)
        let query = Query<M>().where(QueryCondition(predicate: call.constraint.map { .and([byID, $0]) } ?? byID)).using(call.store)
        guard let record = try await query.lockForUpdate().first(), try await reachable(record, call) else {
            throw ResourceError.notFound(schema.modelName, idText)
        }
        return record
    }

    /// Whether `record`'s owner is within the call's reach (always, without a gate).
    private func reachable(_ record: M, _ call: ResourceCall) async throws -> Bool {
        guard let gate = call.gate else { return true }
        return try await gate.admits(record._value(at: gate.column), in: call.store)
    }

    /// The path of a record: the nested instance path when the call came through its
    /// owner (or flat ones are not served), else the flat one.
    func location(_ record: M, nested: Bool) -> String? {
        let template = (nested || !routes.flatAllowed) ? routes.nested?.instance ?? routes.instance : routes.instance
        return template.path { record._currentValues.indices.contains($0) ? record._value(at: $0) : nil }
    }
}

extension ResourceEndpoint {
    /// Whether this model has a changes feed on `store`: it keeps history there and its
    /// lists are served.
    func servesChanges(on store: any PersistenceAdapter) -> Bool {
        schema.keepsHistory && store is any HistoryKeepingAdapter && options.operations.contains(.list)
    }
}
