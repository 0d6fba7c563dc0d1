import Foundation
import ModelCore
import ModelServer

/// A JSON resource server on a loopback port for tests, examples and benchmarks: it
/// stores resources in memory and serves them the way typical REST APIs do, and it can
/// inject faults.
///
/// - `GET /teams` lists (filters, sorting and paging from query parameters, see
///   `Docs/REST.md`), `POST /teams` creates (201, an id assigned when none is sent),
///   `GET|PUT|PATCH|DELETE /teams/:id` read, replace, merge and delete (404 when absent).
/// - Nested routes: `/companies/10/employees[/45]` is the `employees` collection limited
///   to `company_id == 10` (the parent must exist); creating there sets `company_id`.
/// - Lists carry `X-Total-Count`; with ``Options/pageSize`` lists are paged and link the
///   next page (`Link: <…?page=2>; rel="next"`).
/// - A repeated `Idempotency-Key` on a POST returns the first response again.
///
/// ```swift
/// let server = try RESTTestServer()
/// defer { server.stop() }
/// server.inject(.status(503, retryAfter: "1"))      // the next request gets a 503
/// let adapter = RESTAdapter(baseURL: server.baseURL)
/// ```
///
/// Thread safety: requests are served on connection threads; all state is behind one lock.
public final class RESTTestServer: Sendable {
    private struct Collection {
        var objects: [[String: ModelValue]] = []
        var nextID: Int64 = 1
        /// Each object's position by its id's key (``RESTTestServer/idKey(_:)``).
        var positions: [[UInt8]: Int] = [:]

        /// Makes an object with `make` (which may update the counters) and appends it.
        mutating func withAppended(_ make: (inout Self) -> [String: ModelValue]) -> [String: ModelValue] {
            let object = make(&self)
            positions[RESTTestServer.idKey(RESTTestServer.idString(object["id"]))] = objects.count
            objects.append(object)
            return object
        }

        mutating func remove(at index: Int) {
            objects.remove(at: index)
            positions = [:]
            for (k, object) in objects.enumerated() { positions[RESTTestServer.idKey(RESTTestServer.idString(object["id"]))] = k }
        }
    }

    private struct State {
        var options: Options
        var collections: [String: Collection] = [:]
        var faults: [PendingFault] = []
        var log: [HTTPRequest] = []
        var idempotent: [String: HTTPResponse] = [:]
        /// Requests being handled now, and the most at once since the last reset.
        var inFlight = 0
        var peakInFlight = 0
        /// Models served by the resource core instead of the schema-less collections.
        var resources: ModelResources?
    }

    private let state: Locked<State>
    /// Released when the server stops: wakes delayed and held requests, so stopping never
    /// waits one out.
    private let stopping = FaultRelease()
    private let http: Locked<HTTPServer?> = Locked(nil)
    /// The port the server listens on.
    public let port: Int

    /// Starts a server on a free loopback port.
    public convenience init(options: Options = Options()) throws {
        try self.init(options: options, resources: nil)
    }

    /// Starts a server on a free loopback port that serves `resources` — the resource core
    /// (ModelServer), so a client under test meets the real server code — with this
    /// server's request log, fault injection and bearer tokens in front. The schema-less
    /// options (envelope, paging, unique fields, id styles, Parse style) do not apply:
    /// the resources' declarations do.
    public convenience init(serving resources: ModelResources, options: Options = Options()) throws {
        try self.init(options: options, resources: resources)
    }

    private init(options: Options, resources: ModelResources?) throws {
        var initial = State(options: options)
        initial.resources = resources
        let state = Locked(initial)
        self.state = state
        let stopping = stopping
        let server = try HTTPServer { request in Self.handle(request, state, stopping) }
        port = server.port
        http.withLock { $0 = server }
    }

    /// `http://127.0.0.1:<port>` plus the path prefix.
    public var baseURL: URL {
        let prefix = state.withLock { $0.options.pathPrefix }
        return URL(string: "http://127.0.0.1:\(port)\(prefix)") ?? URL(fileURLWithPath: "/")
    }

    /// Stops the server (closing open connections). Idempotent.
    public func stop() {
        stopping.release()
        let server = http.withLock { server in
            defer { server = nil }
            return server
        }
        server?.stop()
    }

    deinit { stop() }

    // MARK: Test controls

    /// Injects `fault` for the next `times` requests that match `method` and `pathPrefix`
    /// (any when nil). Faults apply in the order injected.
    public func inject(_ fault: Fault, method: String? = nil, pathPrefix: String? = nil, times: Int = 1) {
        state.withLock { $0.faults.append(PendingFault(fault: fault, method: method, pathPrefix: pathPrefix, remaining: times)) }
    }

    /// Changes the accepted bearer tokens (nil accepts every request).
    public func acceptTokens(_ tokens: Set<String>?) { state.withLock { $0.options.acceptedTokens = tokens } }

    /// Stores objects in a collection, assigning ids to those without one.
    public func seed(_ collection: String, _ objects: [[String: ModelValue]]) {
        state.withLock { state in
            for object in objects { _ = Self.store(object, in: collection, &state, state.options) }
        }
    }

    /// The stored objects of a collection, in creation order.
    public func objects(in collection: String) -> [[String: ModelValue]] {
        state.withLock { $0.collections[collection]?.objects ?? [] }
    }

    /// Every request received so far, in order.
    public var requests: [HTTPRequest] { state.withLock { $0.log } }

    /// Forgets the request log.
    public func clearLog() { state.withLock { $0.log.removeAll() } }

    /// The most requests handled at once (delays included) since the server started or
    /// ``resetPeakConcurrency()``: how many a client really had in flight.
    public var peakConcurrency: Int { state.withLock { $0.peakInFlight } }

    /// Starts counting ``peakConcurrency`` afresh.
    public func resetPeakConcurrency() { state.withLock { $0.peakInFlight = $0.inFlight } }

    // MARK: Handling

    private static func handle(_ request: HTTPRequest, _ state: Locked<State>, _ stopping: FaultRelease) -> HTTPResponse {
        defer { state.withLock { $0.inFlight -= 1 } }
        let (fault, options) = state.withLock { state -> (PendingFault?, Options) in
            state.inFlight += 1
            state.peakInFlight = max(state.peakInFlight, state.inFlight)
            state.log.append(request)
            guard let k = state.faults.firstIndex(where: { $0.matches(request) }) else { return (nil, state.options) }
            let fault = state.faults[k]
            state.faults[k].remaining -= 1
            if state.faults[k].remaining <= 0 { state.faults.remove(at: k) }
            return (fault, state.options)
        }
        if let fault {
            if let response = fault.response() { return response }
            if fault.fault.waitOut(stopping) {
                var dropped = HTTPResponse(status: 503)
                dropped.delivery = .closeWithoutResponse
                return dropped
            }
        }
        if let tokens = options.acceptedTokens {
            let header = request.header("Authorization") ?? ""
            guard header.hasPrefix("Bearer "), tokens.contains(String(header.dropFirst(7))) else {
                return .json(401, #"{"error":"unauthorized"}"#, headers: [("WWW-Authenticate", "Bearer")])
            }
        }
        if let resources = state.withLock({ $0.resources }) { return ResourceBridge.respond(resources, to: request) }
        if request.method == "POST", let key = request.header("Idempotency-Key") {
            if let earlier = state.withLock({ $0.idempotent[key] }) { return earlier }
            let response = state.withLock { route(request, options, &$0) }
            state.withLock { $0.idempotent[key] = response }
            return response
        }
        return state.withLock { route(request, options, &$0) }
    }

    private static func route(_ request: HTTPRequest, _ options: Options, _ state: inout State) -> HTTPResponse {
        guard options.parseStyle else { return plainRoute(request, options, &state) }
        return ParseStyle.answer(plainRoute(ParseStyle.request(request), options, &state), to: request)
    }

    private static func plainRoute(_ request: HTTPRequest, _ options: Options, _ state: inout State) -> HTTPResponse {
        var path = request.path
        if !options.pathPrefix.isEmpty {
            guard path.hasPrefix(options.pathPrefix) else { return error(404, "no route \(path)") }
            path = String(path.dropFirst(options.pathPrefix.count))
        }
        let segments = path.split(separator: "/").map(String.init)
        var scope: (key: String, id: ModelValue)?
        var rest = segments[...]
        if segments.count >= 3 {
            let parent = segments[0], parentID = segments[1]
            guard find(parentID, in: parent, state) != nil else { return error(404, "no \(parent) with id \(parentID)") }
            let key = Inflector.shared.singularize(parent) + "_id"
            scope = (key, state.collections[parent]?.objects.first { idString($0["id"]) == parentID }?["id"] ?? .string(parentID))
            rest = segments[2...]
        }
        guard let collection = rest.first, rest.count <= 2 else { return error(404, "no route \(path)") }
        if rest.count == 1 {
            switch request.method {
            case "GET": return list(request, collection, scope: scope, options, state)
            case "POST": return create(request, collection, scope: scope, options, &state)
            default: return error(405, "\(request.method) is not allowed on a collection")
            }
        }
        let id = rest[rest.startIndex + 1]
        guard let index = find(id, in: collection, state),
            scope.map({ ResourceQuery.compare(state.collections[collection]?.objects[index][$0.key] ?? .null, $0.id) == 0 }) ?? true
        else {
            let status = request.method == "GET" ? options.missingStatus : options.missingWriteStatus ?? options.missingStatus
            return error(status, "no \(collection) with id \(id)")
        }
        switch request.method {
        case "GET": return respond(200, state.collections[collection]?.objects[index] ?? [:], options)
        case "DELETE":
            state.collections[collection]?.remove(at: index)
            return HTTPResponse(status: 204)
        case "PUT", "PATCH":
            guard var object = body(request, options) else { return error(400, "the body is not a JSON object") }
            let current = state.collections[collection]?.objects[index] ?? [:]
            if request.method == "PATCH" {
                if options.patchNullMeansUnchanged { object = object.filter { !$0.value.isNull } }
                object = current.merging(object) { _, new in new }
            }
            object["id"] = current["id"]
            if options.setsServerFields || options.parseStyle { stamp(&object, collection, options) }
            if let field = repeatedField(object, in: collection, except: index, options, state) {
                return error(409, "another \(collection) object has this \(field)")
            }
            state.collections[collection]?.objects[index] = object
            return respond(200, object, options)
        default: return error(405, "\(request.method) is not allowed on a resource")
        }
    }

    private static func list(
        _ request: HTTPRequest, _ collection: String, scope: (key: String, id: ModelValue)?, _ options: Options, _ state: State
    ) -> HTTPResponse {
        let query: ResourceQuery
        do {
            query = try ResourceQuery(request.query)
        } catch {
            return Self.error(400, error.message)
        }
        var objects = (state.collections[collection]?.objects ?? []).filter { object in
            scope.map { ResourceQuery.compare(object[$0.key] ?? .null, $0.id) == 0 } ?? true
        }
        if !options.ignoresQuery { objects = query.sorted(objects.filter(query.matches)) }
        let total = objects.count
        var headers = [("X-Total-Count", String(total))]
        if options.ignoresQuery {
            // Every object, as they are.
        } else if query.page != nil || (query.limit == nil && options.pageSize != nil) {
            let page = query.page ?? 1
            let size = max(1, query.perPage ?? options.pageSize ?? 30)
            let start = min(total, (page - 1) * size)
            objects = Array(objects[start..<min(total, start + size)])
            if start + size < total {
                var items = request.query.filter { $0.name != "page" && $0.name != "per_page" }
                items += [("page", String(page + 1)), ("per_page", String(size))]
                let encoded = items.map { encode($0.name) + "=" + encode($0.value) }.joined(separator: "&")
                headers.append(("Link", "<http://127.0.0.1\(hostPort(request))\(request.path)?\(encoded)>; rel=\"next\""))
            }
        } else {
            let start = min(total, query.offset)
            objects = Array(objects[start..<min(total, query.limit.map { start + $0 } ?? total)])
        }
        return respond(200, .array(objects.map { .dictionary($0) }), options, headers: headers)
    }

    private static func create(
        _ request: HTTPRequest, _ collection: String, scope: (key: String, id: ModelValue)?, _ options: Options,
        _ state: inout State
    ) -> HTTPResponse {
        guard var object = body(request, options) else { return error(400, "the body is not a JSON object") }
        if let scope, object[scope.key] == nil || object[scope.key] == .null { object[scope.key] = scope.id }
        if options.ids != .integer { object["id"] = nil }
        if let id = object["id"], !id.isNull, find(idString(id), in: collection, state) != nil {
            return error(409, "\(collection) \(idString(id)) exists")
        }
        if let field = repeatedField(object, in: collection, except: nil, options, state) {
            return error(409, "another \(collection) object has this \(field)")
        }
        let stored = store(object, in: collection, &state, options)
        return respond(201, stored, options, headers: [("Location", "/\(collection)/\(idString(stored["id"]))")])
    }

    // MARK: Helpers

    /// A unique field whose non-null value in `object` another object of the collection
    /// (the one at `except` aside) already has.
    private static func repeatedField(
        _ object: [String: ModelValue], in collection: String, except: Int?, _ options: Options, _ state: State
    ) -> String? {
        let objects = state.collections[collection]?.objects ?? []
        for field in (options.uniqueFields[collection] ?? []).sorted() {
            guard let value = object[field], !value.isNull else { continue }
            if objects.indices.contains(where: { $0 != except && sameValue(objects[$0][field], value) }) { return field }
        }
        return nil
    }

    private static func store(
        _ object: [String: ModelValue], in collection: String, _ state: inout State, _ options: Options
    ) -> [String: ModelValue] {
        var object = object
        // In place: a copy of the table per object would make every create O(n).
        let ids = options.ids
        return state.collections[collection, default: Collection()].withAppended { table in
            if object["id"] == nil || object["id"] == .null {
                switch ids {
                case .integer: object["id"] = .int(table.nextID)
                case .uuid: object["id"] = .string(UUID().uuidString.lowercased())
                case .prefixedString:
                    object["id"] = .string("rec_\(table.nextID)")
                    table.nextID += 1
                }
            }
            if options.setsServerFields || options.parseStyle { stamp(&object, collection, options) }
            if case .int(let n) = object["id"], n >= table.nextID { table.nextID = n &+ 1 }
            return object
        }
    }

    /// Server-set fields: the object's path and the time of the write.
    private static func stamp(_ object: inout [String: ModelValue], _ collection: String, _ options: Options) {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let now = ModelValue.string(formatter.string(from: Date()))
        if options.parseStyle {
            if object["createdAt"] == nil { object["createdAt"] = now }
            object["updatedAt"] = now
            return
        }
        object["url"] = .string("/\(collection)/\(idString(object["id"]))")
        object["updated_at"] = now
    }

    /// The index of the object with `id`; UUIDs compare without regard to case, as a
    /// server with a UUID column type does.
    private static func find(_ id: String, in collection: String, _ state: State) -> Int? {
        state.collections[collection]?.positions[idKey(id)]
    }

    /// An id as the server compares ids: by its bytes (as SQL engines compare text, not by
    /// Unicode canonical equivalence), UUIDs without regard to case.
    fileprivate static func idKey(_ id: String) -> [UInt8] {
        Array((UUID(uuidString: id).map { $0.uuidString.lowercased() } ?? id).utf8)
    }

    /// Whether two values are the same stored value: text by its bytes.
    private static func sameValue(_ a: ModelValue?, _ b: ModelValue) -> Bool {
        if case .string(let x) = a, case .string(let y) = b { return x.utf8.elementsEqual(y.utf8) }
        return a == b
    }

    fileprivate static func idString(_ value: ModelValue?) -> String {
        switch value {
        case .int(let n): String(n)
        case .string(let s): s
        case .some(let other): other.description
        case nil: ""
        }
    }

    private static func body(_ request: HTTPRequest, _ options: Options) -> [String: ModelValue]? {
        guard let text = String(data: request.body, encoding: .utf8), let value = try? ModelJSON.parse(text),
            case .dictionary(var object) = value
        else { return nil }
        if let envelope = options.envelope, case .dictionary(let inner) = object[envelope] { object = inner }
        return object
    }

    private static func respond(
        _ status: Int, _ payload: ModelValue, _ options: Options, headers: [(name: String, value: String)] = []
    ) -> HTTPResponse {
        var payload = payload
        if options.omitsNulls { payload = withoutNulls(payload) }
        let wrapped = options.envelope.map { ModelValue.dictionary([$0: payload]) } ?? payload
        return .json(status, ModelJSON.serialize(wrapped), headers: headers)
    }

    private static func respond(
        _ status: Int, _ object: [String: ModelValue], _ options: Options, headers: [(name: String, value: String)] = []
    ) -> HTTPResponse {
        respond(status, .dictionary(object), options, headers: headers)
    }

    /// An object (or each object of a list) without its null values.
    private static func withoutNulls(_ payload: ModelValue) -> ModelValue {
        switch payload {
        case .dictionary(let object): .dictionary(object.filter { !$0.value.isNull })
        case .array(let items): .array(items.map(withoutNulls))
        default: payload
        }
    }

    private static func error(_ status: Int, _ message: String) -> HTTPResponse {
        status == 204 ? HTTPResponse(status: 204) : .json(status, ModelJSON.serialize(.dictionary(["error": .string(message)])))
    }

    private static func hostPort(_ request: HTTPRequest) -> String {
        guard let host = request.header("Host"), let colon = host.lastIndex(of: ":") else { return "" }
        return String(host[colon...])
    }

    private static func encode(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }
}

