/// One column of a model's schema, derived once from its `@Column` declaration.
public struct ColumnDefinition: Sendable, CustomStringConvertible {
    /// The stored name (`"long_name"`).
    public let name: String
    /// The Swift property name (`"longName"`); `"id"` for the id column.
    public let propertyName: String
    /// The declared type.
    public let type: ColumnType
    /// Whether the column accepts nil.
    public let isOptional: Bool
    /// For typed arrays and dictionaries, the element type.
    public let elementType: ColumnType?
    /// Declared options.
    public let options: ColumnOptions
    /// How new records get their value.
    public let defaultValue: ColumnDefault
    /// The column's position in rows (the id is 0).
    public let index: Int
    /// Checks that a stored value decodes as the Swift property type (for example an
    /// `Int32` column rejects values out of `Int32`'s range).
    package let accepts: @Sendable (ModelValue) -> Bool

    package init(
        name: String, propertyName: String, type: ColumnType, isOptional: Bool, elementType: ColumnType?,
        options: ColumnOptions, defaultValue: ColumnDefault, index: Int, accepts: @escaping @Sendable (ModelValue) -> Bool
    ) {
        self.name = name
        self.propertyName = propertyName
        self.type = type
        self.isOptional = isOptional
        self.elementType = elementType
        self.options = options
        self.defaultValue = defaultValue
        self.index = index
        self.accepts = accepts
    }

    /// What values assigned to this column are cast to.
    public var castTarget: CastTarget { CastTarget(type, optional: isOptional, elementType: elementType) }

    /// `name: string?`
    public var description: String { "\(name): \(castTarget)" }
}
