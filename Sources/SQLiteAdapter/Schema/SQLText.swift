import Foundation

/// Quoting for SQL text. Identifiers are always quoted; values are always bound
/// parameters — the only literals ever written into SQL are the declared column defaults
/// in `CREATE TABLE`/`ALTER TABLE`, which DDL cannot bind.
enum SQLText {
    /// `"name"`, with embedded quotes doubled.
    @inline(__always) static func quote(_ identifier: String) -> String {
        "\"" + identifier.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// A literal for a declared default in DDL (`DEFAULT …`), in the storage the adapter
    /// uses for the value's kind.
    static func literal(_ value: ModelValue) -> String? {
        switch value {
        case .null: return "NULL"
        case .bool(let b): return b ? "1" : "0"
        case .int(let i): return String(i)
        case .double(let d): return d.isFinite ? "\(d)" : nil
        case .string(let s): return string(s)
        case .date(let d):
            let t = d.timeIntervalSinceReferenceDate
            return t.isFinite ? "\(t)" : nil
        case .uuid(let u): return string(u.uuidString)
        case .data(let data): return "X'" + data.map { String(format: "%02X", $0) }.joined() + "'"
        case .array, .dictionary: return string(ModelJSON.serialize(value))
        }
    }

    private static func string(_ s: String) -> String? {
        // A NUL would end the SQL text early: such defaults are left to the model layer.
        guard !s.utf8.contains(0) else { return nil }
        return "'" + s.replacingOccurrences(of: "'", with: "''") + "'"
    }

    /// `?, ?, ?` for `count` parameters.
    static func placeholders(_ count: Int) -> String {
        Array(repeating: "?", count: count).joined(separator: ", ")
    }
}
