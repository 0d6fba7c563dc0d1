import ModelEngine
import SwiftModelCSQLite
import ModelCore

/// `swiftmodel_match(subject, op, text, caseInsensitive)`: the in-memory engine's text
/// matching (``TextMatcher``), registered on every connection.
///
/// SQLite's `LIKE` and `GLOB` read text only up to its first NUL byte, while stored strings
/// keep every byte. The compiler uses native `LIKE`/`GLOB` for strings without NUL (fast,
/// C) and this function for the rest, so results match the other adapters exactly.
enum MatchFunction {
    static let name = "swiftmodel_match"

    static func register(on db: OpaquePointer) {
        sqlite3_create_function_v2(
            db, name, 4, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nil,
            { context, count, values in
                guard count == 4, let values, let subject = MatchFunction.text(values[0]), let op = MatchFunction.text(values[1]),
                    let pattern = MatchFunction.text(values[2]), let matching = TextOperator(rawValue: op)
                else {
                    sqlite3_result_null(context)
                    return
                }
                let caseInsensitive = sqlite3_value_int(values[3]) != 0
                sqlite3_result_int(context, TextMatcher.matches(subject, matching, pattern, caseInsensitive: caseInsensitive) ? 1 : 0)
            }, nil, nil, nil)
    }

    /// Every byte of a text value (not just up to a NUL); `nil` for NULL.
    fileprivate static func text(_ value: OpaquePointer?) -> String? {
        guard sqlite3_value_type(value) != SQLITE_NULL, let bytes = sqlite3_value_text(value) else { return nil }
        let length = Int(sqlite3_value_bytes(value))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: length), as: UTF8.self)
    }
}
