import Foundation
import ModelServer
import Testing

/// A request reaches a record by one spelling only, writes only JSON, and a body says each
/// thing once: what a cache, a proxy's rules or a CSRF defence keys on means the same to us.
@Suite struct CanonicalRequestTests {
    @Test func onlyTheCanonicalPathNamesARecord() async throws {
        let fixture = try ServerFixture()
        let id = try await fixture.todo("walk")
        #expect(id == 1)
        #expect(await fixture.send("GET", "/srv_todos/1").status == 200)
        for path in ["/srv_todos/1.0", "/srv_todos/1e0", "/srv_todos/+1", "/srv_todos/%201", "/srv_todos/01", "//srv_todos/1", "/srv_todos//1"] {
            let response = await fixture.send("GET", path)
            #expect(response.status == 404, "\(path): \(response.status) \(response.text)")
            #expect(await fixture.send("DELETE", path).status == 404, "\(path)")
        }
        // Owner keys in nested paths too.
        #expect(await fixture.send("GET", "/srv_todos/1/srv_items").status == 200)
        #expect(await fixture.send("GET", "/srv_todos/1.0/srv_items").status == 404)
        #expect(try await SrvTodo.count(in: fixture.store) == 1)
    }

    @Test func anIdempotencyKeyIsKeptByResourceNotBySpelling() async throws {
        let fixture = try ServerFixture()
        let key = [(name: "Idempotency-Key", value: "k-slash")]
        let first = await fixture.send("POST", "/srv_todos", #"{"title":"once"}"#, headers: key)
        let again = await fixture.send("POST", "/srv_todos/", #"{"title":"once"}"#, headers: key)
        #expect(first.status == 201 && again.status == 201 && again.header("Idempotent-Replayed") == "true", "\(again.text)")
        #expect(try await SrvTodo.count(in: fixture.store) == 1)
        // A nested collection is a resource of its own: its owner is part of the key.
        _ = try await fixture.todo("other")
        let one = await fixture.send("POST", "/srv_todos/1/srv_items", #"{"text":"x"}"#, headers: key)
        let two = await fixture.send("POST", "/srv_todos/2/srv_items", #"{"text":"x"}"#, headers: key)
        #expect(one.status == 201 && two.status == 201 && two.header("Idempotent-Replayed") == nil)
    }

    @Test(arguments: [
        "text/plain", "text/plain; charset=utf-8", "multipart/form-data; boundary=x", "application/x-www-form-urlencoded", "",
        "application/jsonp", "text/json",
    ])
    func writesWithABodyThatIsNotJSONAre415(type: String) async throws {
        let fixture = try ServerFixture()
        let id = try await fixture.todo("keep")
        let headers = type.isEmpty ? [] : [(name: "Content-Type", value: type)]
        let request = { (method: String, target: String) in
            await fixture.resources.respond(
                to: ResourceRequest(method: method, target: target, headers: headers, body: Data(#"{"title":"forged"}"#.utf8)))
        }
        let created = await request("POST", "/srv_todos")
        #expect(created.status == 415 && created.code == "unsupported_media_type" && created.header("Accept") == "application/json")
        #expect(await request("PATCH", "/srv_todos/\(id)").status == 415)
        #expect(await request("PUT", "/srv_todos/\(id)").status == 415)
        #expect(try await SrvTodo.count(in: fixture.store) == 1)
        #expect(try await SrvTodo.find(id, in: fixture.store)?.title == "keep")
    }

    @Test(arguments: ["application/json", "application/json; charset=utf-8", "Application/JSON", "application/merge-patch+json"])
    func jsonTypesAreWritten(type: String) async throws {
        let fixture = try ServerFixture()
        let created = await fixture.send("POST", "/srv_todos", #"{"title":"x"}"#, headers: [("Content-Type", type)])
        #expect(created.status == 201, "\(type): \(created.text)")
    }

    @Test(arguments: [
        #"{"title":"a","title":"b"}"#, #"{"title":"a","\u0074itle":"b"}"#, #"{"title":"a","done":false,"title":"a"}"#,
        #"{"title":"a","note":{"k":1,"k":2}}"#,
    ])
    func aKeyNamedTwiceIsA400(body: String) async throws {
        let fixture = try ServerFixture()
        let response = await fixture.send("POST", "/srv_todos", body)
        #expect(response.status == 400 && response.code == "malformed_json" && response.text.contains("twice"), "\(body): \(response.text)")
        #expect(try await SrvTodo.count(in: fixture.store) == 0)
    }
}
