// Generated from the `///` comments of Sources/SwiftModelFile by Scripts/doc-snippets.py: do not edit;
// edit the comments and rerun. Compiled, not run.
// swift-format-ignore-file

@testable import SwiftModelFile
import ArrayAdapter
import FileAdapter
import Foundation
import PostgresAdapter
import RESTAdapter
import SQLiteAdapter
import Testing

extension SourceSwiftModelFileDoc {
    /// Sources/SwiftModelFile/Archive/ArchiveError.swift, snippet 1.
    static func ArchiveError1(_ given: Context) throws {
        let store = given.store
        do {
            try store.load()
        } catch let error as ArchiveError where error.kind == .corrupt {
            print(error)   // todos.archive: corrupt: reference 912 is out of range
        }
    }

    /// Sources/SwiftModelFile/Archive/KeyedArchiveWriter.swift, snippet 1.
    static func KeyedArchiveWriter1(_ given: Context) throws {
        var writer = try KeyedArchiveWriter()
        let name = try writer.key("name")
        show(writer.beginObject(className: "Todo"))
        try show(writer.encode(.string("walk"), forKey: name))
        let todo = try writer.endObject()
        let bytes = try writer.finish(root: todo)
        show(writer, name, todo, bytes)
    }

    /// Sources/SwiftModelFile/Store/ArchiveMigration.swift, snippet 1.
    static func ArchiveMigration1(_ given: Context) throws {
        let store = given.store
        try show(store.register(SourceDoc_Todo.self, version: 3, migrations: [
            ArchiveMigration(to: 2) { record in record.rename("title", to: "name") },
            ArchiveMigration(to: 3) { record in
                let minutes = record["estimate_hours"]?.intValue.map { $0 * 60 } ?? 0
                record["estimate_minutes"] = .int(minutes)
            },
        ]))
    }

    /// Sources/SwiftModelFile/Store/FileAdapter.swift, snippet 1.
    static func FileAdapter1(_ given: Context) throws {

        // The whole store in one file, loaded now, saved after each commit.
        let store = try FileAdapter(file: URL(filePath: "app.archive"), models: [SourceDoc_Project.self, SourceDoc_Todo.self])
        show(ModelStore.setDefault(store))
        try show(SourceDoc_Todo(["name": "walk"]).save())
        try show(store.flush())                     // write pending changes now (autosave is coalesced)

        // One file per model type, as MotionModel's serialize_to_file did.
        try show(SourceDoc_Todo.serialize(to: URL(filePath: "todos.archive")))
        try show(SourceDoc_Todo.deserialize(from: URL(filePath: "todos.archive")))   // replaces Todo's rows
        try show(SourceDoc_Todo.serialize())                  // the remembered file
        show(store)
    }

    /// Sources/SwiftModelFile/Store/FileAdapterConfiguration.swift, snippet 1.
    static func FileAdapterConfiguration1(_ given: Context) throws {
        let url = given.url
        var configuration = FileAdapter.Configuration()
        configuration.autosave = .never                 // only save() / serialize() write
        configuration.permissions = 0o640
        let store = try FileAdapter(file: url, configuration: configuration)
        show(configuration, store)
    }

    /// Sources/SwiftModelFile/Store/Model+Archive.swift, snippet 1.
    static func ModelArchive1(_ given: Context) throws {
        show(ModelStore.setDefault(FileAdapter()))
        try show(SourceDoc_Todo.deserialize(from: URL(filePath: "todos.archive")))   // missing file: no todos
        try show(SourceDoc_Todo(["name": "walk"]).save())
        try show(SourceDoc_Todo.serialize())                                          // back to todos.archive
    }
}
