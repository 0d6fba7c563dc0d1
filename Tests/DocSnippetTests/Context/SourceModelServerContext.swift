import ModelServer

/// The names the `///` snippets of Sources/ModelServer use (compiled, not run).
enum SourceModelServerDoc {
    struct Context {
        let resources: ModelResources
    }
}
