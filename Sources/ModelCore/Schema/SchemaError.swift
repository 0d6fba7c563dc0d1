/// A model declaration that cannot become a schema, found when the schema is first built.
///
/// ```
/// Task.description: the column name "description" is reserved (framework member or
/// common protocol requirement); rename it with @Column("…")
/// ```
public struct SchemaError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of mistake.
    public enum Kind: String, Sendable, Hashable {
        case reservedName, duplicateName, invalidName, invalidDefault, invalidTimestampType
        case declaredID, unsupportedInheritance, invalidTableName, invalidOption
        /// A relation whose inverse is missing or ambiguous, or that names a wrong column.
        case invalidRelation
    }

    /// The kind of mistake.
    public var kind: Kind
    /// The model's name.
    public var model: String
    /// The column concerned, if one is.
    public var column: String?
    /// What is wrong and how to fix it.
    public var reason: String

    /// Creates a schema error.
    public init(_ kind: Kind, model: String, column: String? = nil, reason: String) {
        self.kind = kind
        self.model = model
        self.column = column
        self.reason = reason
    }

    public var description: String {
        (column.map { "\(model).\($0)" } ?? model) + ": " + reason
    }
}
