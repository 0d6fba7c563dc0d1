import SQLiteAdapter

/// The names the `///` snippets of Sources/ModelSQL use (compiled, not run).
enum SourceModelSQLDoc {
    struct Context {
        let store: SQLiteAdapter
    }
}
