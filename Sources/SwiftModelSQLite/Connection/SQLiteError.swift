import SwiftModelCSQLite

/// A failure reported by SQLite: the result codes, SQLite's message, and the statement.
///
/// Constraint violations are told apart by ``kind``; the bound values are kept in
/// ``arguments`` for debugging but never printed by ``description`` (they may hold
/// personal data).
///
/// ```swift
/// do {
///     try store.execute("INSERT INTO users (email) VALUES (?)", ["ann@example.org"])
/// } catch let error as SQLiteError where error.kind == .uniqueConstraint {
///     print("taken:", error.message)      // "UNIQUE constraint failed: users.email"
/// }
/// ```
///
/// Record writes (`save()`, `create`, `updateAll`) report a unique violation as
/// ``StoreError`` `.uniqueViolation`, as every adapter does, with this error in
/// `underlying`:
///
/// ```swift
/// do {
///     try user.save()
/// } catch let error as StoreError where error.kind == .uniqueViolation {
///     print((error.underlying as? SQLiteError)?.extendedCode ?? 0)   // 2067
/// }
/// ```
public struct SQLiteError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure, derived from the extended result code.
    public enum Kind: String, Sendable, Hashable {
        /// A `UNIQUE` index (or primary key) already holds the value.
        case uniqueConstraint
        /// A foreign key has no parent row, or a parent still has children (`RESTRICT`).
        case foreignKeyConstraint
        /// A `NOT NULL` column received NULL.
        case notNullConstraint
        /// Another constraint (`CHECK`, trigger).
        case otherConstraint
        /// The database stayed locked by another connection past the busy timeout.
        case busy
        /// The file is not a database, or is damaged.
        case corrupt
        /// The file cannot be opened, read or written (permissions, disk full, I/O).
        case io
        /// The SQL is malformed or names something that does not exist.
        case invalidSQL
        /// The statement's result did not fit what was asked (for example a value SQLite
        /// cannot store, or a row that does not decode as the model's columns).
        case mismatch
        /// Anything else.
        case other
    }

    /// What kind of failure.
    public let kind: Kind
    /// SQLite's primary result code (`SQLITE_CONSTRAINT` = 19, …).
    public let code: Int32
    /// SQLite's extended result code (`SQLITE_CONSTRAINT_UNIQUE` = 2067, …).
    public let extendedCode: Int32
    /// SQLite's message (`"UNIQUE constraint failed: user.email"`).
    public let message: String
    /// The statement that failed, if any (with `?` placeholders, never values).
    public let sql: String?
    /// The values bound to the statement (not included in ``description``).
    public let arguments: [ModelValue]

    /// Creates an error from result codes.
    public init(code: Int32, extendedCode: Int32? = nil, message: String, sql: String? = nil, arguments: [ModelValue] = []) {
        self.code = code & 0xFF
        self.extendedCode = extendedCode ?? code
        self.message = message
        self.sql = sql
        self.arguments = arguments
        self.kind = Self.kind(primary: code & 0xFF, extended: extendedCode ?? code)
    }

    /// An error found by the adapter itself (not by SQLite).
    static func mismatch(_ message: String, sql: String? = nil) -> SQLiteError {
        SQLiteError(code: SQLITE_MISMATCH, message: message, sql: sql)
    }

    /// Whether this is any constraint violation.
    public var isConstraintViolation: Bool { code == SQLITE_CONSTRAINT }

    public var description: String {
        var text = "SQLite error \(extendedCode) (\(kind.rawValue)): \(message)"
        if let sql { text += " — in `\(sql)`" }
        if !arguments.isEmpty { text += " with \(arguments.count) bound value(s)" }
        return text
    }

    private static func kind(primary: Int32, extended: Int32) -> Kind {
        switch primary {
        case SQLITE_CONSTRAINT:
            switch extended {
            case ExtendedCode.unique, ExtendedCode.primaryKey, ExtendedCode.rowid: return .uniqueConstraint
            case ExtendedCode.foreignKey: return .foreignKeyConstraint
            case ExtendedCode.notNull: return .notNullConstraint
            default: return .otherConstraint
            }
        case SQLITE_BUSY, SQLITE_LOCKED: return .busy
        case SQLITE_CORRUPT, SQLITE_NOTADB: return .corrupt
        case SQLITE_IOERR, SQLITE_CANTOPEN, SQLITE_FULL, SQLITE_READONLY, SQLITE_PERM: return .io
        case SQLITE_ERROR: return .invalidSQL
        case SQLITE_MISMATCH, SQLITE_RANGE, SQLITE_TOOBIG: return .mismatch
        default: return .other
        }
    }
}

/// Extended result codes (C macros Swift does not import): `SQLITE_CONSTRAINT | (n << 8)`.
enum ExtendedCode {
    static let foreignKey = SQLITE_CONSTRAINT | (3 << 8)
    static let notNull = SQLITE_CONSTRAINT | (5 << 8)
    static let primaryKey = SQLITE_CONSTRAINT | (6 << 8)
    static let unique = SQLITE_CONSTRAINT | (8 << 8)
    static let rowid = SQLITE_CONSTRAINT | (10 << 8)
}

extension SQLiteError: SwiftModelError {
    /// `.uniqueViolation` for a `UNIQUE` index, `.duplicateID` for the primary key.
    public var storeErrorKind: StoreError.Kind? {
        switch extendedCode {
        case ExtendedCode.unique: .uniqueViolation
        case ExtendedCode.primaryKey, ExtendedCode.rowid: .duplicateID
        default: nil
        }
    }
    /// Whether SQLite refused a constraint (`SQLITE_CONSTRAINT`).
    public var isConstraintFailure: Bool { isConstraintViolation }
}
