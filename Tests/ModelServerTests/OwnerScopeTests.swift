import ArrayAdapter
import Foundation
import ModelServer
import Testing

final class SrvStep: Model {
    @Column var text: String = ""
    @BelongsTo var srvItem: SrvItem?
    init() {}
}

/// An owner's scope covers every route to its children: the nested ones, and the shallow
/// flat ones (`/srv_items`, `/srv_items/:id`) that do not name the owner — two users, every
/// route, every method.
@Suite struct OwnerScopeTests {
    static let one = ResourceAccessTests.user(1)
    static let two = ResourceAccessTests.user(2)

    /// User 1's todo with one item, user 2's todo with one item: (todo 1, item 1, todo 2, item 2).
    static func seeded(_ fixture: ServerFixture) async throws -> (Int64, Int64, Int64, Int64) {
        let todo1 = try await fixture.todo("one's", headers: one)
        let todo2 = try await fixture.todo("two's", headers: two)
        func item(_ todo: Int64, _ headers: [(name: String, value: String)]) async throws -> Int64 {
            let response = await fixture.send("POST", "/srv_todos/\(todo)/srv_items", #"{"text":"item"}"#, headers: headers)
            #expect(response.status == 201, "\(response.text)")
            guard case .int(let id) = response.json["id"] ?? .null else { throw ResourceError(status: 0, code: "", message: response.text) }
            return id
        }
        return (todo1, try await item(todo1, one), todo2, try await item(todo2, two))
    }

    @Test func shallowRoutesSeeOnlyChildrenOfOwnersInScope() async throws {
        let fixture = try ResourceAccessTests.fixture()
        let (todo1, item1, todo2, item2) = try await Self.seeded(fixture)
        // Lists and counts.
        let listed = await fixture.send("GET", "/srv_items", headers: Self.two)
        #expect(listed.status == 200 && listed.json.count == 1 && listed.header("X-Total-Count") == "1", "\(listed.text)")
        #expect(listed.json.description.contains("\(item2)") && listed.json.count == 1)
        #expect(await fixture.send("GET", "/srv_items?srv_todo_id=\(todo1)", headers: Self.two).json.count == 0)
        #expect(await fixture.send("HEAD", "/srv_items", headers: Self.two).header("X-Total-Count") == "1")
        // One record, every method: another user's item does not exist.
        for (method, body) in [("GET", nil), ("HEAD", nil), ("PATCH", #"{"text":"mine now"}"#), ("PUT", #"{"text":"mine now"}"#), ("DELETE", nil)] {
            let response = await fixture.send(method, "/srv_items/\(item1)", body, headers: Self.two)
            #expect(response.status == 404, "\(method): \(response.text)")
        }
        // Creating into another user's todo, or moving an item there.
        let planted = await fixture.send("POST", "/srv_items", #"{"text":"x","srv_todo_id":\#(todo1)}"#, headers: Self.two)
        #expect(planted.status == 422 && planted.code == "unknown_owner" && planted.fields["srv_todo_id"] != nil, "\(planted.text)")
        let ownerless = await fixture.send("POST", "/srv_items", #"{"text":"x"}"#, headers: Self.two)
        #expect(ownerless.status == 422 && ownerless.code == "unknown_owner")
        let missing = await fixture.send("POST", "/srv_items", #"{"text":"x","srv_todo_id":999}"#, headers: Self.two)
        #expect(missing.status == 422 && missing.text == planted.text)  // the same answer: nothing is revealed
        let moved = await fixture.send("PATCH", "/srv_items/\(item2)", #"{"srv_todo_id":\#(todo1)}"#, headers: Self.two)
        #expect(moved.status == 422 && moved.code == "unknown_owner")
        // Nested routes that mix one user's owner with another's child.
        #expect(await fixture.send("GET", "/srv_todos/\(todo2)/srv_items/\(item1)", headers: Self.two).status == 404)
        #expect(await fixture.send("DELETE", "/srv_todos/\(todo1)/srv_items/\(item1)", headers: Self.two).status == 404)
        // Nothing of user 1's changed; user 2's own item is served on every route.
        let kept = try #require(try await SrvItem.find(item1, in: fixture.store))
        let stillOnes = try await SrvItem.where("srv_todo_id").eq(.int(todo1)).using(fixture.store).count()
        let count = try await SrvItem.count(in: fixture.store)
        #expect(kept.text == "item" && stillOnes == 1 && count == 2)
        #expect(await fixture.send("PATCH", "/srv_items/\(item2)", #"{"text":"edited"}"#, headers: Self.two).status == 200)
        #expect(await fixture.send("POST", "/srv_items", #"{"text":"y","srv_todo_id":\#(todo2)}"#, headers: Self.two).status == 201)
        #expect(await fixture.send("DELETE", "/srv_items/\(item2)", headers: Self.two).status == 204)
        #expect(await fixture.send("GET", "/srv_items", headers: Self.one).json.count == 1)
    }

    @Test func aScopeReachesDownAChainOfNestedResources() async throws {
        let store = ArrayAdapter()
        var configuration = ModelResources.Configuration()
        configuration.authorize = { access in
            guard let header = access.request.header("Authorization"), let user = Int64(header.dropFirst(5)) else {
                return .deny(status: 401, message: "who are you?")
            }
            return access.schema.modelName == "SrvTodo" ? .scoped(["owner_id": .int(user)]) : .allow
        }
        var resources = ModelResources(store: store, configuration: configuration)
        try resources.register(SrvTodo.self)
        try resources.register(SrvItem.self, RESTResource(nestedUnder: "srvTodo"))
        try resources.register(SrvStep.self, RESTResource(nestedUnder: "srvItem"))
        let fixture = ServerFixture(store: store, resources: resources)
        let (_, item1, _, item2) = try await Self.seeded(fixture)
        let step = await fixture.send("POST", "/srv_items/\(item1)/srv_steps", #"{"text":"s"}"#, headers: Self.one)
        #expect(step.status == 201, "\(step.text)")
        // Two levels down, user 2 reaches none of user 1's steps, by any route.
        #expect(await fixture.send("GET", "/srv_items/\(item1)/srv_steps", headers: Self.two).status == 404)
        #expect(await fixture.send("POST", "/srv_items/\(item1)/srv_steps", #"{"text":"s"}"#, headers: Self.two).status == 404)
        #expect(await fixture.send("GET", "/srv_steps", headers: Self.two).json.count == 0)
        #expect(await fixture.send("GET", "/srv_steps/1", headers: Self.two).status == 404)
        #expect(await fixture.send("DELETE", "/srv_steps/1", headers: Self.two).status == 404)
        let planted = await fixture.send("POST", "/srv_steps", #"{"text":"s","srv_item_id":\#(item1)}"#, headers: Self.two)
        #expect(planted.status == 422 && planted.code == "unknown_owner")
        #expect(await fixture.send("POST", "/srv_steps", #"{"text":"s","srv_item_id":\#(item2)}"#, headers: Self.two).status == 201)
        #expect(await fixture.send("GET", "/srv_steps", headers: Self.one).json.count == 1)
        #expect(try await SrvStep.count(in: store) == 2)
    }

    @Test func aDeniedOwnerDeniesItsChildrenOnShallowRoutes() async throws {
        let fixture = try ServerFixture { configuration in
            configuration.authorize = { access in
                access.schema.modelName == "SrvTodo" ? .deny(status: 403, message: "no todos for you") : .allow
            }
        }
        #expect(await fixture.send("GET", "/srv_items").status == 403)
        #expect(await fixture.send("GET", "/srv_items/1").status == 403)
    }
}
