// Generated from the `///` comments of Sources/SwiftModelREST by Scripts/doc-snippets.py: do not edit;
// edit the comments and rerun. Compiled, not run.
// swift-format-ignore-file

@testable import SwiftModelREST
import ArrayAdapter
import FileAdapter
import Foundation
import PostgresAdapter
import RESTAdapter
import SQLiteAdapter
import Testing

extension SourceSwiftModelRESTDoc {
    /// Sources/SwiftModelREST/Adapter/RESTAdapter+Headers.swift, snippet 1.
    static func RESTAdapterHeaders1(_ given: Context) throws {
        let api = given.api
        let order = given.order
        try show(api.withHeaders(["Idempotency-Key": order.key]) { try order.save() })
    }

    /// Sources/SwiftModelREST/Adapter/RESTAdapter+Headers.swift, snippet 2.
    static func RESTAdapterHeaders2(_ given: Context) async throws {
        let api = given.api
        let order = given.order
        try show(await api.withHeaders(["Idempotency-Key": order.key]) { try await order.save() })
    }

    /// Sources/SwiftModelREST/Adapter/RESTAdapter.swift, snippet 1.
    static func RESTAdapter1(_ given: Context) throws {
        let api = RESTAdapter(baseURL: URL(string: "https://api.example.com")!)
        show(api.register(SourceDoc_Employee.self, RESTResource(nestedUnder: "company")))
        show(ModelStore.setDefault(api))
        let team = try SourceDoc_Team.find(7)                          // GET /teams/7 (nil on 404)
        let seniors = try SourceDoc_Employee.where(\.age > 60).all()   // GET /employees?age_gt=60
        show(api, team, seniors)
    }

    /// Sources/SwiftModelREST/Configuration/RESTConfiguration.swift, snippet 1.
    static func RESTConfiguration1(_ given: Context) throws {
        let auth = given.auth
        var configuration = RESTConfiguration()
        show(configuration.headers["X-Client"] = "ios-4.2")
        configuration.tokenProvider = RefreshingToken { try auth.freshToken() }
        configuration.deadline = .seconds(10)
        configuration.queryEncoder = ParseQueryEncoder()
        let api = RESTAdapter(baseURL: URL(string: "https://api.example.com/v1")!, configuration: configuration)
        show(configuration, api)
    }

    /// Sources/SwiftModelREST/Sync/RESTSync.swift, snippet 1.
    static func RESTSync1(_ given: Context) throws {
        let api = given.api
        let sync = RESTSync(remote: api, local: try SQLiteAdapter(path: "cache.sqlite"))
        try show(sync.track(SourceDoc_Todo.self))
        show(ModelStore.setDefault(sync.store))
        let report = try sync.pull(SourceDoc_Todo.self)               // inserted 12, updated 3, …
        try show(SourceDoc_Todo.create(["name": "offline edit"]))           // journaled
        try show(sync.push())                                     // POST /todos
        show(sync, report)
    }
}
