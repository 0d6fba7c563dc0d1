import Foundation
import ModelServer
import Testing

/// The authorisation hook refuses requests or scopes them to rows, on every route —
/// nested ones through their owner.
@Suite struct ResourceAccessTests {
    /// `Authorization: User <n>` scopes todos to owner n; no header is a 401; user 0 may
    /// only read.
    static func fixture() throws -> ServerFixture {
        try ServerFixture { configuration in
            configuration.authorize = { access in
                guard let header = access.request.header("Authorization"), header.hasPrefix("User "),
                    let user = Int64(header.dropFirst(5))
                else { return .deny(status: 401, message: "who are you?") }
                if user == 0, access.operation != .list, access.operation != .read {
                    return .deny(status: 403, message: "read only")
                }
                return access.schema.modelName == "SrvTodo" ? .scoped(["owner_id": .int(user)]) : .allow
            }
        }
    }

    static func user(_ n: Int) -> [(name: String, value: String)] { [("Authorization", "User \(n)")] }

    @Test func scopesNarrowEveryRoute() async throws {
        let fixture = try Self.fixture()
        #expect(await fixture.send("GET", "/srv_todos").status == 401)
        let mine = try await fixture.todo("mine", headers: Self.user(1))
        let theirs = try await fixture.todo("theirs", headers: Self.user(2))
        #expect(try await SrvTodo.find(mine, in: fixture.store)?.ownerID == 1)  // a create gets the scope
        let listed = await fixture.send("GET", "/srv_todos", headers: Self.user(1))
        #expect(listed.json.count == 1 && listed.header("X-Total-Count") == "1")
        // Another user's rows do not exist for this one, whatever the route.
        #expect(await fixture.send("GET", "/srv_todos/\(theirs)", headers: Self.user(1)).status == 404)
        #expect(await fixture.send("PATCH", "/srv_todos/\(theirs)", #"{"done":true}"#, headers: Self.user(1)).status == 404)
        #expect(await fixture.send("DELETE", "/srv_todos/\(theirs)", headers: Self.user(1)).status == 404)
        #expect(await fixture.send("GET", "/srv_todos?owner_id=2", headers: Self.user(1)).json.count == 0)
        // Nested routes check the owner under its own scope.
        #expect(await fixture.send("POST", "/srv_todos/\(theirs)/srv_items", #"{"text":"x"}"#, headers: Self.user(1)).status == 404)
        #expect(await fixture.send("GET", "/srv_todos/\(theirs)/srv_items", headers: Self.user(1)).status == 404)
        #expect(await fixture.send("POST", "/srv_todos/\(mine)/srv_items", #"{"text":"x"}"#, headers: Self.user(1)).status == 201)
        #expect(try await SrvTodo.find(theirs, in: fixture.store)?.done == false)
    }

    @Test func aBodyCannotLeaveItsScope() async throws {
        let fixture = try Self.fixture()
        let planted = await fixture.send("POST", "/srv_todos", #"{"title":"x","owner_id":2}"#, headers: Self.user(1))
        #expect(planted.status == 403 && planted.code == "forbidden")
        let mine = try await fixture.todo("mine", headers: Self.user(1))
        let given = await fixture.send("PATCH", "/srv_todos/\(mine)", #"{"owner_id":2}"#, headers: Self.user(1))
        #expect(given.status == 403)
        #expect(try await SrvTodo.find(mine, in: fixture.store)?.ownerID == 1)
        // A create's null for the scoped column is "not sent": the scope fills it.
        let nulled = await fixture.send("POST", "/srv_todos", #"{"title":"x","owner_id":null}"#, headers: Self.user(1))
        #expect(nulled.status == 201 && nulled.json["owner_id"] == 1, "\(nulled.text)")
        let cleared = await fixture.send("PATCH", "/srv_todos/\(mine)", #"{"owner_id":null}"#, headers: Self.user(1))
        #expect(cleared.status == 403)
        let readOnly = await fixture.send("POST", "/srv_todos", #"{"title":"x"}"#, headers: Self.user(0))
        #expect(readOnly.status == 403 && readOnly.text.contains("read only"))
    }
}
