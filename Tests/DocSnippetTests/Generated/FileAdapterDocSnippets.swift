// Generated from Docs/FileAdapter.md by Scripts/doc-snippets.py: do not edit; edit the document and rerun.
// swift-format-ignore-file

import ArrayAdapter
import FileAdapter
import Foundation
import SQLiteAdapter
import Testing

extension FileAdapterDoc {
    /// Docs/FileAdapter.md, snippet 1 (line 9).
    static func snippet1(_ context: Context) throws {

        let store = try FileAdapter(file: URL(filePath: "app.archive"), models: [FileAdapterDoc_Project.self, FileAdapterDoc_Todo.self])
        show(ModelStore.setDefault(store))

        try show(FileAdapterDoc_Todo(["name": "walk the dog"]).save())    // saved to app.archive shortly after the commit
        try show(store.flush())                             // …or now (call it before the process exits)
        show(store)
    }

    /// Docs/FileAdapter.md, snippet 2 (line 28).
    static func snippet2(_ context: Context) throws {
        show(ModelStore.setDefault(FileAdapter()))                           // no store file
        try show(FileAdapterDoc_Todo.deserialize(from: URL(filePath: "todos.archive")))     // missing file: no todos
        try show(FileAdapterDoc_Todo(["name": "walk"]).save())
        try show(FileAdapterDoc_Todo.serialize())                                           // the remembered file
        try show(FileAdapterDoc_Todo.serialize(to: URL(filePath: "backup.archive")))        // now remembered instead
    }

    /// Docs/FileAdapter.md, snippet 3 (line 126).
    static func snippet3(_ context: Context) throws {
        let store = context.store
        try show(store.register(FileAdapterDoc_Todo.self, version: 3, migrations: [
            ArchiveMigration(to: 2) { record in record.rename("title", to: "name") },
            ArchiveMigration(to: 3) { record in
                record["minutes"] = .int((record["hours"]?.intValue ?? 0) * 60)
            },
        ]))
    }
}

@Suite("Docs/FileAdapter.md snippets") struct FileAdapterDocSnippetTests {
    // snippet 1 is compiled only (marked compile-only in the document)
    // snippet 2 is compiled only (marked compile-only in the document)
    @Test func snippet3() throws { try privately { try FileAdapterDoc.withContext { try FileAdapterDoc.snippet3($0) } } }
}
