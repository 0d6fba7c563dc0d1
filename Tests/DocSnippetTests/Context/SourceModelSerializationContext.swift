import ArrayAdapter
import Foundation

/// The names the `///` snippets of Sources/ModelSerialization use (compiled, not run).
enum SourceModelSerializationDoc {
    struct Context {
        let data: Data
        let authors: [SourceDoc_Author]
        let team: SourceDoc_Team
        let todo: SourceDoc_Todo
        let row: [ModelValue]
    }
}
