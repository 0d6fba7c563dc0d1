/// Percent-decoding of URL path segments and query components on their UTF-8 bytes, as
/// `removingPercentEncoding` decodes them — nil for a `%` not followed by two hex digits,
/// and always nil for bytes that are not UTF-8 (Foundation on Linux substitutes U+FFFD for
/// some) — without bridging to `NSString` (a server decodes every request's path).
package enum PercentDecoding {
    /// `text` decoded; with `plusIsSpace`, `+` reads as a space first (form-encoded
    /// query components).
    package static func decode(_ text: Substring, plusIsSpace: Bool = false) -> String? {
        let utf8 = text.utf8
        guard utf8.contains(where: { $0 == UInt8(ascii: "%") || (plusIsSpace && $0 == UInt8(ascii: "+")) }) else {
            return String(text)
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count)
        var index = utf8.startIndex
        while index != utf8.endIndex {
            let byte = utf8[index]
            utf8.formIndex(after: &index)
            switch byte {
            case UInt8(ascii: "%"):
                guard index != utf8.endIndex, let high = hex(utf8[index]) else { return nil }
                utf8.formIndex(after: &index)
                guard index != utf8.endIndex, let low = hex(utf8[index]) else { return nil }
                utf8.formIndex(after: &index)
                bytes.append(high << 4 | low)
            case UInt8(ascii: "+") where plusIsSpace:
                bytes.append(UInt8(ascii: " "))
            default:
                bytes.append(byte)
            }
        }
        return UTF8Text.string(bytes)
    }

    private static func hex(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// Whether two ASCII header names are equal ignoring case (without `NSString`).
    package static func sameName(_ a: String, _ b: String) -> Bool {
        guard a.utf8.count == b.utf8.count else { return false }
        return zip(a.utf8, b.utf8).allSatisfy { x, y in
            x == y || (x | 0x20 == y | 0x20 && (x | 0x20) >= UInt8(ascii: "a") && (x | 0x20) <= UInt8(ascii: "z"))
        }
    }
}
