import SwiftModelCLibPQ

/// An owned `PGresult`, cleared when released.
final class PGResult {
    let handle: OpaquePointer

    init(_ handle: OpaquePointer) { self.handle = handle }
    deinit { PQclear(handle) }

    var rowCount: Int { Int(PQntuples(handle)) }
    var columnCount: Int { Int(PQnfields(handle)) }

    /// The rows an `INSERT`, `UPDATE` or `DELETE` changed (0 for other statements).
    var affectedRows: Int {
        guard let text = PQcmdTuples(handle) else { return 0 }
        return Int(String(cString: text)) ?? 0
    }

    @inline(__always) func isNull(_ row: Int, _ column: Int) -> Bool {
        PQgetisnull(handle, Int32(row), Int32(column)) != 0
    }

    @inline(__always) func oid(_ column: Int) -> UInt32 { UInt32(PQftype(handle, Int32(column))) }

    func name(_ column: Int) -> String { PQfname(handle, Int32(column)).map { String(cString: $0) } ?? "?column?" }

    var columnNames: [String] { (0..<columnCount).map(name) }

    /// The value at (`row`, `column`) in binary format, decoded by its type.
    @inline(__always) func value(_ row: Int, _ column: Int, oid: UInt32) -> ModelValue {
        let r = Int32(row), c = Int32(column)
        if PQgetisnull(handle, r, c) != 0 { return .null }
        let length = Int(PQgetlength(handle, r, c))
        guard let pointer = PQgetvalue(handle, r, c) else { return .null }
        return PGDecoding.value(UnsafeRawBufferPointer(start: pointer, count: length), oid: oid)
    }

    /// The first column of the first row as an integer (for `count(*)` and the like).
    func integer() -> Int? {
        guard rowCount > 0, columnCount > 0, case .int(let i) = value(0, 0, oid: oid(0)) else { return nil }
        return Int(i)
    }

    /// The first column of each row as text, from a text-format result (`execute`).
    func textValues() -> [String] {
        (0..<rowCount).compactMap { row in
            isNull(row, 0) ? nil : PQgetvalue(handle, Int32(row), 0).map { String(cString: $0) }
        }
    }

    /// The first column of each row as text (a binary result of a text-typed column).
    func strings() -> [String] {
        (0..<rowCount).compactMap { row in
            if case .string(let s) = value(row, 0, oid: oid(0)) { return s }
            return nil
        }
    }

    /// The server's error fields, when the result is an error.
    func error(sql: String?, arguments: [ModelValue]) -> PostgresError {
        func field(_ code: Int32) -> String? { PQresultErrorField(handle, code).map { String(cString: $0) } }
        let state = field(swiftmodel_pg_diag_sqlstate)
        let message =
            field(swiftmodel_pg_diag_message_primary)
            ?? PQresultErrorMessage(handle).map { String(cString: $0).trimmingSpaces } ?? "unknown error"
        return PostgresError(
            state.map(PostgresError.kind(ofSQLState:)) ?? .other, sqlState: state, message: message,
            detail: field(swiftmodel_pg_diag_message_detail), hint: field(swiftmodel_pg_diag_message_hint),
            constraint: field(swiftmodel_pg_diag_constraint_name), table: field(swiftmodel_pg_diag_table_name),
            column: field(swiftmodel_pg_diag_column_name), sql: sql, arguments: arguments)
    }
}

extension String {
    var trimmingSpaces: String {
        var s = Substring(self)
        while let last = s.last, last.isWhitespace { s = s.dropLast() }
        return String(s)
    }
}
