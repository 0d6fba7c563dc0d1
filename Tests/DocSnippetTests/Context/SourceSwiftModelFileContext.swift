import FileAdapter
import Foundation

/// The names the `///` snippets of Sources/FileAdapter use (compiled, not run).
enum SourceSwiftModelFileDoc {
    struct Context {
        let store: FileAdapter
        let url: URL
    }
}
