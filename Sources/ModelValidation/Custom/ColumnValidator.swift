
/// A reusable column rule, registered once by name and used across models.
///
/// ```swift
/// struct ISBNValidator: ColumnValidator {
///     var code: String { "isbn" }
///     var message: String { "is not a valid ISBN" }
///     func accepts(_ type: ColumnType) -> Bool { type == .string }
///     func isValid(_ value: ModelValue, column: ColumnDefinition) -> Bool {
///         guard case .string(let s) = value else { return false }
///         return s.filter(\.isNumber).count == 13
///     }
/// }
///
/// Validators.register(ISBNValidator(), as: "isbn")
/// // in a model:
/// v.add(\.isbn, .validator("isbn"))
/// ```
public protocol ColumnValidator: Sendable {
    /// The stable code of its errors.
    var code: String { get }
    /// The default message (a template, as in ``ValidationMessages``).
    var message: String { get }
    /// Whether the validator applies to columns of this type; checked when a model's
    /// validations are built. Defaults to `true`.
    func accepts(_ type: ColumnType) -> Bool
    /// Whether `value` (non-nil, already cast to the column's type) is valid.
    func isValid(_ value: ModelValue, column: ColumnDefinition) -> Bool
}

extension ColumnValidator {
    public func accepts(_ type: ColumnType) -> Bool { true }
}

/// The process-wide registry of named ``ColumnValidator``s.
///
/// A model's validations resolve names when they are built (on first use), so register
/// validators at startup, before the models that use them validate.
public enum Validators {
    private static let registry = Locked<[String: any ColumnValidator]>([:])

    /// Registers `validator` under `name`, replacing any validator of that name.
    public static func register(_ validator: some ColumnValidator, as name: String) {
        registry.withLock { $0[name] = validator }
    }

    /// Removes the validator registered under `name`.
    public static func unregister(_ name: String) {
        _ = registry.withLock { $0.removeValue(forKey: name) }
    }

    /// The validator registered under `name`.
    public static func named(_ name: String) -> (any ColumnValidator)? {
        registry.withLock { $0[name] }
    }
}
