import AdapterConformance
import ArrayAdapter
import FileAdapter
import Foundation

// provides module: MyAdapter

/// Docs/Testing.md shows a third-party adapter, `MyAdapter`: here it is FileAdapter on a
/// temporary file, so the documented suite really runs (and must pass).
typealias MyAdapter = FileAdapter

/// Explicit saves only (no autosave timers in tests).
private var explicitSaves: FileAdapterConfiguration {
    var options = FileAdapterConfiguration()
    options.autosave = .never
    return options
}

extension FileAdapter {
    /// A fresh store on a new temporary file.
    static func temporary() throws -> FileAdapter {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("swiftmodel-doc-\(UUID().uuidString).archive")
        return try FileAdapter(file: file, configuration: explicitSaves)
    }

    /// Closes `store` (which writes its file, once anything was stored) and deletes the file.
    static func remove(_ store: any PersistenceAdapter) throws {
        guard let store = store as? FileAdapter, let file = store.file else {
            throw StoreError(.invalidRequest, table: "*", message: "not a FileAdapter with a file")
        }
        try store.close()
        if FileManager.default.fileExists(atPath: file.path) { try FileManager.default.removeItem(at: file) }
    }

    /// Saves `store` and opens its file again.
    convenience init(reopening store: any PersistenceAdapter) throws {
        guard let store = store as? FileAdapter, let file = store.file else {
            throw StoreError(.invalidRequest, table: "*", message: "not a FileAdapter with a file")
        }
        try store.close()
        try self.init(file: file, configuration: explicitSaves)
    }
}

enum TestingDoc {
    struct Context {}

    static func withContext(_ body: (Context) throws -> Void) throws {
        try ModelStore.using(ArrayAdapter()) { try body(Context()) }
    }
}
