import PostgresAdapter

/// The names the `///` snippets of Sources/PostgresAdapter use (compiled, not run).
enum SourceSwiftModelPostgresDoc {
    struct Context {
        let store: PostgresAdapter
        let user: SourceDoc_User
    }
}
