import Foundation
import HTTPTypes
import Hummingbird
@_exported import ModelServer

extension Router {
    /// Mounts every route of `resources` on this router (Hummingbird's trie matches the
    /// path and method; the resource core answers), with async handlers that hold no
    /// thread while the store works.
    ///
    /// ```swift
    /// var resources = ModelResources(store: try SQLiteAdapter(path: "todos.sqlite"))
    /// try resources.register(Todo.self)
    /// let router = Router()
    /// router.addResources(resources)
    /// let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 8080)))
    /// try await app.runService()
    /// ```
    ///
    /// `limits` bounds how long a request's body may take (``ServerLimits/bodyTimeout``);
    /// give the same limits to the `Application` for idle connections and the connection cap.
    @discardableResult
    public func addResources(_ resources: ModelResources, limits: ServerLimits = ServerLimits()) -> Self {
        for template in resources.routeTemplates {
            // Placeholders as `*`: the trie only needs the shape (`/todos/:id` and
            // `/todos/:todo_id/items` name one position differently); the core reads the values.
            let shape = template.path.split(separator: "/").map { $0.hasPrefix(":") ? "*" : String($0) }
            let path = RouterPath(stringLiteral: "/" + shape.joined(separator: "/"))
            for name in template.methods {
                guard let method = HTTPRequest.Method(name) else { continue }
                on(path, method: method) { request, _ in try await HummingbirdResources.respond(request, with: resources, limits: limits) }
            }
        }
        return self
    }
}

/// The bridge between Hummingbird's requests and responses and the resource core's.
public enum HummingbirdResources {
    /// `request` answered by `resources`: the body collected up to the resources' limit
    /// (a larger one is their 413) within `limits.bodyTimeout` (a slower one is a 408 that
    /// closes the connection), the request target passed as it arrived.
    public static func respond(_ request: Request, with resources: ModelResources, limits: ServerLimits = ServerLimits())
        async throws -> Response
    {
        let limit = resources.configuration.maxBodyBytes
        let collected: Data?
        do {
            collected = try await collect(request, limit: limit, timeout: limits.bodyTimeout)
        } catch is BodyTimeout {
            var error = ResourceError(
                status: 408, code: "body_timeout", message: "the body did not arrive within \(limits.bodyTimeout)")
            error.headers["Connection"] = "close"
            return response(error.response)
        }
        guard let body = collected else {
            return response(ResourceError(status: 413, code: "body_too_large", message: "the body has more than \(limit) bytes").response)
        }
        var headers: [(name: String, value: String)] = []
        headers.reserveCapacity(request.headers.count)
        for field in request.headers { headers.append((field.name.canonicalName, field.value)) }
        let answer = await resources.respond(
            to: ResourceRequest(method: request.method.rawValue, target: request.head.path ?? "/", headers: headers, body: body))
        return response(answer)
    }

    /// A resource response as a Hummingbird response.
    public static func response(_ answer: ResourceResponse) -> Response {
        var fields = HTTPFields()
        for (name, value) in answer.headers {
            if let field = HTTPField.Name(name) { fields.append(HTTPField(name: field, value: value)) }
        }
        return Response(status: .init(code: answer.status), headers: fields, body: ResponseBody(byteBuffer: ByteBuffer(bytes: answer.body)))
    }
}

/// Answers requests for `resources`' routes and passes others on: for routers whose
/// routes are not known up front (resources chosen per request, as tenants).
public struct ModelResourcesMiddleware<Context: RequestContext>: RouterMiddleware {
    /// Picks the resources for a request (nil: not ours, pass it on).
    let select: @Sendable (Request) -> ModelResources?
    /// The body deadline (``ServerLimits/bodyTimeout``).
    let limits: ServerLimits

    /// A middleware serving `resources`.
    public init(_ resources: ModelResources, limits: ServerLimits = ServerLimits()) {
        select = { request in resources.serves(Substring(request.head.path ?? "/")) ? resources : nil }
        self.limits = limits
    }

    /// A middleware serving the resources `select` picks per request.
    public init(limits: ServerLimits = ServerLimits(), select: @escaping @Sendable (Request) -> ModelResources?) {
        self.select = select
        self.limits = limits
    }

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let resources = select(request) else { return try await next(request, context) }
        return try await HummingbirdResources.respond(request, with: resources, limits: limits)
    }
}
