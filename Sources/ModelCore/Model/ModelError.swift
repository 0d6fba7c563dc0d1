/// A failure of a model operation, naming the model and what was asked.
///
/// Casting failures are ``CastError``, declaration mistakes ``SchemaError``, and adapter
/// failures ``StoreError``; this covers the rest.
public struct ModelError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: String, Sendable, Hashable {
        /// A column name the model does not have.
        case unknownColumn
        /// No stored record has this id.
        case recordNotFound
        /// A record with caller-provided (`String`) ids was saved without one.
        case missingID
        /// The id of a stored record was changed.
        case idChanged
        /// A before-hook returned `false` (thrown by the `…OrThrow` variants only).
        case cancelled
        /// `rollback()` was called outside `transaction {}`.
        case noTransaction
        /// No adapter is configured for this model.
        case noStore
        /// The operation needs a stored record (delete, reload).
        case notPersisted
        /// A key path that is not exactly one `@Column` property.
        case notAColumn
        /// `destroy()` refused: a `.restrict` relation still has records.
        case restricted
    }

    /// What went wrong.
    public var kind: Kind
    /// The model's name.
    public var model: String
    /// The column concerned, if any.
    public var column: String?
    /// The id concerned, if any.
    public var id: ModelValue?
    /// Details.
    public var message: String

    /// Creates a model error.
    public init(_ kind: Kind, model: String, column: String? = nil, id: ModelValue? = nil, message: String) {
        self.kind = kind
        self.model = model
        self.column = column
        self.id = id
        self.message = message
    }

    public var description: String {
        var place = model
        if let column { place += "." + column }
        if let id { place += " id \(id)" }
        return place + ": " + message
    }
}
