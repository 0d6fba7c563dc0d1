import RESTAdapter

/// The names the `///` snippets of Sources/RESTContract use (compiled, not run).
enum SourceRESTContractDoc {
    struct Context {
        let api: RESTAdapter
    }
}
