import ModelCore
import SwiftModelCSQLite

/// One SQLite connection with its statement cache.
///
/// `@unchecked Sendable`: a connection is only ever used by one thread at a time — the
/// writer while holding ``SQLiteAdapter``'s writer lock, a reader while checked out of
/// the ``ReaderPool``. It moves between threads but is never shared concurrently.
package final class SQLiteConnection: @unchecked Sendable {
    let handle: OpaquePointer
    /// Where it was opened (for error messages).
    let path: String
    // The caches below are only touched by the one thread using the connection (see the
    // type's comment). Their accesses are checked: dropping the checks
    // (`@exclusivity(unchecked)`) changed no workload of `Scripts/instructions.py --adapter
    // sqlite --n 5000` beyond 0.03 %.
    private var statements: [String: SQLiteStatement] = [:]
    /// Per-table statements for the hot paths, keyed by schema identity.
    var tables: [ObjectIdentifier: TableStatements] = [:]
    /// The table used last, asked for again without hashing (runs of writes and lookups
    /// go to one table). Holding the schema keeps its identity from being reused.
    var lastTable: (schema: ModelSchema, statements: TableStatements)?

    /// Opens `path` (`":memory:"` for a private in-memory database), through the VFS named
    /// `vfs` (SQLite's default when `nil`).
    init(path: String, readOnly: Bool, vfs: String? = nil) throws {
        var db: OpaquePointer?
        let flags =
            (readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE) | SQLITE_OPEN_NOMUTEX
            | SQLITE_OPEN_URI
        let code = sqlite3_open_v2(path, &db, flags, vfs)
        guard code == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(code))
            if let db { sqlite3_close_v2(db) }
            throw SQLiteError(code: code, message: "cannot open \(path): \(message)")
        }
        handle = db
        self.path = path
        sqlite3_extended_result_codes(db, 1)
        MatchFunction.register(on: db)
    }

    /// Whether ``close()`` ran; the handle is not used afterwards.
    private(set) var isClosed = false

    deinit {
        close()
    }

    /// Finalizes the cached statements and closes the connection (idempotent).
    func close() {
        guard !isClosed else { return }
        isClosed = true
        lastTable = nil
        tables.removeAll()
        statements.removeAll()
        sqlite3_close_v2(handle)
    }

    /// The error for a failed call, with SQLite's current message.
    func error(_ code: Int32, sql: String?, arguments: [ModelValue] = []) -> SQLiteError {
        SQLiteError(
            code: code, extendedCode: sqlite3_extended_errcode(handle), message: String(cString: sqlite3_errmsg(handle)),
            sql: sql, arguments: arguments)
    }

    /// A new statement (not cached), for one-off SQL.
    func prepare(_ sql: String) throws -> SQLiteStatement {
        SQLiteStatement(handle: try compile(sql, flags: 0), sql: sql, connection: self)
    }

    /// The cached statement for this SQL text, prepared once per connection.
    @inline(__always) func cached(_ sql: String) throws -> SQLiteStatement {
        if let statement = statements[sql] { return statement }
        let prepared = SQLiteStatement(
            handle: try compile(sql, flags: UInt32(SQLITE_PREPARE_PERSISTENT)), sql: sql, connection: self)
        if statements.count >= 512 { statements.removeAll(keepingCapacity: true) }
        statements[sql] = prepared
        return prepared
    }

    /// Compiles exactly one statement; trailing SQL after it is an error rather than
    /// silently ignored.
    private func compile(_ sql: String, flags: UInt32) throws -> OpaquePointer {
        var statement: OpaquePointer?
        var trailing = false
        let code = sql.withCString { text -> Int32 in
            var tail: UnsafePointer<CChar>?
            let code = sqlite3_prepare_v3(handle, text, -1, flags, &statement, &tail)
            if code == SQLITE_OK, let tail {
                var p = tail
                while p.pointee != 0 {
                    let c = UInt8(bitPattern: p.pointee)
                    if c != 32 && c != 10 && c != 13 && c != 9 && c != 59 {
                        trailing = true
                        break
                    }
                    p += 1
                }
            }
            return code
        }
        guard code == SQLITE_OK, let statement else {
            throw code == SQLITE_OK
                ? SQLiteError(code: SQLITE_MISUSE, message: "no statement in the SQL text", sql: sql) : error(code, sql: sql)
        }
        if trailing {
            sqlite3_finalize(statement)
            throw SQLiteError(code: SQLITE_MISUSE, message: "only one statement is allowed per call", sql: sql)
        }
        return statement
    }

    /// Runs SQL without parameters or results (several statements allowed).
    func execute(_ sql: String) throws {
        var message: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &message)
        if code != SQLITE_OK {
            let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(handle))
            sqlite3_free(message)
            throw SQLiteError(code: code, extendedCode: sqlite3_extended_errcode(handle), message: text, sql: sql)
        }
    }

    /// Runs one statement with bound arguments; returns the number of rows it changed.
    @discardableResult
    package func run(_ sql: String, _ arguments: [ModelValue] = []) throws -> Int {
        let statement = try cached(sql)
        defer { statement.reset() }
        do {
            try statement.bind(arguments)
            try statement.run()
        } catch let error as SQLiteError {
            throw SQLiteError(
                code: error.code, extendedCode: error.extendedCode, message: error.message, sql: sql, arguments: arguments)
        }
        return Int(sqlite3_changes64(handle))
    }

    /// The first column of the first row, read as stored.
    func scalar(_ sql: String, _ arguments: [ModelValue] = []) throws -> ModelValue {
        let statement = try cached(sql)
        defer { statement.reset() }
        try statement.bind(arguments)
        return try statement.step() ? statement.rawValue(at: 0) : .null
    }

    /// Rows changed by the last statement.
    var changes: Int { Int(sqlite3_changes64(handle)) }
    /// The rowid of the last insert.
    var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }
    /// Whether a transaction is open on this connection.
    package var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }
}

/// The prepared statements of one table's hot paths on one connection.
///
/// Used only by its connection's thread.
final class TableStatements {
    var insert: SQLiteStatement?
    var find: SQLiteStatement?
    var deleteByID: SQLiteStatement?
    var updates: [[Int]: SQLiteStatement] = [:]
    /// The `UPDATE` used last and its columns, tried before hashing the columns: the model
    /// layer hands the same list (often the schema's own array) for runs of updates.
    var lastUpdate: (columns: [Int], statement: SQLiteStatement)?

    /// The cached `UPDATE` of `columns`, or `nil` when none is prepared yet.
    @inline(__always) func update(_ columns: [Int]) -> SQLiteStatement? {
        if let last = lastUpdate, last.columns == columns { return last.statement }
        guard let statement = updates[columns] else { return nil }
        lastUpdate = (columns, statement)
        return statement
    }

    /// Keeps `statement` as the `UPDATE` of `columns` (up to 64 sets of columns).
    func keep(_ statement: SQLiteStatement, for columns: [Int]) {
        if updates.count < 64 { updates[columns] = statement }
        lastUpdate = (columns, statement)
    }
}
