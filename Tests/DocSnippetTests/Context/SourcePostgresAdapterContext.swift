import PostgresAdapter

/// The names the `///` snippets of Sources/PostgresAdapter use (compiled, not run).
enum SourcePostgresAdapterDoc {
    struct Context {
        let store: PostgresAdapter
        let user: SourceDoc_User
    }
}
