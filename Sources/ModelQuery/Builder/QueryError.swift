/// A query that cannot run: an unknown column, a value that cannot be cast to the
/// column's type, an operator the column's type does not support, a bad argument.
///
/// Builders never throw while chaining; the first problem is kept and thrown by the
/// terminal call (`all()`, `count()`, …) before the store is touched, so a mistake is
/// never an empty result.
public struct QueryError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: String, Sendable, Hashable {
        /// No column has this name (or the key path is not an `@Column`).
        case unknownColumn
        /// The value cannot be cast to the column's type.
        case invalidValue
        /// The operator does not apply to the column's type (`contains` on an `Int`,
        /// `sum` of a string column).
        case invalidOperator
        /// A bad argument (a negative limit, page 0).
        case invalidArgument
        /// A combination the engine does not support.
        case unsupported
        /// A relation that cannot be resolved (see ``SchemaError``), or used on a record
        /// that is not saved.
        case invalidRelation
    }

    /// What went wrong.
    public var kind: Kind
    /// The model's type name.
    public var model: String
    /// The column involved, if any.
    public var column: String?
    /// The value involved, if any.
    public var value: ModelValue?
    /// A description for people.
    public var message: String

    /// Creates an error.
    public init(_ kind: Kind, model: String, column: String? = nil, value: ModelValue? = nil, message: String) {
        self.kind = kind
        self.model = model
        self.column = column
        self.value = value
        self.message = message
    }

    public var description: String {
        var where_ = model
        if let column { where_ += ".\(column)" }
        return "query on \(where_): \(message)"
    }
}

extension QueryError: SwiftModelError {
    /// The model queried.
    public var modelName: String? { model }
    /// The column, when one is concerned.
    public var columnName: String? { column }
    /// The value that does not fit the column, when one is concerned.
    public var offendingValue: ModelValue? { value }
}
