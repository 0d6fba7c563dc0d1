import Foundation
import RESTAdapter
import Testing

/// A row with a nullable sort key, for servers that order nulls their own way.
final class DueItem: Model {
    static var tableName: String { "items" }
    @Column var due: Int?
    init() {}
}

/// The result check accepts what a correct server answers, whichever database it runs on:
/// nulls first (SQLite) or last (PostgreSQL) — and still refuses an order that is wrong
/// either way.
@Suite(.serialized) struct RESTResultCheckTests {
    /// Answers `/<mode>/items` with the rows of that mode, in that order, whatever the query.
    static let script = #"""
        import json, threading
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
        rows = {
            "nulls-last": [1, 2, 3, None, None],      # PostgreSQL, ascending
            "nulls-first": [None, None, 1, 2, 3],     # SQLite, ascending
            "nulls-first-desc": [None, 3, 2, 1],      # PostgreSQL, descending
            "wrong": [2, 1, None, 3],
        }
        class API(BaseHTTPRequestHandler):
            def log_message(self, *args): pass
            def do_GET(self):
                mode = self.path.split("/")[1]
                body = json.dumps([{"id": k + 1, "due": due} for k, due in enumerate(rows.get(mode, []))]).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
        api = ThreadingHTTPServer(("127.0.0.1", 0), API)
        api.daemon_threads = True
        print(api.server_address[1], flush=True)
        threading.Timer(300, api.shutdown).start()
        api.serve_forever()
        """#

    let server: PythonServer
    init() throws { server = try PythonServer(Self.script) }

    func dues(_ mode: String, ascending: Bool = true) throws -> [Int?] {
        let adapter = RESTAdapter(baseURL: server.url().appendingPathComponent(mode))
        return try DueItem.query(in: adapter).order(by: "due", ascending ? .ascending : .descending).all().map(\.due)
    }

    @Test func nullsFirstOrLastAreBothTheServersCorrectOrder() throws {
        defer { server.stop() }
        #expect(try dues("nulls-last") == [1, 2, 3, nil, nil])
        #expect(try dues("nulls-first") == [nil, nil, 1, 2, 3])
        #expect(try dues("nulls-first-desc", ascending: false) == [nil, 3, 2, 1])
        let thrown = #expect(throws: RESTError.self) { _ = try dues("wrong") }
        #expect(thrown?.kind == .queryIgnored)
    }
}
