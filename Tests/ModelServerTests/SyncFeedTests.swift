import Foundation
import ModelServer
import RESTAdapter
import RESTTestServer
import SQLiteAdapter
import TestSupport
import Testing

final class FeedTask: Model {
    static var keepsHistory: Bool { true }
    @Column var title: String = ""
    @Column var done: Bool = false
    @Column var ownerID: Int?
    init() {}
}

/// RESTSync over ModelServer's changes feed, through real HTTP: the first pull reads
/// everything, later ones only the changes since the checkpoint, deletions included.
@Suite(.runsOffThePool, .timeLimit(.minutes(5))) struct SyncFeedTests {
    final class Served {
        let store: SQLiteAdapter
        let server: RESTTestServer
        init(scoped: Bool = false) throws {
            store = try SQLiteAdapter()
            var configuration = ModelResources.Configuration()
            if scoped {
                configuration.authorize = { access in
                    guard let header = access.request.header("Authorization"), let user = Int64(header.dropFirst(5)) else {
                        return .deny(status: 401, message: "who are you?")
                    }
                    return .scoped(["owner_id": .int(user)])
                }
            }
            var resources = ModelResources(store: store, configuration: configuration)
            try resources.register(FeedTask.self)
            server = try RESTTestServer(serving: resources)
        }
        deinit { server.stop() }

        /// A sync client of this server, as `user` when given.
        func client(user: Int? = nil) throws -> RESTSync {
            var configuration = RESTConfiguration()
            if let user { configuration.headers["Authorization"] = "User \(user)" }
            let api = RESTAdapter(baseURL: server.baseURL, configuration: configuration)
            api.register(FeedTask.self, { var r = RESTResource(idAssignment: .server); r.changesFeed = true; return r }())
            let sync = RESTSync(remote: api, local: try SQLiteAdapter())
            try sync.track(FeedTask.self)
            return sync
        }

        /// The paths the server was asked, with their queries, since the last call.
        func asked() -> [String] {
            defer { server.clearLog() }
            return server.requests.map { $0.target.isEmpty ? $0.path : $0.target }
        }
    }

    static func titles(_ store: any PersistenceAdapter) throws -> [String] {
        try FeedTask.query().order(by: "id").using(store).all().map(\.title)
    }

    @Test func laterPullsReadOnlyTheChanges() throws {
        let served = try Served()
        for title in ["a", "b", "c"] { _ = try FeedTask.create(["title": title], in: served.store) }
        let sync = try served.client()
        _ = served.asked()

        let first = try sync.pull(FeedTask.self)
        #expect(first.followedChanges && first.resynced && first.inserted == 3, "\(first)")
        #expect(served.asked().map { $0.components(separatedBy: "?")[0] } == ["/feed_tasks/changes", "/feed_tasks"], "the head, then the list")
        #expect(try sync.checkpoint(FeedTask.self) == String(try served.store.historyHead().rawValue))

        let b = try #require(try FeedTask.find(2, in: served.store))
        b.done = true
        try ModelStore.using(served.store) { try b.save() }
        _ = try FeedTask.create(["title": "d"], in: served.store)
        try ModelStore.using(served.store) { _ = try FeedTask.find(1)?.destroy() }

        let second = try sync.pull(FeedTask.self)
        #expect(second.followedChanges && !second.resynced, "\(second)")
        #expect((second.inserted, second.updated, second.deleted) == (1, 1, 1), "\(second)")
        let asked = served.asked()
        #expect(asked.count == 1 && asked[0].hasPrefix("/feed_tasks/changes?since="), "one feed request, no list: \(asked)")
        #expect(try Self.titles(sync.store) == ["b", "c", "d"])
        #expect(try FeedTask.find(2, in: sync.store)?.done == true)
        #expect(try sync.pendingChanges() == 0, "pulled changes are not changes to push")

        let quiet = try sync.pull(FeedTask.self)
        #expect(quiet.inserted + quiet.updated + quiet.deleted == 0)
    }

    @Test func aRemovalOfARecordWithAnUnpushedChangeGoesThroughThePolicy() throws {
        let served = try Served()
        for title in ["keep", "drop"] { _ = try FeedTask.create(["title": title], in: served.store) }
        let sync = try served.client()
        try sync.pull(FeedTask.self)
        for id: Int64 in [1, 2] {
            let mine = try #require(try FeedTask.find(id, in: sync.store))
            mine.title += " (edited offline)"
            try ModelStore.using(sync.store) { try mine.save() }
        }
        try ModelStore.using(served.store) {
            _ = try FeedTask.find(1)?.destroy()
        }
        let kept = try sync.pull(FeedTask.self)
        #expect(kept.conflicts == [SyncConflict(model: "FeedTask", id: 1, resolution: .keepLocal)], "\(kept)")
        #expect(try FeedTask.find(1, in: sync.store)?.title == "keep (edited offline)")

        try ModelStore.using(served.store) { _ = try FeedTask.find(2)?.destroy() }
        let taken = try sync.pull(FeedTask.self, policy: .takeRemote)
        #expect(taken.deleted == 1 && taken.conflicts.map(\.resolution) == [.takeRemote], "\(taken)")
        #expect(try FeedTask.find(2, in: sync.store) == nil)
        #expect(try sync.journal().map(\.id) == [1], "the dropped record's change left the journal; the kept one waits")
    }

    @Test func aCompactedFeedResyncsAndDeletesWhatTheServerLost() throws {
        let served = try Served()
        for title in ["a", "b"] { _ = try FeedTask.create(["title": title], in: served.store) }
        let sync = try served.client()
        try sync.pull(FeedTask.self)
        try ModelStore.using(served.store) { _ = try FeedTask.find(1)?.destroy() }
        _ = try FeedTask.create(["title": "c"], in: served.store)
        try served.store.compactHistory(before: .distantFuture)

        let report = try sync.pull(FeedTask.self)
        #expect(report.resynced && report.deleted == 1 && report.inserted == 1, "\(report)")
        #expect(try Self.titles(sync.store) == ["b", "c"])
        #expect(try sync.checkpoint(FeedTask.self) == String(try served.store.historyHead().rawValue))
    }

    @Test func aRecordThatLeavesTheClientsScopeIsDeletedThere() throws {
        let served = try Served(scoped: true)
        _ = try FeedTask.create(["title": "mine", "owner_id": 1], in: served.store)
        _ = try FeedTask.create(["title": "theirs", "owner_id": 2], in: served.store)
        let one = try served.client(user: 1), two = try served.client(user: 2)
        try one.pull(FeedTask.self)
        try two.pull(FeedTask.self)
        #expect(try Self.titles(one.store) == ["mine"])

        let moved = try #require(try FeedTask.find(1, in: served.store))
        moved.ownerID = 2
        try ModelStore.using(served.store) { try moved.save() }
        #expect(try one.pull(FeedTask.self).deleted == 1)
        #expect(try Self.titles(one.store).isEmpty)
        #expect(try two.pull(FeedTask.self).inserted == 1)
        #expect(try Self.titles(two.store) == ["mine", "theirs"])
    }
}
