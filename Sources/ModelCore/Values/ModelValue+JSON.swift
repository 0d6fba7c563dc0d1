import Foundation

/// A strict JSON reader and writer for ``ModelValue`` arrays and dictionaries.
///
/// Integers stay integers (`1` is `.int(1)`, `1.0` and `1e3` are `.double`), so values
/// round-trip exactly. Dates, UUIDs and data are written as strings (ISO 8601, canonical
/// UUID, base64).
package enum ModelJSON {
    /// An error at a byte offset of the input.
    package struct SyntaxError: Error, Sendable, CustomStringConvertible {
        package let offset: Int
        package let reason: String
        package var description: String { "invalid JSON at byte \(offset): \(reason)" }
    }

    /// Parses a complete JSON text. With `rejectingDuplicateKeys`, an object that names a
    /// key twice (however it is escaped) is an error instead of keeping the last value.
    package static func parse(_ text: String, rejectingDuplicateKeys: Bool = false) throws(SyntaxError) -> ModelValue {
        var parser = Parser(bytes: Array(text.utf8), rejectsDuplicateKeys: rejectingDuplicateKeys)
        let value = try parser.parseValue(depth: 0)
        parser.skipSpace()
        guard parser.i == parser.bytes.count else { throw parser.fail("unexpected trailing characters") }
        return value
    }

    /// Serializes a value; dictionary keys are sorted so output is deterministic.
    package static func serialize(_ value: ModelValue) -> String {
        String(decoding: serializedBytes(value), as: UTF8.self)
    }

    /// ``serialize(_:)`` as UTF-8 bytes, written directly (no intermediate `String`).
    package static func serializedBytes(_ value: ModelValue) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(64)
        write(value, into: &out)
        return out
    }

    private static func write(_ value: ModelValue, into out: inout [UInt8]) {
        switch value {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let b): out.append(contentsOf: b ? "true".utf8 : "false".utf8)
        case .int(let i): writeInteger(i, into: &out)
        case .double(let d):
            if d.isFinite {
                out.append(contentsOf: String(d).utf8)
            } else {
                out.append(contentsOf: "null".utf8)
            }
        case .string(let s): writeString(s, into: &out)
        case .date(let d): writeString(DateCodec.iso8601String(d), into: &out)
        case .uuid(let u): writeString(u.uuidString, into: &out)
        case .data(let d): writeString(d.base64EncodedString(), into: &out)
        case .array(let a):
            out.append(UInt8(ascii: "["))
            for k in a.indices {
                if k > 0 { out.append(UInt8(ascii: ",")) }
                write(a[k], into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .dictionary(let d):
            out.append(UInt8(ascii: "{"))
            var first = true
            for (key, element) in d.sorted(by: { $0.key < $1.key }) {
                if !first { out.append(UInt8(ascii: ",")) }
                first = false
                writeString(key, into: &out)
                out.append(UInt8(ascii: ":"))
                write(element, into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// Decimal digits of `i` (no allocation; `Int64.min` included).
    private static func writeInteger(_ i: Int64, into out: inout [UInt8]) {
        if i < 0 { out.append(UInt8(ascii: "-")) }
        var magnitude = i.magnitude
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: enough for 20 digits
        let count = withUnsafeMutableBytes(of: &digits) { buffer -> Int in
            var n = 0
            repeat {
                buffer[buffer.count - 1 - n] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                n += 1
            } while magnitude > 0
            return n
        }
        withUnsafeBytes(of: &digits) { out.append(contentsOf: $0.suffix(count)) }
    }

    /// A JSON string: `"`, `\` and control characters escaped; other UTF-8 bytes as they
    /// are (runs without escapes are copied at once).
    private static func writeString(_ s: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var s = s
        s.withUTF8 { bytes in
            var run = 0
            for k in bytes.indices {
                let byte = bytes[k]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run..<k]))
                run = k + 1
                switch byte {
                case UInt8(ascii: "\""): out.append(contentsOf: #"\""#.utf8)
                case UInt8(ascii: "\\"): out.append(contentsOf: #"\\"#.utf8)
                case UInt8(ascii: "\n"): out.append(contentsOf: #"\n"#.utf8)
                case UInt8(ascii: "\r"): out.append(contentsOf: #"\r"#.utf8)
                case UInt8(ascii: "\t"): out.append(contentsOf: #"\t"#.utf8)
                default:
                    let hex = Array("0123456789abcdef".utf8)
                    out.append(contentsOf: #"\u00"#.utf8)
                    out.append(hex[Int(byte >> 4)])
                    out.append(hex[Int(byte & 0xF)])
                }
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run...]))
        }
        out.append(UInt8(ascii: "\""))
    }

    private struct Parser {
        let bytes: [UInt8]
        var rejectsDuplicateKeys = false
        var i = 0

        init(bytes: [UInt8], rejectsDuplicateKeys: Bool = false) {
            self.bytes = bytes
            self.rejectsDuplicateKeys = rejectsDuplicateKeys
        }

        func fail(_ reason: String) -> SyntaxError { SyntaxError(offset: i, reason: reason) }

        mutating func skipSpace() {
            while i < bytes.count, bytes[i] == 32 || bytes[i] == 9 || bytes[i] == 10 || bytes[i] == 13 { i += 1 }
        }

        mutating func parseValue(depth: Int) throws(SyntaxError) -> ModelValue {
            guard depth < 512 else { throw fail("nesting deeper than 512 levels") }
            skipSpace()
            guard i < bytes.count else { throw fail("unexpected end of input") }
            switch bytes[i] {
            case UInt8(ascii: "{"):
                i += 1
                var dict: [String: ModelValue] = [:]
                skipSpace()
                if i < bytes.count, bytes[i] == UInt8(ascii: "}") { i += 1; return .dictionary(dict) }
                while true {
                    skipSpace()
                    guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { throw fail("expected a key string") }
                    let keyOffset = i
                    let key = try parseString()
                    if rejectsDuplicateKeys, dict[key] != nil {
                        throw SyntaxError(offset: keyOffset, reason: "the key \(ModelJSON.serialize(.string(key))) appears twice")
                    }
                    skipSpace()
                    guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { throw fail("expected ':'") }
                    i += 1
                    dict[key] = try parseValue(depth: depth + 1)
                    skipSpace()
                    guard i < bytes.count else { throw fail("unterminated object") }
                    if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
                    if bytes[i] == UInt8(ascii: "}") { i += 1; return .dictionary(dict) }
                    throw fail("expected ',' or '}'")
                }
            case UInt8(ascii: "["):
                i += 1
                var array: [ModelValue] = []
                skipSpace()
                if i < bytes.count, bytes[i] == UInt8(ascii: "]") { i += 1; return .array(array) }
                while true {
                    array.append(try parseValue(depth: depth + 1))
                    skipSpace()
                    guard i < bytes.count else { throw fail("unterminated array") }
                    if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
                    if bytes[i] == UInt8(ascii: "]") { i += 1; return .array(array) }
                    throw fail("expected ',' or ']'")
                }
            case UInt8(ascii: "\""):
                return .string(try parseString())
            case UInt8(ascii: "t"): try literal("true"); return .bool(true)
            case UInt8(ascii: "f"): try literal("false"); return .bool(false)
            case UInt8(ascii: "n"): try literal("null"); return .null
            default:
                return try parseNumber()
            }
        }

        mutating func literal(_ word: String) throws(SyntaxError) {
            for c in word.utf8 {
                guard i < bytes.count, bytes[i] == c else { throw fail("invalid literal") }
                i += 1
            }
        }

        mutating func parseNumber() throws(SyntaxError) -> ModelValue {
            let start = i
            var isInteger = true
            if i < bytes.count, bytes[i] == UInt8(ascii: "-") { i += 1 }
            let digitsStart = i
            while i < bytes.count, bytes[i] >= 48, bytes[i] <= 57 { i += 1 }
            guard i > digitsStart else { throw fail("invalid value") }
            if bytes[digitsStart] == 48, i - digitsStart > 1 { throw fail("leading zero in number") }
            if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
                isInteger = false
                i += 1
                let f = i
                while i < bytes.count, bytes[i] >= 48, bytes[i] <= 57 { i += 1 }
                guard i > f else { throw fail("digits expected after '.'") }
            }
            if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
                isInteger = false
                i += 1
                if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
                let e = i
                while i < bytes.count, bytes[i] >= 48, bytes[i] <= 57 { i += 1 }
                guard i > e else { throw fail("digits expected in exponent") }
            }
            let text = String(decoding: bytes[start..<i], as: UTF8.self)
            if isInteger, let v = Int64(text) { return .int(v) }
            guard let d = DecimalText.double(text) else {
                throw SyntaxError(offset: start, reason: "number \(text.prefix(40)) is beyond Double's range")
            }
            return .double(d)
        }

        mutating func parseString() throws(SyntaxError) -> String {
            i += 1  // opening quote
            var runStart = i
            var out = ""
            func flush(_ end: Int) { out += String(decoding: bytes[runStart..<end], as: UTF8.self) }
            while i < bytes.count {
                let c = bytes[i]
                if c == UInt8(ascii: "\"") {
                    flush(i)
                    i += 1
                    return out
                }
                if c < 0x20 { throw fail("control character in string") }
                if c == UInt8(ascii: "\\") {
                    flush(i)
                    i += 1
                    guard i < bytes.count else { break }
                    let e = bytes[i]
                    i += 1
                    switch e {
                    case UInt8(ascii: "\""): out += "\""
                    case UInt8(ascii: "\\"): out += "\\"
                    case UInt8(ascii: "/"): out += "/"
                    case UInt8(ascii: "b"): out += "\u{08}"
                    case UInt8(ascii: "f"): out += "\u{0C}"
                    case UInt8(ascii: "n"): out += "\n"
                    case UInt8(ascii: "r"): out += "\r"
                    case UInt8(ascii: "t"): out += "\t"
                    case UInt8(ascii: "u"):
                        var code = try hex4()
                        if (0xD800..<0xDC00).contains(code) {
                            guard i + 1 < bytes.count, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u")
                            else { throw fail("unpaired surrogate") }
                            i += 2
                            let low = try hex4()
                            guard (0xDC00..<0xE000).contains(low) else { throw fail("invalid surrogate pair") }
                            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                        }
                        guard let scalar = Unicode.Scalar(code) else { throw fail("invalid unicode escape") }
                        out.unicodeScalars.append(scalar)
                    default: throw fail("invalid escape")
                    }
                    runStart = i
                    continue
                }
                i += 1
            }
            throw fail("unterminated string")
        }

        mutating func hex4() throws(SyntaxError) -> UInt32 {
            guard i + 4 <= bytes.count else { throw fail("short unicode escape") }
            var v: UInt32 = 0
            for _ in 0..<4 {
                let c = bytes[i]
                let d: UInt32
                switch c {
                case 48...57: d = UInt32(c - 48)
                case 65...70: d = UInt32(c - 55)
                case 97...102: d = UInt32(c - 87)
                default: throw fail("invalid hex digit")
                }
                v = v * 16 + d
                i += 1
            }
            return v
        }
    }
}
