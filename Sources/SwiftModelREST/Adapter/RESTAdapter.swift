import Foundation
import ModelEngine

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A ``PersistenceAdapter`` whose records are resources of a JSON HTTP API.
///
/// Each model is a collection (`/teams`) with instances (`/teams/:id`), optionally nested
/// under an owner (`/companies/10/employees`); rows travel as JSON objects shaped by the
/// model's ``JSONMapping`` (see ``RowJSONCodec``); queries become URL parameters through a
/// ``RESTQueryEncoder``, which refuses what it cannot express before anything is sent.
///
/// ```swift
/// let api = RESTAdapter(baseURL: URL(string: "https://api.example.com")!)
/// api.register(Employee.self, RESTResource(nestedUnder: "company"))
/// ModelStore.setDefault(api)
/// let team = try Team.find(7)                          // GET /teams/7 (nil on 404)
/// let seniors = try Employee.where(\.age > 60).all()   // GET /employees?age_gt=60
/// ```
///
/// Synchronous calls block the calling thread until the response (as every adapter's do);
/// async calls (``AsyncPersistenceAdapter``) suspend without holding a thread, bounded only
/// by ``RESTConfiguration/maxConcurrentRequests``, and cancelling the task cancels the
/// request in flight. Errors are ``RESTError`` (method, URL, status, body), except that a
/// duplicate id (409 to a `POST` with an id), any other 409 to a `POST`, `PUT` or `PATCH`
/// (`.uniqueViolation`, the ``RESTError`` attached), an update of a missing record (404)
/// and a call after ``close()`` are ``StoreError`` as on every adapter, and a missing
/// record on `find` is nil.
///
/// Transactions: HTTP has none. ``withTransaction(_:)`` runs its body, but requests
/// already sent are not undone when it throws (see `Docs/REST.md`). Bulk operations
/// (`deleteAll`, `updateAll`) fetch the matching ids and send one request per record;
/// `count` and aggregates fetch the matching rows (filtered by the server) and compute
/// on them.
///
/// Thread safety: the adapter is immutable apart from its resource table and the owner
/// cache, each behind its own lock; requests from many threads run concurrently.
public final class RESTAdapter: PersistenceAdapter {
    /// This adapter's settings: ``RESTConfiguration``.
    public typealias Configuration = RESTConfiguration

    /// The API's base URL; resource paths are appended to it.
    public let baseURL: URL
    /// How requests are made.
    public let configuration: RESTConfiguration
    let transport: HTTPTransport
    /// Registered resources by model type.
    private let registered = Locked<[ObjectIdentifier: RESTResource]>([:])
    /// Resolved resources by schema.
    private let resolved = Locked<[ObjectIdentifier: ResolvedResource]>([:])
    /// Nested resources: the owner id of each record id seen, by schema (bounded).
    let owners = Locked<[ObjectIdentifier: [ModelValue: ModelValue]]>([:])

    /// An adapter for the API at `baseURL`.
    ///
    /// - Parameter session: a session whose configuration to use (proxies, protocol
    ///   classes, cookies); by default an ephemeral one without caching. The adapter makes
    ///   its own session from it, with a delegate that keeps credentials on the base URL's
    ///   origin and bounds response bodies; `session` itself is left as it is.
    public init(baseURL: URL, configuration: RESTConfiguration = RESTConfiguration(), session: URLSession? = nil) {
        self.baseURL = baseURL
        self.configuration = configuration
        transport = HTTPTransport(baseURL: baseURL, configuration: configuration, session: session)
    }

    /// Serves `type` as `resource` (paths, nesting, headers, encoder, hooks). Register
    /// before the model's first request.
    public func register<M: ModelProtocol>(_ type: M.Type, _ resource: RESTResource) {
        registered.withLock { $0[ObjectIdentifier(M.self)] = resource }
        resolved.withLock { $0[ObjectIdentifier(M.schema)] = nil }
    }

    /// A model's resource, resolved once: routes, codec, encoder, headers.
    func resource(for schema: ModelSchema) throws -> ResolvedResource {
        if let done = resolved.withLock({ $0[ObjectIdentifier(schema)] }) { return done }
        try schema.validate()
        let own = schema.modelType.flatMap { type in registered.withLock { $0[ObjectIdentifier(type)] } }
        let settings = own ?? configuration.defaultResource
        let codec: RowJSONCodec
        do {
            codec = try RowJSONCodec.codec(for: schema)
        } catch {
            throw RESTError(.route, model: schema.modelName, message: "its JSON mapping: \(error)")
        }
        var readOnly = Set<Int>()
        for name in settings.readOnlyColumns {
            if own == nil, schema.index(ofColumn: name) == nil { continue }
            guard let column = schema.index(ofColumn: name), column != 0 else {
                throw RESTError(.route, model: schema.modelName, message: "readOnlyColumns names \(name), which is not a column other than the id")
            }
            readOnly.insert(column)
        }
        let routes: RESTRoutes
        do {
            routes = try RESTRoutes(schema: schema, resource: settings)
        } catch {
            throw RESTError(.route, model: schema.modelName, message: error.message)
        }
        let resource = ResolvedResource(
            schema: schema, settings: settings, readOnly: readOnly, routes: routes, codec: codec,
            encoder: settings.queryEncoder ?? configuration.queryEncoder,
            headers: configuration.headers.merging(settings.headers) { _, own in own },
            envelope: settings.envelope ?? configuration.envelope)
        resolved.withLock { $0[ObjectIdentifier(schema)] = resource }
        return resource
    }

    /// Closes the adapter: waits for the requests in flight (their transfers, which end
    /// without needing the calling tasks to run, so closing from async code is safe), then
    /// invalidates its own session (a session passed to ``init(baseURL:configuration:session:)``
    /// only lent its configuration and is left to its owner). Later calls throw ``StoreError`` `.closed`; closing again does
    /// nothing.
    public func close() throws { transport.close() }

    // MARK: PersistenceAdapter

    public func prepare(_ schema: ModelSchema) throws { _ = try resource(for: schema) }

    /// Whether the server assigns the ids of `schema`'s records (``RESTIDAssignment/server``):
    /// a new record may then be saved without one, even a `String` id.
    public func assignsIDs(for schema: ModelSchema) -> Bool {
        (try? resource(for: schema))?.settings.idAssignment == .server
    }

    public func insert(_ row: [ModelValue], into schema: ModelSchema) throws -> ModelValue {
        try insertReturningStored(row, into: schema).id
    }

    /// `POST`s the record and returns the server's id and the record as the server answered
    /// it (fields it sets included; fields its answer leaves out keep the values sent).
    public func insertReturningStored(_ row: [ModelValue], into schema: ModelSchema) throws -> (id: ModelValue, stored: [ModelValue]?) {
        try schema.checkRow(row)
        let resource = try resource(for: schema)
        let (request, sendsID) = try createRequest(row, resource)
        let stored = try created(send(request, resource), row, sendsID: sendsID, resource)
        return (stored[0], stored)
    }

    public func update(_ row: [ModelValue], changedColumns: [Int], in schema: ModelSchema) throws {
        _ = try updateReturningStored(row, changedColumns: changedColumns, in: schema)
    }

    /// `PATCH`es (or `PUT`s) the record and returns it as the server answered, when the
    /// answer has a body.
    public func updateReturningStored(_ row: [ModelValue], changedColumns: [Int], in schema: ModelSchema) throws -> [ModelValue]? {
        try schema.checkRow(row)
        let resource = try resource(for: schema)
        return try replace(row, changedColumns: changedColumns, resource)
    }

    public func delete(id: ModelValue, from schema: ModelSchema) throws -> Bool {
        try remove(id: id, try resource(for: schema), owner: nil)
    }

    public func find(id: ModelValue, in schema: ModelSchema) throws -> [ModelValue]? {
        let resource = try resource(for: schema)
        guard let request = try readRequest(id: id, resource) else { return nil }
        return try read(send(request, resource), resource)
    }

    public func fetch(_ query: StoreQuery) throws -> [[ModelValue]] {
        try list(query, resource(for: query.schema))
    }

    public func count(_ query: StoreQuery) throws -> Int {
        try fetch(query).count
    }

    public func delete(_ query: StoreQuery) throws -> Int {
        let resource = try resource(for: query.schema)
        var deleted = 0
        for row in try list(query, resource) where try remove(id: row[0], resource, owner: row) { deleted += 1 }
        return deleted
    }

    public func update(_ query: StoreQuery, set values: [Int: ModelValue]) throws -> Int {
        try query.schema.checkUpdate(values)
        let resource = try resource(for: query.schema)
        var changed = 0
        for row in try list(query, resource) {
            guard let (updated, columns) = Self.assigning(values, to: row) else { continue }
            _ = try replace(updated, changedColumns: columns, resource)
            changed += 1
        }
        return changed
    }

    public func aggregate(_ query: StoreQuery) throws -> [AggregateGroup] {
        let selection = try Self.aggregateSelection(query)
        return try QueryEngine.aggregate(StoreQuery(schema: query.schema, aggregate: query.aggregate), from: fetch(selection))
    }

    /// `PATCH`/`PUT` of one row.
    private func replace(_ row: [ModelValue], changedColumns: [Int], _ resource: ResolvedResource) throws -> [ModelValue]? {
        try replaced(send(replaceRequest(row, changedColumns: changedColumns, resource), resource), row, resource)
    }

    /// `DELETE` of one row; false when there is no such record.
    private func remove(id: ModelValue, _ resource: ResolvedResource, owner: [ModelValue]?) throws -> Bool {
        guard let request = try removeRequest(id: id, resource, owner: owner) else { return false }
        return try removed(send(request, resource), id: id, resource)
    }

    /// `row` with `values` set and the columns that changed; nil when none did.
    static func assigning(_ values: [Int: ModelValue], to row: [ModelValue]) -> ([ModelValue], [Int])? {
        let columns = values.keys.filter { row[$0] != values[$0] }.sorted()
        guard !columns.isEmpty else { return nil }
        var row = row
        for (column, value) in values { row[column] = value }
        return (row, columns)
    }

    /// The rows an aggregate is computed on: the query's selection, checked.
    static func aggregateSelection(_ query: StoreQuery) throws -> StoreQuery {
        _ = try query.checkedAggregate()
        var selection = query
        selection.aggregate = nil
        return selection
    }

    /// Runs `body`. HTTP has no transactions: requests the body sent stay sent when it
    /// throws (the error is rethrown as is).
    public func withTransaction<R>(_ body: () throws -> R) throws -> R { try body() }

    /// Opens nothing (HTTP has no transactions): an async transaction's body runs, and
    /// requests it sent stay sent when it throws.
    nonisolated(nonsending) public func beginTransaction(for handle: TransactionHandle) async throws -> (any StoreTransaction)? {
        NoStoreTransaction()
    }
}

/// The transaction of a store without transactions.
private struct NoStoreTransaction: StoreTransaction {
    func commit() throws {}
    func rollback() {}
}

/// A model's resource with everything resolved once.
struct ResolvedResource: Sendable {
    let schema: ModelSchema
    let settings: RESTResource
    /// ``RESTResource/readOnlyColumns`` as column indexes.
    let readOnly: Set<Int>
    let routes: RESTRoutes
    let codec: RowJSONCodec
    let encoder: any RESTQueryEncoder
    let headers: [String: String]
    let envelope: String?
}
