/// A model declaration that cannot become a schema, found when the schema is first built.
///
/// ```
/// Order.isDirty: the property `isDirty` would shadow the record member of that name;
/// rename the property and keep the column with @Column("is_dirty")
/// ```
public struct SchemaError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of mistake.
    public enum Kind: String, Sendable, Hashable {
        /// A property that would shadow a record member (`changes`, `isDirty`, …).
        case reservedName
        /// Two properties (or a field timestamp) mapping to one column.
        case duplicateName
        /// A column name outside `[A-Za-z_][A-Za-z0-9_]*`.
        case invalidName
        /// A declared default that does not cast to the column's type.
        case invalidDefault
        /// No longer produced: a `created_at`/`updated_at` that is not a `Date` is simply
        /// not stamped. Kept so existing `switch`es compile.
        case invalidTimestampType
        /// An `id` property declared on a model.
        case declaredID
        /// A model that does not inherit from `Model` directly.
        case unsupportedInheritance
        /// A table name outside `[A-Za-z_][A-Za-z0-9_]*`.
        case invalidTableName
        /// An option that does not fit the column (`.text` on a non-string, `.dateStorage`
        /// on a non-date, two date storages).
        case invalidOption
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
