import ModelCore

/// What the shared SQL table layer needs from one connection of a database: run SQL,
/// read a table's columns, and the row primitives — each on the connection's own
/// statement cache and value binding, with its own errors. ``SQLStore`` writes the model
/// operations (checks, error mapping, aggregates, raw-SQL rows) once above it, and
/// ``SQLTableCatalog/prepare(_:on:dialect:dates:levels:)`` the table preparation.
///
/// A new SQL database needs a type conforming to this, a dialect (``SQLSchemaDialect``)
/// and an adapter that lends connections (see Docs/Architecture.md).
package protocol SQLConnection: AnyObject {
    /// Runs SQL without parameters or results (one or more statements).
    func executeScript(_ sql: String) throws

    /// Whether a transaction block is open on the connection.
    var isInTransaction: Bool { get }

    /// The column names of a table (empty when it does not exist).
    func columnNames(ofTable table: String) throws -> Set<String>

    /// Serialises the preparation of the table named `table` with other processes until
    /// the transaction ends. Default: nothing (a database whose writers are serialised).
    func lockForPreparation(ofTable table: String) throws

    /// What the database reports about `table` after its DDL ran. Default: nothing.
    func facts(of table: SQLTable) throws -> SQLTableFacts

    /// Inserts `row`; returns its id — the generated one when `row[0]` is null. Row values
    /// are the model's: bind them as the table stores them (``SQLTable/stored(_:)``), as
    /// every primitive here does.
    func insert(_ row: [ModelValue], into table: SQLTable) throws -> ModelValue

    /// Writes `columns` of the row with id `row[0]`; returns how many rows changed.
    func update(_ row: [ModelValue], columns: [Int], in table: SQLTable) throws -> Int

    /// Deletes the row with this id; returns how many rows went.
    func delete(id: ModelValue, from table: SQLTable) throws -> Int

    /// The row with this id, decoded as the table's.
    func find(id: ModelValue, in table: SQLTable) throws -> [ModelValue]?

    /// The rows of a `SELECT` of the table's columns, decoded as the table's.
    func rows(_ sql: String, _ arguments: [ModelValue], of table: SQLTable) throws -> [[ModelValue]]

    /// The rows of any query, as `slots` (given the result's column names) asks: per value,
    /// the result column and the model column it decodes as (nil: as stored).
    func rows(
        _ sql: String, _ arguments: [ModelValue], of table: SQLTable, slots: ([String]) throws -> [SQLResultSlot]
    ) throws -> [[ModelValue]]

    /// The integer in the first column of the first row (0 without rows).
    func integer(_ sql: String, _ arguments: [ModelValue]) throws -> Int

    /// Runs one statement with bound arguments; returns how many rows it changed.
    func run(_ sql: String, _ arguments: [ModelValue]) throws -> Int

    /// How `error`, thrown by this connection writing to `table`, violates a key of it
    /// (nil: it does not).
    static func violation(_ error: any Error, in table: SQLTable) -> SQLKeyViolation?

    /// Whether `error` is an integer overflow (of a `sum`).
    static func isOverflow(_ error: any Error) -> Bool

    /// The connection's error for a result that does not fit the model (`sql` named).
    static func mismatch(_ message: String, sql: String) -> any Error
}

extension SQLConnection {
    /// Default: nothing.
    package func lockForPreparation(ofTable table: String) throws {}

    /// Default: nothing.
    package func facts(of table: SQLTable) throws -> SQLTableFacts { SQLTableFacts() }
}

/// A key a write violated.
package enum SQLKeyViolation: Equatable {
    /// The primary key: the id is already stored.
    case primaryKey
    /// A unique index, of this `.unique` column (nil when it is not one of the model's).
    case unique(column: String?)
}

/// Where a value of a query result comes from: its result column, and the model column it
/// decodes as (nil: as stored).
package struct SQLResultSlot: Sendable {
    package let position: Int
    package let column: Int?

    package init(_ position: Int, as column: Int?) {
        self.position = position
        self.column = column
    }
}
