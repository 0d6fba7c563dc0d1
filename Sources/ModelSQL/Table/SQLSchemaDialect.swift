import ModelCore

/// What a SQL database spells its own way in tables; ``SQLTableDDL`` and ``SQLTable`` write
/// the rest once.
///
/// The DDL counterpart of ``SQLDialect`` (as fluent-kit's `SQLConverterDelegate` is to its
/// schema converter): column types, the id column's key clause, default literals, which
/// columns get indexes, how long a name may be, how inserts report generated ids and
/// which date storage values are bound in.
package protocol SQLSchemaDialect: SQLDialect {
    /// The declared type of a column of model type `type`, stored with `dates` when it is a
    /// date column (nil: the database's own date type, or not a date).
    func columnType(_ type: ColumnType, dates: DateStorage?) -> String

    /// What follows the id column's type: the primary key, generated or not.
    func primaryKey(autoIncrement: Bool) -> String

    /// A literal for a declared default (already in the column's storage) in a column of
    /// `columnType`; nil when it cannot be written, and the default is then left out.
    func defaultLiteral(_ value: ModelValue, columnType: String) -> String?

    /// Whether foreign keys get an index of their own (SQLite scans children by its own
    /// automatic indexes; PostgreSQL makes none, and deletes of parents would scan).
    var indexesForeignKeys: Bool { get }

    /// An index's key on `column` (quoted), a column that may hold nulls when `optional`:
    /// in the order ``SQLDialect/orderKey(_:ascending:nullable:)`` sorts it, so the index
    /// serves sorts on the column in both directions as well as lookups.
    func indexKey(_ column: String, optional: Bool) -> String

    /// The longest identifier in bytes: index names are cut to it (nil: no limit).
    var maxIdentifierBytes: Int? { get }

    /// Columns the database adds to every table of `schema` (a hidden store-order key):
    /// their names and definitions.
    func extraColumns(_ schema: ModelSchema) -> [(name: String, definition: String)]

    /// Whether an insert that leaves the id to the database reads it back with
    /// `RETURNING` (false: the connection reports the last inserted row id).
    var returnsInsertedIDs: Bool { get }

    /// The storage a bound `.date` already has without conversion (nil: the database's
    /// own date type), so tables whose dates all use it bind rows as they are.
    var boundDateStorage: DateStorage? { get }

    /// The statements that make `schema`'s table keep its change history
    /// (``ModelProtocol/keepsHistory``) or stop keeping it, run with the table's
    /// preparation, in its transaction; nil when the model asks for history and the
    /// database keeps none.
    func historyPreparation(_ schema: ModelSchema) -> [String]?
}

extension SQLSchemaDialect {
    /// Default: no history (nil for a model that asks for one).
    package func historyPreparation(_ schema: ModelSchema) -> [String]? { schema.keepsHistory ? nil : [] }

    /// Default: none.
    package func extraColumns(_ schema: ModelSchema) -> [(name: String, definition: String)] { [] }

    /// Default: the column (for databases whose default null order is the engine's).
    package func indexKey(_ column: String, optional: Bool) -> String { column }
}
