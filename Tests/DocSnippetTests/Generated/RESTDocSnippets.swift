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

// Docs/REST.md, snippet 2 (line 137)
final class RESTDoc_Note: Model {
    @Column var title: String = ""
    @Column var updatedAt: Date?
    init() {}
}

// Docs/REST.md, snippet 3 (line 181)
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

    /// Docs/REST.md, snippet 2 (line 137).
    static func snippet2(_ context: Context) throws {


        let server = try RESTTestServer()                      // in-process, loopback
        defer { server.stop() }
        show(server.seed("notes", [["title": "from the server"]]))

        let sync = RESTSync(remote: RESTAdapter(baseURL: server.baseURL), local: try SQLiteAdapter())
        try show(sync.track(RESTDoc_Note.self))
        let pulled = try sync.pull(RESTDoc_Note.self, policy: .newestWins)    // inserted 1
        let draft = try RESTDoc_Note.create(["title": "written offline"], in: sync.store)  // journaled
        try show(sync.pendingChanges())                                     // 1
        let pushed = try sync.push()                                  // POST /notes; draft takes the server's id
        show(server, sync, pulled, draft, pushed)
    }

    /// Docs/REST.md, snippet 3 (line 181).
    static func snippet3(_ context: Context) throws {
        _ = context

    }
}

@Suite("Docs/REST.md snippets") struct RESTDocSnippetTests {
    @Test func snippet1() throws { try privately { try RESTDoc.withContext { try RESTDoc.snippet1($0) } } }
    @Test func snippet2() throws { try privately { try RESTDoc.withContext { try RESTDoc.snippet2($0) } } }
    @Test func snippet3() throws { try privately { try RESTDoc.withContext { try RESTDoc.snippet3($0) } } }
}
