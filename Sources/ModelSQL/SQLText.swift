import Foundation

/// Quoting for SQL text. Identifiers are always quoted; values are always bound
/// parameters — the only literals ever written into SQL are the declared column defaults
/// in `CREATE TABLE`/`ALTER TABLE`, which DDL cannot bind (each adapter renders those for
/// its own column types).
package enum SQLText {
    /// `"name"`, with embedded quotes doubled.
    @inline(__always) package static func quote(_ identifier: String) -> String {
        "\"" + identifier.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// `'text'` with embedded quotes doubled, or nil for text holding a NUL (which would
    /// end the SQL text early: such defaults are left to the model layer).
    package static func string(_ s: String) -> String? {
        guard !s.utf8.contains(0) else { return nil }
        return "'" + s.replacingOccurrences(of: "'", with: "''") + "'"
    }

    /// Lower-case hexadecimal digits of `data`.
    package static func hex(_ data: Data) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(data.count * 2)
        for byte in data {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
