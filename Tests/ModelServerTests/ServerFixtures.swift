import ArrayAdapter
import Foundation
import ModelServer
import Testing

final class SrvTodo: Model, Validatable {
    @Column var title: String = ""
    @Column var done: Bool = false
    @Column var priority: Int = 0
    @Column var ownerID: Int?
    @Column var note: String?
    @Column var createdAt: Date?
    @Column var updatedAt: Date?
    @HasMany(dependent: .destroy) var items: Children<SrvItem>
    init() {}

    static func validations(_ v: inout Validations<SrvTodo>) {
        v.add(\.title, .presence, .length(...40))
        v.add(\.priority, .numericality(in: 0...5))
    }

    /// Whether each title's save ran inside a ModelContext (set by `beforeSave`).
    static let sawContext = Locked<[String: Bool]>([:])
    func beforeSave() throws -> Bool {
        Self.sawContext.withLock { $0[title] = ModelContext.current != nil }
        if title == "fail:transient" { throw EngineFailure(transient: true) }
        if title == "fail:value" { throw EngineFailure(transient: false) }
        return title != "decline me"
    }
}

/// A store engine's error, as an adapter's own error type reports one.
struct EngineFailure: SwiftModelError {
    let transient: Bool
    var description: String { transient ? "connection lost" : "value out of range for note" }
    var columnName: String? { transient ? nil : "note" }
    var isTransient: Bool { transient }
    var isInvalidValue: Bool { !transient }
}

final class SrvItem: Model {
    @Column var text: String = ""
    @BelongsTo var srvTodo: SrvTodo?
    init() {}
}

/// The header of a JSON body.
let jsonType = [(name: "Content-Type", value: "application/json")]

/// A served store with todos and their items (nested under their todo, shallow).
struct ServerFixture {
    let store: ArrayAdapter
    let resources: ModelResources

    init(_ configure: (inout ModelResources.Configuration) -> Void = { _ in }, options: ResourceOptions = ResourceOptions()) throws {
        store = ArrayAdapter()
        var configuration = ModelResources.Configuration()
        configure(&configuration)
        var resources = ModelResources(store: store, configuration: configuration)
        try resources.register(SrvTodo.self, options: options)
        try resources.register(SrvItem.self, RESTResource(nestedUnder: "srvTodo"))
        self.resources = resources
    }

    /// A fixture serving `resources` from `store`.
    init(store: ArrayAdapter, resources: ModelResources) {
        self.store = store
        self.resources = resources
    }

    /// Sends a request; `body` is JSON text.
    func send(_ method: String, _ target: String, _ body: String? = nil, headers: [(name: String, value: String)] = [])
        async -> ResourceResponse
    {
        let typed = body == nil || headers.contains { $0.name.lowercased() == "content-type" } ? headers : headers + jsonType
        return await resources.respond(to: ResourceRequest(method: method, target: target, headers: typed, body: Data((body ?? "").utf8)))
    }

    /// Creates a todo through the API and returns its id.
    func todo(_ title: String, priority: Int = 0, headers: [(name: String, value: String)] = []) async throws -> Int64 {
        let response = await send("POST", "/srv_todos", #"{"title":"\#(title)","priority":\#(priority)}"#, headers: headers)
        #expect(response.status == 201, "\(response.text)")
        guard case .int(let id) = response.json["id"] ?? .null else { throw ResourceError(status: 0, code: "no id", message: response.text) }
        return id
    }
}

extension ResourceResponse {
    var text: String { String(decoding: body, as: UTF8.self) }
    var json: ModelValue { (try? ModelJSON.parse(text)) ?? .null }
    /// The error code of an error body.
    var code: String? {
        guard case .dictionary(let outer) = json, case .dictionary(let error) = outer["error"] ?? .null,
            case .string(let code) = error["code"] ?? .null
        else { return nil }
        return code
    }
    /// The per-field messages of an error body.
    var fields: [String: ModelValue] {
        guard case .dictionary(let outer) = json, case .dictionary(let error) = outer["error"] ?? .null,
            case .dictionary(let fields) = error["fields"] ?? .null
        else { return [:] }
        return fields
    }
}

extension ModelValue {
    subscript(key: String) -> ModelValue? {
        guard case .dictionary(let d) = self else { return nil }
        return d[key]
    }
    var count: Int {
        if case .array(let a) = self { return a.count }
        return 0
    }
}
