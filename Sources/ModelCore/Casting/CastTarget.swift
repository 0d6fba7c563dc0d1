/// What a value is cast to: a column type, whether nil is allowed, and (for arrays and
/// dictionaries) the element type.
public struct CastTarget: Sendable, Hashable, CustomStringConvertible {
    /// The column type.
    public var type: ColumnType
    /// Whether `nil` is accepted.
    public var isOptional: Bool
    /// The element type of an array or dictionary column, when typed.
    public var elementType: ColumnType?

    /// Creates a target.
    public init(_ type: ColumnType, optional: Bool = false, elementType: ColumnType? = nil) {
        self.type = type
        self.isOptional = optional
        self.elementType = elementType
    }

    /// `int`, `string?`, `array<string>`…
    public var description: String {
        var text = type.rawValue
        if let elementType { text += "<\(elementType.rawValue)>" }
        return isOptional ? text + "?" : text
    }
}
