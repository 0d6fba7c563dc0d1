import Foundation
import ModelServer
import SQLiteAdapter
import TestSupport
import Testing

/// Create, read, update and delete through the resource core: status codes, headers,
/// PATCH and PUT semantics, ETags and If-Match, Idempotency-Key, nested routes and delete
/// rules — all through the model layer.
@Suite struct ResourceCRUDTests {
    @Test func aRecordGoesThroughItsWholeLife() async throws {
        let fixture = try ServerFixture()
        let created = await fixture.send("POST", "/srv_todos", #"{"title":"walk","priority":2,"note":"park"}"#)
        #expect(created.status == 201, "\(created.text)")
        #expect(created.header("Location") == "/srv_todos/1")
        #expect(created.json["created_at"]?.isNull == false)  // timestamps run
        let tag = try #require(created.header("ETag"))
        let read = await fixture.send("GET", "/srv_todos/1")
        #expect(read.status == 200 && read.header("ETag") == tag && read.json == created.json)
        #expect(await fixture.send("GET", "/srv_todos/1", headers: [("If-None-Match", tag)]).status == 304)
        // PATCH changes only the keys sent; null clears.
        let patched = await fixture.send("PATCH", "/srv_todos/1", #"{"done":true,"note":null}"#)
        #expect(patched.status == 200, "\(patched.text)")
        #expect(patched.json["title"] == "walk" && patched.json["done"] == true && patched.json["note"] == .null)
        #expect(patched.json["priority"] == 2 && patched.header("ETag") != tag)
        // PUT replaces: what is not sent takes its default.
        let put = await fixture.send("PUT", "/srv_todos/1", #"{"title":"run"}"#)
        #expect(put.status == 200 && put.json["priority"] == 0 && put.json["done"] == false && put.json["title"] == "run")
        #expect(await fixture.send("DELETE", "/srv_todos/1").status == 204)
        let gone = await fixture.send("GET", "/srv_todos/1")
        #expect(gone.status == 404 && gone.code == "not_found")
        #expect(await fixture.send("DELETE", "/srv_todos/1").status == 404)
        #expect(try await SrvTodo.count(in: fixture.store) == 0)
    }

    @Test func aStaleIfMatchIsA412AndWritesNothing() async throws {
        let fixture = try ServerFixture()
        let id = try await fixture.todo("walk")
        let tag = try #require(await fixture.send("GET", "/srv_todos/\(id)").header("ETag"))
        let first = await fixture.send("PATCH", "/srv_todos/\(id)", #"{"priority":3}"#, headers: [("If-Match", tag)])
        #expect(first.status == 200)
        let stale = await fixture.send("PATCH", "/srv_todos/\(id)", #"{"priority":4}"#, headers: [("If-Match", tag)])
        #expect(stale.status == 412 && stale.code == "precondition_failed")
        #expect(stale.header("ETag") == first.header("ETag"))
        #expect(try await SrvTodo.find(id, in: fixture.store)?.priority == 3)
        let weak = await fixture.send("DELETE", "/srv_todos/\(id)", headers: [("If-Match", "W/" + (first.header("ETag") ?? ""))])
        #expect(weak.status == 412)  // If-Match compares strongly
        #expect(await fixture.send("DELETE", "/srv_todos/\(id)", headers: [("If-Match", stale.header("ETag") ?? "")]).status == 204)
    }

    @Test func aRepeatedIdempotencyKeyReplaysTheFirstResponse() async throws {
        let fixture = try ServerFixture()
        let key: [(name: String, value: String)] = [("Idempotency-Key", "k-1")]
        let first = await fixture.send("POST", "/srv_todos", #"{"title":"once"}"#, headers: key)
        let again = await fixture.send("POST", "/srv_todos", #"{"title":"once"}"#, headers: key)
        #expect(first.status == 201 && again.status == 201 && again.body == first.body)
        #expect(again.header("Idempotent-Replayed") == "true")
        #expect(try await SrvTodo.count(in: fixture.store) == 1)
        let reused = await fixture.send("POST", "/srv_todos", #"{"title":"other"}"#, headers: key)
        #expect(reused.status == 422 && reused.code == "idempotency_key_reused")
        // Another user's same key is another request.
        let other = await fixture.send("POST", "/srv_todos", #"{"title":"once"}"#, headers: key + [("Authorization", "Bearer b")])
        #expect(other.status == 201 && other.json["id"] == 2)
        // A refused request writes nothing and is not remembered: the retry is refused again.
        let invalid = await fixture.send("POST", "/srv_todos", #"{"title":""}"#, headers: [("Idempotency-Key", "k-2")])
        let invalidAgain = await fixture.send("POST", "/srv_todos", #"{"title":""}"#, headers: [("Idempotency-Key", "k-2")])
        #expect(invalid.status == 422 && invalidAgain.status == 422 && invalidAgain.header("Idempotent-Replayed") == nil)
    }

    @Test func idempotencyKeysLiveInTheStoreAndSurviveARestart() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("idem-\(UUID()).sqlite").path
        defer { try? removeSQLiteFiles(at: path) }
        let key: [(name: String, value: String)] = [("Idempotency-Key", "order-7")] + jsonType
        var first = ModelResources(store: try SQLiteAdapter(path: path))
        try first.register(SrvTodo.self)
        let created = await first.respond(to: ResourceRequest(method: "POST", target: "/srv_todos", headers: key, body: Data(#"{"title":"once"}"#.utf8)))
        #expect(created.status == 201)
        try first.store.close()
        // A new process on the same file: the retry is answered from the store.
        var second = ModelResources(store: try SQLiteAdapter(path: path))
        try second.register(SrvTodo.self)
        let retried = await second.respond(to: ResourceRequest(method: "POST", target: "/srv_todos", headers: key, body: Data(#"{"title":"once"}"#.utf8)))
        #expect(retried.status == 201 && retried.body == created.body && retried.header("Location") == created.header("Location"))
        #expect(try await SrvTodo.count(in: second.store) == 1)
        try second.store.close()
    }

    @Test func nestedRoutesFixTheOwnerAndCheckIt() async throws {
        let fixture = try ServerFixture()
        let a = try await fixture.todo("a")
        let b = try await fixture.todo("b")
        let item = await fixture.send("POST", "/srv_todos/\(a)/srv_items", #"{"text":"first"}"#)
        #expect(item.status == 201 && item.json["srv_todo_id"] == .int(a), "\(item.text)")
        #expect(item.header("Location") == "/srv_todos/\(a)/srv_items/1")
        _ = await fixture.send("POST", "/srv_todos/\(b)/srv_items", #"{"text":"second"}"#)
        let listed = await fixture.send("GET", "/srv_todos/\(a)/srv_items")
        #expect(listed.json.count == 1 && listed.header("X-Total-Count") == "1")
        #expect(await fixture.send("GET", "/srv_todos/\(b)/srv_items/1").status == 404)  // item 1 is a's
        #expect(await fixture.send("GET", "/srv_items/1").status == 200)  // shallow
        let contradicting = await fixture.send("POST", "/srv_todos/\(a)/srv_items", #"{"text":"x","srv_todo_id":\#(b)}"#)
        #expect(contradicting.status == 422 && contradicting.code == "conflict")
        let noOwner = await fixture.send("POST", "/srv_todos/99/srv_items", #"{"text":"x"}"#)
        #expect(noOwner.status == 404 && noOwner.text.contains("SrvTodo"))
        // Delete rules run: destroying a todo destroys its items.
        #expect(await fixture.send("DELETE", "/srv_todos/\(a)").status == 204)
        #expect(try await SrvItem.count(in: fixture.store) == 1)
    }

    @Test func writesRunValidationsAndHooksAndAnswer422PerField() async throws {
        let fixture = try ServerFixture()
        let invalid = await fixture.send("POST", "/srv_todos", #"{"title":"","priority":9}"#)
        #expect(invalid.status == 422 && invalid.code == "invalid", "\(invalid.text)")
        #expect(invalid.fields["title"]?.count == 1 && invalid.fields["priority"]?.count == 1)
        let declined = await fixture.send("POST", "/srv_todos", #"{"title":"decline me"}"#)
        #expect(declined.status == 409 && declined.code == "declined")
        #expect(try await SrvTodo.count(in: fixture.store) == 0)
        let id = try await fixture.todo("fine")
        let badUpdate = await fixture.send("PATCH", "/srv_todos/\(id)", #"{"title":""}"#)
        #expect(badUpdate.status == 422 && badUpdate.fields["title"] != nil)
        #expect(try await SrvTodo.find(id, in: fixture.store)?.title == "fine")
    }

    @Test func eachRequestCanRunInAContextOfItsOwn() async throws {
        let plain = try ServerFixture()
        _ = try await plain.todo("no context")
        let scoped = try ServerFixture { $0.requestContext = true }
        _ = try await scoped.todo("in a context")
        #expect(SrvTodo.sawContext.withLock { [$0["no context"], $0["in a context"]] } == [false, true])
    }
}
