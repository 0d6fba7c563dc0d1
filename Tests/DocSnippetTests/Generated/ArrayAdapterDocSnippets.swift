// Generated from Docs/ArrayAdapter.md by Scripts/doc-snippets.py: do not edit; edit the document and rerun.
// swift-format-ignore-file

import ArrayAdapter
import FileAdapter
import Foundation
import SQLiteAdapter
import Testing

/// The context of Docs/ArrayAdapter.md's snippets: a fresh in-memory default store.
enum ArrayAdapterDoc {
    struct Context {}

    static func withContext(_ body: (Context) throws -> Void) throws {
        try ModelStore.using(ArrayAdapter()) { try body(Context()) }
    }
}

extension ArrayAdapterDoc {
    /// Docs/ArrayAdapter.md, snippet 1 (line 6).
    static func snippet1(_ context: Context) throws {
        let store = ArrayAdapter()
        show(ModelStore.setDefault(store))     // or ModelStore.using(store) { … } in tests
        try show(store.reset())                // empty every table (not inside a transaction)
        show(store)
    }
}

@Suite("Docs/ArrayAdapter.md snippets") struct ArrayAdapterDocSnippetTests {
    // snippet 1 is compiled only (marked compile-only in the document)
}
