import Foundation
import SQLiteAdapter
import Synchronization
import Testing

/// A table the model maps but another tool wrote: what does not fit the model is a typed
/// error naming table, row, column and value, in every build (it used to trap in debug
/// and read as 0 or "" in release).
@Suite struct SQLiteForeignRowTests {
    final class Meter: Model {
        static var tableName: String { "meters" }
        @Column var reading: Int32 = 0
        @Column var label: String = ""
        @Column var taken: Date?
        init() {}
    }

    /// The table as the sqlite3 tool might have made it: no NOT NULL, any value anywhere.
    private func foreignStore() throws -> SQLiteAdapter {
        let store = try SQLiteAdapter()
        try store.execute(#"CREATE TABLE "meters" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "reading" INTEGER, "label" TEXT, "taken" REAL)"#)
        try store.execute(#"INSERT INTO "meters" ("id", "reading", "label", "taken") VALUES (1, 7, 'ok', NULL)"#)
        return store
    }

    @Test func anIntegerOutOfTheInt32RangeIsATypedError() throws {
        let store = try foreignStore()
        try store.execute(#"INSERT INTO "meters" ("id", "reading", "label") VALUES (2, ?, 'big')"#, [.int(1 << 40)])
        let error = #expect(throws: InvalidStoredValue.self) { _ = try Meter.find(2, in: store) }
        #expect(error?.table == "meters" && error?.id == .int(2) && error?.column == "reading" && error?.value == .int(1 << 40))
        #expect(error?.description.contains("1099511627776") == true)
        #expect(throws: InvalidStoredValue.self) { _ = try Meter.all(in: store) }
        #expect(throws: InvalidStoredValue.self) { _ = try Meter.fetch(sql: #"SELECT * FROM "meters""#, in: store) }
        #expect(try Meter.find(1, in: store)?.reading == 7, "the rows that fit still read")
    }

    /// `Meter`, counting the records made and ended.
    final class CountedMeter: Model {
        static var tableName: String { "meters" }
        static let made = Atomic<Int>(0)
        static let ended = Atomic<Int>(0)
        @Column var reading: Int32 = 0
        @Column var label: String = ""
        @Column var taken: Date?
        init() { Self.made.add(1, ordering: .relaxed) }
        deinit { Self.ended.add(1, ordering: .relaxed) }
    }

    /// A fetch fills its array in place; one that stops at a row that does not fit
    /// releases the records it made for the rows before it.
    @Test func aFetchStoppedByARowThatDoesNotFitEndsTheRecordsItMade() throws {
        let store = try foreignStore()
        try store.execute(#"INSERT INTO "meters" ("id", "reading", "label") VALUES (2, 2, NULL)"#)
        _ = try CountedMeter.find(1, in: store)  // the schema, and anything it keeps, made first
        let (made, ended) = (CountedMeter.made.load(ordering: .relaxed), CountedMeter.ended.load(ordering: .relaxed))
        #expect(throws: InvalidStoredValue.self) { _ = try CountedMeter.all(in: store) }
        #expect(CountedMeter.made.load(ordering: .relaxed) - made == 1, "the first row became a record")
        #expect(CountedMeter.ended.load(ordering: .relaxed) - ended == 1, "and it ended with the fetch")

        // The same inside a context, whose records are its instances (held weakly).
        let context = ModelContext()
        let (madeInContext, endedInContext) = (CountedMeter.made.load(ordering: .relaxed), CountedMeter.ended.load(ordering: .relaxed))
        context.run {
            #expect(throws: InvalidStoredValue.self) { _ = try CountedMeter.all(in: store) }
        }
        #expect(CountedMeter.made.load(ordering: .relaxed) - madeInContext == 1)
        #expect(CountedMeter.ended.load(ordering: .relaxed) - endedInContext == 1)
    }

    @Test func nullInANonOptionalColumnIsATypedError() throws {
        let store = try foreignStore()
        try store.execute(#"INSERT INTO "meters" ("id", "reading", "label") VALUES (3, 1, NULL)"#)
        let error = #expect(throws: InvalidStoredValue.self) { _ = try Meter.find(3, in: store) }
        #expect(error?.column == "label" && error?.value == .null && error?.id == .int(3))
        #expect(throws: InvalidStoredValue.self) { _ = try Meter.query(in: store).order(by: \.label).all() }
    }

    @Test func textThatIsNotANumberOrADateFarOutIsATypedError() throws {
        let store = try foreignStore()
        try store.execute(#"INSERT INTO "meters" ("id", "reading", "label") VALUES (4, 'seven', 'x')"#)
        try store.execute(#"INSERT INTO "meters" ("id", "reading", "label", "taken") VALUES (5, 1, 'x', 1e300)"#)
        let text = #expect(throws: InvalidStoredValue.self) { _ = try Meter.find(4, in: store) }
        #expect(text?.table == "meters" && text?.id == .int(4) && text?.column == "reading" && text?.value == "seven")
        let far = #expect(throws: InvalidStoredValue.self) { _ = try Meter.find(5, in: store) }
        #expect(far?.column == "taken")
    }

    /// What another tool may store that still fits: an integer where the model has a
    /// `Date` (seconds), text holding a NUL byte or several-byte characters, empty text.
    /// Each reads whole, through the same path as the rows the adapter wrote.
    @Test func storageClassesThatFitReadWhole() throws {
        let store = try foreignStore()
        try store.execute(#"INSERT INTO "meters" ("id", "reading", "label", "taken") VALUES (6, 3, CAST(x'610062' AS TEXT), 86400)"#)
        try store.execute(#"INSERT INTO "meters" ("id", "reading", "label", "taken") VALUES (7, -2, 'naïve ☃ 🌍', 0.5)"#)
        try store.execute(#"INSERT INTO "meters" ("id", "reading", "label", "taken") VALUES (8, 0, '', NULL)"#)
        let nul = try #require(try Meter.find(6, in: store))
        #expect(nul.label == "a\u{0}b" && nul.label.utf8.count == 3 && nul.reading == 3)
        #expect(nul.taken == Date(timeIntervalSinceReferenceDate: 86400))
        let wide = try #require(try Meter.find(7, in: store))
        #expect(wide.label == "naïve ☃ 🌍" && wide.reading == -2 && wide.taken == Date(timeIntervalSinceReferenceDate: 0.5))
        let empty = try #require(try Meter.find(8, in: store))
        #expect(empty.label == "" && empty.taken == nil)
        let all = try Meter.all(in: store).map(\.label)
        #expect(all == ["ok", "a\u{0}b", "naïve ☃ 🌍", ""])
    }
}
