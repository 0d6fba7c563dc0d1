/// A failure reported by an adapter, with the table and what was asked.
public struct StoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: String, Sendable, Hashable {
        /// An insert reused an id that is already stored.
        case duplicateID
        /// An update named an id that is not stored.
        case notFound
        /// A column index or value the adapter cannot handle.
        case invalidRequest
        /// The underlying store failed (I/O, engine error).
        case storage
        /// A stored row does not fit the model (see ``InvalidStoredValue``, which carries
        /// the column and the value).
        case invalidStoredValue
    }

    /// What went wrong.
    public var kind: Kind
    /// The table concerned.
    public var table: String
    /// The id concerned, if any.
    public var id: ModelValue?
    /// Details.
    public var message: String

    /// Creates a store error.
    public init(_ kind: Kind, table: String, id: ModelValue? = nil, message: String) {
        self.kind = kind
        self.table = table
        self.id = id
        self.message = message
    }

    public var description: String {
        "\(table)" + (id.map { " id \($0)" } ?? "") + ": " + message
    }
}
