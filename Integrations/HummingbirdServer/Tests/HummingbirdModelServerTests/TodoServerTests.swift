import Foundation
import RESTAdapter
import SQLiteAdapter
import Testing
import TodoModels

/// TodoServer as a process, over real HTTP, with the same models and resource declarations
/// on the client: CRUD and nested lists, RESTSync pull/push/offline/conflict, and a server
/// that dies between committing creates and answering them, then comes back.
@Suite(.serialized) struct TodoServerTests {
    static func client(_ server: TodoServerProcess) -> RESTAdapter {
        var configuration = RESTConfiguration()
        configuration.retry.baseDelay = .milliseconds(20)
        let client = RESTAdapter(baseURL: server.baseURL, configuration: configuration)
        TodoAPI.register(on: client)
        return client
    }

    @Test func theSameModelsWorkOnClientAndServer() async throws {
        let server = try TodoServerProcess()
        let api = Self.client(server)
        let todo = try await Todo.create(["title": "walk the dog"], in: api)
        let leash = try await TodoItem.create(["text": "leash", "todo_id": .int(todo.id ?? 0)], in: api)
        _ = try await TodoItem.create(["text": "bags", "todo_id": .int(todo.id ?? 0)], in: api)
        #expect(leash.updatedAt != nil)  // set by the server, read back
        let items = try await todo.items.query.order(by: \.text).all()
        #expect(items.map(\.text) == ["bags", "leash"])
        leash.done = true
        try await leash.save()
        #expect(try await TodoItem.where(\.done == true).using(api).count() == 1)
        let invalid = Todo()
        await #expect(throws: RecordInvalid.self) { try await invalid.save(to: api) }  // the client validates first
        let refused = await #expect(throws: RESTError.self) { try await invalid.save(to: api, validate: false) }
        #expect(refused?.status == 422)  // and so does the server
        #expect(try await todo.destroy())
        #expect(try await TodoItem.count(in: api) == 0)  // the server's delete rule ran too
    }

    @Test func syncPullsPushesWorksOfflineAndReportsConflicts() throws {
        let server = try TodoServerProcess()
        let api = Self.client(server)
        let other = Self.client(server)  // another device
        _ = try Todo.create(["title": "from the web"], in: other)
        let sync = RESTSync(remote: api, local: try SQLiteAdapter())
        try sync.track(Todo.self)
        #expect(try sync.pull(Todo.self).inserted == 1)
        // Offline: changes go to the journal; one push sends them.
        let draft = try ModelStore.using(sync.store) { try Todo.create(["title": "written offline"]) }
        let pulled = try #require(try Todo.where(\.title == "from the web").using(sync.store).first())
        pulled.title = "edited offline"
        try pulled.save()
        #expect(try sync.pendingChanges() == 2)
        let pushed = try sync.push()
        #expect(pushed.inserted == 1 && pushed.updated == 1, "\(pushed)")
        #expect(try Todo.where(\.title == "edited offline").using(other).count() == 1)
        #expect(try Todo.find(draft.id ?? -1, in: other)?.title == "written offline")  // the server's id, locally
        // A record deleted on the server meanwhile is a conflict, not lost silently.
        #expect(try Todo.delete(id: pulled.id ?? -1, in: other))
        pulled.title = "edited again"
        try pulled.save()
        let conflict = try sync.push()
        #expect(conflict.conflicts.count == 1)
        // A change the server refuses (validation) stays journaled as failed.
        draft.title = ""
        try draft.save(validate: false)
        let refused = try sync.push()
        #expect(refused.outcomes.contains { if case .failed = $0.result { true } else { false } }, "\(refused)")
    }

    @Test func aServerThatDiesBeforeAnsweringCreatesLosesAndDuplicatesNothing() throws {
        // The server exits right after its 5th create commits — before answering it.
        let server = try TodoServerProcess(arguments: ["--exit-after-creates", "5"])
        let api = Self.client(server)
        let sync = RESTSync(remote: api, local: try SQLiteAdapter())
        try sync.track(Todo.self)
        try ModelStore.using(sync.store) {
            for k in 0..<12 { _ = try Todo.create(["title": "offline \(k)"]) }
        }
        #expect(throws: (any Error).self) { try sync.push() }
        #expect(server.waitForExit() == 3)
        #expect(try sync.pendingChanges() == 8, "4 answered, the 5th committed but unanswered")
        // Back on the same port and file: the push resumes, the 5th is replayed by its key.
        try server.start()
        let resumed = try sync.push()
        let left = try sync.pendingChanges()
        #expect(resumed.inserted == 8 && left == 0, "\(resumed)")
        let stored = try Todo.all(in: api).map(\.title).sorted()
        #expect(stored == (0..<12).map { "offline \($0)" }.sorted(), "every create exactly once: \(stored)")
        let local = try Todo.all(in: sync.store).compactMap(\.id).sorted()
        let remote = try Todo.all(in: api).compactMap(\.id).sorted()
        #expect(local == remote, "local records carry the server's ids")
    }
}
