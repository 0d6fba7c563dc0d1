import ArrayAdapter
import Foundation
import RESTAdapter
import RESTTestServer
import SQLiteAdapter
import TestSupport
import Testing

/// Pull with each merge policy, push with server ids, offline work.
@Suite(.runsOffThePool) struct RESTSyncTests {
    final class Note: Model {
        @Column var title: String = ""
        @Column var updatedAt: Date?
        @HasMany var tags: Children<Tag>
        init() {}
    }

    final class Tag: Model {
        @Column var label: String = ""
        @BelongsTo var note: Note?
        init() {}
    }

    static let earlier = "2026-01-01T00:00:00.000Z"
    static let later = "2026-06-01T00:00:00.000Z"

    func fixture() throws -> (RESTFixture, RESTSync) {
        let f = try RESTFixture(nested: false)
        let sync = RESTSync(remote: f.adapter, local: try SQLiteAdapter())
        try sync.track(Note.self)
        try sync.track(Tag.self)
        return (f, sync)
    }

    @Test func pullInsertsUpdatesAndSkipsWithAReport() throws {
        let (f, sync) = try fixture()
        f.server.seed("notes", [["title": "a", "updated_at": .string(Self.earlier)], ["title": "b", "updated_at": .string(Self.earlier)]])
        #expect(try sync.pull(Note.self) == { var r = SyncReport(); r.inserted = 2; return r }())
        f.server.seed("notes", [["title": "c"]])
        let again = try sync.pull(Note.self)
        #expect(again.inserted == 1 && again.skipped == 2)
        #expect(try Note.all(in: sync.store).map(\.title) == ["a", "b", "c"])
        #expect(try sync.pendingChanges() == 0, "pulled records are not changes to push")
    }

    @Test func mergePolicies() throws {
        let (f, sync) = try fixture()
        f.server.seed("notes", [["title": "server", "updated_at": .string(Self.later)]])
        try sync.pull(Note.self)
        let mine = try #require(try Note.find(1, in: sync.store))
        mine.title = "local"
        try mine.save()  // updated_at: now, later than the server's

        let kept = try sync.pull(Note.self, policy: .newestWins)
        #expect(kept.conflicts == [SyncConflict(model: "Note", id: 1, resolution: .keepLocal)])
        #expect(try Note.find(1, in: sync.store)?.title == "local")

        let custom = try sync.pull(Note.self, policy: .custom { _, remote in remote["title"] == "server" ? .takeRemote : .keepLocal })
        #expect(custom.updated == 1)
        #expect(try Note.find(1, in: sync.store)?.title == "server")
        #expect(try sync.pendingChanges() == 0, "taking the remote version drops the local change")

        let edited = try #require(try Note.find(1, in: sync.store))
        edited.title = "mine again"
        try edited.save()
        #expect(try sync.pull(Note.self, policy: .keepLocal).skipped == 1)
        #expect(try sync.pull(Note.self, policy: .takeRemote).updated == 1)
        #expect(try Note.find(1, in: sync.store)?.title == "server")
    }

    @Test func aRecordCreatedThenEditedBeforeAPushIsOneInsert() throws {
        let (f, sync) = try fixture()
        try ModelStore.using(sync.store) {
            let note = try Note.create(["title": "draft"])
            note.title = "final"
            try note.save()
        }
        #expect(try sync.pendingChanges() == 1, "the edit folds into the pending insert")
        let report = try sync.push()
        #expect(report.inserted == 1 && report.updated == 0 && report.deleted == 0)
        let writes = f.server.requests.filter { $0.method != "GET" }
        #expect(writes.map(\.method) == ["POST"], "one POST, no update for the temporary id")
        #expect(f.server.objects(in: "notes").map { $0["title"] } == ["final"])
        let local = try Note.all(in: sync.store)
        #expect(local.map(\.title) == ["final"] && (local.first?.id ?? 0) > 0, "kept locally, with the server's id")
        #expect(try sync.pendingChanges() == 0)
    }

    @Test func newestWinsKeepsLocalOnEqualTimestamps() throws {
        let (f, sync) = try fixture()
        f.server.seed("notes", [["title": "server", "updated_at": .string(Self.later)]])
        try sync.pull(Note.self)
        let tie = try #require(ISO8601DateFormatter().date(from: "2026-06-01T00:00:00Z"))
        try ModelClock.using({ tie }) {
            let mine = try #require(try Note.find(1, in: sync.store))
            mine.title = "local"
            try mine.save()
            #expect(mine.updatedAt == tie)
        }
        let report = try sync.pull(Note.self, policy: .newestWins)
        #expect(report.conflicts == [SyncConflict(model: "Note", id: 1, resolution: .keepLocal)])
        #expect(try Note.find(1, in: sync.store)?.title == "local", "a tie keeps the local version, as documented")
    }

    @Test func pushSendsChangesAndTakesServerIds() throws {
        let (f, sync) = try fixture()
        f.server.seed("notes", [["title": "existing"]])
        try sync.pull(Note.self)
        try ModelStore.using(sync.store) {
            let note = try Note.create(["title": "new"])
            #expect((note.id ?? 0) < 0, "a temporary id until pushed")
            let tag = Tag()
            tag.label = "t"
            tag.note = note
            try tag.save()
            let existing = try #require(try Note.find(1))
            existing.title = "edited"
            try existing.save()
        }
        #expect(try sync.pendingChanges() == 3)
        let report = try sync.push()
        #expect(report.inserted == 2 && report.updated == 1)
        #expect(try sync.pendingChanges() == 0)
        #expect(f.server.objects(in: "notes").map { $0["title"] } == ["edited", "new"])
        let newID = try #require(f.server.objects(in: "notes").last?["id"])
        #expect(f.server.objects(in: "tags").first?["note_id"] == newID, "the child was sent with its parent's server id")
        let local = try ModelStore.using(sync.store) { try Note.order(by: \.title).all() }
        #expect(local.map { ModelValue.int($0.id ?? 0) } == [1, newID], "the local record took the server's id")
        #expect(f.server.requests.filter { $0.method == "POST" }.allSatisfy { $0.header("Idempotency-Key") != nil })
    }

    @Test(.timeLimit(.minutes(1))) func aPullReachesHeldContextRecordsAndChangeStreams() async throws {
        let (f, sync) = try fixture()
        f.server.seed("notes", [["title": "v1"], ["title": "gone soon"]])
        try sync.pull(Note.self)
        let store = sync.store
        let context = ModelContext()
        let held = try context.run { try #require(try Note.find(1, in: store)) }
        let stream = ModelNotifications.changes(of: Note.self)

        f.server.seed("notes", [["title": "new on the server"]])
        f.server.clearLog()
        let client = RESTAdapter(baseURL: f.server.baseURL)  // another client edits the server
        let remote = try #require(try await Note.find(1, in: client))
        remote.title = "v2"
        try await remote.save()
        _ = try await Note.delete(id: 2, in: client)
        let report = try sync.pull(Note.self, deletingMissing: true)
        #expect(report.updated == 1 && report.inserted == 1 && report.deleted == 1, "\(report)")

        #expect(held.title == "v2", "the record the context holds took the pulled values")
        #expect(!held.isDirty)
        var seen: [String] = []
        for await change in stream {
            guard change.isIn(store) else {
                // The stream is process-wide: changes of other tests' stores pass by too.
                if change.isIn(client) { #expect(!change.isExternal, "the other client's own writes, stamped with its store") }
                continue
            }
            #expect(change.isExternal, "the pull's changes are marked external")
            seen.append("\(change.action) \(change.id)")
            if seen.count == 3 { break }
        }
        #expect(Set(seen) == ["update 1", "insert 3", "delete 2"])
    }

    @Test func offlineWritesWaitForTheNextPush() throws {
        let (f, sync) = try fixture()
        f.server.seed("notes", [["title": "one"], ["title": "two"]])
        try sync.pull(Note.self)
        f.server.stop()  // the server is unreachable
        try ModelStore.using(sync.store) {
            _ = try Note.create(["title": "offline"])
            _ = try Note.find(2)?.delete()
            #expect(try Note.count() == 2, "queries run on the local store")
        }
        #expect(throws: RESTError.self) { try sync.push() }
        #expect(try sync.pendingChanges() == 2, "nothing lost")

        let back = try RESTFixture(nested: false)  // a new server stands in for the recovered one
        back.server.seed("notes", [["title": "one"], ["title": "two"]])
        let recovered = RESTSync(remote: back.adapter, local: sync.store.local)
        try recovered.track(Note.self)
        let report = try recovered.push()
        #expect(report.inserted == 1 && report.deleted == 1)
        #expect(back.server.objects(in: "notes").map { $0["title"] } == ["one", "offline"])
    }

    /// 429 and 408 say "later", not "this change is wrong": the push stops with the error
    /// and the change stays pending — not marked failed, so the next push sends it.
    @Test(arguments: [429, 408]) func aPushToldToComeBackLaterKeepsTheChangePending(status: Int) throws {
        let (f, sync) = try fixture()
        _ = try Note.create(["title": "later"], in: sync.store)
        // Every attempt of this push: 429 is retried (RESTRetryPolicy.retryStatuses), 408 is not.
        let attempts = status == 429 ? f.adapter.configuration.retry.maxAttempts : 1
        f.server.inject(.status(status), method: "POST", times: attempts)
        let thrown = #expect(throws: RESTError.self) { try sync.push() }
        #expect(thrown?.status == status)
        #expect(try sync.pendingChanges() == 1)
        #expect(try sync.journal().allSatisfy { $0.failure == nil }, "not marked refused")
        #expect(f.server.objects(in: "notes").isEmpty)
        #expect(try sync.push().inserted == 1)
        #expect(try sync.pendingChanges() == 0 && f.server.objects(in: "notes").count == 1)
    }

    @Test func aPushRetriedAfterALostResponseCreatesOnce() throws {
        let (f, sync) = try fixture()
        _ = try Note.create(["title": "once"], in: sync.store)
        f.server.inject(.dropConnectionMidBody, method: "POST")  // created, but the answer is lost
        try sync.push()
        #expect(f.server.objects(in: "notes").count == 1)
    }

    @Test func deletingMissingRemovesWhatTheServerDropped() throws {
        let (f, sync) = try fixture()
        f.server.seed("notes", [["title": "keep"], ["title": "gone"]])
        try sync.pull(Note.self)
        _ = try f.adapter.delete(id: 2, from: Note.schema)
        let report = try sync.pull(Note.self, deletingMissing: true)
        #expect(report.deleted == 1)
        #expect(try Note.all(in: sync.store).map(\.title) == ["keep"])
    }

    @Test func anAssignedIDAlreadyStoredLocallyTakesThePushedVersion() throws {
        let (f, sync) = try fixture()
        _ = try Note.create(["title": "mine"], in: sync.store)
        _ = try sync.store.local.insert([.int(1), .string("stale copy"), .null], into: Note.schema)  // as if pulled
        try sync.push()  // the server assigns id 1
        #expect(try Note.all(in: sync.store).map(\.title) == ["mine"])
        #expect(f.server.objects(in: "notes").map { $0["title"] } == ["mine"])
    }
}
