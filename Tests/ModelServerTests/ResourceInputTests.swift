import ArrayAdapter
import Foundation
@testable import ModelServer
import TestSupport
import Testing

/// Bad input is a typed 4xx naming what is wrong, and leaves the store untouched.
@Suite struct ResourceInputTests {
    @Test(arguments: [
        (#"{"title":"x""#, 400, "malformed_json"), ("[1,2]", 422, "not_an_object"), ("", 400, "empty_body"),
        (#"{"title":"x","colour":"red"}"#, 422, "unknown_key"), (#"{"title":"x","priority":"high"}"#, 422, "wrong_type"),
        // A JSON value of another kind is refused, never cast: not "5", not true from "true".
        (#"{"title":5}"#, 422, "wrong_type"), (#"{"title":"x","done":"true"}"#, 422, "wrong_type"),
        (#"{"title":"x","done":1}"#, 422, "wrong_type"), (#"{"title":"x","priority":"3"}"#, 422, "wrong_type"),
        (#"{"title":"x","priority":2.5}"#, 422, "wrong_type"), (#"{"title":["x"]}"#, 422, "wrong_type"),
    ])
    func badBodiesAreTyped4xxs(body: String, status: Int, code: String) async throws {
        let fixture = try ServerFixture()
        let response = await fixture.send("POST", "/srv_todos", body)
        #expect(response.status == status && response.code == code, "\(body): \(response.text)")
        #expect(try await SrvTodo.count(in: fixture.store) == 0)
    }

    @Test func fieldsNameTheKeyAtFault() async throws {
        let fixture = try ServerFixture()
        let response = await fixture.send("POST", "/srv_todos", #"{"title":"x","priority":"high","colour":1}"#)
        #expect(response.status == 422 && Set(response.fields.keys) == ["priority", "colour"], "\(response.text)")
    }

    @Test func oversizedBodiesAndWrongMethodsAndUnknownRoutesAreRefused() async throws {
        let fixture = try ServerFixture { $0.maxBodyBytes = 64 }
        let big = await fixture.send("POST", "/srv_todos", #"{"title":"\#(String(repeating: "x", count: 100))"}"#)
        #expect(big.status == 413 && big.code == "body_too_large")
        let method = await fixture.send("POST", "/srv_todos/1", "{}")
        #expect(method.status == 405 && method.header("Allow") == "GET, HEAD, PATCH, PUT, DELETE")
        #expect(await fixture.send("GET", "/nothing/here").status == 404)
        #expect(await fixture.send("GET", "/srv_todos/not-a-number").status == 404)
        var options = ResourceOptions()
        options.operations = [.list, .read]
        let readOnly = try ServerFixture(options: options)
        let refused = await readOnly.send("DELETE", "/srv_todos/1")
        #expect(refused.status == 405 && refused.header("Allow") == "GET, HEAD")
    }

    @Test func anUpdateCannotChangeTheIdOrAReadOnlyValue() async throws {
        let fixture = try ServerFixture()
        let id = try await fixture.todo("walk")
        let stored = await fixture.send("GET", "/srv_todos/\(id)")
        // Echoing the stored object back (read-only values unchanged) is fine.
        let echoed = await fixture.send("PUT", "/srv_todos/\(id)", stored.text)
        #expect(echoed.status == 200, "\(echoed.text)")
        let moved = await fixture.send("PATCH", "/srv_todos/\(id)", #"{"id":99}"#)
        #expect(moved.status == 422 && moved.code == "read_only")
        // Timestamps are the server's: values sent for them are dropped.
        let stamped = await fixture.send("PATCH", "/srv_todos/\(id)", #"{"created_at":"1999-01-01T00:00:00Z"}"#)
        #expect(stamped.status == 200 && stamped.json["created_at"] == stored.json["created_at"])
        let created = await fixture.send("POST", "/srv_todos", #"{"title":"y","created_at":"1999-01-01T00:00:00Z"}"#)
        #expect(created.status == 201 && created.json["created_at"] != "1999-01-01T00:00:00.000Z")
        var options = ResourceOptions()
        options.readOnlyColumns = ["note"]
        let strict = try ServerFixture(options: options)
        let noted = await strict.send("POST", "/srv_todos", #"{"title":"x","note":"mine"}"#)
        #expect(noted.status == 422 && noted.code == "read_only" && noted.fields["note"] != nil)
        options = ResourceOptions()
        options.patchNull = .ignored
        let lenient = try ServerFixture(options: options)
        let kept = try await lenient.todo("keep")
        let patched = await lenient.send("PATCH", "/srv_todos/\(kept)", #"{"title":null,"done":true}"#)
        #expect(patched.status == 200 && patched.json["title"] == "keep" && patched.json["done"] == true)
    }

    @Test func engineErrorsMapByWhatTheySay() async throws {
        let fixture = try ServerFixture()
        let transient = await fixture.send("POST", "/srv_todos", #"{"title":"fail:transient"}"#)
        #expect(transient.status == 503 && transient.header("Retry-After") == "1" && !transient.text.contains("connection lost"))
        let value = await fixture.send("POST", "/srv_todos", #"{"title":"fail:value"}"#)
        #expect(value.status == 422 && value.code == "invalid_value" && value.fields["note"] != nil, "\(value.text)")
        #expect(try await SrvTodo.count(in: fixture.store) == 0)
        // The engine's own text reaches the log, never the client.
        #expect(!value.text.contains("out of range") && value.text.contains("SrvTodo"), "\(value.text)")
        let engineText = #"UNIQUE constraint failed: srv_todos.title (INSERT INTO "srv_todos" …)"#
        let unique = StoreError(.uniqueViolation, table: "srv_todos", column: "title", message: engineText)
        let (answer, logged) = withLogCapture { capture in
            ModelLog.setLevel(.info, for: "server")
            return (ResourceFailure.error(from: unique, codec: nil), capture.records.map(\.message))
        }
        #expect(answer.status == 409 && answer.fields["title"] != nil && !answer.message.contains("INSERT"), "\(answer)")
        #expect(logged.contains { $0.contains(engineText) && $0.contains("request failed") }, "\(logged)")
    }

    @Test func autoIncrementIdsAreTheServersUnlessTheResourceTakesClientIDs() async throws {
        // By default (`.automatic`) and with `.server`, a sent id is refused: one create of
        // Int64.max would otherwise exhaust the sequence for every later create.
        for resource in [RESTResource(), RESTResource(idAssignment: .server)] {
            let store = ArrayAdapter()
            var resources = ModelResources(store: store)
            try resources.register(SrvTodo.self, resource)
            for id in ["9223372036854775807", "7", "0", "-1"] {
                let refused = await resources.respond(
                    to: ResourceRequest(method: "POST", target: "/srv_todos", headers: jsonType, body: Data(#"{"id":\#(id),"title":"x"}"#.utf8)))
                #expect(refused.status == 422 && refused.code == "read_only" && refused.fields["id"] != nil, "\(id): \(refused.text)")
            }
            #expect(try await SrvTodo.count(in: store) == 0)
            let created = await resources.respond(
                to: ResourceRequest(method: "POST", target: "/srv_todos", headers: jsonType, body: Data(#"{"title":"x","id":null}"#.utf8)))
            #expect(created.status == 201 && created.json["id"] == 1)
        }
        // A resource that opts into client ids gets them checked.
        let store = ArrayAdapter()
        var resources = ModelResources(store: store)
        try resources.register(SrvTodo.self, RESTResource(idAssignment: .client))
        for id in ["9223372036854775807", "9007199254740992", "0", "-5"] {
            let refused = await resources.respond(
                to: ResourceRequest(method: "POST", target: "/srv_todos", headers: jsonType, body: Data(#"{"id":\#(id),"title":"x"}"#.utf8)))
            #expect(refused.status == 422 && refused.code == "invalid_id", "\(id): \(refused.text)")
        }
        let chosen = await resources.respond(
            to: ResourceRequest(method: "POST", target: "/srv_todos", headers: jsonType, body: Data(#"{"id":9007199254740991,"title":"x"}"#.utf8)))
        #expect(chosen.status == 201 && chosen.json["id"] == .int(9_007_199_254_740_991), "\(chosen.text)")
        let next = await resources.respond(to: ResourceRequest(method: "POST", target: "/srv_todos", headers: jsonType, body: Data(#"{"title":"y"}"#.utf8)))
        #expect(next.status == 201)
    }
}
