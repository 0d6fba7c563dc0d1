import ArrayAdapter
import Foundation

/// The names the `///` snippets of Sources/ModelCore use (compiled, not run).
enum SourceModelCoreDoc {
    struct Context {
        let store: any PersistenceAdapter
        let todo: SourceDoc_Todo
        let user: SourceDoc_User
        let team: SourceDoc_Team
        let label: SourceDoc_Label
        let a: SourceDoc_Todo
        let b: SourceDoc_Todo
        let from: SourceDoc_Account
        let to: SourceDoc_Account
        let order: ModelCoreModelFieldTimestamps_Order
        let gate: CloseGate
        let fromID: Int64
        let toID: Int64
        let amount: Double
        let city: String
        let approved: Bool
        let count: Int
    }
}
