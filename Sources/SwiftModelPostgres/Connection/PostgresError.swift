/// A failure reported by PostgreSQL or libpq, with the server's diagnostics: SQLSTATE,
/// message, detail, hint, constraint, table and column, and the statement that failed.
///
/// ```swift
/// do {
///     try user.save()
/// } catch let error as StoreError where error.kind == .uniqueViolation {
///     let server = error.underlying as? PostgresError   // a record write: StoreError, as on every adapter
///     print("taken:", server?.constraint ?? "?")        // "users_email_unique"
/// }
/// ```
///
/// Values never appear in ``description`` (they may hold personal data): the bound values
/// are kept in ``arguments``, and the server's ``detail`` line — which quotes them
/// (`Key (email)=(ada@example.com) already exists.`) — stays on the error too.
/// ``expandedDescription`` adds both, for a debugging session.
public struct PostgresError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure, from the SQLSTATE class (or the client side).
    public enum Kind: String, Sendable, Hashable {
        /// `23505`: a unique index or primary key already holds the value.
        case uniqueViolation
        /// `23503`: a foreign key has no parent row, or a parent still has children.
        case foreignKeyViolation
        /// `23502`: a `NOT NULL` column received NULL.
        case notNullViolation
        /// `23514` and other class-23 violations.
        case otherConstraint
        /// `40001` / `40P01`: a serialization failure or deadlock; retrying the
        /// transaction may succeed.
        case transactionConflict
        /// Class `42`: malformed SQL, or a table or column that does not exist; also a
        /// statement binding more than 7,498 values, refused before it is sent (libpq
        /// cannot read the server's description of more parameters).
        case invalidSQL
        /// Class `22`: a value the column cannot hold (out of range, bad encoding).
        case invalidValue
        /// The connection failed or was lost (server down or restarted, network).
        case connection
        /// No pooled connection became free within the acquire timeout.
        case poolTimeout
        /// `57014`: the statement was cancelled (statement timeout or cancellation).
        case cancelled
        /// `55P03`: a row or table was locked elsewhere and the statement would not wait
        /// (`lockForUpdate(.noWait)`).
        case lockNotAvailable
        /// `25P02`: a statement failed earlier in the transaction (perhaps a pipelined
        /// write, or an error that was caught), so the server aborted it; it can only roll
        /// back.
        case transactionAborted
        /// The result did not fit what was asked (a parameter of a type the value cannot
        /// be sent as, a row that does not decode as the model's columns).
        case mismatch
        /// Anything else.
        case other
    }

    /// What kind of failure.
    public let kind: Kind
    /// The five-character SQLSTATE (`"23505"`), or nil for client-side failures.
    public let sqlState: String?
    /// The primary message.
    public let message: String
    /// The server's detail line (`Key (email)=(a@b.c) already exists.`).
    public let detail: String?
    /// The server's hint.
    public let hint: String?
    /// The violated constraint's name.
    public let constraint: String?
    /// The table involved.
    public let table: String?
    /// The column involved.
    public let column: String?
    /// The statement that failed (with `$n` placeholders, never values).
    public let sql: String?
    /// The values bound to the statement (not included in ``description``).
    public let arguments: [ModelValue]

    /// Creates an error.
    public init(
        _ kind: Kind, sqlState: String? = nil, message: String, detail: String? = nil, hint: String? = nil,
        constraint: String? = nil, table: String? = nil, column: String? = nil, sql: String? = nil,
        arguments: [ModelValue] = []
    ) {
        self.kind = kind
        self.sqlState = sqlState
        self.message = message
        self.detail = detail
        self.hint = hint
        self.constraint = constraint
        self.table = table
        self.column = column
        self.sql = sql
        self.arguments = arguments
    }

    /// The kind a SQLSTATE belongs to.
    public static func kind(ofSQLState state: String) -> Kind {
        switch state {
        case "23505": .uniqueViolation
        case "23503": .foreignKeyViolation
        case "23502": .notNullViolation
        case "40001", "40P01": .transactionConflict
        case "57014": .cancelled
        case "55P03": .lockNotAvailable
        case "25P02": .transactionAborted
        case "57P01", "57P02", "57P03": .connection
        default:
            switch state.prefix(2) {
            case "23": .otherConstraint
            case "42": .invalidSQL
            case "22": .invalidValue
            case "08": .connection
            default: .other
            }
        }
    }

    /// The same error for another statement and values.
    func with(sql: String?, arguments: [ModelValue]) -> PostgresError {
        PostgresError(
            kind, sqlState: sqlState, message: message, detail: detail, hint: hint, constraint: constraint, table: table,
            column: column, sql: sql ?? self.sql, arguments: arguments)
    }

    /// The error without any value: kind, SQLSTATE, message, hint, constraint, table,
    /// column and statement.
    public var description: String {
        var text = "PostgreSQL \(kind.rawValue)"
        if let sqlState { text += " (\(sqlState))" }
        text += ": \(message)"
        if let hint { text += " (hint: \(hint))" }
        if let constraint { text += " [constraint \(constraint)]" }
        if let table { text += " [table \(table)\(column.map { ", column \($0)" } ?? "")]" }
        if let sql { text += " in: \(Self.excerpt(sql))" }
        return text
    }

    /// The statement as descriptions show it: whole up to 2,000 characters, else its
    /// start and length (an `IN (…)` of thousands of ids would flood a log). ``sql`` keeps
    /// it whole.
    static func excerpt(_ sql: String) -> String {
        let limit = 2_000
        let length = sql.count
        guard length > limit else { return sql }
        return "\(sql.prefix(limit))… (\(length) characters)"
    }

    /// ``description`` with the server's detail line and the bound values: for debugging
    /// only, as both may carry personal data.
    public var expandedDescription: String {
        var text = description
        if let detail { text += " — detail: \(detail)" }
        if !arguments.isEmpty { text += " — arguments: \(arguments.map(\.description).joined(separator: ", "))" }
        return text
    }
}

extension PostgresError: SwiftModelError {
    /// The table the server named, if any.
    public var tableName: String? { table }
    /// The column the server named, if any.
    public var columnName: String? { column }
    /// `.uniqueViolation` for SQLSTATE 23505.
    public var storeErrorKind: StoreError.Kind? { kind == .uniqueViolation ? .uniqueViolation : nil }
    /// Whether the server refused an integrity constraint (SQLSTATE class 23).
    public var isConstraintFailure: Bool { sqlState?.hasPrefix("23") == true }
    /// Whether the server (or the adapter, before sending) refused a value (class `22`).
    public var isInvalidValue: Bool { kind == .invalidValue }
    /// Whether the connection failed, none was free in time, or the transaction lost a
    /// serialization race or deadlock.
    public var isTransient: Bool { kind == .connection || kind == .poolTimeout || kind == .transactionConflict }
}
