import Foundation

/// Entity tags of records: a strong tag from the bytes of the record's JSON object (keys
/// sorted), so any change to a served value changes it, whatever the store.
enum ETag {
    /// The tag of `object`: `"` + 16 hex digits of its FNV-1a 64 hash + `"`.
    static func of(_ object: [String: ModelValue]) -> String {
        of(bytes: ModelJSON.serializedBytes(.dictionary(object)))
    }

    /// The tag of an object already serialized (its keys sorted).
    static func of(bytes: [UInt8]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return "\"" + String(repeating: "0", count: 16 - hex.count) + hex + "\""
    }

    /// Whether an `If-Match` (`weakly: false`: a weak tag never matches) or
    /// `If-None-Match` (`weakly: true`) field value — `*` or a list of tags — names `tag`.
    static func matches(_ field: String, _ tag: String, weakly: Bool) -> Bool {
        for part in field.split(separator: ",") {
            var candidate = part.trimmingCharacters(in: .whitespaces)
            if candidate == "*" { return true }
            if candidate.hasPrefix("W/") {
                guard weakly else { continue }
                candidate.removeFirst(2)
            }
            if candidate == tag { return true }
        }
        return false
    }
}
