/// A failure every adapter reports the same way, whatever its engine.
///
/// The common failures a caller handles — a duplicate id, a missing row, a value a unique
/// column already holds, a closed store — are this one type on every adapter, so one
/// `catch` works whichever store is configured. The adapter's own error (``underlying``)
/// stays attached for detail:
///
/// ```swift
/// do {
///     try user.save()
/// } catch let error as StoreError where error.kind == .uniqueViolation {
///     print("taken:", error.column ?? "a unique column")   // "email"
/// }
/// ```
public struct StoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: String, Sendable, Hashable {
        /// An insert reused an id that is already stored.
        case duplicateID
        /// An update named an id that is not stored.
        case notFound
        /// A write would give a `.unique` column a value another row already holds (nulls
        /// never collide). Nothing was written.
        case uniqueViolation
        /// The store was closed (``PersistenceAdapter/close()``); it serves no more calls.
        case closed
        /// A column index or value the adapter cannot handle.
        case invalidRequest
        /// The underlying store failed (I/O, engine error).
        case storage
        /// A stored row does not fit the model (see ``InvalidStoredValue``, which carries
        /// the column and the value).
        case invalidStoredValue
        /// A change-history read began at a cursor older than the history the store still
        /// keeps (compacted away): the reader must read everything again, then follow the
        /// history from its newest cursor (see ``HistoryKeepingAdapter``).
        case historyCompacted
    }

    /// What went wrong.
    public var kind: Kind
    /// The table concerned (empty for failures of the whole store, such as `.closed`).
    public var table: String
    /// The id concerned, if any.
    public var id: ModelValue?
    /// The column concerned, when known (the unique column of a `.uniqueViolation`).
    public var column: String?
    /// Details.
    public var message: String
    /// The adapter's own error behind this one (a ``StoreError`` `.uniqueViolation` from
    /// SQLite carries its `SQLiteError`), if any. Not compared by `==`.
    public var underlying: (any Error)?

    /// Creates a store error.
    public init(
        _ kind: Kind, table: String, id: ModelValue? = nil, column: String? = nil, message: String,
        underlying: (any Error)? = nil
    ) {
        self.kind = kind
        self.table = table
        self.id = id
        self.column = column
        self.message = message
        self.underlying = underlying
    }

    /// Whether two errors say the same thing: kind, table, id, column and message (the
    /// underlying errors are not compared).
    public static func == (lhs: StoreError, rhs: StoreError) -> Bool {
        lhs.kind == rhs.kind && lhs.table == rhs.table && lhs.id == rhs.id && lhs.column == rhs.column
            && lhs.message == rhs.message
    }

    public var description: String {
        var subject = table
        if let id, !id.isNull { subject += " id \(id)" }
        if let column { subject += (subject.isEmpty ? "" : " ") + "column \(column)" }
        return subject.isEmpty ? message : subject + ": " + message
    }
}

extension StoreError {
    /// The error a closed store throws for every call.
    package static func closed(_ store: String) -> StoreError {
        StoreError(.closed, table: "", message: "the \(store) is closed")
    }

    /// The error for a write that would repeat a value of a unique column.
    package static func uniqueViolation(
        _ schema: ModelSchema, column: String?, id: ModelValue? = nil, underlying: (any Error)? = nil
    ) -> StoreError {
        StoreError(
            .uniqueViolation, table: schema.tableName, id: id?.isNull == false ? id : nil, column: column,
            message: "another row already holds this value of a unique column", underlying: underlying)
    }
}
