import ArrayAdapter
import Foundation
@testable import ModelServer
import Testing

final class FeedNote: Model {
    static var keepsHistory: Bool { true }
    @Column var title: String = ""
    @Column var ownerID: Int?
    @HasMany(dependent: .destroy) var feedTags: Children<FeedTag>
    init() {}
}

final class FeedTag: Model {
    static var keepsHistory: Bool { true }
    @Column var label: String = ""
    @BelongsTo var feedNote: FeedNote?
    init() {}
}

/// `GET <collection>/changes`: the records of committed changes in cursor order, within the
/// request's reach, with removals for rows that left it; long-polled with `wait`.
@Suite struct ChangesFeedTests {
    static func fixture(scoped: Bool = false, _ configure: (inout ModelResources.Configuration) -> Void = { _ in }) throws -> ServerFixture {
        let store = ArrayAdapter()
        var configuration = ModelResources.Configuration()
        if scoped {
            configuration.authorize = { access in
                guard let header = access.request.header("Authorization"), let user = Int64(header.dropFirst(5)) else {
                    return .deny(status: 401, message: "who are you?")
                }
                return access.schema.modelName == "FeedNote" ? .scoped(["owner_id": .int(user)]) : .allow
            }
        }
        configure(&configuration)
        var resources = ModelResources(store: store, configuration: configuration)
        try resources.register(FeedNote.self)
        try resources.register(FeedTag.self, RESTResource(nestedUnder: "feedNote"))
        try resources.register(SrvTodo.self)
        return ServerFixture(store: store, resources: resources)
    }

    static func user(_ n: Int) -> [(name: String, value: String)] { [("Authorization", "User \(n)")] }

    /// "upsert 1 walk", "remove 2": each change of a feed answer.
    static func described(_ response: ResourceResponse) -> [String] {
        guard case .array(let changes) = response.json["changes"] ?? .null else { return ["no changes: \(response.text)"] }
        return changes.map { change in
            var text = "\(change["op"] ?? .null) \(change["id"] ?? .null)"
            if let record = change["record"], let title = record["title"] ?? record["label"] { text += " \(title)" }
            return text.replacingOccurrences(of: "\"", with: "")
        }
    }

    static func next(_ response: ResourceResponse) -> String {
        if case .string(let next) = response.json["next"] ?? .null { return next }
        return "?"
    }

    @Test func theFeedAnswersCurrentRecordsAndTombstonesInCursorOrder() async throws {
        let fixture = try Self.fixture()
        let head = await fixture.send("GET", "/feed_notes/changes?since=now")
        #expect(head.status == 200 && Self.described(head).isEmpty, "\(head.text)")
        #expect(head.header("Cache-Control") == "no-store")
        let since = Self.next(head)
        for title in ["walk", "shop", "cook"] {
            #expect(await fixture.send("POST", "/feed_notes", #"{"title":"\#(title)"}"#).status == 201)
        }
        #expect(await fixture.send("PATCH", "/feed_notes/1", #"{"title":"walk the dog"}"#).status == 200)
        #expect(await fixture.send("DELETE", "/feed_notes/2").status == 204)
        _ = try await SrvTodo.create(["title": "not in this feed"], in: fixture.store)

        let all = await fixture.send("GET", "/feed_notes/changes?since=\(since)")
        #expect(all.status == 200, "\(all.text)")
        #expect(Self.described(all) == ["upsert 3 cook", "upsert 1 walk the dog", "remove 2"], "one change per row, at its last entry")
        #expect(all.json["more"] == .bool(false))
        #expect(await Self.described(fixture.send("GET", "/feed_notes/changes?since=\(Self.next(all))")).isEmpty)

        let first = await fixture.send("GET", "/feed_notes/changes?since=\(since)&limit=2")
        #expect(Self.described(first) == ["upsert 1 walk the dog"], "an insert whose row is gone by now is not mentioned; its delete comes later")
        #expect(first.json["more"] == .bool(true), "a page cut at its limit says more follow")
        var cursor = Self.next(first), seen = Self.described(first)
        while true {
            let page = await fixture.send("GET", "/feed_notes/changes?since=\(cursor)&limit=2")
            seen += Self.described(page)
            cursor = Self.next(page)
            if page.json["more"] != .bool(true) { break }
        }
        #expect(seen.suffix(2) == ["upsert 1 walk the dog", "remove 2"], "paging ends where the whole read ends: \(seen)")
    }

    @Test func scopesNarrowTheFeedAndARowThatLeavesIsARemoval() async throws {
        let fixture = try Self.fixture(scoped: true)
        let since = Self.next(await fixture.send("GET", "/feed_notes/changes?since=now", headers: Self.user(1)))
        #expect(await fixture.send("GET", "/feed_notes/changes?since=now").status == 401, "the feed is authorised as a list")
        #expect(await fixture.send("POST", "/feed_notes", #"{"title":"mine"}"#, headers: Self.user(1)).status == 201)
        #expect(await fixture.send("POST", "/feed_notes", #"{"title":"theirs"}"#, headers: Self.user(2)).status == 201)
        #expect(await fixture.send("PATCH", "/feed_notes/2", #"{"title":"theirs, renamed"}"#, headers: Self.user(2)).status == 200)
        let mine = await fixture.send("GET", "/feed_notes/changes?since=\(since)", headers: Self.user(1))
        #expect(Self.described(mine) == ["upsert 1 mine"], "another owner's rows are not mentioned")

        // The row moves to owner 2 (written past the API): owner 1 is told to drop it.
        let moved = try #require(try await FeedNote.find(1, in: fixture.store))
        moved.ownerID = 2
        try ModelStore.using(fixture.store) { try moved.save() }
        let after = Self.next(mine)
        #expect(Self.described(await fixture.send("GET", "/feed_notes/changes?since=\(after)", headers: Self.user(1))) == ["remove 1"])
        #expect(Self.described(await fixture.send("GET", "/feed_notes/changes?since=\(after)", headers: Self.user(2))) == ["upsert 1 mine"])
    }

    @Test func aNestedFeedHoldsOneOwnersChildren() async throws {
        let fixture = try Self.fixture()
        for title in ["a", "b"] { #expect(await fixture.send("POST", "/feed_notes", #"{"title":"\#(title)"}"#).status == 201) }
        let since = Self.next(await fixture.send("GET", "/feed_notes/1/feed_tags/changes?since=now"))
        #expect(await fixture.send("POST", "/feed_notes/1/feed_tags", #"{"label":"one"}"#).status == 201)
        #expect(await fixture.send("POST", "/feed_notes/2/feed_tags", #"{"label":"two"}"#).status == 201)
        #expect(Self.described(await fixture.send("GET", "/feed_notes/1/feed_tags/changes?since=\(since)")) == ["upsert 1 one"])
        #expect(Self.described(await fixture.send("GET", "/feed_tags/changes?since=\(since)")) == ["upsert 1 one", "upsert 2 two"])
        #expect(await fixture.send("GET", "/feed_notes/9/feed_tags/changes?since=0").status == 404, "an owner that is not there")
    }

    @Test func aWaitingRequestWakesWhenAWriteCommits() async throws {
        // Through this server: woken by its own write (the head poll is too slow to).
        // (No wall-clock bound: a loaded CI machine stalled this process's tasks for minutes.)
        let served = try Self.fixture { $0.feedPollInterval = .seconds(600) }
        async let woken = served.send("GET", "/feed_notes/changes?since=0&wait=20")
        let clock = ContinuousClock()
        let start = clock.now
        while served.resources.feed.waiting < 1, clock.now - start < .seconds(60) { try await Task.sleep(for: .milliseconds(10)) }
        #expect(served.resources.feed.generation == 0)
        #expect(await served.send("POST", "/feed_notes", #"{"title":"served"}"#).status == 201)
        #expect(served.resources.feed.generation == 1, "the committed write woke the waiters before it answered")
        #expect(served.resources.feed.waiting == 0, "and the waiter is no longer waiting")
        #expect(Self.described(await woken) == ["upsert 1 served"])

        let fixture = try Self.fixture { $0.feedPollInterval = .milliseconds(20) }
        let since = Self.next(await fixture.send("GET", "/feed_notes/changes?since=now"))
        async let waited = fixture.send("GET", "/feed_notes/changes?since=\(since)&wait=20")
        try await Task.sleep(for: .milliseconds(100))
        #expect(await fixture.send("POST", "/feed_notes", #"{"title":"live"}"#).status == 201)
        let answer = await waited
        #expect(Self.described(answer) == ["upsert 1 live"])

        // Past the server (another writer on the store): woken by the head poll.
        async let polled = fixture.send("GET", "/feed_notes/changes?since=\(Self.next(answer))&wait=20")
        try await Task.sleep(for: .milliseconds(100))
        _ = try await FeedNote.create(["title": "elsewhere"], in: fixture.store)
        #expect(Self.described(await polled) == ["upsert 2 elsewhere"])

        // A change another feed would show does not end the wait early; the wait ends empty.
        let quiet = clock.now
        async let empty = fixture.send("GET", "/feed_notes/changes?since=\(Self.next(await fixture.send("GET", "/feed_notes/changes?since=now")))&wait=0.3")
        try await Task.sleep(for: .milliseconds(50))
        _ = try await SrvTodo.create(["title": "another model"], in: fixture.store)
        let ended = await empty
        #expect(ended.status == 200 && Self.described(ended).isEmpty, "\(ended.text)")
        #expect(clock.now - quiet >= .milliseconds(300))
    }

    @Test func waitersAreCappedWithA503() async throws {
        let fixture = try Self.fixture { $0.feedWaiterLimit = 1 }
        async let holder = fixture.send("GET", "/feed_notes/changes?since=0&wait=20")
        // Until the first request waits (a loaded machine may start it late).
        let clock = ContinuousClock(), start = clock.now
        while fixture.resources.feed.waiting < 1, clock.now - start < .seconds(15) { try await Task.sleep(for: .milliseconds(10)) }
        #expect(fixture.resources.feed.waiting == 1)
        let refused = await fixture.send("GET", "/feed_notes/changes?since=0&wait=2")
        #expect(refused.status == 503 && refused.code == "too_many_subscribers", "\(refused.text)")
        #expect(refused.header("Retry-After") == "1")
        #expect(await fixture.send("GET", "/feed_notes/changes?since=0").status == 200, "a request that does not wait is served")
        #expect(await fixture.send("POST", "/feed_notes", #"{"title":"x"}"#).status == 201)
        #expect(Self.described(await holder) == ["upsert 1 x"])
    }

    @Test func badRequestsAreTypedErrors() async throws {
        let fixture = try Self.fixture()
        for (target, code) in [
            ("/feed_notes/changes", "missing_cursor"), ("/feed_notes/changes?since=-1", "bad_cursor"),
            ("/feed_notes/changes?since=x", "bad_cursor"), ("/feed_notes/changes?since=0&limit=0", "bad_limit"),
            ("/feed_notes/changes?since=0&limit=x", "bad_limit"), ("/feed_notes/changes?since=0&wait=31", "bad_wait"),
            ("/feed_notes/changes?since=0&wait=nan", "bad_wait"), ("/feed_notes/changes?since=0&done=1", "unknown_parameter"),
        ] {
            let response = await fixture.send("GET", target)
            #expect(response.status == 400 && response.code == code, "\(target): \(response.text)")
        }
        let post = await fixture.send("POST", "/feed_notes/changes", "{}")
        #expect(post.status == 405 && post.header("Allow") == "GET")
        #expect(await fixture.send("GET", "/srv_todos/changes?since=0").status == 404, "a model without history has no feed")
        #expect(fixture.resources.routeTemplates.contains { $0.path == "/feed_notes/changes" && $0.methods == ["GET"] })
        #expect(!fixture.resources.routeTemplates.contains { $0.path == "/srv_todos/changes" })

        #expect(await fixture.send("POST", "/feed_notes", #"{"title":"old"}"#).status == 201)
        try await fixture.store.compactHistory(before: .distantFuture)
        let gone = await fixture.send("GET", "/feed_notes/changes?since=0")
        #expect(gone.status == 410 && gone.code == "history_compacted", "\(gone.text)")
    }
}
