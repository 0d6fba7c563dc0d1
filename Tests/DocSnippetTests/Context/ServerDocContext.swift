import Foundation
import ModelServer
import SQLiteAdapter

/// Docs/Server.md's snippets are async (compiled only); later ones use the resources the
/// first one builds.
enum ServerDoc {
    struct Context {
        let resources: ModelResources
    }

    static func withContext(_ body: (Context) throws -> Void) throws {
        try body(Context(resources: ModelResources(store: try SQLiteAdapter())))
    }
}
