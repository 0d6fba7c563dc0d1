/// The declared type of a column, independent of any adapter.
///
/// Adapters map these to their own storage (SQLite: `TEXT`, `INTEGER`, `REAL`, `BLOB`).
/// `string` and `text` hold the same values; `text` signals long content to adapters that
/// care (for example, a full-text index).
public enum ColumnType: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case string, text, bool, int, double, date, data, uuid, array, dictionary

    /// The type's name as shown in errors and docs.
    public var description: String { rawValue }
}
