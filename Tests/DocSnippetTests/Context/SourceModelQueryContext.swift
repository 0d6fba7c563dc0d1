import ArrayAdapter
import Foundation

/// The names the `///` snippets of Sources/ModelQuery use (compiled, not run).
enum SourceModelQueryDoc {
    struct Context {
        let context: ModelContext
        let draftsURL: URL
        let todo: SourceDoc_Todo
        let assignee: SourceDoc_Assignee
        let carol: SourceDoc_Assignee
        let user: SourceDoc_User
        let newProfile: SourceDoc_Profile
        let league: ModelQueryHasManyThrough_League
        let student: ModelQueryHasManyThrough_Student
        let level: Int
    }
}
