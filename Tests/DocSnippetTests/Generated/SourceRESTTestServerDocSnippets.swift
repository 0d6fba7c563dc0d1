// Generated from the `///` comments of Sources/RESTTestServer by Scripts/doc-snippets.py: do not edit;
// edit the comments and rerun. Compiled, not run.
// swift-format-ignore-file

@testable import RESTTestServer
import ArrayAdapter
import FileAdapter
import Foundation
import PostgresAdapter
import RESTAdapter
import SQLiteAdapter
import Testing

enum SourceRESTTestServerDoc {
    struct Context {}
}

extension SourceRESTTestServerDoc {
    /// Sources/RESTTestServer/Resources/RESTTestServer.swift, snippet 1.
    static func RESTTestServer1(_ given: Context) throws {
        let server = try RESTTestServer()
        defer { server.stop() }
        show(server.inject(.status(503, retryAfter: "1")))      // the next request gets a 503
        let adapter = RESTAdapter(baseURL: server.baseURL)
        show(server, adapter)
    }
}
