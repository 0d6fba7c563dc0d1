// Generated from Docs/Sync.md by Scripts/doc-snippets.py: do not edit; edit the document and rerun.
// swift-format-ignore-file

import ArrayAdapter
import FileAdapter
import Foundation
import RESTAdapter
import SQLiteAdapter
import Testing

// Docs/Sync.md, snippet 1 (line 9)
final class SyncDoc_Chore: Model {
    static var keepsHistory: Bool { true }   // the server keeps its history: it has a feed
    @Column var title = ""
    @Column var done = false
    init() {}
}

// Docs/Sync.md, snippet 1 (line 9)
func SyncDoc_follow(_ server: URL) throws {
    let api = RESTAdapter(baseURL: server)
    var resource = RESTResource(idAssignment: .server)
    resource.changesFeed = true
    api.register(SyncDoc_Chore.self, resource)
    let sync = RESTSync(remote: api, local: try SQLiteAdapter(path: "cache.sqlite"))
    try sync.track(SyncDoc_Chore.self)
    let first = try sync.pull(SyncDoc_Chore.self)    // the whole collection (first.resynced)
    let later = try sync.pull(SyncDoc_Chore.self)    // one request: the changes since `first`
    print(first, later, try sync.checkpoint(SyncDoc_Chore.self) ?? "none")
}

/// The context of Docs/Sync.md's snippets: a fresh in-memory default store.
enum SyncDoc {
    struct Context {}

    static func withContext(_ body: (Context) throws -> Void) throws {
        try ModelStore.using(ArrayAdapter()) { try body(Context()) }
    }
}

extension SyncDoc {
    /// Docs/Sync.md, snippet 1 (line 9).
    static func snippet1(_ context: Context) throws {
        _ = context


    }
}

@Suite("Docs/Sync.md snippets") struct SyncDocSnippetTests {
    // snippet 1 is compiled only (marked compile-only in the document)
}
