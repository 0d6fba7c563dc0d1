// Syncs a small local SQLite store with a REST server: pull, work offline, push.
//
//     swift run RESTSync                       # starts a server in-process (loopback)
//     swift run RESTSync http://host:port      # or syncs with yours (notes, tags)
//
// The local store is notes-cache.sqlite in the current directory. With your server, run
// it twice to see the second pull find nothing new; the in-process server is new on each
// run, so the cache starts afresh with it.
import Foundation
import RESTAdapter
import RESTTestServer
import SQLiteAdapter

final class Note: Model {
    @Column var title: String = ""
    @Column var done: Bool = false
    @Column var updatedAt: Date?
    init() {}
}

func run() throws {
    var server: RESTTestServer?
    let base: URL
    if CommandLine.arguments.count > 1, let url = URL(string: CommandLine.arguments[1]) {
        base = url
    } else {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: "notes-cache.sqlite" + suffix) }
        let local = try RESTTestServer()
        local.seed("notes", [["title": "buy milk", "done": false], ["title": "call Ann", "done": true]])
        server = local
        base = local.baseURL
    }
    defer { server?.stop() }
    print("server: \(base.absoluteString)")

    let sync = RESTSync(remote: RESTAdapter(baseURL: base), local: try SQLiteAdapter(path: "notes-cache.sqlite"))
    try sync.track(Note.self)
    ModelStore.setDefault(sync.store)

    let pulled = try sync.pull(Note.self, policy: .newestWins)
    print("pull: \(pulled)")

    let draft = try Note.create(["title": "written at \(Date().formatted(.iso8601))"])
    print("created locally with temporary id \(draft.id ?? 0); \(try sync.pendingChanges()) change(s) to push")
    if let first = try Note.where(\.title == "buy milk").first(), !first.done {
        first.done = true
        try first.save()
    }

    let pushed = try sync.push()
    print("push: \(pushed)")
    print("local store now:")
    for note in try Note.order(by: \.id).all() {
        print("  #\(note.id ?? 0) \(note.done ? "[x]" : "[ ]") \(note.title)")
    }
    if let server { print("server holds \(server.objects(in: "notes").count) notes") }
}

do {
    try run()
} catch {
    print("error: \(error)")
    exit(1)
}
