extension ColumnType {
    /// The SQLite column type this adapter declares (and the storage class it writes).
    ///
    /// | model type | SQLite | stored as |
    /// | --- | --- | --- |
    /// | `int` | `INTEGER` | the integer |
    /// | `bool` | `INTEGER` | `0` / `1` |
    /// | `double` | `REAL` | the double (NaN is refused) |
    /// | `date` | `REAL` | seconds since 2001-01-01T00:00:00Z (exact `Date` round trip) |
    /// | `string`, `text` | `TEXT` | UTF-8 |
    /// | `uuid` | `TEXT` | canonical upper-case string |
    /// | `data` | `BLOB` | the bytes |
    /// | `array`, `dictionary` | `TEXT` | JSON |
    public var sqliteType: String {
        switch self {
        case .int, .bool: "INTEGER"
        case .double, .date: "REAL"
        case .string, .text, .uuid, .array, .dictionary: "TEXT"
        case .data: "BLOB"
        }
    }
}
