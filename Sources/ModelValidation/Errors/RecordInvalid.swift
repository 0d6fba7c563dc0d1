/// Thrown by `saveOrThrow()` (and `create`) when a record fails validation; carries the
/// errors. Nothing was written.
///
/// ```swift
/// do { try user.save() } catch let invalid as RecordInvalid {
///     print(invalid.errors.fullMessages)   // ["name can't be blank"]
/// }
/// ```
public struct RecordInvalid: Error, Sendable, Equatable, CustomStringConvertible {
    /// The model's type name.
    public let model: String
    /// The record's id (`.null` for a new record).
    public let id: ModelValue
    /// What failed.
    public let errors: ValidationErrors

    /// Creates the error.
    public init(model: String, id: ModelValue, errors: ValidationErrors) {
        self.model = model
        self.id = id
        self.errors = errors
    }

    public var description: String {
        let who = id.isNull ? "new \(model)" : "\(model) \(id)"
        return "\(who) is invalid: " + errors.fullMessages.joined(separator: "; ")
    }
}

/// A model's validations are malformed: an unknown column, an empty or contradictory
/// range, a rule that does not fit the column's type, an unknown named validator.
///
/// Raised the first time the model's validations are built (by the first `validate()`,
/// `isValid` or `save()`, or eagerly by `checkValidations()`), and again on every later
/// use: a malformed rule is never ignored.
public struct ValidationDefinitionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The model's type name.
    public let model: String
    /// The column the rule names (as written), if any.
    public let column: String?
    /// The rule (`"length"`, `"format"`, …).
    public let rule: String
    /// What is wrong.
    public let reason: String

    /// Creates the error.
    public init(model: String, column: String?, rule: String, reason: String) {
        self.model = model
        self.column = column
        self.rule = rule
        self.reason = reason
    }

    public var description: String {
        "invalid \(rule) validation on \(model)" + (column.map { ".\($0)" } ?? "") + ": \(reason)"
    }
}

extension RecordInvalid: SwiftModelError {
    /// The model.
    public var modelName: String? { model }
    /// The attribute with the first error, when errors name attributes (every message is
    /// in ``errors``).
    public var columnName: String? { errors.first?.column }
}

extension ValidationDefinitionError: SwiftModelError {
    /// The model.
    public var modelName: String? { model }
    /// The column the rule names, if any.
    public var columnName: String? { column }
}
