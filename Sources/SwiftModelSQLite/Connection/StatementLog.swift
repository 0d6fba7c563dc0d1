import SwiftModelCSQLite
import ModelCore

/// Logs each statement a connection runs, with its duration, through SQLite's profile
/// trace (`sqlite3_trace_v2`, `SQLITE_TRACE_PROFILE`). Registered only when
/// ``SQLiteConfiguration/logsStatements`` is on, so connections without it pay nothing.
enum StatementLog {
    static let logger = ModelLogger(subsystem: "sqlite")

    /// Registers the trace; `boundValues` expands parameters into the logged SQL.
    static func register(on db: OpaquePointer, boundValues: Bool) {
        // The context pointer carries the one flag the C callback needs: non-nil expands.
        let context = boundValues ? UnsafeMutableRawPointer(bitPattern: 1) : nil
        sqlite3_trace_v2(
            db, UInt32(SQLITE_TRACE_PROFILE),
            { type, context, statement, detail in
                guard type == UInt32(SQLITE_TRACE_PROFILE), let statement, StatementLog.logger.isEnabled(.debug) else {
                    return 0
                }
                let nanoseconds = detail?.load(as: Int64.self) ?? 0
                StatementLog.log(OpaquePointer(statement), nanoseconds: nanoseconds, expand: context != nil)
                return 0
            }, context)
    }

    private static func log(_ statement: OpaquePointer, nanoseconds: Int64, expand: Bool) {
        var sql = ""
        if expand, let expanded = sqlite3_expanded_sql(statement) {
            sql = String(cString: expanded)
            sqlite3_free(expanded)
        } else if let text = sqlite3_sql(statement) {
            sql = String(cString: text)
        }
        let milliseconds = Double(nanoseconds) / 1_000_000
        let duration = String(Double(Int((milliseconds * 1000).rounded())) / 1000)
        var metadata = ["duration_ms": duration]
        if !expand { metadata["bound"] = String(sqlite3_bind_parameter_count(statement)) }
        logger.debug("\(sql) (\(duration) ms)", metadata: metadata)
    }
}
