import Foundation

/// Quoting for SQL text. Identifiers are always quoted; values are always bound
/// parameters — the only literals ever written into SQL are the declared column defaults
/// in `CREATE TABLE`/`ALTER TABLE`, which DDL cannot bind (each adapter renders those for
/// its own column types).
package enum SQLText {
    /// `"name"`, with embedded quotes doubled.
    ///
    /// Runs for every column a query names, so it stays off Foundation: its
    /// `replacingOccurrences` went through `NSString` on Linux, about 7,000 instructions
    /// a name, most of the cost of compiling a query.
    @inline(__always) package static func quote(_ identifier: String) -> String {
        enclosed(identifier, in: UInt8(ascii: "\""))
    }

    /// `'text'` with embedded quotes doubled, or nil for text holding a NUL (which would
    /// end the SQL text early: such defaults are left to the model layer).
    package static func string(_ s: String) -> String? {
        guard !s.utf8.contains(0) else { return nil }
        return enclosed(s, in: UInt8(ascii: "'"))
    }

    /// `text` between two `mark`s, each `mark` inside doubled, written into the new
    /// string's storage at once. (An ASCII byte never occurs inside a multi-byte UTF-8
    /// sequence, so doubling bytes keeps the text valid.)
    package static func enclosed(_ text: String, in mark: UInt8) -> String {
        var text = text
        return text.withUTF8 { bytes in
            var marks = 0
            for byte in bytes where byte == mark { marks += 1 }
            return String(unsafeUninitializedCapacity: bytes.count + marks + 2) { out in
                var n = 0
                out[n] = mark
                n += 1
                for byte in bytes {
                    out[n] = byte
                    n += 1
                    if byte == mark {
                        out[n] = mark
                        n += 1
                    }
                }
                out[n] = mark
                return n + 1
            }
        }
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
