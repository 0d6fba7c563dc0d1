import Foundation

/// Serves models over HTTP from their ``RESTResource`` declarations — the same ones a
/// ``RESTAdapter`` client registers, so client and server agree on paths by construction.
/// Framework-agnostic: give it a ``ResourceRequest``, send back the ``ResourceResponse``
/// (the Hummingbird integration and `RESTTestServer` do exactly that).
///
/// ```swift
/// var resources = ModelResources(store: try SQLiteAdapter(path: "todos.sqlite"))
/// try resources.register(Todo.self)
/// try resources.register(Assignee.self, RESTResource(nestedUnder: "todo"))
/// let response = await resources.respond(to: ResourceRequest(method: "GET", target: "/todos?done=false"))
/// ```
///
/// Every request runs through the model layer: lists are queries (decoded strictly from
/// the plain or Parse-style format, bounded by ``ResourceOptions/limits``), writes are
/// `save()` and `destroy()` in a store transaction, so validations, hooks, timestamps and
/// delete rules apply. See `Docs/Server.md`.
///
/// Thread safety: a value; ``respond(to:)`` may run from any number of tasks at once (the
/// store serialises what it must, the idempotency cache has its own lock).
public struct ModelResources: Sendable {
    /// Settings for every served model.
    public struct Configuration: Sendable {
        /// The largest request body accepted (a larger one is a 413 `body_too_large`).
        public var maxBodyBytes = 1 << 20
        /// A path prefix every route sits under (`"/api/v1"`), or empty.
        public var pathPrefix = ""
        /// Asked about every request and every model it reaches (owners of nested routes
        /// included): see ``ResourceAccess``. Nil allows everything.
        public var authorize: ResourceAuthorizer?
        /// Whether each request runs in a fresh ``ModelContext`` of its own (one instance
        /// per record for the hooks and validations it runs; dropped when it ends).
        public var requestContext = false
        /// How long a `POST`'s response is replayed for its `Idempotency-Key` (the keys
        /// live in the store, table `swiftmodel_idempotency_keys`; expired ones are deleted
        /// as new ones arrive).
        public var idempotencyLifetime: Duration = .seconds(24 * 3600)

        /// Called after each successful write (`POST`, `PATCH`, `PUT`, `DELETE` answered
        /// 2xx) has committed, before its response is returned: audit logs, metrics, cache
        /// invalidation, fault injection in tests.
        public var afterCommit: (@Sendable (ResourceRequest, ResourceResponse) async -> Void)?

        /// The longest a changes-feed request may wait for a change (`wait=` seconds).
        public var feedWaitLimit: Duration = .seconds(30)
        /// The most changes-feed requests waiting at once; one more is a 503
        /// `too_many_subscribers` with `Retry-After`.
        public var feedWaiterLimit = 1_000
        /// How often the history's head is read while feed requests wait, to notice writes
        /// this server did not make (another process, a tool); its own wake them at once.
        public var feedPollInterval: Duration = .milliseconds(250)

        /// The defaults: 1 MiB bodies, no prefix, no authorisation, no request context.
        public init() {}
    }

    /// The store every model is read from and written to.
    public let store: any PersistenceAdapter
    /// The settings.
    public let configuration: Configuration
    var endpoints: [any ResourceEndpoint] = []
    let idempotency: IdempotencyCache
    /// Wakes waiting changes-feed requests.
    let feed: FeedSignal

    /// Serves models from `store`.
    public init(store: any PersistenceAdapter, configuration: Configuration = Configuration()) {
        self.store = store
        self.configuration = configuration
        idempotency = IdempotencyCache(lifetime: configuration.idempotencyLifetime)
        feed = FeedSignal(limit: configuration.feedWaiterLimit, pollInterval: configuration.feedPollInterval)
    }

    /// Serves `type` at the routes `resource` declares (default: `/<table>` and
    /// `/<table>/:id`).
    ///
    /// - Throws: ``RESTRouteError`` for a path template naming no column or a
    ///   `nestedUnder` that is not a `@BelongsTo`; ``SerializationError`` for a JSON mapping
    ///   that does not fit the schema.
    public mutating func register<M: ModelProtocol>(
        _ type: M.Type, _ resource: RESTResource = RESTResource(), options: ResourceOptions = ResourceOptions()
    ) throws {
        endpoints.append(try ModelEndpoint<M>(resource: resource, options: options))
    }

    /// Serves the model whose schema `schema` is (a schema built from a model type, as
    /// `Model.schema` is), for code that holds schemas rather than types.
    ///
    /// - Throws: ``ResourceError`` (500 `bad_resource`) for a schema without a model type,
    ///   and what ``register(_:_:options:)`` throws.
    public mutating func register(
        schema: ModelSchema, _ resource: RESTResource = RESTResource(), options: ResourceOptions = ResourceOptions()
    ) throws {
        guard let type = schema.modelType else {
            throw ResourceError(status: 500, code: "bad_resource", message: "the schema of \(schema.modelName) has no model type")
        }
        try register(type, resource, options: options)
    }

    /// The response to `request`: never throws — every failure is a typed error response.
    public func respond(to request: ResourceRequest) async -> ResourceResponse {
        do {
            if configuration.requestContext {
                return try await ModelContext().run { try await route(request) }
            }
            return try await route(request)
        } catch {
            return ResourceFailure.error(from: error, codec: nil).response
        }
    }

    private func route(_ request: ResourceRequest) async throws -> ResourceResponse {
        guard request.body.count <= configuration.maxBodyBytes else {
            throw ResourceError(
                status: 413, code: "body_too_large",
                message: "the body has \(request.body.count) bytes; at most \(configuration.maxBodyBytes) are accepted")
        }
        if let feedTarget = changesTarget(request.path) {
            guard request.method == "GET" else {
                var error = ResourceError(status: 405, code: "method_not_allowed", message: "\(request.method) is not served at a changes feed")
                error.headers["Allow"] = "GET"
                throw error
            }
            let call = try await ResourceCall(request: request, target: feedTarget, operation: .list, resources: self)
            return try await feedTarget.endpoint.handleChanges(call, feed: feed, waitLimit: configuration.feedWaitLimit)
        }
        guard let target = resolve(request.path) else {
            throw ResourceError(status: 404, code: "no_route", message: "no resource at \(request.path)")
        }
        let operation = try target.operation(request.method)
        if operation == .create || operation == .update { try BodyReader.checkContentType(request) }
        let call = try await ResourceCall(request: request, target: target, operation: operation, resources: self)
        let response = try await target.endpoint.handle(call)
        if operation != .list, operation != .read, (200..<300).contains(response.status) {
            feed.notify()
            if let afterCommit = configuration.afterCommit { await afterCommit(request, response) }
        }
        return response
    }
}
