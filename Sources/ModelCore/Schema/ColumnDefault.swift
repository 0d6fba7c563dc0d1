/// How a column gets its value on a new record.
public enum ColumnDefault: Sendable {
    /// No default: the column starts as `nil` (optional columns only).
    case none
    /// A literal, already cast to the column's type, shared (values are immutable).
    case literal(ModelValue)
    /// Evaluated once per new record: the property's initial value expression
    /// (`@Column var createdOn: Date = Date()`), never one shared mutable value.
    case factory(@Sendable () -> ModelValue)

    /// Produces the value for a new record.
    @inlinable public func makeValue() -> ModelValue {
        switch self {
        case .none: .null
        case .literal(let value): value
        case .factory(let make): make()
        }
    }

    /// Whether the value is the same for every new record (no factory to run).
    package var isConstant: Bool {
        if case .factory = self { return false }
        return true
    }

    /// Whether an explicit `default:` was declared (nil assignments fall back to it).
    public var isDeclared: Bool {
        if case .literal = self { return true }
        return false
    }
}
