/// Where a record stands with respect to validation (as in iModel).
///
/// ```swift
/// let user = User()
/// user.validationState          // .empty
/// user.name = "A"
/// user.validationState          // .dirty
/// try user.validate()
/// user.validationState          // .invalid(errors) – "name is too short …"
/// user.name = "Ada"
/// user.validationState          // .dirty
/// try user.validate()
/// user.validationState          // .valid
/// ```
public enum ValidationState: Sendable, Equatable {
    /// Never validated, and unchanged since it was made or loaded.
    case empty
    /// Changed since the last validation (or never validated).
    case dirty
    /// The current values passed the last validation.
    case valid
    /// The current values failed the last validation with these errors.
    case invalid(ValidationErrors)
}

/// The last full validation of a record: the values it saw and what it found.
struct ValidationMemo: Sendable {
    let values: [ModelValue]
    let errors: ValidationErrors
}
