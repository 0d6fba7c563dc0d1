import ArrayAdapter
import Foundation
import ModelCore
import Testing

@Suite("Values")
struct ValueTests {
    /// The in-place comparison `_assign` and new-record baselines use answers exactly as
    /// `==` does, for every pair of a mixed set of values (signed zeros, NaN, equal strings
    /// in different storage, every kind).
    @Test func inPlaceEqualityIsEquality() {
        let long = String(repeating: "ü", count: 40)
        let values: [ModelValue] = [
            .null, .bool(true), .bool(false), .int(0), .int(1), .int(-1), .double(0), .double(-0.0), .double(1),
            .double(.nan), .double(.infinity), .date(Date(timeIntervalSinceReferenceDate: .nan)), .string(""), .string("a"), .string(long), .string(String(long.reversed().reversed())),
            .string("e\u{301}"), .string("\u{e9}"), .date(Date(timeIntervalSince1970: 0)), .date(Date(timeIntervalSince1970: 1)),
            .data(Data([1, 2])), .data(Data([1, 2])), .uuid(UUID(uuid: (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16))),
            .array([.int(1)]), .array([.double(1)]), .dictionary(["a": .null]), .dictionary([:]),
            // One storage holding a NaN: `==` on the same array or dictionary storage is true.
            .array([.double(.nan)]), .dictionary(["n": .double(.nan)]),
        ]
        var disagreements: [String] = []
        for a in values {
            for b in values {
                let inPlace = withUnsafePointer(to: a) { a in withUnsafePointer(to: b) { b in ModelValue.equal(a, b) } }
                if inPlace != (a == b) { disagreements.append("\(a.debugDescription) vs \(b.debugDescription)") }
            }
        }
        #expect(disagreements.isEmpty)
        // Rows of those values: `rowsEqual` is the rows' `==`.
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let count = Int.random(in: 1...6, using: &generator)
            let first = (0..<count).map { _ in values.randomElement(using: &generator) ?? .null }
            var second = first
            for k in second.indices where Bool.random(using: &generator) {
                second[k] = values.randomElement(using: &generator) ?? .null
            }
            if ModelValue.rowsEqual(first, second) != (first == second) {
                disagreements.append("rows \(first) vs \(second)")
            }
            // One slot of a row against a value: the slot's `==`, and false outside the row.
            let slot = Int.random(in: -1...count, using: &generator)
            let value = values.randomElement(using: &generator) ?? .null
            let expected = first.indices.contains(slot) && first[slot] == value
            if ModelValue.row(first, at: slot, equals: value) != expected {
                disagreements.append("slot \(slot) of \(first) vs \(value)")
            }
        }
        #expect(disagreements.isEmpty)
    }

    @Test(arguments: [
        "[]", "{}", "[1,-2,3.5,true,false,null,\"x\"]", "{\"a\":{\"b\":[1,{\"c\":\"\\\"q\\\"\"}]}}",
        "[\"tab\\tnew\\nline\\u0001\"]", "[9223372036854775807,-9223372036854775808]", "[1e+20]",
    ])
    func jsonRoundTrips(text: String) throws {
        let value = try ModelJSON.parse(text)
        #expect(try ModelJSON.parse(ModelJSON.serialize(value)) == value)
    }

    @Test func jsonTextIsExactlyTheCanonicalForm() {
        let value: ModelValue = .dictionary([
            "b": .array([.int(.min), .int(0), .int(-7), .int(.max), .double(1.5), .bool(true), .bool(false), .null]),
            "a": .string("q\"\\\n\r\t\u{1}\u{1F}é😀/ end"), "": .string(""),
        ])
        let expected =
            #"{"":"","a":"q\"\\\n\r\t\u0001\u001fé😀/ end","b":[-9223372036854775808,0,-7,9223372036854775807,1.5,true,false,null]}"#
        #expect(ModelJSON.serialize(value) == expected)
        #expect(ModelJSON.serializedBytes(value) == Array(expected.utf8))
    }

    @Test func jsonKeepsIntegersAndDoublesApart() throws {
        #expect(try ModelJSON.parse("[1, 1.0, 1e2, \"\\ud83d\\ude00\"]") == [1, 1.0, 100.0, "😀"])
    }

    @Test(arguments: ["", "[", "[1,]", "{\"a\" 1}", "01", "[\"\\x\"]", "nul", "[1] 2", "\"\\ud83d\""])
    func malformedJSONIsRejected(text: String) {
        #expect(throws: ModelJSON.SyntaxError.self) { try ModelJSON.parse(text) }
    }

    @Test func deepNestingIsRejectedNotACrash() {
        let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        #expect(throws: ModelJSON.SyntaxError.self) { try ModelJSON.parse(deep) }
    }

    @Test func comparisonAcrossNumericKinds() {
        #expect(ModelValue.int(2).compare(to: .double(2.0)) == .orderedSame)
        #expect(ModelValue.int(2).compare(to: .double(2.5)) == .orderedAscending)
        #expect(ModelValue.double(-0.5).compare(to: .int(0)) == .orderedAscending)
        #expect(ModelValue.int(.max).compare(to: .double(9.3e18)) == .orderedAscending)
        #expect(ModelValue.int(.max).compare(to: .double(9.223372036854775807e18)) == .orderedAscending)
        #expect(ModelValue.string("a").compare(to: .int(1)) == nil)
        #expect(ModelValue.null.compare(to: .null) == nil)
    }

    @Test func sortOrderIsTotal() {
        let values: [ModelValue] = ["b", 2, nil, .date(Date(timeIntervalSince1970: 0)), 1.5, "B", true, [1]]
        let sorted = values.sorted { $0.sortCompare(to: $1) == .orderedAscending }
        #expect(sorted == [nil, true, 1.5, 2, "B", "b", .date(Date(timeIntervalSince1970: 0)), [1]])
    }

    @Test func datesFormatWithUpToMicroseconds() {
        #expect(DateCodec.iso8601String(Date(timeIntervalSince1970: 0)) == "1970-01-01T00:00:00Z")
        #expect(DateCodec.iso8601String(Date(timeIntervalSince1970: -1.5)) == "1969-12-31T23:59:58.5Z".replacingOccurrences(of: ".5Z", with: ".500Z"))
        #expect(DateCodec.iso8601String(Date(timeIntervalSince1970: 951_782_400)) == "2000-02-29T00:00:00Z")
        #expect(DateCodec.iso8601String(Date(timeIntervalSince1970: 1.000_001)) == "1970-01-01T00:00:01.000001Z")
        #expect(DateCodec.iso8601String(Date(timeIntervalSince1970: 1.25)) == "1970-01-01T00:00:01.250Z")
        #expect(DateCodec.iso8601Milliseconds(Date(timeIntervalSince1970: 0)) == "1970-01-01T00:00:00.000Z")
        #expect(DateCodec.iso8601Milliseconds(Date(timeIntervalSince1970: 0.123_4)) == "1970-01-01T00:00:00.1234Z")
        // Years before 1000 keep four digits.
        #expect(DateCodec.iso8601String(Date(timeIntervalSince1970: -62_135_596_800 + 86_400 * 365)) == "0002-01-01T00:00:00Z")
    }

    @Test func datesFormatAsFoundationsISO8601FormatterDoes() {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let seconds = Double(Int.random(in: -2_000_000_000...4_000_000_000, using: &generator))
            let date = Date(timeIntervalSince1970: seconds)
            #expect(DateCodec.iso8601String(date) == formatter.string(from: date))
            #expect(DateCodec.iso8601Milliseconds(date) == formatter.string(from: date).replacing("Z", with: ".000Z"))
        }
    }
}
