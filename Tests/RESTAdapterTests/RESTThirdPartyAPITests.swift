import ArrayAdapter
import Foundation
import RESTAdapter
import RESTTestServer
import SQLiteAdapter
import Testing

/// RESTAdapter and RESTSync against the conventions of APIs we did not write: server-assigned
/// UUID and string ids, query parameters ignored, 204/400/410 for a missing record,
/// server-set fields. Each test is in the shape of a failure found by trying them.
@Suite struct RESTThirdPartyAPITests {
    /// A todo whose id is a UUID (the server's, once pushed).
    final class Todo: Model {
        typealias IDValue = UUID
        static var tableName: String { "todos" }
        @Column var title: String = ""
        @Column var url: String?
        @Column var updatedAt: Date?
        init() {}
    }

    /// A note with an auto-increment id.
    final class Memo: Model {
        static var tableName: String { "memos" }
        @Column var title: String = ""
        init() {}
    }

    /// A memo without `updated_at`.
    final class Plain: Model {
        static var tableName: String { "plains" }
        @Column var title: String = ""
        init() {}
    }

    func adapter(_ server: RESTTestServer) -> RESTAdapter {
        var configuration = RESTConfiguration()
        configuration.retry = .none
        return RESTAdapter(baseURL: server.baseURL, configuration: configuration)
    }

    @Test(arguments: ["sqlite", "array"])
    func aRecordCreatedOfflineTakesTheServersUUIDEverywhere(local kind: String) throws {
        let server = try RESTTestServer(options: { var o = RESTTestServer.Options(); o.ids = .uuid; o.setsServerFields = true; return o }())
        defer { server.stop() }
        let api = adapter(server)
        api.register(Todo.self, RESTResource(idAssignment: .server, readOnlyColumns: ["url", "updated_at"]))
        let local: any PersistenceAdapter = kind == "sqlite" ? try SQLiteAdapter() : ArrayAdapter()
        let sync = RESTSync(remote: api, local: local)
        try sync.track(Todo.self)
        let todo = try Todo.create(["title": "offline"], in: sync.store)
        let localID = try #require(todo.id)
        let report = try sync.push()
        #expect(report.inserted == 1 && report.failed == 0, "\(report)")
        let serverID = try #require(server.objects(in: "todos").first?["id"])
        #expect(serverID != .string(localID.uuidString.lowercased()), "the server assigned its own id")
        #expect(serverID == .string(todo.id?.uuidString.lowercased() ?? ""), "the instance held took the server's id")
        #expect(todo.url == "/todos/\(todo.id?.uuidString.lowercased() ?? "")", "and the fields the server set")
        #expect(todo.updatedAt != nil && !todo.isDirty)
        #expect(try Todo.all(in: sync.store).count == 1)
        #expect(try sync.pull(Todo.self).inserted == 0, "the next pull does not duplicate it")
        #expect(try Todo.all(in: sync.store).count == 1)
        todo.title = "edited"
        try todo.save()
        #expect(try sync.push().updated == 1)
        #expect(server.objects(in: "todos").first?["title"] == "edited", "the edit went to the server's id")
        #expect(!server.requests.contains { $0.method == "POST" && String(decoding: $0.body, as: UTF8.self).contains("\"url\"") },
            "read-only columns are not sent")
        #expect(try sync.pendingChanges() == 0)
    }

    @Test(arguments: ["sqlite", "array"])
    func anInstanceHeldAcrossAPushSavesToTheServersID(local kind: String) throws {
        let server = try RESTTestServer()
        defer { server.stop() }
        let local: any PersistenceAdapter = kind == "sqlite" ? try SQLiteAdapter() : ArrayAdapter()
        let sync = RESTSync(remote: adapter(server), local: local)
        try sync.track(Memo.self)
        let memo = try Memo.create(["title": "draft"], in: sync.store)
        #expect((memo.id ?? 0) < 0)
        try sync.push()
        #expect(memo.id == 1, "the held instance has the server's id")
        memo.title = "final"
        try memo.save()
        memo.title = "final!"
        try memo.save()
        memo.title = "final!!"
        try memo.save()
        #expect(try sync.pendingChanges() == 1, "three edits fold into one entry")
        server.clearLog()
        #expect(try sync.push().updated == 1)
        #expect(server.requests.map(\.method) == ["PATCH"] && server.requests.first?.path == "/memos/1")
        #expect(server.objects(in: "memos").first?["title"] == "final!!")
    }

    @Test func aRefusedChangeDoesNotBlockTheOthersAndCanBeRetried() throws {
        let server = try RESTTestServer()
        defer { server.stop() }
        let sync = RESTSync(remote: adapter(server), local: ArrayAdapter())
        try sync.track(Memo.self)
        _ = try Memo.create(["title": "refused"], in: sync.store)
        _ = try Memo.create(["title": "fine"], in: sync.store)
        server.inject(.status(422), method: "POST")
        let report = try sync.push()
        #expect(report.inserted == 1 && report.failed == 1, "\(report)")
        #expect(server.objects(in: "memos").map { $0["title"] } == ["fine"])
        let failed = try #require(try sync.journal().first)
        #expect(failed.failure?.contains("422") == true && failed.attempts == 1)
        #expect(try sync.push().outcomes.isEmpty, "a failed entry waits for retry")
        try sync.retry(failed)
        #expect(try sync.push().inserted == 1)
        #expect(server.objects(in: "memos").map { $0["title"] } == ["fine", "refused"])
        #expect(try sync.pendingChanges() == 0)
    }

    @Test func aRevertedCreateIsDeletedLocally() throws {
        let server = try RESTTestServer()
        defer { server.stop() }
        let sync = RESTSync(remote: adapter(server), local: try SQLiteAdapter())
        try sync.track(Memo.self)
        _ = try Memo.create(["title": "refused"], in: sync.store)
        server.inject(.status(400), method: "POST")
        try sync.push()
        try sync.revert(try #require(try sync.journal().first))
        #expect(try Memo.all(in: sync.store).isEmpty && sync.pendingChanges() == 0)
    }

    @Test func aServerIDAtOrBelowZeroDoesNotCollideWithAProvisionalOne() throws {
        let server = try RESTTestServer()
        defer { server.stop() }
        let sync = RESTSync(remote: adapter(server), local: try SQLiteAdapter())
        try sync.track(Memo.self)
        let mine = try Memo.create(["title": "mine"], in: sync.store)
        #expect(mine.id == -1)
        server.seed("memos", [["id": -1, "title": "theirs"], ["id": 0, "title": "zero"]])
        #expect(try sync.pull(Memo.self).inserted == 2)
        #expect(mine.id != -1 && (mine.id ?? 0) < 0, "the unpushed record moved aside")
        #expect(try Memo.query(in: sync.store).order(by: "title").all().map(\.title) == ["mine", "theirs", "zero"])
        #expect(try sync.push().inserted == 1)
        #expect(Set(server.objects(in: "memos").compactMap { $0["title"] }) == ["mine", "theirs", "zero"])
        #expect((mine.id ?? 0) > 0)
    }

    @Test func newestWinsWithoutUpdatedAtIsATypedError() throws {
        let server = try RESTTestServer()
        defer { server.stop() }
        let sync = RESTSync(remote: adapter(server), local: try SQLiteAdapter())
        let thrown = #expect(throws: StoreError.self) { try sync.pull(Plain.self, policy: .newestWins) }
        #expect(thrown?.kind == .invalidRequest && thrown?.message.contains("updated_at") == true)
    }

    @Test func theDefaultPolicyTakesServerChangesUnlessPending() throws {
        let server = try RESTTestServer()
        defer { server.stop() }
        let sync = RESTSync(remote: adapter(server), local: try SQLiteAdapter())
        server.seed("plains", [["title": "a"], ["title": "b"]])
        try sync.pull(Plain.self)
        _ = try adapter(server).update([.int(1), .string("a2")], changedColumns: [1], in: Plain.schema)
        _ = try adapter(server).update([.int(2), .string("b2")], changedColumns: [1], in: Plain.schema)
        let mine = try #require(try Plain.find(2, in: sync.store))
        mine.title = "b-local"
        try mine.save()
        let report = try sync.pull(Plain.self)
        #expect(report.updated == 1 && report.conflicts == [SyncConflict(model: "Plain", id: 2, resolution: .keepLocal)])
        #expect(try Plain.query(in: sync.store).order(by: "id").all().map(\.title) == ["a2", "b-local"])
    }

    @Test func aServerThatIgnoresTheQueryIsCaughtNotBelieved() throws {
        let server = try RESTTestServer(options: { var o = RESTTestServer.Options(); o.ignoresQuery = true; return o }())
        defer { server.stop() }
        server.seed("plains", [["title": "b"], ["title": "a"], ["title": "c"]])
        let api = adapter(server)
        for query in [
            { try Plain.query(in: api).where(\.title == "a").all() }, { try Plain.query(in: api).order(by: "title").all() },
            { try Plain.query(in: api).order(by: "title").offset(1).limit(1).all() },
        ] as [() throws -> [Plain]] {
            let thrown = #expect(throws: RESTError.self) { _ = try query() }
            #expect(thrown?.kind == .queryIgnored, "\(String(describing: thrown))")
        }
        #expect(try Plain.all(in: api).count == 3, "an unfiltered list is fine")
        api.register(Plain.self, RESTResource(querySupport: .none))
        server.clearLog()
        let refused = #expect(throws: RESTError.self) { _ = try Plain.query(in: api).where(\.title == "a").all() }
        #expect(refused?.kind == .unsupportedQuery && server.requests.isEmpty, "refused before sending")
    }

    @Test(arguments: [204, 400, 410])
    func aMissingRecordIsMissingWhateverTheStatus(status: Int) throws {
        let server = try RESTTestServer(options: { var o = RESTTestServer.Options(); o.missingStatus = status; return o }())
        defer { server.stop() }
        let api = adapter(server)
        api.register(Plain.self, RESTResource(notFoundStatuses: [status]))
        #expect(try Plain.find(7, in: api) == nil)
        guard status != 204 else { return }  // a 204 is also a successful PATCH or DELETE: it means "missing" for a read only
        #expect(try api.delete(id: 7, from: Plain.schema) == false)
        let thrown = #expect(throws: StoreError.self) { try api.update([.int(7), .string("x")], changedColumns: [1], in: Plain.schema) }
        #expect(thrown?.kind == .notFound)
    }

    @Test func serverSetFieldsReachTheSavedRecord() throws {
        let server = try RESTTestServer(options: { var o = RESTTestServer.Options(); o.ids = .uuid; o.setsServerFields = true; return o }())
        defer { server.stop() }
        let api = adapter(server)
        api.register(Todo.self, RESTResource(idAssignment: .server, readOnlyColumns: ["url", "updated_at"]))
        let todo = try Todo.create(["title": "t"], in: api)
        let id = try #require(todo.id)
        #expect(todo.url == "/todos/\(id.uuidString.lowercased())", "the create's answer was applied")
        #expect(todo.updatedAt != nil)
        #expect(!todo.isDirty, "and the record is clean")
    }
}
