import Foundation
import RESTAdapter
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A member whose handle the server keeps unique.
final class Handle: Model {
    static var tableName: String { "members" }
    @Column var handle: String = ""
    init() {}
}

/// How servers we did not write refuse a repeated value, served by Python's `http.server`
/// (not our socket code, not our resource logic): RFC 7807 `application/problem+json`
/// and an HTML error page with 409, and the 422 that Rails-style APIs send for any
/// validation failure. A 409 is a `.uniqueViolation`; a 422 is not guessed at.
@Suite struct RESTConflictConventionTests {
    /// Serves `/<convention>/members` on a free loopback port; exits by itself after 120 s.
    static let script = #"""
        import json, sys, threading
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
        taken = {}
        lock = threading.Lock()
        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args): pass
            def send(self, status, kind, body):
                data = body.encode()
                self.send_response(status)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
            def do_POST(self):
                convention = self.path.split("/")[1]
                record = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                with lock:
                    seen = taken.setdefault(convention, {})
                    if record["handle"] in seen:
                        if convention == "problem":
                            return self.send(409, "application/problem+json", json.dumps({
                                "type": "https://example.org/problems/taken", "title": "Conflict", "status": 409,
                                "detail": "handle is taken"}))
                        if convention == "html":
                            return self.send(409, "text/html; charset=utf-8", "<html><body><h1>409 Conflict</h1></body></html>")
                        return self.send(422, "application/json", json.dumps({"errors": {"handle": ["has already been taken"]}}))
                    record["id"] = len(seen) + 1
                    seen[record["handle"]] = record
                self.send(201, "application/json", json.dumps(record))
        server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        print(server.server_address[1], flush=True)
        threading.Timer(120, server.shutdown).start()
        server.serve_forever()
        """#

    /// Starts the server; returns its base URL and the process to stop.
    static func start() throws -> (URL, PythonServer) {
        let server = try PythonServer(script)
        return (server.url(), server)
    }

    @Test func a409InAnyFormatIsAUniqueViolationAndA422IsNotGuessedAt() throws {
        let (base, process) = try Self.start()
        defer { process.stop() }
        for convention in ["problem", "html", "rails"] {
            var configuration = RESTConfiguration()
            configuration.retry = .none
            let api = RESTAdapter(baseURL: base.appendingPathComponent(convention), configuration: configuration)
            try Handle.create(["handle": "ann"], in: api)
            let thrown = #expect(throws: (any Error).self, "\(convention)") { try Handle.create(["handle": "ann"], in: api) }
            let rest: RESTError?
            if convention == "rails" {
                #expect(!(thrown is StoreError), "a 422 is any validation failure: left as the server's error")
                rest = thrown as? RESTError
                #expect(rest?.status == 422)
                #expect(rest?.body != nil, "the JSON body is kept")
            } else {
                let store = thrown as? StoreError
                #expect(store?.kind == .uniqueViolation && store?.table == "members" && store?.column == nil, "\(convention)")
                rest = store?.underlying as? RESTError
                #expect(rest?.status == 409, "\(convention)")
            }
            if convention == "problem", case .dictionary(let problem)? = rest?.body {
                #expect(problem["detail"] == "handle is taken", "problem+json is read as JSON")
            } else if convention == "problem" {
                Issue.record("the problem+json body was not decoded: \(String(describing: rest))")
            }
            if convention == "html" { #expect(rest?.text?.contains("409 Conflict") == true, "an HTML page is kept as text") }
        }
    }

    @Test func closeLeavesASessionTheCallerPassedUsable() throws {
        let (base, process) = try Self.start()
        defer { process.stop() }
        let session = URLSession(configuration: .ephemeral)
        let api = RESTAdapter(baseURL: base.appendingPathComponent("problem"), session: session)
        try Handle.create(["handle": "bob"], in: api)
        try api.close()
        #expect(throws: StoreError.self) { try Handle.create(["handle": "carol"], in: api) }
        // The caller's session still works: the adapter did not invalidate it.
        var request = URLRequest(url: base.appendingPathComponent("problem/members"))
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(#"{"handle": "dan"}"#.utf8)
        let done = DispatchSemaphore(value: 0)
        let status = Locked<Int?>(nil)
        session.dataTask(with: request) { _, response, _ in
            status.withLock { $0 = (response as? HTTPURLResponse)?.statusCode }
            done.signal()
        }.resume()
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(status.withLock { $0 } == 201)
        session.finishTasksAndInvalidate()
    }
}
