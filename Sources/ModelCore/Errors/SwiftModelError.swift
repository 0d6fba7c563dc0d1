/// The one protocol every error SwiftModel throws conforms to: catch it to handle any
/// failure of the model layer or of any adapter, and read the context the error knows.
///
/// Each error type keeps the detail only it has (a ``StoreError``'s kind, a
/// ``CastError``'s target type, an engine's SQL or an HTTP status); this protocol is what
/// they share, nil where an error does not know:
///
/// ```swift
/// do {
///     try user.save()
/// } catch let error as any SwiftModelError {
///     print("\(error.modelName ?? "?").\(error.columnName ?? "?"): \(error)")
///     if error.storeErrorKind == .uniqueViolation { showTaken() }
/// }
/// ```
///
/// ``offendingValue`` may be a user's data (an e-mail address, a token): errors keep it out
/// of `description` where it could be private, and so should logs.
public protocol SwiftModelError: Error, CustomStringConvertible {
    /// The model concerned (its type name, `"Todo"`), when known.
    var modelName: String? { get }
    /// The table concerned (`"todos"`), when known.
    var tableName: String? { get }
    /// The column, attribute, JSON key path or form field concerned, when known.
    var columnName: String? { get }
    /// The value at fault (the text that did not cast, the stored value that does not fit),
    /// when known.
    var offendingValue: ModelValue? { get }
    /// The failure every adapter reports alike that this error is, when it is one: a
    /// ``StoreError``'s kind, and the same kind for an engine error behind it (a SQLite or
    /// PostgreSQL unique violation is `.uniqueViolation`).
    var storeErrorKind: StoreError.Kind? { get }
    /// Whether a store refused a write for a constraint: a unique value or id, a foreign
    /// key, a `NOT NULL` or `CHECK` (fluent-kit's `isConstraintFailure`).
    var isConstraintFailure: Bool { get }
    /// Whether a store refused a value the caller sent: one its column cannot hold (text
    /// with NUL in PostgreSQL, a number out of the column's range). Retrying the same
    /// value fails the same way.
    var isInvalidValue: Bool { get }
    /// Whether the failure is about the store's availability, not the request: a lost
    /// connection, no free connection in time, a serialization failure or deadlock.
    /// Retrying later may succeed.
    var isTransient: Bool { get }
}

extension SwiftModelError {
    /// Nil: the error does not concern one model.
    public var modelName: String? { nil }
    /// Nil: the error does not name a table.
    public var tableName: String? { nil }
    /// Nil: the error does not name a column.
    public var columnName: String? { nil }
    /// Nil: the error carries no value.
    public var offendingValue: ModelValue? { nil }
    /// Nil: the error is not one of the failures every adapter shares.
    public var storeErrorKind: StoreError.Kind? { nil }
    /// Whether ``storeErrorKind`` is `.uniqueViolation` or `.duplicateID`.
    public var isConstraintFailure: Bool { storeErrorKind == .uniqueViolation || storeErrorKind == .duplicateID }
    /// False: the error is not a refused value.
    public var isInvalidValue: Bool { false }
    /// False: the error is not about the store's availability.
    public var isTransient: Bool { false }
}

extension StoreError: SwiftModelError {
    /// The table, unless the failure concerns the whole store.
    public var tableName: String? { table.isEmpty || table == "*" ? nil : table }
    /// The column, when known (the unique column of a `.uniqueViolation`).
    public var columnName: String? { column }
    /// The kind.
    public var storeErrorKind: StoreError.Kind? { kind }
}

extension InvalidStoredValue: SwiftModelError {
    /// The table the row was read from.
    public var tableName: String? { table }
    /// The column holding the value.
    public var columnName: String? { column }
    /// The value as stored.
    public var offendingValue: ModelValue? { value }
    /// `.invalidStoredValue`.
    public var storeErrorKind: StoreError.Kind? { .invalidStoredValue }
}

extension CastError: SwiftModelError {
    /// The model.
    public var modelName: String? { model }
    /// The column.
    public var columnName: String? { column }
    /// The value that did not cast.
    public var offendingValue: ModelValue? { value }
}

extension ModelError: SwiftModelError {
    /// The model.
    public var modelName: String? { model }
    /// The column, if one is concerned.
    public var columnName: String? { column }
}

extension SchemaError: SwiftModelError {
    /// The model.
    public var modelName: String? { model }
    /// The column, if one is concerned.
    public var columnName: String? { column }
}

extension JSONTransformerError: SwiftModelError {
    /// The value the transformer does not know.
    public var offendingValue: ModelValue? { value }
}

extension InflectorError: SwiftModelError {}
