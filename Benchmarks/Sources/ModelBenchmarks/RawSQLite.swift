import CSQLiteRaw
import Foundation

/// The baseline: the sqlite3 C API used by hand — prepared statements, bound parameters,
/// columns read by index into structs. Benchmark code: failures stop the run.
final class RawSQLite {
    let db: OpaquePointer

    init(path: String) throws {
        var handle: OpaquePointer?
        guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK,
            let handle
        else { throw BenchmarkError("cannot open \(path)") }
        db = handle
        // The adapter's defaults: WAL, synchronous FULL, foreign keys on, 5 s busy timeout.
        sqlite3_busy_timeout(db, 5_000)
        try exec("PRAGMA foreign_keys = ON; PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL")
    }

    deinit { sqlite3_close_v2(db) }

    func exec(_ sql: String) throws {
        guard sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK else {
            throw BenchmarkError(String(cString: sqlite3_errmsg(db)))
        }
    }

    /// Runs `body` between `BEGIN IMMEDIATE` and `COMMIT`. Not inlined, so a profiler can
    /// attribute a baseline's transaction to it (`--toggle-collect`).
    @inline(never)
    func transaction(_ body: () throws -> Void) throws {
        try exec("BEGIN IMMEDIATE")
        try body()
        try exec("COMMIT")
    }

    func prepare(_ sql: String) throws -> OpaquePointer {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            throw BenchmarkError(String(cString: sqlite3_errmsg(db)))
        }
        return statement
    }

    static func bind(_ text: String, _ statement: OpaquePointer, _ index: Int32) {
        var text = text
        text.withUTF8 { utf8 in
            utf8.withMemoryRebound(to: CChar.self) { chars in
                if let base = chars.baseAddress {
                    _ = bench_bind_text(statement, index, base, Int32(chars.count))
                } else {
                    _ = bench_bind_text(statement, index, "", 0)
                }
            }
        }
    }

    /// Binds the ten person fields to parameters `first...first+9`.
    static func bind(_ row: PersonRow, _ statement: OpaquePointer, from first: Int32) {
        bind(row.name, statement, first)
        bind(row.email, statement, first + 1)
        sqlite3_bind_int64(statement, first + 2, Int64(row.age))
        sqlite3_bind_double(statement, first + 3, row.score)
        sqlite3_bind_int64(statement, first + 4, row.active ? 1 : 0)
        sqlite3_bind_double(statement, first + 5, row.joined.timeIntervalSinceReferenceDate)
        if let notes = row.notes { bind(notes, statement, first + 6) } else { sqlite3_bind_null(statement, first + 6) }
        sqlite3_bind_int64(statement, first + 7, row.rank)
        sqlite3_bind_double(statement, first + 8, row.balance)
        bind(row.city, statement, first + 9)
    }

    static func text(_ statement: OpaquePointer, _ index: Int32) -> String {
        guard let bytes = sqlite3_column_text(statement, index) else { return "" }
        return String(decoding: UnsafeBufferPointer(start: bytes, count: Int(sqlite3_column_bytes(statement, index))), as: UTF8.self)
    }

    /// Reads `id, name, …, city` (in the table's column order) into a struct.
    static func row(_ s: OpaquePointer) -> PersonRow {
        PersonRow(
            id: sqlite3_column_int64(s, 0), name: text(s, 1), email: text(s, 2), age: Int(sqlite3_column_int64(s, 3)),
            score: sqlite3_column_double(s, 4), active: sqlite3_column_int64(s, 5) != 0,
            joined: Date(timeIntervalSinceReferenceDate: sqlite3_column_double(s, 6)),
            notes: sqlite3_column_type(s, 7) == SQLITE_NULL ? nil : text(s, 7), rank: sqlite3_column_int64(s, 8),
            balance: sqlite3_column_double(s, 9), city: text(s, 10))
    }
}

struct BenchmarkError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
