import AdapterConformance
@testable import ModelCore
import Testing

/// `UTF8Text` accepts exactly the well-formed UTF-8 the standard library's
/// `String(validating:as:)` accepts, and makes the same strings.
@Suite struct UTF8TextTests {
    private func same(_ bytes: [UInt8]) -> Bool {
        UTF8Text.string(bytes) == String(validating: bytes, as: UTF8.self)
    }

    @Test func theBoundariesOfEveryWellFormedSequence() {
        let valid: [[UInt8]] = [
            [], [0x00], [0x7F], Array("plain ascii".utf8), Array("naïve 東京 🚀".utf8),
            [0xC2, 0x80], [0xDF, 0xBF],  // two bytes
            [0xE0, 0xA0, 0x80], [0xEC, 0xBF, 0xBF], [0xED, 0x9F, 0xBF], [0xEE, 0x80, 0x80], [0xEF, 0xBF, 0xBF],
            [0xF0, 0x90, 0x80, 0x80], [0xF3, 0xBF, 0xBF, 0xBF], [0xF4, 0x8F, 0xBF, 0xBF],  // four bytes, up to U+10FFFF
        ]
        for bytes in valid {
            #expect(UTF8Text.string(bytes) != nil, "\(bytes)")
            #expect(same(bytes), "\(bytes)")
        }
        let invalid: [[UInt8]] = [
            [0x80], [0xBF], [0xC0, 0x80], [0xC1, 0xBF],  // stray continuation, overlong two-byte
            [0xE0, 0x80, 0x80], [0xE0, 0x9F, 0xBF],  // overlong three-byte
            [0xED, 0xA0, 0x80], [0xED, 0xBF, 0xBF],  // surrogates
            [0xF0, 0x80, 0x80, 0x80], [0xF0, 0x8F, 0xBF, 0xBF],  // overlong four-byte
            [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80], [0xFF],  // above U+10FFFF, never a lead byte
            [0xC2], [0xE1, 0x80], [0xF1, 0x80, 0x80], [0x61, 0xE1, 0x80],  // cut short
            [0xC2, 0x41], [0xE1, 0x80, 0x41], [0xF1, 0x80, 0x80, 0xC0],  // a non-continuation inside
        ]
        for bytes in invalid {
            #expect(UTF8Text.string(bytes) == nil, "\(bytes)")
            #expect(same(bytes), "\(bytes)")
        }
    }

    @Test func randomBytesAgreeWithTheStandardLibrary() {
        var random = SeededRandom(seed: 0x5EED_0008)
        // Bytes drawn mostly from the interesting ranges, so that many sequences are
        // almost well formed.
        let pool: [UInt8] = [0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xE1, 0xEC, 0xED, 0xEE, 0xEF, 0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xFF]
        var accepted = 0
        for _ in 0..<20_000 {
            let count = random.int(0...8)
            let bytes = (0..<count).map { _ in random.flip() ? random.pick(pool) : UInt8(truncatingIfNeeded: random.next()) }
            #expect(same(bytes), "\(bytes)")
            if UTF8Text.string(bytes) != nil { accepted += 1 }
        }
        #expect(accepted > 1_000, "the draw must include well-formed text too")
    }

    @Test func contiguousAndOtherCollectionsReadTheSame() {
        let bytes = Array("Grüße".utf8)
        #expect(UTF8Text.string(bytes) == "Grüße")
        #expect(UTF8Text.string(bytes.reversed().reversed()) == "Grüße")  // not contiguous storage
        #expect(UTF8Text.string(bytes.dropLast(2)) == nil)  // "ß" cut short
    }
}
