/// Options a column declaration can carry.
///
/// ```swift
/// final class Subscriber: Model {
///     @Column(options: [.unique, .indexed]) var email: String = ""
///     init() {}
/// }
/// ```
public struct ColumnOptions: OptionSet, Sendable, Hashable {
    /// The option bits.
    public let rawValue: Int
    /// Creates options from bits.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Values must be unique across the table (adapters create a unique index).
    public static let unique = ColumnOptions(rawValue: 1 << 0)
    /// Adapters keep an index on this column.
    public static let indexed = ColumnOptions(rawValue: 1 << 1)
    /// A `String` column holding long text: its type is ``ColumnType/text`` rather than
    /// ``ColumnType/string`` (same values; adapters may store or index it differently).
    public static let text = ColumnOptions(rawValue: 1 << 2)
    /// Keeps two more columns for this one: `<name>_set_at`, when a value was last
    /// assigned (even an equal one), and `<name>_changed_at`, when it last changed to a
    /// different value, stamped on save (see ``ModelProtocol/lastSet(_:)``).
    public static let fieldTimestamps = ColumnOptions(rawValue: 1 << 3)
}
