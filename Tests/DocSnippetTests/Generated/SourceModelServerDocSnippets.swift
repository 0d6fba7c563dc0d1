// Generated from the `///` comments of Sources/ModelServer by Scripts/doc-snippets.py: do not edit;
// edit the comments and rerun. Compiled, not run.
// swift-format-ignore-file

@testable import ModelServer
import ArrayAdapter
import FileAdapter
import Foundation
import PostgresAdapter
import RESTAdapter
import SQLiteAdapter
import Testing

extension SourceModelServerDoc {
    /// Sources/ModelServer/HTTP/ResourceRequest.swift, snippet 1.
    static func ResourceRequest1(_ given: Context) async throws {
        let resources = given.resources
        let request = ResourceRequest(method: "GET", target: "/todos?done=false&sort=-due")
        let response = await resources.respond(to: request)
        show(request, response)
    }

    /// Sources/ModelServer/Serving/ModelResources.swift, snippet 1.
    static func ModelResources1(_ given: Context) async throws {
        var resources = ModelResources(store: try SQLiteAdapter(path: "todos.sqlite"))
        try show(resources.register(SourceDoc_Todo.self))
        try show(resources.register(SourceDoc_Assignee.self, RESTResource(nestedUnder: "todo")))
        let response = await resources.respond(to: ResourceRequest(method: "GET", target: "/todos?done=false"))
        show(resources, response)
    }
}
