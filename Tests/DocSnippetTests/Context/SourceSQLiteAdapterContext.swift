import SQLiteAdapter

/// The names the `///` snippets of Sources/SQLiteAdapter use (compiled, not run).
enum SourceSQLiteAdapterDoc {
    struct Context {
        let store: SQLiteAdapter
        let user: SourceDoc_User
    }
}
