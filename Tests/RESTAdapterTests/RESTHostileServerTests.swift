import Foundation
import RESTAdapter
import SQLiteAdapter
import Testing

/// A team row served by the hostile server.
final class HostileTeam: Model {
    static var tableName: String { "teams" }
    @Column var name: String = ""
    init() {}
}

/// A hostile or broken server, written in Python: redirects and next-page links to another
/// origin (a second loopback port that logs what reaches it), slow pages, bodies too big
/// to hold, a gzip bomb, a flood of headers, repeated ids. Credentials stay with their
/// origin, the deadline bounds the whole call, and memory stays bounded.
@Suite(.serialized) struct RESTHostileServerTests {
    static let script = #"""
        import gzip, json, sys, threading, time
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
        seen = []
        lock = threading.Lock()
        bomb = gzip.compress(b"[" + b" " * (64 << 20) + b"]", 9)
        class Other(BaseHTTPRequestHandler):
            def log_message(self, *args): pass
            def answer(self):
                if self.path == "/log":
                    with lock: body = json.dumps(seen).encode()
                else:
                    length = int(self.headers.get("Content-Length") or 0)
                    if length: self.rfile.read(length)
                    with lock: seen.append({"method": self.command, "path": self.path,
                        "authorization": self.headers.get("Authorization"), "key": self.headers.get("X-Api-Key")})
                    body = json.dumps([{"id": 99, "name": "from elsewhere"}]).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
            do_GET = do_POST = do_PATCH = do_DELETE = answer
        other = ThreadingHTTPServer(("127.0.0.1", 0), Other)
        elsewhere = "http://127.0.0.1:%d" % other.server_address[1]
        class API(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            def log_message(self, *args): pass
            def json(self, value, headers=()):
                body = json.dumps(value).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                for name, val in headers: self.send_header(name, val)
                self.end_headers()
                self.wfile.write(body)
            def redirect(self, status, location):
                self.send_response(status)
                self.send_header("Location", location)
                self.send_header("Content-Length", "0")
                self.end_headers()
            def answer(self):
                length = int(self.headers.get("Content-Length") or 0)
                if length: self.rfile.read(length)
                mode = self.path.split("/")[1]
                query = self.path.split("?")[1] if "?" in self.path else ""
                if mode == "away": return self.redirect(302, elsewhere + "/teams")
                if mode == "away307": return self.redirect(307, elsewhere + "/teams")
                if mode == "same": return self.redirect(302, "/landed/teams")
                if mode == "landed":
                    return self.json([{"id": 1, "name": self.headers.get("Authorization") or "none"}])
                if mode == "encoding":
                    return self.json([{"id": 1, "name": self.headers.get("Accept-Encoding") or "none"}])
                if mode == "flood":
                    self.send_response(200)
                    try:
                        for n in range(300000): self.send_header("X-Pad-%d" % n, "p")
                        self.send_header("Content-Type", "application/json")
                        self.send_header("Content-Length", "2")
                        self.end_headers()
                        self.wfile.write(b"[]")
                    except OSError: pass
                    return
                if mode == "link":
                    return self.json([{"id": 1, "name": "here"}], [("Link", "<%s/teams?page=2>; rel=\"next\"" % elsewhere)])
                if mode == "slow":
                    page = int(query.split("=")[1]) if query.startswith("page=") else 1
                    time.sleep(0.4)
                    return self.json([{"id": page, "name": "page"}], [("Link", "</slow/teams?page=%d>; rel=\"next\"" % (page + 1))])
                if mode == "dups": return self.json([{"id": 1, "name": "a"}, {"id": 2, "name": "b"}, {"id": 1, "name": "c"}])
                if mode == "big":
                    self.send_response(200)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Transfer-Encoding", "chunked")
                    self.end_headers()
                    row = json.dumps({"id": 1, "name": "x" * 1000}).encode() + b","
                    try:
                        for n in range(20000):
                            chunk = b"[" + row * 63 if n == 0 else row * 64
                            self.wfile.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
                    except OSError: pass
                    return
                if mode == "declared":
                    self.send_response(200)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(1 << 30))
                    self.end_headers()
                    try: self.wfile.write(b"[" + b" " * 65536)
                    except OSError: pass
                    return
                if mode == "bomb":
                    self.send_response(200)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Encoding", "gzip")
                    self.send_header("Content-Length", str(len(bomb)))
                    self.end_headers()
                    try: self.wfile.write(bomb)
                    except OSError: pass
                    return
                if mode == "headers":
                    self.send_response(200)
                    for n in range(2000): self.send_header("X-Pad-%d" % n, "p" * 1000)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", "2")
                    self.end_headers()
                    try: self.wfile.write(b"[]")
                    except OSError: pass
                    return
                if mode == "error":
                    body = b"e" * (2 << 20)
                    self.send_response(500)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
                    return
                self.send_response(404)
                self.send_header("Content-Length", "0")
                self.end_headers()
            do_GET = do_POST = do_PATCH = do_DELETE = answer
        api = ThreadingHTTPServer(("127.0.0.1", 0), API)
        api.daemon_threads = other.daemon_threads = True
        print(api.server_address[1], other.server_address[1], flush=True)
        threading.Thread(target=other.serve_forever, daemon=True).start()
        threading.Timer(300, lambda: (api.shutdown(), other.shutdown())).start()
        api.serve_forever()
        """#

    let server: PythonServer

    init() throws { server = try PythonServer(Self.script) }

    /// An adapter on `mode`, with a token and a configured key that must never leave the origin.
    func api(_ mode: String, _ configure: (inout RESTConfiguration) -> Void = { _ in }) -> RESTAdapter {
        var configuration = RESTConfiguration()
        configuration.retry = .none
        configuration.tokenProvider = StaticToken("secret-token")
        configuration.headers["X-Api-Key"] = "secret-key"
        configure(&configuration)
        return RESTAdapter(baseURL: server.url().appendingPathComponent(mode), configuration: configuration)
    }

    /// What reached the other origin.
    func elsewhere() throws -> [[String: ModelValue]] {
        let text = String(decoding: try PythonServer.get(server.url(1).appendingPathComponent("log")), as: UTF8.self)
        guard case .array(let entries) = try ModelJSON.parse(text) else { return [] }
        return entries.compactMap { if case .dictionary(let entry) = $0 { entry } else { nil } }
    }

    func kind(of body: () throws -> Void) -> RESTError.Kind? {
        do {
            try body()
            return nil
        } catch {
            return (error as? RESTError)?.kind
        }
    }

    @Test func aRedirectToAnotherHostIsRefusedAndNothingIsSentThere() throws {
        defer { server.stop() }
        let adapter = api("away")
        #expect(kind { _ = try HostileTeam.all(in: adapter) } == .crossOrigin)
        #expect(kind { _ = try HostileTeam.create(["name": "x"], in: adapter) } == .crossOrigin)
        #expect(try elsewhere().isEmpty, "no request, so no token, reached the other origin")
    }

    @Test func aPushReplayedBy307ToAnotherHostIsRefused() throws {
        defer { server.stop() }
        let sync = RESTSync(remote: api("away307"), local: try SQLiteAdapter())
        try sync.track(HostileTeam.self)
        _ = try HostileTeam.create(["name": "offline"], in: sync.store)
        _ = try? sync.push()
        #expect(try sync.pendingChanges() == 1, "the change waits; it did not go elsewhere")
        #expect(try elsewhere().isEmpty)
    }

    @Test func aNextPageOnAnotherOriginIsRefusedAndItsRowsAreNotMerged() throws {
        defer { server.stop() }
        let sync = RESTSync(remote: api("link"), local: try SQLiteAdapter())
        #expect(throws: RESTError.self) { try sync.pull(HostileTeam.self) }
        #expect(try HostileTeam.all(in: sync.store).isEmpty, "the pull merged nothing")
        #expect(try elsewhere().isEmpty)
    }

    @Test func crossOriginLinksCanBeFollowedWithoutCredentials() throws {
        defer { server.stop() }
        let adapter = api("link") { $0.crossOrigin = .followWithoutCredentials }
        #expect(try HostileTeam.all(in: adapter).map(\.name) == ["here", "from elsewhere"])
        let reached = try elsewhere()
        #expect(reached.count == 1)
        #expect(reached.first?["authorization"] == .null && reached.first?["key"] == .null, "\(reached)")
    }

    @Test func aCrossOriginRedirectFollowedWithoutCredentialsCarriesNoneOfTheAdaptersHeaders() throws {
        defer { server.stop() }
        let adapter = api("away") { $0.crossOrigin = .followWithoutCredentials }
        #expect(try HostileTeam.all(in: adapter).map(\.name) == ["from elsewhere"])
        let reached = try elsewhere()
        #expect(reached.count == 1 && reached.first?["method"] == "GET", "\(reached)")
        #expect(reached.first?["authorization"] == .null && reached.first?["key"] == .null, "\(reached)")
    }

    @Test func aRedirectWithinTheOriginIsFollowedWithTheToken() throws {
        defer { server.stop() }
        #expect(try HostileTeam.all(in: api("same")).map(\.name) == ["Bearer secret-token"])
    }

    @Test func theDeadlineBoundsEveryPageOfAList() throws {
        defer { server.stop() }
        let adapter = api("slow") { $0.deadline = .seconds(1.5) }
        let start = ContinuousClock.now
        let thrown = #expect(throws: RESTError.self) { _ = try HostileTeam.all(in: adapter) }
        #expect(thrown?.kind == .timeout, "\(String(describing: thrown))")
        let took = ContinuousClock.now - start
        #expect(took < .seconds(15), "a 1.5 s deadline held the call for \(took)")  // room for a loaded runner
    }

    @Test func anOversizedBodyFailsAsItCrossesTheLimit() throws {
        defer { server.stop() }
        for mode in ["big", "declared", "bomb"] {
            // The limit, not a timeout, must end the call: the request timeout is raised so a
            // sanitizer build on a loaded runner (which reads 4 MiB of chunks in over 30 s) still
            // reaches it.
            let adapter = api(mode) {
                $0.maxResponseBytes = 4 << 20
                $0.requestTimeout = .seconds(180)
                $0.deadline = .seconds(240)
            }
            #expect(kind { _ = try HostileTeam.all(in: adapter) } == .responseTooLarge, "\(mode)")
        }
    }

    @Test func aFloodOfHeadersFailsWithAClearError() throws {
        defer { server.stop() }
        let thrown = #expect(throws: RESTError.self) { _ = try HostileTeam.all(in: api("headers")) }
        #expect(thrown?.kind == .transport || thrown?.kind == .invalidResponse, "\(String(describing: thrown))")
        #if canImport(FoundationNetworking)
            // libcurl's limit, named in the message rather than a bare "the request failed".
            #expect(thrown?.message.contains("response headers") == true, "\(String(describing: thrown))")
        #endif
    }

    /// 300,000 headers keep the URL loading system parsing for seconds; the call's deadline
    /// still ends the call on time (cancelling the transfer never waits for the parser).
    @Test func theDeadlineHoldsWhileHeadersArrive() throws {
        defer { server.stop() }
        let adapter = api("flood") { $0.deadline = .seconds(1) }
        let start = ContinuousClock.now
        let thrown = #expect(throws: RESTError.self) { _ = try HostileTeam.all(in: adapter) }
        let took = ContinuousClock.now - start
        #expect(thrown?.kind == .timeout || thrown?.kind == .transport, "\(String(describing: thrown))")
        #expect(took < .seconds(4), "a 1 s deadline held the call for \(took)")  // room for a loaded runner
    }

    /// Requests ask for uncompressed bodies: a compressed one inflates before any limit
    /// can apply, so one the server sends anyway is bounded by its declared length.
    @Test func requestsAskForUncompressedBodies() throws {
        defer { server.stop() }
        #expect(try HostileTeam.all(in: api("encoding")).map(\.name) == ["identity"])
        let thrown = #expect(throws: RESTError.self) { _ = try HostileTeam.all(in: api("bomb") { $0.maxResponseBytes = 4 << 20 }) }
        #expect(thrown?.kind == .responseTooLarge && thrown?.message.contains("Content-Encoding: gzip") == true, "\(String(describing: thrown))")
    }

    @Test func repeatedIdsInAListAreAnError() throws {
        defer { server.stop() }
        let thrown = #expect(throws: RESTError.self) { _ = try HostileTeam.all(in: api("dups")) }
        #expect(thrown?.kind == .invalidResponse && thrown?.message.contains("twice") == true)
    }

    @Test func aHugeErrorBodyIsKeptTruncated() throws {
        defer { server.stop() }
        let thrown = #expect(throws: RESTError.self) { _ = try HostileTeam.all(in: api("error")) }
        #expect(thrown?.status == 500 && thrown?.body == nil)
        #expect((thrown?.text?.count ?? .max) <= 1001)
    }
}
