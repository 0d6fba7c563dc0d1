// Generated from Docs/Server.md by Scripts/doc-snippets.py: do not edit; edit the document and rerun.
// swift-format-ignore-file

import ArrayAdapter
import FileAdapter
import Foundation
import ModelServer
import RESTAdapter
import SQLiteAdapter
import Testing

// Docs/Server.md, snippet 1 (line 16)
final class ServerDoc_Todo: Model, Validatable {
    @Column var title: String = ""
    @Column var done: Bool = false
    @Column var ownerID: Int?
    @Column var createdAt: Date?
    @Column var updatedAt: Date?
    @HasMany(dependent: .destroy) var items: Children<ServerDoc_TodoItem>
    init() {}

    static func validations(_ v: inout Validations<ServerDoc_Todo>) {
        v.add(\.title, .presence, .length(...200))
    }
}

// Docs/Server.md, snippet 1 (line 16)
final class ServerDoc_TodoItem: Model {
    @Column var text: String = ""
    @BelongsTo var todo: ServerDoc_Todo?
    init() {}
}

// Docs/Server.md, snippet 3 (line 144)
func ServerDoc_userID(_ header: String) -> Int64? { header.hasPrefix("Bearer ") ? Int64(header.dropFirst(7)) : nil }

extension ServerDoc {
    /// Docs/Server.md, snippet 1 (line 16).
    static func snippet1(_ context: Context) async throws {



        var resources = ModelResources(store: try SQLiteAdapter())
        try show(resources.register(ServerDoc_Todo.self))                                   // /todos, /todos/:id
        try show(resources.register(ServerDoc_TodoItem.self, RESTResource(nestedUnder: "todo")))
        // /todos/:todo_id/todo_items[/:id], and /todo_items/:id (shallow)

        let response = await resources.respond(to: ResourceRequest(method: "POST", target: "/todos",
            headers: [("Content-Type", "application/json")], body: Data(#"{"title":"walk the dog"}"#.utf8)))
        show(response.status)                                                      // 201
        show(response.header("Location"))                                          // "/todos/1"
        show(resources, response)
    }

    /// Docs/Server.md, snippet 2 (line 98).
    static func snippet2(_ context: Context) async throws {
        let resources = context.resources
        let page = await resources.respond(to: ResourceRequest(method: "GET", target: "/todos?done=false&sort=-id&limit=20"))
        show(page.header("X-Total-Count"))
        show(page)
    }

    /// Docs/Server.md, snippet 3 (line 144).
    static func snippet3(_ context: Context) throws {
        /// The user a bearer token names (a real server checks a signature).

        var configuration = ModelResources.Configuration()
        configuration.authorize = { access in
            guard let user = access.request.header("Authorization").flatMap(ServerDoc_userID) else {
                return .deny(status: 401, message: "sign in first")
            }
            return access.schema.modelName == "ServerDoc_Todo" ? .scoped(["owner_id": .int(user)]) : .allow
        }
        var scoped = ModelResources(store: try SQLiteAdapter(), configuration: configuration)
        try show(scoped.register(ServerDoc_Todo.self))
        try show(scoped.register(ServerDoc_TodoItem.self, RESTResource(nestedUnder: "todo")))
        show(configuration, scoped)
    }

    /// Docs/Server.md, snippet 4 (line 216).
    static func snippet4(_ context: Context) async throws {

        let api = RESTAdapter(baseURL: URL(fileURLWithPath: "/").deletingLastPathComponent())  // your server's URL
        show(api.register(ServerDoc_TodoItem.self, RESTResource(nestedUnder: "todo")))       // the server's declaration
        let todo = try await ServerDoc_Todo.create(["title": "walk the dog"], in: api) // validated here, then there
        try show(await ServerDoc_TodoItem.create(["text": "leash", "todo_id": .int(todo.id ?? 0)], in: api))
        show(api, todo)
    }
}

@Suite("Docs/Server.md snippets") struct ServerDocSnippetTests {
    // snippet 1 is async: compiled only
    // snippet 2 is async: compiled only
    @Test func snippet3() throws { try privately { try ServerDoc.withContext { try ServerDoc.snippet3($0) } } }
    // snippet 4 is compiled only (marked compile-only in the document)
}
