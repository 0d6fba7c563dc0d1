/// Text from UTF-8 bytes that must be well formed (a database's text value, a decoded URL
/// component, a JSON document): the string, or nil when the bytes are not UTF-8.
///
/// The standard library's `String(validating:as:)` answers the same, but on Linux it
/// validates through a generic function that looks up type metadata on every call: about
/// 800 instructions for a short string, more than half of what reading a text column from
/// PostgreSQL cost. Here the bytes are checked by one loop (the well-formed sequences of
/// Unicode's table 3-7), and valid bytes are then made a string as they are (about 250).
package enum UTF8Text {
    /// The string `bytes` spell, or nil unless they are well-formed UTF-8.
    package static func string(_ bytes: UnsafeRawBufferPointer) -> String? {
        guard isWellFormed(bytes) else { return nil }
        return bytes.withMemoryRebound(to: UInt8.self) { String(decoding: $0, as: UTF8.self) }
    }

    /// ``string(_:)`` of the bytes of a contiguous collection (`[UInt8]`, `Data`).
    package static func string<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String? {
        if let made = bytes.withContiguousStorageIfAvailable({ string(UnsafeRawBufferPointer($0)) }) { return made }
        return Array(bytes).withUnsafeBytes { string($0) }
    }

    /// Whether `bytes` are well-formed UTF-8: no stray continuation byte, no overlong
    /// form, no surrogate, nothing above U+10FFFF, no sequence cut short.
    package static func isWellFormed(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let count = bytes.count
        var i = 0
        while i < count {
            let lead = bytes[i]
            if lead < 0x80 {
                i += 1
                continue
            }
            // The continuation bytes a lead byte needs, and the range of the first of them.
            let needs: Int
            var low: UInt8 = 0x80
            var high: UInt8 = 0xBF
            switch lead {
            case 0xC2...0xDF: needs = 1
            case 0xE0: (needs, low) = (2, 0xA0)
            case 0xE1...0xEC, 0xEE...0xEF: needs = 2
            case 0xED: (needs, high) = (2, 0x9F)
            case 0xF0: (needs, low) = (3, 0x90)
            case 0xF1...0xF3: needs = 3
            case 0xF4: (needs, high) = (3, 0x8F)
            default: return false
            }
            guard count - i > needs else { return false }
            let first = bytes[i + 1]
            guard first >= low, first <= high else { return false }
            var k = 2
            while k <= needs {
                guard bytes[i + k] & 0xC0 == 0x80 else { return false }
                k += 1
            }
            i += needs + 1
        }
        return true
    }
}
