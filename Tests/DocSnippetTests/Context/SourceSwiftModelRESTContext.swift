import RESTAdapter

/// The names the `///` snippets of Sources/RESTAdapter use (compiled, not run).
enum SourceSwiftModelRESTDoc {
    struct Context {
        let api: RESTAdapter
        let order: SourceDoc_Order
        let auth: SourceDoc_TokenSource
    }
}
