import ArrayAdapter
import Foundation
import Testing

/// The edges of the value types (`Docs/Casting.md`, "Limits"): one rule for casting,
/// saving and every adapter (the conformance group `limits` runs the adapter side).
@Suite("Value limits")
struct ValueLimitTests {
    static let int = CastTarget(.int), double = CastTarget(.double), date = CastTarget(.date)
    static let string = CastTarget(.string)

    @Test(arguments: [
        ModelValue.double(-0x1p63), .double(-0x1.0000000000001p63),
        .double(0x1p63), .string("-9223372036854775809"),
    ])
    func integersBelowAndAboveInt64AreCastErrors(_ value: ModelValue) {
        #expect(throws: CastError.self) { try Caster.cast(value, to: Self.int) }
    }

    @Test func int64ExtremesStillCast() throws {
        #expect(try Caster.cast(.int(.min), to: Self.int) == .int(.min))
        #expect(try Caster.cast("-9223372036854775808", to: Self.int) == .int(.min))
        #expect(try Caster.cast("9223372036854775807", to: Self.int) == .int(.max))
        #expect(try Caster.cast(.double(-0x1p62), to: Self.int) == .int(-(1 << 62)))
    }

    @Test func jsonNumbersBelowInt64MinAreRefusedOnImport() throws {
        for text in ["-9223372036854775809", "-9223372036854775808.5", "-1e19"] {
            let error = #expect(throws: SerializationError.self) {
                _ = try Limited(json: Data("{\"count\": \(text)}".utf8))
            }
            #expect(error?.kind == .typeMismatch, "\(text)")
            #expect(error.map { ($0 as any SwiftModelError).columnName?.contains("count") == true } == true, "\(text)")
        }
        let min = try Limited(json: Data("{\"count\": -9223372036854775808}".utf8))
        #expect(min.count == .min)
    }

    static let beyondDouble = ["1e400", "-1e400", "0.1e999999999999", "1e-400", "-2.5e-999", "1" + String(repeating: "0", count: 400)]

    @Test(arguments: beyondDouble)
    func numbersBeyondDoublesRangeAreErrorsNotInfinityOrZero(_ text: String) throws {
        #expect(throws: ModelJSON.SyntaxError.self) { try ModelJSON.parse(text) }
        #expect(throws: CastError.self) { try Caster.cast(.string(text), to: Self.double) }
        let store = ArrayAdapter()
        for column in ["ratio", "count"] {
            #expect(throws: SerializationError.self, "\(column): \(text)") {
                try Measured.importJSON(Data("[{\"\(column)\": \(text)}]".utf8), into: store)
            }
        }
        #expect(try Measured.count(in: store) == 0)
    }

    @Test func numbersAtDoublesEdgesStillRead() throws {
        let subnormal = try #require(Double("1e-310"))
        #expect(subnormal > 0)
        #expect(try ModelJSON.parse("1e-310") == .double(subnormal))  // subnormal, not zero
        #expect(try ModelJSON.parse("0e-400") == .double(0))
        #expect(try ModelJSON.parse("-0.000e99999") == .double(-0.0))
        #expect(try ModelJSON.parse("1.7976931348623157e308") == .double(.greatestFiniteMagnitude))
        #expect(try Caster.cast("4.9e-324", to: Self.double) == .double(.leastNonzeroMagnitude))
    }

    static let uuid = "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"

    @Test(arguments: [
        uuid + "\u{0}garbage", uuid + "\u{0}", " " + uuid, uuid + " ", "{" + uuid + "}", String(uuid.dropLast()),
        uuid.replacingOccurrences(of: "-", with: ""), "E621E1F8-C36C-495A-93FC-0C247A3E6E5G", "E621E1F8C-36C-495A-93FC-0C247A3E6E5F",
    ])
    func onlyCanonicalTextCastsToAUUID(_ text: String) throws {
        #expect(throws: CastError.self) { try Caster.cast(.string(text), to: CastTarget(.uuid)) }
        let record = Tagged()
        #expect(throws: (any Error).self) { try record.set(["token": .string(text)]) }
        #expect(record.token == nil)
        let store = ArrayAdapter()
        let json = try #require(String(data: JSONEncoder().encode([["token": text]]), encoding: .utf8))
        #expect(throws: SerializationError.self) { try Tagged.importJSON(Data(json.utf8), into: store) }
        #expect(try Tagged.count(in: store) == 0)
    }

    @Test func canonicalUUIDTextInEitherCaseCasts() throws {
        let expected = try #require(UUID(uuidString: Self.uuid))
        #expect(try Caster.cast(.string(Self.uuid), to: CastTarget(.uuid)) == .uuid(expected))
        #expect(try Caster.cast(.string(Self.uuid.lowercased()), to: CastTarget(.uuid)) == .uuid(expected))
    }

    @Test func nanIsRefusedInfinityIsAllowed() throws {
        #expect(throws: CastError.self) { try Caster.cast(.double(.nan), to: Self.double) }
        #expect(try Caster.cast(.double(.infinity), to: Self.double) == .double(.infinity))
        #expect(try Caster.cast(.double(-.infinity), to: CastTarget(.double, optional: true)) == .double(-.infinity))
        #expect(throws: CastError.self) { try Caster.cast(.array([1, .double(.nan)]), to: CastTarget(.array, elementType: .double)) }
    }

    @Test func datesOutsideTheRangeAreCastErrorsNeverTraps() throws {
        let far = Date(timeIntervalSinceReferenceDate: 1e300)
        for value: ModelValue in [
            .date(far), .date(Date(timeIntervalSince1970: .infinity)), .double(1e300), .int(.max), .int(.min), .double(-62_167_219_201), "0000-01-01T00:00:00+01:00",
        ] {
            #expect(throws: CastError.self, "\(value)") { try Caster.cast(value, to: Self.date) }
        }
        // A NaN date (kept out of #expect: Foundation's Date.description traps on it).
        let nanDate = ModelValue.date(Date(timeIntervalSince1970: .nan))
        var refused = false
        do { _ = try Caster.cast(nanDate, to: Self.date) } catch { refused = true }
        #expect(refused, "a NaN date is refused")
        // Casting a date into a string column formatted it as ISO 8601 and trapped.
        #expect(throws: CastError.self) { try Caster.cast(.date(far), to: Self.string) }
        #expect(try Caster.cast("9999-12-31T23:59:59.5Z", to: Self.date) == .date(Date(timeIntervalSince1970: 253_402_300_799.5)))
        #expect(try Caster.cast("0000-01-01", to: Self.date) == .date(ModelValue.dateRange.lowerBound))
        #expect(ModelValue.date(far).description.hasPrefix("<date"))
    }

    @Test func farDatesInRecordsAreRefusedOnSaveAndExport() throws {
        ModelStore.using(ArrayAdapter()) {
            let record = Limited()
            record.startsAt = Date(timeIntervalSinceReferenceDate: 1e300)
            let error = #expect(throws: CastError.self) { try record.save() }
            #expect(error?.model == "Limited" && error?.column == "starts_at")
            #expect(record.isNew)
            #expect(throws: SerializationError.self) { _ = try record.jsonData() }
            #expect(throws: SerializationError.self) { _ = try Limited(json: Data("{\"starts_at\": 1e308}".utf8)) }
            #expect(throws: SerializationError.self) { _ = try Limited(json: Data("{\"starts_at\": \"inf\"}".utf8)) }
        }
    }
}

final class Tagged: Model {
    @Column var token: UUID?
    init() {}
}

final class Measured: Model {
    @Column var ratio: Double = 0
    @Column var count: Int = 0
    init() {}
}

final class Limited: Model {
    @Column var count: Int64 = 0
    @Column var startsAt: Date?
    init() {}
}
