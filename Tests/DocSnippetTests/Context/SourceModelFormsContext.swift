import Foundation

/// The names the `///` snippets of Sources/ModelForms use (compiled, not run).
enum SourceModelFormsDoc {
    struct Context {
        let todo: SourceDoc_Todo
        let url: URL
    }
}
