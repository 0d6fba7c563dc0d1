import Foundation
import PostgresAdapter
import TestSupport
import Testing

/// Date storage on PostgreSQL: `timestamptz` by default, or a column's (or the store's)
/// `DateStorage`: what is written, what reads back, and that SQL comparisons, ordering,
/// batch updates and aggregates use the column's storage — as on SQLite.
@Suite(.enabled(if: PostgresTestServer.isAvailable, PostgresTestServer.skipReason))
struct PostgresDateStorageTests {
    final class PgEvent: Model {
        static let tableName = "events"
        @Column var name: String = ""
        @Column var stamp: Date?
        @Column(options: .dateStorage(.secondsSinceReferenceDate)) var reference: Date?
        @Column(options: .dateStorage(.secondsSince1970)) var unix: Date?
        @Column(options: .dateStorage(.millisecondsSince1970)) var millis: Date?
        @Column(options: [.indexed, .dateStorage(.text)]) var text: Date?
        init() {}
    }

    static let instants = DateStorageSamples.instants

    private func seeded() throws -> PostgresAdapter {
        let store = try PostgresTestServer.store()
        for (k, date) in Self.instants.enumerated() {
            try PgEvent.create(
                ["name": "e\(k)", "stamp": date, "reference": date, "unix": date, "millis": date, "text": date], in: store)
        }
        return store
    }

    @Test func eachColumnIsWrittenInItsStorage() throws {
        let store = try seeded()
        defer { try? store.close() }
        let types = try store.rows(
            "SELECT column_name::text, data_type::text FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'events'")
        let byName = Dictionary(uniqueKeysWithValues: types.map { ($0[0], $0[1]) })
        #expect(byName[.string("stamp")] == .string("timestamp with time zone"))
        #expect(byName[.string("reference")] == .string("double precision"))
        #expect(byName[.string("unix")] == .string("double precision"))
        #expect(byName[.string("millis")] == .string("bigint"))
        #expect(byName[.string("text")] == .string("text"))
        let row = try #require(try store.rows("SELECT reference, unix, millis, text FROM events WHERE name = 'e0'").first)
        #expect(row[0] == .double(Self.instants[0].timeIntervalSinceReferenceDate))
        #expect(row[1] == .double(1_335_205_543.511))
        #expect(row[2] == .int(1_335_205_543_511))
        #expect(row[3] == "2012-04-23 18:25:43.511")
        // PostgreSQL's own functions read the text and Unix forms as the same instant.
        let same = try store.rows("SELECT text::timestamp = to_timestamp(unix) AT TIME ZONE 'UTC' FROM events WHERE name = 'e2'")
        #expect(same.first?[0] == .bool(true))
    }

    @Test func datesReadBackToTheStoragePrecision() throws {
        let store = try seeded()
        defer { try? store.close() }
        for (k, date) in Self.instants.enumerated() {
            let event = try #require(try PgEvent.where(\.name == "e\(k)").using(store).first())
            #expect(event.reference == date, "reference seconds are exact")
            #expect(abs((event.stamp ?? .distantPast).timeIntervalSince(date)) <= 0.000_001, "timestamptz: to the microsecond")
            #expect(abs((event.unix ?? .distantPast).timeIntervalSince(date)) < 1e-5)
            #expect(abs((event.millis ?? .distantPast).timeIntervalSince(date)) <= 0.0005)
            #expect(abs((event.text ?? .distantPast).timeIntervalSince(date)) <= 0.0005)
        }
    }

    @Test(arguments: ["stamp", "reference", "unix", "millis", "text"])
    func queriesCompareAndOrderInTheColumnsStorage(column: String) throws {
        let store = try seeded()
        defer { try? store.close() }
        let cutoff = Date(timeIntervalSince1970: 1_400_000_000)
        #expect(try PgEvent.where(column).lt(cutoff).using(store).order(by: "name").pluck(\.name) == ["e0", "e1"])
        #expect(try PgEvent.where(column).gte(cutoff).using(store).count() == 2)
        #expect(try PgEvent.where(column).between(Date(timeIntervalSince1970: 0), cutoff).using(store).pluck(\.name) == ["e0"])
        #expect(try PgEvent.where(column).in([Self.instants[2]]).using(store).pluck(\.name) == ["e2"])
        #expect(try PgEvent.query(in: store).order(by: column, .descending).pluck(\.name) == ["e3", "e2", "e0", "e1"])
        guard case .date(let earliest) = try PgEvent.query(in: store).min(column) else {
            Issue.record("min(\(column)) is not a date")
            return
        }
        #expect(abs(earliest.timeIntervalSince(Self.instants[1])) <= 0.0005)
        let moved = Date(timeIntervalSince1970: 1_500_000_000)
        #expect(try PgEvent.where(column).lt(cutoff).using(store).updateAll([column: moved]) == 2)
        #expect(try PgEvent.where(column).eq(moved).using(store).count() == 2, "updateAll wrote the storage queries compare with")
    }

    @Test func theStoreDefaultAppliesToColumnsWithoutTheirOwn() throws {
        final class PgNote: Model {
            static let tableName = "notes"
            @Column var at: Date?
            @Column(options: .dateStorage(.secondsSinceReferenceDate)) var exact: Date?
            init() {}
        }
        let store = try PostgresTestServer.store { $0.dateStorage = .millisecondsSince1970 }
        defer { try? store.close() }
        let date = Date(timeIntervalSince1970: 1_000.25)
        try PgNote.create(["at": date, "exact": date], in: store)
        let row = try #require(try store.rows("SELECT at, exact FROM notes").first)
        #expect(row[0] == .int(1_000_250) && row[1] == .double(date.timeIntervalSinceReferenceDate))
        #expect(try PgNote.where(\.at == date).using(store).count() == 1)
    }
}
