import Foundation
import RESTAdapter
import Testing

/// Redirected writes as a Django API answers them (`APPEND_SLASH`: a slash-less URL is a
/// 301 to the same URL with a slash) and as RFC 9110 defines 303: a write is re-sent with
/// its method and body, never turned into a `GET` whose answer reads as the write's; and
/// routes declared with a trailing slash keep it.
@Suite(.serialized) struct RESTRedirectTests {
    static let script = #"""
        import json, threading
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
        seen = []
        lock = threading.Lock()
        names = {1: "stored"}
        class API(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            def log_message(self, *args): pass
            def send(self, status, value=None, headers=()):
                body = b"" if value is None else json.dumps(value).encode()
                self.send_response(status)
                if value is not None: self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                for name, val in headers: self.send_header(name, val)
                self.end_headers()
                self.wfile.write(body)
            def answer(self):
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b""
                path, _, query = self.path.partition("?")
                with lock: seen.append({"method": self.command, "path": self.path, "body": raw.decode()})
                if path == "/log":
                    with lock: return self.send(200, seen[:-1])
                mode = path.split("/")[1]
                if mode == "see-other" and self.command not in ("GET", "HEAD"):
                    if self.command == "PATCH": names[1] = json.loads(raw)["name"]
                    if self.command == "DELETE": names.pop(1, None)
                    return self.send(303, headers=[("Location", "/see-other/teams/1/")])
                if not path.endswith("/"):
                    return self.send(301, headers=[("Location", path + "/" + ("?" + query if query else ""))])
                parts = [p for p in path.split("/") if p]
                if len(parts) == 2:
                    if self.command == "POST":
                        names[2] = json.loads(raw)["name"]
                        return self.send(201, {"id": 2, "name": names[2]})
                    return self.send(200, [{"id": k, "name": v} for k, v in sorted(names.items())])
                key = int(parts[2])
                if key not in names: return self.send(404, {"detail": "Not found."})
                if self.command == "DELETE":
                    names.pop(key)
                    return self.send(204)
                if self.command in ("PATCH", "PUT"): names[key] = json.loads(raw)["name"]
                return self.send(200, {"id": key, "name": names[key]})
            do_GET = do_POST = do_PATCH = do_PUT = do_DELETE = answer
        api = ThreadingHTTPServer(("127.0.0.1", 0), API)
        api.daemon_threads = True
        print(api.server_address[1], flush=True)
        threading.Timer(300, api.shutdown).start()
        api.serve_forever()
        """#

    let server: PythonServer

    init() throws { server = try PythonServer(Self.script) }

    func api(_ mode: String, _ resource: RESTResource = RESTResource()) -> RESTAdapter {
        var configuration = RESTConfiguration()
        configuration.retry = .none
        let adapter = RESTAdapter(baseURL: server.url().appendingPathComponent(mode), configuration: configuration)
        adapter.register(HostileTeam.self, resource)
        return adapter
    }

    /// Method and path of every request the server saw, in order.
    func seen() throws -> [String] {
        let text = String(decoding: try PythonServer.get(server.url().appendingPathComponent("log")), as: UTF8.self)
        guard case .array(let entries) = try ModelJSON.parse(text) else { return [] }
        return entries.compactMap {
            guard case .dictionary(let entry) = $0, case .string(let method) = entry["method"] ?? .null,
                case .string(let path) = entry["path"] ?? .null
            else { return nil }
            return "\(method) \(path)"
        }
    }

    @Test func aWriteRedirectedBy301IsResentWithItsMethodAndBody() throws {
        defer { server.stop() }
        let adapter = api("django")
        let team = try #require(try HostileTeam.find(1, in: adapter))
        team.name = "renamed"
        try team.save()
        #expect(try HostileTeam.find(1, in: adapter)?.name == "renamed", "the update reached the server")
        let created = try HostileTeam.create(["name": "new"], in: adapter)
        #expect(created.id == 2)
        #expect(try team.delete() == true)
        #expect(try HostileTeam.find(1, in: adapter) == nil, "the delete reached the server")
        let log = try seen()
        #expect(log.contains("PATCH /django/teams/1/") && log.contains("POST /django/teams/") && log.contains("DELETE /django/teams/1/"), "\(log)")
    }

    @Test func a303AfterAWriteIsReadWithAGet() throws {
        defer { server.stop() }
        let adapter = api("see-other")
        let team = try #require(try HostileTeam.find(1, in: adapter))
        team.name = "seen"
        try team.save()
        #expect(team.name == "seen")
        #expect(try seen().suffix(2) == ["PATCH /see-other/teams/1", "GET /see-other/teams/1/"])
    }

    @Test func routesDeclaredWithATrailingSlashKeepIt() throws {
        defer { server.stop() }
        let adapter = api("django", RESTResource(collectionPath: "teams/", instancePath: "teams/:id/"))
        #expect(try HostileTeam.all(in: adapter).map(\.name) == ["stored"])
        let team = try #require(try HostileTeam.find(1, in: adapter))
        team.name = "direct"
        try team.save()
        #expect(try seen() == ["GET /django/teams/", "GET /django/teams/1/", "PATCH /django/teams/1/"], "no redirect was needed")
    }
}
