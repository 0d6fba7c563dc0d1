import SwiftModelCSQLite
import Foundation
import ModelSQL

/// One prepared statement: bind, step, read. Owned by one ``SQLiteConnection`` and used
/// by one thread at a time (whoever holds that connection).
final class SQLiteStatement {
    let handle: OpaquePointer
    let sql: String
    unowned let connection: SQLiteConnection
    /// Columns in the result (0 for statements that return no rows).
    let columnCount: Int32
    /// Whether a bound text or blob is larger than ``largeValue`` (kept until ``reset()``
    /// clears it). Only the statement's thread touches it.
    private var holdsLargeValue = false
    /// Bound values at least this long are cleared when the statement is reset, so a
    /// cached statement does not keep a large copy alive until its next run.
    static let largeValue = 16 * 1024

    init(handle: OpaquePointer, sql: String, connection: SQLiteConnection) {
        self.handle = handle
        self.sql = sql
        self.connection = connection
        self.columnCount = sqlite3_column_count(handle)
    }

    deinit { sqlite3_finalize(handle) }

    /// Whether the statement leaves the database unchanged.
    var isReadOnly: Bool { sqlite3_stmt_readonly(handle) != 0 }

    /// Ends the run so the statement can run again. The bound values stay (every caller
    /// binds all parameters before a run: ``bind(_:)`` checks the count, the table paths
    /// bind each one), so the next run's text and blobs reuse their buffers instead of
    /// being freed here and allocated again (`sqlite3_clear_bindings` cost about 1,000
    /// instructions per 11-column insert); a value longer than ``largeValue`` is cleared.
    @inline(__always) func reset() {
        sqlite3_reset(handle)
        if holdsLargeValue {
            sqlite3_clear_bindings(handle)
            holdsLargeValue = false
        }
    }

    /// Binds `values` to parameters 1...n; the count must match the statement's
    /// parameters (SQLite would silently read a missing one as NULL).
    func bind(_ values: [ModelValue]) throws {
        let expected = Int(sqlite3_bind_parameter_count(handle))
        guard values.count == expected else {
            throw SQLiteError(
                code: SQLITE_RANGE, message: "the statement has \(expected) parameter(s) but \(values.count) value(s) were given",
                sql: sql)
        }
        var index: Int32 = 1
        for value in values {
            try bind(value, at: index)
            index += 1
        }
    }

    /// Binds one value (see `Docs/SQLite.md` for the storage of each kind).
    @inline(__always) func bind(_ value: ModelValue, at index: Int32) throws {
        let code: Int32
        switch value {
        case .null: code = sqlite3_bind_null(handle, index)
        case .int(let i): code = sqlite3_bind_int64(handle, index, i)
        case .bool(let b): code = sqlite3_bind_int64(handle, index, b ? 1 : 0)
        case .double(let d):
            guard !d.isNaN else {
                throw SQLiteError.mismatch("SQLite cannot store NaN (it would read back as NULL); parameter \(index)", sql: sql)
            }
            code = sqlite3_bind_double(handle, index, d)
        case .string(let s): code = bindText(s, at: index)
        case .date(let d): code = sqlite3_bind_double(handle, index, d.timeIntervalSinceReferenceDate)
        case .uuid(let u): code = bindText(u.uuidString, at: index)
        case .data(let d):
            code = d.withUnsafeBytes { bytes in
                if let base = bytes.baseAddress, !bytes.isEmpty {
                    if bytes.count >= Self.largeValue { holdsLargeValue = true }
                    return swiftmodel_bind_blob(handle, index, base, Int32(clamping: bytes.count))
                }
                return sqlite3_bind_zeroblob(handle, index, 0)
            }
        case .array, .dictionary: code = bindText(ModelJSON.serialize(value), at: index)
        }
        if code != SQLITE_OK { throw connection.error(code, sql: sql) }
    }

    @inline(__always) private func bindText(_ text: String, at index: Int32) -> Int32 {
        var text = text
        return text.withUTF8 { utf8 in
            utf8.withMemoryRebound(to: CChar.self) { chars in
                // An empty buffer has no address; a null pointer would bind NULL, not "".
                guard let base = chars.baseAddress else { return swiftmodel_bind_text(handle, index, "", 0) }
                if chars.count >= Self.largeValue { holdsLargeValue = true }
                return swiftmodel_bind_text(handle, index, base, Int32(clamping: chars.count))
            }
        }
    }

    /// Advances to the next row: `true` when a row is ready, `false` when done.
    @inline(__always) func step() throws -> Bool {
        let code = sqlite3_step(handle)
        if code == SQLITE_ROW { return true }
        if code == SQLITE_DONE { return false }
        throw connection.error(code, sql: sql)
    }

    /// Runs the statement to completion, ignoring any rows.
    func run() throws {
        while try step() {}
    }

    // MARK: Reading

    /// The current row's column `index` as stored (integer, real, text, blob or null).
    func rawValue(at index: Int32) -> ModelValue {
        switch sqlite3_column_type(handle, index) {
        case SQLITE_INTEGER: return .int(sqlite3_column_int64(handle, index))
        case SQLITE_FLOAT: return .double(sqlite3_column_double(handle, index))
        case SQLITE_TEXT: return .string(text(at: index))
        case SQLITE_BLOB: return .data(blob(at: index))
        default: return .null
        }
    }

    @inline(__always) func text(at index: Int32) -> String {
        guard let cell = sqlite3_column_value(handle, index) else { return "" }
        return Self.text(of: cell)
    }

    @inline(__always) func blob(at index: Int32) -> Data {
        let count = Int(sqlite3_column_bytes(handle, index))
        guard count > 0, let bytes = sqlite3_column_blob(handle, index) else { return Data() }
        return Data(bytes: bytes, count: count)
    }

    /// The current row's column `index` as a value of `columns[k]`'s type (`types[k]`
    /// is that column's type, read without copying the column definition).
    ///
    /// The common case (the storage class the adapter writes for that type) is read
    /// directly; anything else (a file edited by other tools) goes through the casting
    /// rules, and a value that does not cast is an ``InvalidStoredValue`` naming the table
    /// (when given), the row's id (read from result column `idIndex`), the column and the
    /// stored value.
    ///
    /// The column is looked up once (`sqlite3_column_value`) and read through the value
    /// it returns: each `sqlite3_column_*` call looks the column up again (about 55
    /// instructions), and a text column took three of them. The value is unprotected
    /// (SQLite holds no mutex for it), which makes no difference on a connection opened
    /// `SQLITE_OPEN_NOMUTEX` (multi-thread mode: no connection mutex at all) and used by one
    /// thread at a time, as ours are; it is read only here, before the statement steps,
    /// resets or finalizes.
    @inline(__always) func value(
        at index: Int32, type: ColumnType, _ columns: [ColumnDefinition], _ k: Int, table: String = "", idAt idIndex: Int32? = nil,
        dates: DateStorage? = nil
    ) throws -> ModelValue {
        guard let cell = sqlite3_column_value(handle, index) else { return .null }
        let storage = sqlite3_value_type(cell)
        if storage == SQLITE_NULL { return .null }
        switch type {
        case .int where storage == SQLITE_INTEGER: return .int(sqlite3_value_int64(cell))
        case .double where storage == SQLITE_FLOAT || storage == SQLITE_INTEGER:
            return .double(sqlite3_value_double(cell))
        case .string where storage == SQLITE_TEXT, .text where storage == SQLITE_TEXT: return .string(Self.text(of: cell))
        case .bool where storage == SQLITE_INTEGER: return .bool(sqlite3_value_int64(cell) != 0)
        case .date where storage == SQLITE_FLOAT || storage == SQLITE_INTEGER:
            let number = sqlite3_value_double(cell)
            guard let dates else { return .date(Date(timeIntervalSinceReferenceDate: number)) }
            return .date(dates.date(fromNumber: number))
        case .date where storage == SQLITE_TEXT && dates == .text:
            let text = Self.text(of: cell)
            if let date = DateCodec.parse(text) { return .date(date) }
            return try converted(at: index, columns[k], table: table, idAt: idIndex)
        case .data where storage == SQLITE_BLOB: return .data(blob(at: index))
        default: return try converted(at: index, columns[k], table: table, idAt: idIndex)
        }
    }

    /// A text value's UTF-8 (`sqlite3_value_text` before `sqlite3_value_bytes`, the order
    /// SQLite asks for).
    @inline(__always) private static func text(of cell: OpaquePointer) -> String {
        guard let bytes = sqlite3_value_text(cell) else { return "" }
        let count = Int(sqlite3_value_bytes(cell))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    /// The slow path of ``value(at:type:_:_:)``: UUIDs and JSON, or a storage class
    /// the adapter does not write for this column.
    private func converted(at index: Int32, _ column: ColumnDefinition, table: String, idAt idIndex: Int32?) throws
        -> ModelValue
    {
        let storage = sqlite3_column_type(handle, index)
        switch column.type {
        case .uuid where storage == SQLITE_TEXT:
            if let uuid = UUIDText.uuid(text(at: index)) { return .uuid(uuid) }
        case .array where storage == SQLITE_TEXT, .dictionary where storage == SQLITE_TEXT:
            if let parsed = try? ModelJSON.parse(text(at: index)),
                let cast = try? Caster.cast(parsed, to: column.castTarget)
            {
                return cast
            }
        default: break
        }
        let raw = rawValue(at: index)
        do {
            return try Caster.cast(raw, to: column.castTarget)
        } catch {
            throw InvalidStoredValue(
                table: table, id: idIndex.flatMap { $0 == index ? nil : rawValue(at: $0) }, column: column.name, value: raw,
                reason: "not a \(column.castTarget) value (\(error.reason)), in `\(sql)`")
        }
    }

    /// The value of result column `index` decoded as `column` of `table`.
    func value(
        at index: Int32, as column: ColumnDefinition, table: String = "", idAt idIndex: Int32? = nil, dates: DateStorage? = nil
    ) throws -> ModelValue {
        try value(at: index, type: column.type, [column], 0, table: table, idAt: idIndex, dates: dates)
    }

    /// The current row decoded as `table`'s (result column k is its column k).
    @inline(__always) func row(_ table: SQLTable) throws -> [ModelValue] {
        let count = table.types.count
        let name = table.schema.tableName
        return try table.types.withUnsafeBufferPointer { types in
            try ModelValue.row(count: count) { k in
                try value(at: Int32(k), type: types[k], table.columns, k, table: name, idAt: 0, dates: table.dates[k])
            }
        }
    }

    /// The result column names.
    var columnNames: [String] {
        (0..<columnCount).map { String(cString: sqlite3_column_name(handle, $0)) }
    }
}
