/// A stored row that does not fit its model: NULL in a non-optional column, a value of
/// another type, an integer out of the property's range, a date outside
/// ``ModelValue/dateRange`` — a row written by another tool, raw SQL or an older build.
///
/// Thrown by every finder and query on every adapter, in debug and release builds alike;
/// such a row never reads as `0` or `""`.
///
/// ```
/// people id 3: column age holds 1099511627776 (int): out of the range of the property's integer type
/// ```
public struct InvalidStoredValue: Error, Sendable, Equatable, CustomStringConvertible {
    /// The table the row was read from.
    public var table: String
    /// The row's id (nil when the id itself is the bad value).
    public var id: ModelValue?
    /// The column holding the value.
    public var column: String
    /// The value as stored.
    public var value: ModelValue
    /// Why it does not fit.
    public var reason: String

    /// Creates the error.
    public init(table: String, id: ModelValue?, column: String, value: ModelValue, reason: String) {
        self.table = table
        self.id = id
        self.column = column
        self.value = value
        self.reason = reason
    }

    /// The error as a ``StoreError`` of kind `.invalidStoredValue`, for code that handles
    /// every adapter failure as one type.
    public var storeError: StoreError {
        StoreError(.invalidStoredValue, table: table, id: id, message: description)
    }

    public var description: String {
        table + (id.map { " id \($0)" } ?? "") + ": column \(column) holds \(value) (\(value.kindName)): \(reason)"
    }
}
