// Generated from Docs/REST.md by Scripts/doc-snippets.py: do not edit; edit the document and rerun.
// swift-format-ignore-file

import ArrayAdapter
import FileAdapter
import Foundation
import RESTAdapter
import RESTTestServer
import SQLiteAdapter
import Testing

// Docs/REST.md, snippet 1 (line 8)
final class RESTDoc_Company: Model {
    @Column var name: String = ""
    @HasMany(dependent: .destroy) var employees: Children<RESTDoc_Employee>
    init() {}
}

// Docs/REST.md, snippet 1 (line 8)
final class RESTDoc_Employee: Model {
    @Column var name: String = ""
    @Column var age: Int = 0
    @BelongsTo var company: RESTDoc_Company?
    init() {}
}

// Docs/REST.md, snippet 1 (line 8)
func RESTDoc_connect(to base: URL) -> RESTAdapter {
    var configuration = RESTConfiguration()
    configuration.headers["X-Client"] = "docs"
    configuration.deadline = .seconds(10)
    let api = RESTAdapter(baseURL: base, configuration: configuration)
    api.register(RESTDoc_Employee.self, RESTResource(nestedUnder: "company"))
    return api
}

// Docs/REST.md, snippet 2 (line 95)
func RESTDoc_listQuery(_ items: [URLQueryItem]) throws -> RESTListQuery {
    var limits = RESTQueryLimits()
    limits.pageSize = 200                       // `limit=500` is refused, not capped
    return try PlainQueryEncoder().decode(items, codec: try RowJSONCodec.codec(for: RESTDoc_Todo.schema), limits: limits)
}

// Docs/REST.md, snippet 3 (line 189)
final class RESTDoc_Note: Model {
    @Column var title: String = ""
    @Column var updatedAt: Date?
    init() {}
}

// Docs/REST.md, snippet 4 (line 257)
final class RESTDoc_Todo: Model {
    typealias IDValue = UUID
    @Column var title: String = ""
    @Column var completed: Bool = false
    @Column var url: String?
    @Column var updatedAt: Date?
    init() {}
}

// Docs/REST.md, snippet 4 (line 257)
func RESTDoc_todoAPI(token: String) -> RESTAdapter {
    var configuration = RESTConfiguration()
    configuration.tokenProvider = StaticToken(token)
    configuration.updateMethod = .patch                  // only changed columns are sent
    configuration.maxResponseBytes = 8 << 20             // refuse bodies over 8 MiB as they arrive
    configuration.crossOrigin = .refuse                  // the default: credentials stay home
    let api = RESTAdapter(baseURL: URL(string: "https://todo.example.com/api")!, configuration: configuration)
    var todos = RESTResource(
        idAssignment: .server,                           // the server makes the UUID; ours is local only
        readOnlyColumns: ["url", "updated_at"],          // set by the server, never sent
        notFoundStatuses: [404, 410],                    // "gone" is missing too
        querySupport: [.filter])                         // it filters, but ignores sort and paging
    todos.verifiesResults = true                         // the default: rows are checked against the query
    api.register(RESTDoc_Todo.self, todos)
    return api
}

// Docs/REST.md, snippet 5 (line 361)
final class RESTDoc_Task: Model {
    @Column var title: String = ""
    @Column var priority: Int = 0
    @Column var createdAt: Date?
    init() {}
}

// Docs/REST.md, snippet 5 (line 361)
func RESTDoc_djangoAPI(token: String) -> RESTAdapter {
    var configuration = RESTConfiguration()
    configuration.tokenProvider = StaticToken(token, scheme: "Token")  // Authorization: Token …
    configuration.listEnvelope = "results"                  // {"count", "next", "previous", "results"}
    configuration.queryEncoder = PlainQueryEncoder(
        operatorSuffixes: [.less: "__lt", .lessOrEqual: "__lte", .greater: "__gt", .greaterOrEqual: "__gte"],
        sortParameter: "ordering", paging: .none,          // pages come from the body's "next"
        lists: .joined(suffix: "__in", separator: ","))    // a BaseInFilter: priority__in=1,3
    let api = RESTAdapter(baseURL: URL(string: "https://tasks.example.com/api")!, configuration: configuration)
    api.register(RESTDoc_Task.self, RESTResource(
        collectionPath: "tasks/", instancePath: "tasks/:id/",  // Django's slashes (a slash-less write is a 301, re-sent)
        idAssignment: .server, readOnlyColumns: ["created_at"]))
    return api
}

// Docs/REST.md, snippet 6 (line 397)
final class RESTDoc_GameScore: Model {
    typealias IDValue = String
    @Column var playerName: String = ""
    @Column var score: Int = 0
    @Column var createdAt: Date?
    @Column var updatedAt: Date?
    init() {}

    static var jsonMapping: JSONMapping<RESTDoc_GameScore> { JSONMapping(keyCase: .lowerCamelCase).key("objectId", for: "id") }
}

// Docs/REST.md, snippet 6 (line 397)
func RESTDoc_parseAPI(appID: String) -> RESTAdapter {
    var configuration = RESTConfiguration()
    configuration.headers["X-Parse-Application-Id"] = appID
    configuration.updateMethod = .put                    // Parse updates with PUT
    configuration.listEnvelope = "results"               // lists only; objects come bare
    configuration.queryEncoder = ParseQueryEncoder()     // where={"score":{"$gt":10}}
    let api = RESTAdapter(baseURL: URL(string: "https://parse.example.com/parse/classes")!, configuration: configuration)
    api.register(RESTDoc_GameScore.self, RESTResource(collectionPath: "RESTDoc_GameScore", idAssignment: .server, readOnlyColumns: ["created_at", "updated_at"]))
    return api
}

// Docs/REST.md, snippet 7 (line 434)
func RESTDoc_flakyServer() throws -> RESTTestServer {
    let server = try RESTTestServer(options: .init(pageSize: 50))
    server.inject(.status(503, retryAfter: "1"))        // the next request
    server.inject(.delay(.seconds(2)), method: "GET")
    server.inject(.malformedJSON, pathPrefix: "/teams")
    server.inject(.dropConnectionMidBody, times: 2)
    return server
}

/// The context of Docs/REST.md's snippets: a fresh in-memory default store.
enum RESTDoc {
    struct Context {}

    static func withContext(_ body: (Context) throws -> Void) throws {
        try ModelStore.using(ArrayAdapter()) { try body(Context()) }
    }
}

extension RESTDoc {
    /// Docs/REST.md, snippet 1 (line 8).
    static func snippet1(_ context: Context) throws {
        _ = context



    }

    /// Docs/REST.md, snippet 2 (line 95).
    static func snippet2(_ context: Context) throws {
        _ = context

    }

    /// Docs/REST.md, snippet 3 (line 189).
    static func snippet3(_ context: Context) throws {


        let server = try RESTTestServer()                      // in-process, loopback
        defer { server.stop() }
        show(server.seed("notes", [["title": "from the server"]]))

        let sync = RESTSync(remote: RESTAdapter(baseURL: server.baseURL), local: try SQLiteAdapter())
        try show(sync.track(RESTDoc_Note.self))
        let pulled = try sync.pull(RESTDoc_Note.self)                         // inserted 1
        let draft = try RESTDoc_Note.create(["title": "written offline"], in: sync.store)  // journaled
        try show(sync.pendingChanges())                                     // 1
        let pushed = try sync.push()                                  // POST /notes; draft takes the server's id
        show(server, sync, pulled, draft, pushed)
    }

    /// Docs/REST.md, snippet 4 (line 257).
    static func snippet4(_ context: Context) throws {
        _ = context


    }

    /// Docs/REST.md, snippet 5 (line 361).
    static func snippet5(_ context: Context) throws {
        _ = context


    }

    /// Docs/REST.md, snippet 6 (line 397).
    static func snippet6(_ context: Context) throws {
        _ = context


    }

    /// Docs/REST.md, snippet 7 (line 434).
    static func snippet7(_ context: Context) throws {
        _ = context

    }
}

@Suite("Docs/REST.md snippets") struct RESTDocSnippetTests {
    @Test func snippet1() throws { try privately { try RESTDoc.withContext { try RESTDoc.snippet1($0) } } }
    @Test func snippet2() throws { try privately { try RESTDoc.withContext { try RESTDoc.snippet2($0) } } }
    @Test func snippet3() throws { try privately { try RESTDoc.withContext { try RESTDoc.snippet3($0) } } }
    @Test func snippet4() throws { try privately { try RESTDoc.withContext { try RESTDoc.snippet4($0) } } }
    @Test func snippet5() throws { try privately { try RESTDoc.withContext { try RESTDoc.snippet5($0) } } }
    @Test func snippet6() throws { try privately { try RESTDoc.withContext { try RESTDoc.snippet6($0) } } }
    @Test func snippet7() throws { try privately { try RESTDoc.withContext { try RESTDoc.snippet7($0) } } }
}
