// Generated from Docs/History.md by Scripts/doc-snippets.py: do not edit; edit the document and rerun.
// swift-format-ignore-file

import ArrayAdapter
import FileAdapter
import Foundation
import SQLiteAdapter
import Testing

// Docs/History.md, snippet 1 (line 8)
final class HistoryDoc_Note: Model {
    static var keepsHistory: Bool { true }
    @Column var title = ""
    @Column var pinned = false
    init() {}
}

/// The context of Docs/History.md's snippets: a fresh in-memory default store.
enum HistoryDoc {
    struct Context {}

    static func withContext(_ body: (Context) throws -> Void) throws {
        try ModelStore.using(ArrayAdapter()) { try body(Context()) }
    }
}

extension HistoryDoc {
    /// Docs/History.md, snippet 1 (line 8).
    static func snippet1(_ context: Context) throws {

        let store = try SQLiteAdapter()               // or SQLiteAdapter(path:)
        let start = try store.historyHead()           // "now": only later changes
        let note = try HistoryDoc_Note.create(["title": "milk"], in: store)
        note.pinned = true
        try show(note.save())
        try show(note.delete())

        let page = try HistoryDoc_Note.history(after: start, in: store)
        show(print(page.entries.map(\.action)))            // [.insert, .update, .delete]
        show(print(page.entries[1].changedColumns ?? []))  // ["pinned"]
        let resumeFrom = page.next                   // store it with what you applied
        show(store, start, note, page, resumeFrom)
    }

    /// Docs/History.md, snippet 2 (line 64).
    static func snippet2(_ context: Context) throws {
        let store = try SQLiteAdapter()
        let old = try store.historyHead()
        try show(HistoryDoc_Note.create(["title": "bread"], in: store))
        try show(store.compactHistory(before: Date().addingTimeInterval(1)))   // retention: everything
        do {
            _ = try HistoryDoc_Note.history(after: old, in: store)
        } catch let error as StoreError where error.kind == .historyCompacted {
            // read everything again, then follow from try store.historyHead()
        }
        show(store, old)
    }
}

@Suite("Docs/History.md snippets") struct HistoryDocSnippetTests {
    @Test func snippet1() throws { try privately { try HistoryDoc.withContext { try HistoryDoc.snippet1($0) } } }
    @Test func snippet2() throws { try privately { try HistoryDoc.withContext { try HistoryDoc.snippet2($0) } } }
}
