import SQLiteAdapter

/// The names the `///` snippets of Sources/SQLiteAdapter use (compiled, not run).
enum SourceSwiftModelSQLiteDoc {
    struct Context {
        let store: SQLiteAdapter
        let user: SourceDoc_User
    }
}
