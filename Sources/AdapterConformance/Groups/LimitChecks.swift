import Foundation
import ModelCore
import ModelQuery
import ModelSerialization

/// The edges of the value types and rows that do not fit the model: one rule on every
/// adapter (`Docs/Casting.md`, "Limits").
enum LimitChecks {
    static func limits(_ c: ConformanceChecker) throws {
        try nonFiniteValues(c)
        try negativeZero(c)
        try dateRange(c)
        try rowsThatDoNotFit(c)
    }

    /// NaN is refused before anything is written; ±infinity is stored and read back (or,
    /// with `.jsonValues`, refused with a ``SerializationError``).
    static func nonFiniteValues(_ c: ConformanceChecker) throws {
        let nan = ConformanceLimit()
        nan.ratio = .nan
        let error = c.expectThrows(CastError.self, "saving NaN") { try nan.save() }
        c.equal(error?.column, "ratio", "the NaN error names the column")
        c.expect(nan.isNew && nan.id == nil, "a record refused for NaN stays new")
        c.equal(try ConformanceLimit.count(), 0, "nothing stored for NaN")
        _ = c.expectThrows(CastError.self, "assigning NaN through the dynamic API") {
            try nan.set("ratio", to: .double(.nan))
        }

        for value in [Double.infinity, -Double.infinity] {
            let record = ConformanceLimit()
            record.ratio = value
            if c.limitations.contains(.jsonValues) {
                c.expectThrows(SerializationError.self, "saving \(value) as JSON") { try record.save() }
                c.expect(record.isNew, "a record refused for \(value) stays new")
                c.equal(try ConformanceLimit.count(), 0, "nothing stored for \(value)")
                continue
            }
            try record.save()
            c.equal(try ConformanceLimit.find(record.id ?? -1)?.ratio, value, "\(value) round-trips")
        }
        let kept = try ConformanceLimit.all()
        _ = c.expectThrows(CastError.self, "updateAll to NaN") {
            try ConformanceLimit.query().updateAll(["ratio": .double(.nan)])
        }
        c.equal(try ConformanceLimit.all().map(\.ratio), kept.map(\.ratio), "a refused updateAll changes nothing")
        try ConformanceLimit.deleteAll()
    }

    /// Negative zero is zero in a `Double` column, however it is given: SQLite keeps a
    /// `REAL` column's `-0.0` as `0`, so no adapter keeps the sign, and the record holds
    /// what its store reads back.
    static func negativeZero(_ c: ConformanceChecker) throws {
        let record = ConformanceLimit()
        record.ratio = 1
        try record.save()
        let id = record.id ?? -1
        record.ratio = -0.0
        c.equal(record.ratio.bitPattern, 0, "-0.0 assigned over 1.0 reads as 0.0")
        try record.save()
        c.equal(try ConformanceLimit.find(id)?.ratio.bitPattern, 0, "-0.0 assigned over 1.0 is stored as 0.0")

        try record.set("ratio", to: .double(2))
        try record.save()
        try record.set("ratio", to: .string("-0.0"))
        c.equal(record.ratio.bitPattern, 0, "\"-0.0\" set by name reads as 0.0")
        try record.save()
        c.equal(try ConformanceLimit.find(id)?.ratio.bitPattern, 0, "\"-0.0\" set by name is stored as 0.0")

        try ConformanceLimit.query().updateAll(["ratio": .double(3)])
        try ConformanceLimit.query().updateAll(["ratio": .double(-0.0)])
        c.equal(try ConformanceLimit.find(id)?.ratio.bitPattern, 0, "updateAll stores -0.0 as 0.0")
        let created = try ConformanceLimit.create(["ratio": .double(-0.0)])
        c.equal(created.ratio.bitPattern, 0, "create with -0.0 holds 0.0")
        c.equal(try ConformanceLimit.find(created.id ?? -1)?.ratio.bitPattern, 0, "create with -0.0 stores 0.0")
        try ConformanceLimit.deleteAll()
    }

    /// Dates from 0000-01-01 to 9999-12-31 are stored exactly; others are refused, also
    /// inside array columns.
    static func dateRange(_ c: ConformanceChecker) throws {
        let first = Date(timeIntervalSince1970: -62_167_219_200)
        let last = Date(timeIntervalSince1970: 253_402_300_799.5)
        for edge in [first, last] {
            let record = ConformanceLimit()
            record.when = edge
            record.stamps = [edge]
            try record.save()
            let back = try ConformanceLimit.find(record.id ?? -1)
            c.equal(back?.when, edge, "the date \(edge.timeIntervalSince1970) round-trips")
            c.equal(back?.stamps, [edge], "the date \(edge.timeIntervalSince1970) round-trips inside an array")
        }
        let outside: [Date] = [
            Date(timeIntervalSinceReferenceDate: 1e300), Date(timeIntervalSince1970: -62_167_219_201),
            Date(timeIntervalSince1970: 253_402_300_800), Date(timeIntervalSince1970: .infinity),
            Date(timeIntervalSince1970: .nan),
        ]
        let before = try ConformanceLimit.count()
        for date in outside {
            let record = ConformanceLimit()
            record.when = date
            let error = c.expectThrows(CastError.self, "saving the date \(date.timeIntervalSince1970)") { try record.save() }
            c.equal(error?.column, "when", "the date error names the column")
            let inArray = ConformanceLimit()
            inArray.stamps = [Date(timeIntervalSince1970: 0), date]
            _ = c.expectThrows(CastError.self, "saving the date \(date.timeIntervalSince1970) in an array") {
                try inArray.save()
            }
        }
        c.equal(try ConformanceLimit.count(), before, "no out-of-range date stored")
        try ConformanceLimit.deleteAll()
    }

    /// A row the model cannot hold, put in through the adapter's own API (as another
    /// tool would), is refused on the way in or is an ``InvalidStoredValue`` on the way
    /// out: never a silent `0` or `""`.
    static func rowsThatDoNotFit(_ c: ConformanceChecker) throws {
        let schema = ConformanceLimit.schema
        func row(small: ModelValue, required: ModelValue) -> [ModelValue] {
            [.null, small, required, .double(1), .date(Date(timeIntervalSince1970: 0)), .array([])]
        }
        let cases: [(String, [ModelValue], String)] = [
            ("an Int32 column holding 2^40", row(small: .int(1 << 40), required: "x"), "small"),
            ("NULL in a non-optional column", row(small: .int(1), required: .null), "required"),
            ("text in an integer column", row(small: "seven", required: "x"), "small"),
        ]
        for (what, values, column) in cases {
            if column == "required", c.limitations.contains(.omittedNulls) {
                c.skip("\(what): the store omits nulls, so it reads as the column's default (.omittedNulls)")
                continue
            }
            let id: ModelValue
            do {
                id = try c.store.insert(values, into: schema)
            } catch {
                c.expect(true, "\(what): refused by the adapter on insert")
                continue
            }
            let error = c.expectThrows(InvalidStoredValue.self, "\(what): reading it") {
                _ = try ConformanceLimit.find(id.intValue ?? -1)
            }
            c.equal(error?.column, column, "\(what): the error names the column")
            c.equal(error?.id, id, "\(what): the error names the row")
            c.equal(error?.table, schema.tableName, "\(what): the error names the table")
            let shared = error.map { $0 as any SwiftModelError }
            c.equal(shared?.columnName, column, "\(what): as SwiftModelError, the column")
            c.equal(shared?.tableName, schema.tableName, "\(what): as SwiftModelError, the table")
            c.equal(shared?.storeErrorKind, .invalidStoredValue, "\(what): as SwiftModelError, the kind")
            _ = c.expectThrows(InvalidStoredValue.self, "\(what): a query over it") { _ = try ConformanceLimit.all() }
            _ = try c.store.delete(id: id, from: schema)
        }
    }
}
