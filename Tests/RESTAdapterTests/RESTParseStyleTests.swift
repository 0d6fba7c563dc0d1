import Foundation
import RESTAdapter
import RESTTestServer
import SQLiteAdapter
import Testing

/// RESTAdapter and RESTSync against a Parse-style API (`RESTTestServer.Options.parseStyle`):
/// `objectId`, server-set `createdAt`/`updatedAt`, creates answered with two keys, updates
/// with one, lists in `results`, `where=` queries, 404 with a Parse error code.
@Suite struct RESTParseStyleTests {
    final class GameScore: Model {
        typealias IDValue = String
        static var tableName: String { "GameScore" }
        @Column var playerName: String = ""
        @Column var score: Int = 0
        @Column var cheatMode: Bool = false
        @Column var createdAt: Date?
        @Column var updatedAt: Date?
        init() {}

        static var jsonMapping: JSONMapping<GameScore> { JSONMapping(keyCase: .lowerCamelCase).key("objectId", for: "id") }
    }

    /// A Parse-style server under `/parse/classes` and a client configured for it.
    func parse() throws -> (RESTTestServer, RESTAdapter) {
        var options = RESTTestServer.Options(pathPrefix: "/parse/classes")
        options.parseStyle = true
        options.ids = .prefixedString
        let server = try RESTTestServer(options: options)
        var configuration = RESTConfiguration()
        configuration.headers["X-Parse-Application-Id"] = "app"
        configuration.updateMethod = .put  // Parse updates with PUT (the keys given)
        configuration.listEnvelope = "results"
        configuration.queryEncoder = ParseQueryEncoder()
        configuration.retry = .none
        let api = RESTAdapter(baseURL: server.baseURL, configuration: configuration)
        api.register(GameScore.self, RESTResource(idAssignment: .server, readOnlyColumns: ["created_at", "updated_at"]))
        return (server, api)
    }

    @Test func crudQueriesAndMissingObjects() throws {
        let (server, api) = try parse()
        defer { server.stop() }
        let score = try GameScore.create(["player_name": "Sean Plott", "score": 1337], in: api)
        let id = try #require(score.id)
        #expect(server.objects(in: "GameScore").first?["id"] == .string(id), "the record has the server's objectId")
        let created = try #require(score.createdAt)
        #expect(!score.isDirty)
        let post = try #require(server.requests.last)
        #expect(post.header("X-Parse-Application-Id") == "app")
        #expect(!String(decoding: post.body, as: UTF8.self).contains("objectId"), "the server assigns the objectId")

        let found = try #require(try GameScore.find(id, in: api))
        #expect(found.playerName == "Sean Plott" && found.score == 1337 && found.createdAt == created)
        #expect(try GameScore.find("nope", in: api) == nil, "404 with code 101 is a missing record")

        score.score = 2000
        score.cheatMode = true
        try score.save()
        #expect(server.requests.last?.method == "PUT")
        #expect(score.createdAt == created, "an update's answer ({updatedAt}) keeps the rest")
        #expect(try #require(score.updatedAt) >= created)
        #expect(try GameScore.find(id, in: api)?.score == 2000)

        _ = try GameScore.create(["player_name": "Ana", "score": 12], in: api)
        _ = try GameScore.create(["player_name": "Bo", "score": 7], in: api)
        let high = try GameScore.where(\.score > 10).order(by: \.score, .descending).limit(2).using(api).all()
        #expect(high.map(\.playerName) == ["Sean Plott", "Ana"])
        let query = try #require(server.requests.last?.query)
        #expect(query.contains { $0.name == "where" && $0.value.contains("$gt") }, "\(query)")
        #expect(try GameScore.query().using(api).count() == 3)

        #expect(try found.delete())
        #expect(try GameScore.delete(id: id, in: api) == false, "deleting it again finds nothing")
        #expect(try GameScore.query().using(api).count() == 2)
    }

    @Test func syncPushesAndPullsWithObjectIDs() throws {
        let (server, api) = try parse()
        defer { server.stop() }
        server.seed("GameScore", [["playerName": "seeded", "score": 1]])
        let sync = RESTSync(remote: api, local: try SQLiteAdapter())
        try sync.track(GameScore.self)
        #expect(try sync.pull(GameScore.self).inserted == 1)
        let offline = try GameScore.create(["player_name": "offline", "score": 5], in: sync.store)
        let report = try sync.push()
        #expect(report.inserted == 1 && report.failed == 0, "\(report)")
        let serverID = try #require(server.objects(in: "GameScore").last?["id"])
        #expect(offline.id.map { ModelValue.string($0) } == serverID, "the held record took the objectId")
        #expect(offline.createdAt != nil, "and the server's createdAt")
        offline.score = 6
        try offline.save()
        #expect(try sync.push().updated == 1)
        #expect(server.objects(in: "GameScore").last?["score"] == .int(6))
        #expect(try sync.pull(GameScore.self).inserted == 0)
        #expect(try GameScore.all(in: sync.store).count == 2)
    }
}
