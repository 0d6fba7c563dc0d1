import ArrayAdapter

/// The names the `///` snippets of Sources/ModelValidation use (compiled, not run).
enum SourceModelValidationDoc {
    struct Context {
        /// The rules being declared, as inside `static func validations(_ v:)`.
        var v: Validations<SourceDoc_User>
        let user: SourceDoc_User
        let post: SourceDoc_Post
        let error: ValidationError
    }
}
